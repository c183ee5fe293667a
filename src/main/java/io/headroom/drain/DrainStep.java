package io.headroom.drain;

import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A drain's transitions, as pure functions: given the drain, what happened or what the cluster
 * looks like now, and the time, the next drain and the actions to carry out. Nothing here talks to
 * a cluster; the supervisor carries the actions out and feeds their results back.
 */
public final class DrainStep {

    /**
     * How long after lowering replicas a drain waits for the marked pods to go, and for a cluster view that has
     * not seen its write ({@link WorkloadVersion}) to catch up.
     */
    public static final Duration REMOVAL_PATIENCE = Duration.ofMinutes(2);

    private DrainStep() {
    }

    /** The next state and what to do. */
    public record Step(Drain drain, List<DrainAction> actions) {
        public Step {
            actions = List.copyOf(actions);
        }

        static Step stay(Drain d) {
            return new Step(d, List.of());
        }
    }

    /** After the marks were set (or not). */
    public static Step marked(Drain d, PodMarks.Result r, Instant now) {
        if (d.phase() != DrainPhase.MARKING) {
            return Step.stay(d);
        }
        if (!r.ok()) {
            // Unmark every pod asked for: a request that failed on our side may still have landed.
            return end(d, DrainPhase.FAILED, d.pods(), "could not mark " + String.join("; ", r.failed())
                    + (r.done().isEmpty() ? "" : "; marks removed again from " + String.join(", ", r.done())),
                    d.podNames(), now);
        }
        return new Step(d.with(DrainPhase.WAITING, d.pods(), "marked " + String.join(", ", r.done())
                + "; waiting for their jobs to finish", now), List.of());
    }

    /** A look at the workload and the jobs in flight per pod; {@code w} null when it could not be read. */
    public static Step observe(Drain d, WorkloadState w, Map<String, Double> inFlight, Instant now) {
        if (d.replace() != null) {
            return ReplaceStep.observe(d, w, inFlight, now);
        }
        return switch (d.phase()) {
            case WAITING -> waiting(d, w, inFlight, now);
            case SCALING -> scaling(d, w, now);
            default -> Step.stay(d);
        };
    }

    private static Step waiting(Drain d, WorkloadState w, Map<String, Double> inFlight, Instant now) {
        if (w == null) {
            return now.isBefore(d.deadline()) ? Step.stay(d)
                    : end(d, DrainPhase.TIMED_OUT, d.pods(), "the workload could not be read before the deadline;"
                    + " nothing scaled, marks removed", d.podNames(), now);
        }
        if (w.specReplicas() != d.from()) {
            return end(d, DrainPhase.INTERRUPTED, d.pods(), "replicas changed from " + d.from() + " to "
                    + w.specReplicas() + " by someone else during the drain; nothing scaled, marks removed",
                    present(d, w), now);
        }
        List<DrainPod> seen = new ArrayList<>();
        List<String> notShown = new ArrayList<>();
        for (DrainPod p : d.pods()) {
            PodState s = find(w, p.name());
            if (s == null || s.terminating()) {
                return end(d, DrainPhase.INTERRUPTED, d.pods(), "pod " + p.name() + " went away during the drain"
                        + " (not by Headroom); nothing scaled, marks removed", present(d, w), now);
            }
            boolean marked = d.id().equals(s.drainId()) && s.deletionCost() != null
                    && s.deletionCost() == PodMarks.DRAIN_DELETION_COST;
            if (!marked && p.markSeen()) {
                return end(d, DrainPhase.INTERRUPTED, d.pods(), (d.id().equals(s.drainId())
                        ? "the deletion cost of pod " + p.name() + " was changed by someone else (" + s.deletionCost()
                        + "), so lowering replicas could remove other pods"
                        : "the drain mark was removed from pod " + p.name() + " by someone else")
                        + "; nothing scaled, marks removed", present(d, w), now);
            }
            Double jobs = inFlight.get(p.name());
            DrainPod next = p.seen(jobs == null || !Double.isFinite(jobs) ? Double.NaN : jobs,
                    "Pending".equals(s.phase()), false);
            if (marked) {
                next = next.withMarkSeen();
            } else {
                notShown.add(p.name());
            }
            seen.add(next);
        }
        Drain looked = d.with(DrainPhase.WAITING, seen, d.detail(), now);
        if (!notShown.isEmpty()) {
            // Marked on the server, not yet in the watch cache (or a patch that is still on its way).
            if (!now.isBefore(d.deadline())) {
                return end(looked, DrainPhase.TIMED_OUT, seen, "the marks never showed on "
                        + String.join(", ", notShown) + " before the deadline; nothing scaled, marks removed",
                        d.podNames(), now);
            }
            return Step.stay(looked.idleSince(null).with(DrainPhase.WAITING, seen, "waiting for the marks to show on "
                    + String.join(", ", notShown), now));
        }
        if (seen.stream().allMatch(DrainPod::idle)) {
            Instant noticed = d.startedAt().plus(d.noticeGrace());
            if (now.isBefore(noticed)) {
                // The workers may not have seen their marks yet, and the numbers may predate them.
                long left = Math.max(1, (java.time.Duration.between(now, noticed).toMillis() + 999) / 1000);
                return Step.stay(looked.idleSince(null).with(DrainPhase.WAITING, seen, "every marked pod looks idle;"
                        + " giving the workers " + left + " s more to see their marks", now));
            }
            if (d.idleSince() == null) {
                return Step.stay(looked.idleSince(now).with(DrainPhase.WAITING, seen, "every marked pod is idle;"
                        + " confirming on the next look", now));
            }
            Drain scaling = looked.with(DrainPhase.SCALING, seen, "every marked pod stayed idle; lowering replicas "
                    + d.from() + " → " + d.to(), now).scaledFrom(WorkloadVersion.of(w));
            return new Step(scaling, List.of(new DrainAction.Scale(d.to(), w.resourceVersion())));
        }
        if (!now.isBefore(d.deadline())) {
            return end(looked, DrainPhase.TIMED_OUT, seen, "still running at the deadline: "
                    + String.join(", ", looked.busy()) + "; nothing scaled, marks removed", d.podNames(), now);
        }
        List<String> idle = seen.stream().filter(DrainPod::idle).map(DrainPod::name).toList();
        return Step.stay(looked.idleSince(null).with(DrainPhase.WAITING, seen, "waiting for "
                + String.join(", ", looked.busy()) + (idle.isEmpty() ? "" : "; " + String.join(", ", idle) + " idle"),
                now));
    }

    /** After the scale request, written (if at all) on the version the drain's {@link DrainAction.Scale} named. */
    public static Step scaled(Drain d, ScaleResult r, Instant now) {
        return scaled(d, r, null, now);
    }

    /**
     * After the scale request; {@code rebased} is the fresh read the write was conditioned on instead when the
     * named version had moved (a conflict, re-read, still at the count the drain expected); null when it had not.
     */
    public static Step scaled(Drain d, ScaleResult r, WorkloadState rebased, Instant now) {
        if (rebased != null) {
            d = d.scaledFrom(WorkloadVersion.of(rebased));
        }
        if (d.replace() != null) {
            return ReplaceStep.scaled(d, r, now);
        }
        if (d.phase() != DrainPhase.SCALING) {
            return Step.stay(d);
        }
        if (!r.ok()) {
            return end(d, DrainPhase.FAILED, d.pods(), "lowering replicas " + d.from() + " → " + d.to()
                    + " failed: " + r.message() + "; marks removed", d.podNames(), now);
        }
        return Step.stay(d.with(DrainPhase.SCALING, d.pods(), "replicas " + d.from() + " → " + d.to()
                + "; waiting for the marked pods to go", now).scaledAt(now));
    }

    private static Step scaling(Drain d, WorkloadState w, Instant now) {
        Instant patience = (d.scaledAt() == null ? now : d.scaledAt()).plus(REMOVAL_PATIENCE);
        if (w == null) {
            return now.isAfter(patience) ? end(d, DrainPhase.TIMED_OUT, d.pods(), "replicas were lowered to " + d.to()
                    + ", but the workload could not be read for " + REMOVAL_PATIENCE.toMinutes()
                    + " min to see which pods went", List.of(), now) : Step.stay(d);
        }
        if (w.specReplicas() != d.to()) {
            if (d.scaledFrom() != null && d.scaledFrom().sameOrOlder(w)) {
                // A view from before the drain's own write (a watch that lags), not someone else's: by version,
                // however long it lags, until the pods would have had to go.
                return now.isAfter(patience) ? end(d, DrainPhase.TIMED_OUT, d.pods(), "replicas were lowered to "
                        + d.to() + ", but the cluster's view still showed " + w.specReplicas() + " from before that write "
                        + REMOVAL_PATIENCE.toMinutes() + " min later; marks removed", present(d, w), now)
                        : Step.stay(d.with(DrainPhase.SCALING, d.pods(), "replicas lowered to " + d.to()
                        + "; the cluster's view is from before that write (resourceVersion " + w.resourceVersion()
                        + "), waiting for it to show it", now));
            }
            return end(d, DrainPhase.INTERRUPTED, d.pods(), "replicas changed to " + w.specReplicas()
                    + " by someone else after the drain lowered them to " + d.to(), present(d, w), now);
        }
        List<DrainPod> seen = new ArrayList<>();
        List<String> stayed = new ArrayList<>();
        for (DrainPod p : d.pods()) {
            PodState s = find(w, p.name());
            boolean gone = s == null || s.terminating();
            seen.add(p.seen(p.inFlight(), p.pending(), gone));
            if (!gone) {
                stayed.add(p.name());
            }
        }
        if (stayed.isEmpty()) {
            return end(d, DrainPhase.COMPLETED, seen, "removed " + String.join(", ", d.podNames()) + "; replicas "
                    + d.from() + " → " + d.to(), List.of(), now);
        }
        List<String> others = new ArrayList<>();
        for (PodState s : w.pods()) {
            if (s.terminating() && !d.podNames().contains(s.name())) {
                others.add(s.name());
            }
        }
        if (!others.isEmpty()) {
            return end(d, DrainPhase.COMPLETED, seen, "replicas " + d.from() + " → " + d.to()
                    + ", but the cluster removed " + String.join(", ", others) + " instead of "
                    + String.join(", ", stayed) + " (pods that are not ready go first, whatever their deletion"
                    + " cost); marks removed from " + String.join(", ", stayed), stayed, now);
        }
        if (now.isAfter(patience)) {
            return end(d, DrainPhase.TIMED_OUT, seen, "replicas are " + d.to() + " but " + String.join(", ", stayed)
                    + " had not gone " + REMOVAL_PATIENCE.toMinutes() + " min after replicas were lowered;"
                    + " marks removed", stayed, now);
        }
        return Step.stay(d.with(DrainPhase.SCALING, seen, d.detail(), now));
    }

    /**
     * The operator (or a freeze) stops the drain. Too late once replicas were lowered: then the
     * drain is returned unchanged and the caller says so.
     */
    public static Step cancel(Drain d, String why, Instant now) {
        if (d.replace() != null) {
            return ReplaceStep.cancel(d, why, now);
        }
        if (d.phase() == DrainPhase.SCALING || d.phase().ended()) {
            return Step.stay(d);
        }
        return end(d, DrainPhase.INTERRUPTED, d.pods(), why + "; nothing scaled, marks removed", d.podNames(), now);
    }

    private static Step end(Drain d, DrainPhase phase, List<DrainPod> pods, String why, List<String> unmark,
                            Instant now) {
        Drain next = d.with(phase, pods, why, now);
        return new Step(next, unmark.isEmpty() ? List.of() : List.of(new DrainAction.Unmark(unmark, d.id())));
    }

    private static List<String> present(Drain d, WorkloadState w) {
        return d.podNames().stream().filter(n -> find(w, n) != null).toList();
    }

    private static PodState find(WorkloadState w, String name) {
        for (PodState p : w.pods()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }
}
