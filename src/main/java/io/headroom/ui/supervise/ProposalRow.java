package io.headroom.ui.supervise;

import io.headroom.decision.Reason;
import io.headroom.supervise.Proposal;
import java.time.Instant;
import java.util.List;

/**
 * One inbox entry, as the view shows it.
 *
 * @param floorFrom  for a predictive proposal (issue 29), when its floor starts; null for a change of replicas
 * @param floorUntil for a predictive proposal, when its floor ends; null for a change of replicas
 */
public record ProposalRow(String id, String className, int from, int to, Instant createdAt, Instant expiresAt,
                          String explanation, List<String> reasons, boolean largeScaleDown, Instant floorFrom,
                          Instant floorUntil) {

    public ProposalRow(String id, String className, int from, int to, Instant createdAt, Instant expiresAt,
                       String explanation, List<String> reasons, boolean largeScaleDown) {
        this(id, className, from, to, createdAt, expiresAt, explanation, reasons, largeScaleDown, null, null);
    }

    static ProposalRow of(Proposal p) {
        return new ProposalRow(p.id(), p.className(), p.from(), p.to(), p.createdAt(), p.expiresAt(),
                p.explanation(), p.reasons().stream().map(Reason::toString).toList(), p.largeScaleDown(),
                p.floor() == null ? null : p.floor().from(), p.floor() == null ? null : p.floor().until());
    }

    public boolean up() {
        return to > from;
    }

    /** A predictive proposal: approved, the class holds at least {@code to} replicas from its floor's start. */
    public boolean forecast() {
        return floorFrom != null;
    }
}
