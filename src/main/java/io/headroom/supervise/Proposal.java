package io.headroom.supervise;

import io.headroom.decision.ForecastFloor;
import io.headroom.decision.Reason;
import java.time.Instant;
import java.util.List;

/**
 * A change the loop wants for one class, waiting for the operator. A newer decision for the
 * same class revises it (same id) instead of stacking a second one. Its reasons are the decision's own
 * (a code and its detail), not their words.
 *
 * <p>A predictive proposal (issue 29) is one too, with its {@code floor}: approved, the class holds at least
 * {@code to} replicas from the floor's start until its end; nothing is scaled by the approval itself, the decision
 * rises to the floor when it is due. It expires when the forecast rise it is for is due.
 *
 * @param floor the forecast floor proposed, or null for a change of replicas
 */
public record Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                       Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons,
                       ForecastFloor floor) {
    public Proposal {
        reasons = List.copyOf(reasons);
    }

    /** A change of replicas. */
    public Proposal(String id, String className, String context, int from, int to, Instant createdAt,
                    Instant revisedAt, Instant expiresAt, String explanation, List<Reason> reasons) {
        this(id, className, context, from, to, createdAt, revisedAt, expiresAt, explanation, reasons, null);
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
