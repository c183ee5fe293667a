package io.headroom.drain;

import io.headroom.cluster.WorkloadRef;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One drain, as data: which workload, from how many replicas to how many, which pods and how they
 * are doing, the deadline, and where it is. Immutable; {@link DrainStep} makes the next one.
 *
 * @param noticeGrace how long after marking a worker may still take a job (it has not seen its mark
 *                    yet, e.g. a downward-API volume syncs within about a minute) and a metric may
 *                    still describe the time before: "idle" counts only when seen after it
 * @param idleSince   the first look, after the grace, at which every marked pod was idle; null otherwise
 * @param scaledAt    when replicas were lowered; null before
 * @param detail      the last thing that happened, in a sentence (the end state's reason once ended)
 * @param endedAt     null while running
 * @param replace     for a replace drain of a hung pod ({@link ReplaceStep}: replicas end where they were, the
 *                    pod is evicted without waiting for its jobs); null for a drain that waits for the jobs
 * @param scaledFrom  the workload's version the drain's own scale (lowering replicas; a replacement's one more)
 *                    is conditioned on: a later read of it or an older one has not seen that write; null before
 */
public record Drain(String id, String className, WorkloadRef target, int from, int to, List<DrainPod> pods,
                    Instant startedAt, Instant deadline, java.time.Duration noticeGrace, Instant idleSince,
                    Instant scaledAt, DrainPhase phase, String detail, Instant endedAt, Replacement replace,
                    WorkloadVersion scaledFrom) {

    public Drain {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(target, "target");
        pods = List.copyOf(pods);
        Objects.requireNonNull(noticeGrace, "noticeGrace");
        if (replace == null ? to >= from || to < 0 : to != from) {
            throw new IllegalArgumentException((replace == null ? "a drain lowers replicas: "
                    : "a replacement keeps replicas: ") + from + " → " + to);
        }
    }

    /** A drain that waits for its pods' jobs (not a replacement). */
    public Drain(String id, String className, WorkloadRef target, int from, int to, List<DrainPod> pods,
                 Instant startedAt, Instant deadline, java.time.Duration noticeGrace, Instant idleSince,
                 Instant scaledAt, DrainPhase phase, String detail, Instant endedAt) {
        this(id, className, target, from, to, pods, startedAt, deadline, noticeGrace, idleSince, scaledAt, phase,
                detail, endedAt, null, null);
    }

    /** "4 → 3" for a drain; "replacing pod-x" for a replacement (replicas end where they were). */
    public String change() {
        return replace == null ? from + " → " + to : "replacing " + replace.pod();
    }

    /**
     * Whether the operator (or a freeze) can still call it off: not once replicas were lowered, nor once a
     * replacement's eviction was accepted.
     */
    public boolean cancellable() {
        return active() && phase != DrainPhase.SCALING && (replace == null || !replace.evicted());
    }

    public List<String> podNames() {
        return pods.stream().map(DrainPod::name).toList();
    }

    /** Pods still holding work, as "name (2 in flight)". */
    public List<String> busy() {
        return pods.stream().filter(p -> !p.idle())
                .map(p -> p.name() + " (" + (Double.isNaN(p.inFlight()) ? "in flight unknown"
                        : DrainPlanner.jobs(p.inFlight()) + " in flight") + ")").toList();
    }

    /** The same drain with more said in its detail (e.g. marks that could not be removed). */
    public Drain noting(String more) {
        return new Drain(id, className, target, from, to, pods, startedAt, deadline, noticeGrace, idleSince, scaledAt,
                phase, detail + more, endedAt, replace, scaledFrom);
    }

    /**
     * When this drain's marks may be cleared by any console: after the deadline, the time a scale-down
     * may still take ({@link DrainStep#REMOVAL_PATIENCE}) and a grace for ticks and clocks that disagree.
     * A live drain has ended before its marks expire.
     */
    public Instant marksExpireAt() {
        return deadline.plus(DrainStep.REMOVAL_PATIENCE).plus(io.headroom.cluster.PodMarks.EXPIRY_GRACE);
    }

    /** True while the drain runs (not yet in an end state). */
    public boolean active() {
        return !phase.ended();
    }

    Drain with(DrainPhase next, List<DrainPod> nextPods, String why, Instant now) {
        return new Drain(id, className, target, from, to, nextPods, startedAt, deadline, noticeGrace,
                next == DrainPhase.WAITING ? idleSince : null, scaledAt, next, why, next.ended() ? now : null, replace,
                scaledFrom);
    }

    Drain idleSince(Instant t) {
        return new Drain(id, className, target, from, to, pods, startedAt, deadline, noticeGrace, t, scaledAt, phase,
                detail, endedAt, replace, scaledFrom);
    }

    Drain scaledAt(Instant t) {
        return new Drain(id, className, target, from, to, pods, startedAt, deadline, noticeGrace, idleSince, t, phase,
                detail, endedAt, replace, scaledFrom);
    }

    Drain replacing(Replacement r) {
        return new Drain(id, className, target, from, to, pods, startedAt, deadline, noticeGrace, idleSince, scaledAt,
                phase, detail, endedAt, r, scaledFrom);
    }

    /** The same drain, its own scale conditioned on version {@code v} (null: keep the one it has). */
    Drain scaledFrom(WorkloadVersion v) {
        return v == null ? this : new Drain(id, className, target, from, to, pods, startedAt, deadline, noticeGrace,
                idleSince, scaledAt, phase, detail, endedAt, replace, v);
    }
}
