package io.headroom.ui.supervise;

import io.headroom.decision.Reason;
import io.headroom.supervise.Proposal;
import java.time.Instant;
import java.util.List;

/** One inbox entry, as the view shows it. */
public record ProposalRow(String id, String className, int from, int to, Instant createdAt, Instant expiresAt,
                          String explanation, List<String> reasons, boolean largeScaleDown) {

    static ProposalRow of(Proposal p) {
        return new ProposalRow(p.id(), p.className(), p.from(), p.to(), p.createdAt(), p.expiresAt(),
                p.explanation(), p.reasons().stream().map(Reason::toString).toList(), p.largeScaleDown());
    }

    public boolean up() {
        return to > from;
    }
}
