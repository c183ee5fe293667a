package io.headroom.supervise;

import io.headroom.decision.ForecastFloor;
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
 *
 * <p>A predictive proposal (issue 29) is one too, with its {@code floor}: approved, the class holds at least
 * {@code to} replicas from the floor's start until its end; nothing is scaled by the approval itself, the decision
 * rises to the floor when it is due. It expires when the forecast rise it is for is due.
 *
 * @param floor the forecast floor proposed, or null for a change of replicas
 */
public record Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                       Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons,
                       List<PoolPlacement.PoolChange> pools, ForecastFloor floor) {
    public Proposal {
        reasons = List.copyOf(reasons);
        pools = pools == null ? List.of() : List.copyOf(pools);
    }

    /** A change of replicas of a class with one pool. */
    public Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                    Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons) {
        this(id, className, context, from, to, createdAt, revisedAt, expiresAt, explanation, reasons,
                (List<PoolPlacement.PoolChange>) null, null);
    }

    /** A change of replicas across a class's pools. */
    public Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                    Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons,
                    List<PoolPlacement.PoolChange> pools) {
        this(id, className, context, from, to, createdAt, revisedAt, expiresAt, explanation, reasons, pools, null);
    }

    /** A forecast floor for a class (one pool's count or the pools' sum: the decision places it). */
    public Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                    Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons,
                    ForecastFloor floor) {
        this(id, className, context, from, to, createdAt, revisedAt, expiresAt, explanation, reasons,
                (List<PoolPlacement.PoolChange>) null, floor);
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

    /** Whether this proposes a forecast floor rather than a change of replicas. */
    public boolean forecast() {
        return floor != null;
    }

    /** Scale-downs that remove more than half the replicas ask for a confirmation. */
    public boolean largeScaleDown() {
        return floor == null && to < from && from - to >= 2 && to * 2 < from;
    }
}
