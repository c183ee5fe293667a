package io.headroom.supervise;

import io.headroom.decision.Reason;
import io.headroom.loop.PoolPlacement;
import java.time.Instant;
import java.util.List;

/**
 * A change the loop wants for one class, waiting for the operator. A newer decision for the
 * same class revises it (same id) instead of stacking a second one. Its reasons are the decision's own
 * (a code and its detail), not their words. For a class placed across pools (decision 0029), {@code pools}
 * lists each pool's change (from and to are their sums, probe pods included); approving applies them all,
 * each write journaled. Empty for a class with one pool.
 */
public record Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                       Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons,
                       List<PoolPlacement.PoolChange> pools) {
    public Proposal {
        reasons = List.copyOf(reasons);
        pools = pools == null ? List.of() : List.copyOf(pools);
    }

    /** A proposal for a class with one pool. */
    public Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                    Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons) {
        this(id, className, context, from, to, createdAt, revisedAt, expiresAt, explanation, reasons, null);
    }

    /** Whether the same pools move the same way (a pooled class's change is more than its sums). */
    public boolean samePools(List<PoolPlacement.PoolChange> other) {
        if (pools.size() != other.size()) {
            return false;
        }
        for (int i = 0; i < pools.size(); i++) {
            PoolPlacement.PoolChange a = pools.get(i);
            PoolPlacement.PoolChange b = other.get(i);
            if (!a.pool().equals(b.pool()) || a.from() != b.from() || a.to() != b.to()) {
                return false;
            }
        }
        return true;
    }

    public boolean expiredAt(Instant now) {
        return !now.isBefore(expiresAt);
    }

    /** Scale-downs that remove more than half the replicas ask for a confirmation. */
    public boolean largeScaleDown() {
        return to < from && from - to >= 2 && to * 2 < from;
    }
}
