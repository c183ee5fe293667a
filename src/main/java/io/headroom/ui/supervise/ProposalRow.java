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
 * @param gone       null while the proposal is pending; once it is not (approved, rejected, withdrawn, expired) but
 *                   its card stays where it was under the operator's attention, what became of it, in words
 */
public record ProposalRow(String id, String className, int from, int to, Instant createdAt, Instant expiresAt,
                          String explanation, List<String> reasons, boolean largeScaleDown, Instant floorFrom,
                          Instant floorUntil, String gone) {

    public ProposalRow(String id, String className, int from, int to, Instant createdAt, Instant expiresAt,
                       String explanation, List<String> reasons, boolean largeScaleDown) {
        this(id, className, from, to, createdAt, expiresAt, explanation, reasons, largeScaleDown, null, null, null);
    }

    static ProposalRow of(Proposal p) {
        return new ProposalRow(p.id(), p.className(), p.from(), p.to(), p.createdAt(), p.expiresAt(),
                p.explanation(), p.reasons().stream().map(Reason::toString).toList(), p.largeScaleDown(),
                p.floor() == null ? null : p.floor().from(), p.floor() == null ? null : p.floor().until(), null);
    }

    /** This card as it stays once its proposal is no longer pending: {@code why} says what became of it. */
    ProposalRow goneAs(String why) {
        return new ProposalRow(id, className, from, to, createdAt, expiresAt, explanation, reasons, largeScaleDown,
                floorFrom, floorUntil, why);
    }

    /** Whether the proposal is still pending (its card can be acted on). */
    public boolean pending() {
        return gone == null;
    }

    public boolean up() {
        return to > from;
    }

    /** A predictive proposal: approved, the class holds at least {@code to} replicas from its floor's start. */
    public boolean forecast() {
        return floorFrom != null;
    }
}
