package io.headroom.supervise;

import io.headroom.decision.Reason;
import java.time.Instant;
import java.util.List;

/**
 * A change the loop wants for one class, waiting for the operator. A newer decision for the
 * same class revises it (same id) instead of stacking a second one. Its reasons are the decision's own
 * (a code and its detail), not their words.
 */
public record Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                       Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons) {
    public Proposal {
        reasons = List.copyOf(reasons);
    }

    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }

    /** Scale-downs that remove more than half the replicas ask for a confirmation. */
    public boolean largeScaleDown() {
        return to < from && from - to >= 2 && to * 2 < from;
    }
}
