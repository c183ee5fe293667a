package io.headroom.drain;

import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A replace drain of a hung worker (issue 15), as pure functions. A STUCK pod never finishes its jobs, so
 * a drain that waits for them never ends; replacing it does not wait: it asks for one more replica first
 * (the hung pod is no capacity, so nothing is lost meanwhile), waits for the new pod to be ready, evicts
 * the hung pod through the Eviction API (its own grace period; a budget's refusal is retried with
 * {@link NodeDrainStep#backoff}), and lowers replicas back to where they were. The hung pod's jobs go back
 * to the queue unfinished: every end says so, or says that nothing was evicted.
 *
 * <p>Phases: {@link DrainPhase#REPLACING} (replicas +1, waiting for a ready replacement), then
 * {@link DrainPhase#EVICTING}; the ends are a drain's. Once the eviction is accepted it is too late to cancel.
 */
public final class ReplaceStep {

    private ReplaceStep() {
    }

    /** The drain to start and its first action (ask for the replacement), or why there is none. */
    public record Start(DrainStep.Step step, String refusal) {
        public boolean refused() {
            return refusal != null;
        }
    }

    /**
     * @param inFlight jobs in flight per pod (absent: unknown, which does not stop a replacement: it does not
     *                 wait for them)
     */
    public static Start plan(String id, String className, WorkloadState w, String pod, Map<String, Double> inFlight,
                             Duration deadline, Instant now) {
        PodState p = find(w, pod);
        if (p == null) {
            return refused("pod " + pod + " is not a pod of " + w.ref() + " (gone since it was shown?)");
        }
        if (p.terminating()) {
            return refused("pod " + pod + " is already terminating");
        }
        for (PodState q : w.pods()) {
            if (q.draining() && !q.terminating()) {
                return refused("pod " + q.name() + " is marked by drain " + q.drainId()
                        + "; let it end, or remove its marks, before replacing " + pod);
            }
        }
        if (!p.ready()) {
            return refused("pod " + pod + " is not ready: it takes no work, so there is no hung worker to replace");
        }
        int from = w.specReplicas();
        Double jobs = inFlight.get(pod);
        double in = jobs == null || !Double.isFinite(jobs) ? Double.NaN : jobs;
        Replacement r = new Replacement(pod, in, w.pods().stream().map(PodState::name).toList(), null, 0, null, null,
                null, w.resourceVersion());
        String why = "not making progress; " + (Double.isNaN(in) ? "jobs in flight unknown"
                : DrainPlanner.jobs(in) + " in flight") + ", to go back to the queue";
        Drain d = new Drain(id, className, w.ref(), from, from, List.of(new DrainPod(pod, why, in, false, false, false)),
                now, now.plus(deadline), Duration.ZERO, null, null, DrainPhase.REPLACING,
                "asking for a replacement of " + pod + ": replicas " + from + " → " + (from + 1), null, r,
                WorkloadVersion.of(w));
        return new Start(new DrainStep.Step(d, List.of(new DrainAction.Scale(from + 1, w.resourceVersion(), from))),
                null);
    }

    /** The start of a replace drain's {@code DRAIN_STARTED} detail: "replace <pod>: …", the pod read back from it. */
    private static final String STARTED = "replace ";

    /** What a replace drain's {@code DRAIN_STARTED} record says beyond its pods: the hung pod, first. */
    public static String startedDetail(Drain d) {
        return STARTED + d.replace().pod() + ": one more replica first, then it is evicted without waiting for its jobs; ";
    }

    /**
     * The hung pod a drain's {@code DRAIN_STARTED} detail names ({@link #startedDetail}), or null when it is not a
     * replacement's (a pod name has no space and no colon).
     */
    public static String replacedPod(String startedDetail) {
        if (startedDetail == null || !startedDetail.startsWith(STARTED)) {
            return null;
        }
        int colon = startedDetail.indexOf(':');
        String pod = colon < 0 ? "" : startedDetail.substring(STARTED.length(), colon);
        return pod.isEmpty() || pod.contains(" ") ? null : pod;
    }

    /**
     * What the journal says of a replacement a console stopped in (its {@code DRAIN_STARTED} without a
     * {@code DRAIN_ENDED}, and the records of it since).
     *
     * @param evictedAt   when the hung pod's eviction was accepted ({@code POD_EVICTED}); null when not journaled
     * @param loweredBack replicas were lowered back ({@code APPLIED} from + 1 → from)
     */
    public record Stopped(String id, String className, int from, String pod, Instant startedAt, Instant deadline,
                          Instant evictedAt, boolean loweredBack) {
    }

    /**
     * Takes up a replacement a console stopped in (killed, or closed mid-drain), from the journal ({@code s}) and
     * the cluster now ({@code w}, read after the restart): where the replacement got to, it goes on (replicas are
     * one more and the hung pod still runs before the deadline: wait for the replacement, evict, lower back;
     * evicted and replicas still one more: lower them back), or it ends saying where replicas stand and what
     * became of the hung pod. The drain returned keeps its id; the caller journals {@code DRAIN_RESUMED} (active)
     * or {@code DRAIN_ENDED} (ended) before acting on it.
     *
     * <p>The pods that were there at the start are not in the journal (a workload may have hundreds), and creation
     * times are the API server's clock against the journal's: so a taken-up replacement waits for capacity
     * instead, {@code from} ready pods besides the hung one, as many as ran before one more was asked for.
     */
    public static DrainStep.Step resume(Stopped s, WorkloadState w, Map<String, Double> inFlight, Instant now) {
        int from = s.from();
        int spec = w.specReplicas();
        PodState hung = find(w, s.pod());
        boolean running = hung != null && !hung.terminating();
        Double jobs = inFlight.get(s.pod());
        double in = jobs == null || !Double.isFinite(jobs) ? Double.NaN : jobs;
        Replacement r = new Replacement(s.pod(), in, null, null, 0, null, null, s.evictedAt(), w.resourceVersion());
        Drain d = new Drain(s.id(), s.className(), w.ref(), from, from, List.of(new DrainPod(s.pod(),
                "not making progress", in, false, !running, false)), s.startedAt(), s.deadline(), Duration.ZERO, null,
                null, DrainPhase.REPLACING, "", null, r, null);
        String stopped = "the console stopped during the replacement of " + s.pod();
        if (s.loweredBack() || s.evictedAt() != null && spec == from) {
            return end(d, DrainPhase.COMPLETED, stopped + ", after " + s.pod() + " was evicted (" + jobsBack(r)
                    + ") and replicas were lowered back to " + from, now);
        }
        if (s.evictedAt() != null) {
            if (spec != from + 1) {
                return end(d, DrainPhase.COMPLETED, stopped + ", after " + s.pod() + " was evicted (" + jobsBack(r)
                        + "); replicas are " + spec + ", as someone else set them meanwhile: left as they are", now);
            }
            Drain next = d.with(DrainPhase.EVICTING, d.pods(), "resumed after the console stopped: " + s.pod()
                    + " was evicted before it stopped; lowering replicas " + (from + 1) + " → " + from, now);
            return new DrainStep.Step(next, List.of(new DrainAction.Scale(from, w.resourceVersion(), from + 1)));
        }
        if (!running) {
            return end(d, DrainPhase.INTERRUPTED, stopped + ", and " + s.pod() + " went away meanwhile (not by"
                    + " Headroom); nothing evicted; " + replicasNow(d, spec), now);
        }
        if (spec == from) {
            return end(d, DrainPhase.INTERRUPTED, stopped + " before its replacement was there: replicas are "
                    + from + ", nothing evicted, " + s.pod() + " left running", now);
        }
        if (spec != from + 1) {
            return end(d, DrainPhase.INTERRUPTED, stopped + ", and replicas were changed to " + spec + " by someone"
                    + " else meanwhile; nothing evicted, " + s.pod() + " left running; " + replicasNow(d, spec), now);
        }
        if (!now.isBefore(s.deadline())) {
            return end(d, DrainPhase.TIMED_OUT, stopped + " and its deadline passed before it started again; "
                    + nothingEvicted(d), now);
        }
        return DrainStep.Step.stay(d.with(DrainPhase.REPLACING, d.pods(), "resumed after the console stopped: "
                + extraReplica(d, true) + "; waiting for a replacement of " + s.pod() + " to be ready", now));
    }

    /**
     * "3 replicas include the one asked for to replace pod-x (drain d-1, timed out), which still runs": why a
     * workload runs one more replica than before a replacement that did not lower them back.
     */
    public static String extraReplica(Drain d, boolean hungStillRuns) {
        return (d.from() + 1) + " replicas include the one asked for to replace " + d.replace().pod() + " (drain "
                + d.id() + (d.active() ? "" : ", " + d.phase().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '))
                + "), which " + (hungStillRuns ? "still runs" : "is gone");
    }

    /** After a scale request: the replacement asked for, or replicas lowered back after the eviction. */
    public static DrainStep.Step scaled(Drain d, ScaleResult r, Instant now) {
        Replacement rep = d.replace();
        int from = d.from();
        if (d.phase() == DrainPhase.REPLACING) {
            if (!r.ok()) {
                return end(d, DrainPhase.FAILED, "asking for a replacement (replicas " + from + " → " + (from + 1)
                        + ") failed: " + r.message() + "; nothing evicted, " + rep.pod() + " left running", now);
            }
            return DrainStep.Step.stay(d.with(DrainPhase.REPLACING, d.pods(), "replicas " + from + " → " + (from + 1)
                    + "; waiting for a replacement of " + rep.pod() + " to be ready", now));
        }
        if (d.phase() == DrainPhase.EVICTING && rep.evicted()) {
            String done = "replaced " + rep.pod() + (rep.replacement() == null ? "" : " by " + rep.replacement()) + ": "
                    + rep.pod() + " evicted (" + jobsBack(rep) + ")";
            return end(d, DrainPhase.COMPLETED, r.ok() ? done + "; replicas " + (from + 1) + " → " + from
                    : done + "; replicas stay " + (from + 1) + ", lowering them back failed (" + r.message()
                    + "): the decision takes the extra one back", now);
        }
        return DrainStep.Step.stay(d);
    }

    /** A look at the workload: is the replacement ready, is a refused eviction due again, is the deadline past. */
    public static DrainStep.Step observe(Drain d, WorkloadState w, Map<String, Double> inFlight, Instant now) {
        Replacement rep = d.replace();
        boolean late = !now.isBefore(d.deadline());
        if (w == null) {
            return late ? end(d, DrainPhase.TIMED_OUT, "the workload could not be read before the deadline; "
                    + nothingEvicted(d), now) : DrainStep.Step.stay(d);
        }
        if (rep.evicted() || d.phase().ended()) {
            return DrainStep.Step.stay(d);
        }
        PodState hung = find(w, rep.pod());
        if (hung == null || hung.terminating()) {
            return end(d, DrainPhase.INTERRUPTED, "pod " + rep.pod() + " went away during the replacement (not by"
                    + " Headroom); nothing evicted; " + extraStays(d), now);
        }
        Double jobs = inFlight.get(rep.pod());
        rep = rep.looked(jobs == null || !Double.isFinite(jobs) ? Double.NaN : jobs, w.resourceVersion());
        Drain looked = d.replacing(rep);
        if (d.phase() == DrainPhase.REPLACING) {
            int spec = w.specReplicas();
            boolean fromBeforeTheScaleUp = d.scaledFrom() != null && d.scaledFrom().sameOrOlder(w);
            if (spec != d.from() + 1 && !fromBeforeTheScaleUp) {
                // A view from before the scale-up is a watch that lags; a newer one at another count is someone else's.
                return end(looked, DrainPhase.INTERRUPTED, "replicas changed to " + spec + " by someone else while"
                        + " waiting for the replacement; nothing evicted, " + rep.pod() + " left running; replicas are "
                        + spec + ", as someone else set them", now);
            }
            PodState ready = replacementReady(d, rep, w);
            if (ready != null) {
                Drain next = looked.replacing(rep.replacedBy(ready.name()).trying()).with(DrainPhase.EVICTING,
                        d.pods(), "replacement " + ready.name() + " is ready; evicting " + rep.pod(), now);
                return new DrainStep.Step(next, List.of(new DrainAction.Evict(rep.pod())));
            }
            final Replacement seen = rep;
            List<String> starting = w.pods().stream().filter(q -> (seen.before() == null ? !q.ready()
                    : !seen.before().contains(q.name())) && !q.terminating() && !q.name().equals(seen.pod()))
                    .map(PodState::name).toList();
            if (late) {
                return end(looked, DrainPhase.TIMED_OUT, "no replacement of " + rep.pod() + " was ready by the deadline"
                        + (starting.isEmpty() ? "" : " (" + String.join(", ", starting) + " still starting)") + "; "
                        + nothingEvicted(d), now);
            }
            return DrainStep.Step.stay(looked.with(DrainPhase.REPLACING, d.pods(), "waiting for a replacement of "
                    + rep.pod() + " to be ready" + (starting.isEmpty() ? "" : ": " + String.join(", ", starting)
                    + " starting"), now));
        }
        // EVICTING, the last request refused
        if (late) {
            return end(looked, DrainPhase.TIMED_OUT, "the eviction of " + rep.pod() + " was refused " + rep.attempts()
                    + "× until the deadline (last: " + rep.lastRefusal() + "); " + nothingEvicted(d), now);
        }
        if (rep.nextTryAt() != null && !now.isBefore(rep.nextTryAt())) {
            return new DrainStep.Step(looked.replacing(rep.trying()), List.of(new DrainAction.Evict(rep.pod())));
        }
        return DrainStep.Step.stay(looked);
    }

    /**
     * The replacement once it is ready: a ready pod that was not there at the start; where the pods at the start
     * are not known (taken up after a restart), the youngest ready pod besides the hung one once there are
     * {@code from} of them, as many as ran before one more was asked for. Null while there is none.
     */
    private static PodState replacementReady(Drain d, Replacement rep, WorkloadState w) {
        if (rep.before() != null) {
            return w.pods().stream().filter(q -> !rep.before().contains(q.name()) && q.ready() && !q.terminating())
                    .findFirst().orElse(null);
        }
        List<PodState> others = w.pods().stream().filter(q -> !q.name().equals(rep.pod()) && q.ready()
                && !q.terminating()).toList();
        return others.size() < d.from() ? null : others.stream().max(java.util.Comparator.comparing(
                (PodState q) -> q.createdAt() == null ? Instant.MIN : q.createdAt()).thenComparing(PodState::name))
                .orElse(null);
    }

    /** After one eviction request: accepted (lower replicas back), or refused (retried with back-off). */
    public static DrainStep.Step evicted(Drain d, EvictionResult r, Instant now) {
        Replacement rep = d.replace();
        if (d.phase() != DrainPhase.EVICTING || rep.evicted()) {
            return DrainStep.Step.stay(d);
        }
        if (r.outcome() == EvictionResult.Outcome.EVICTED || r.outcome() == EvictionResult.Outcome.GONE) {
            Replacement done = rep.evictedAt(now);
            Drain next = d.replacing(done).with(DrainPhase.EVICTING, d.pods(), "evicted " + rep.pod() + " ("
                    + jobsBack(rep) + "); lowering replicas " + (d.from() + 1) + " → " + d.from(), now);
            return new DrainStep.Step(next, List.of(new DrainAction.Scale(d.from(), rep.version(), d.from() + 1)));
        }
        Instant retry = now.plus(NodeDrainStep.backoff(rep.attempts() + 1, r.retryAfterSeconds()));
        String why = (r.budget() == null ? "" : "PodDisruptionBudget " + r.budget() + ": ") + r.message();
        Replacement refused = rep.refused(why, retry);
        return DrainStep.Step.stay(d.replacing(refused).with(DrainPhase.EVICTING, d.pods(), "eviction of " + rep.pod()
                + " refused (" + refused.attempts() + "×) by " + (r.budget() == null ? "the API server: "
                : "PodDisruptionBudget " + r.budget() + ": ") + r.message() + "; retrying in "
                + Duration.between(now, retry).toSeconds() + " s", now));
    }

    /** Called off by the operator or a freeze; too late once the eviction was accepted (returned unchanged). */
    public static DrainStep.Step cancel(Drain d, String why, Instant now) {
        if (!d.cancellable()) {
            return DrainStep.Step.stay(d);
        }
        return end(d, DrainPhase.INTERRUPTED, why + "; " + nothingEvicted(d), now);
    }

    /** "its 4 jobs in flight go back to the queue unfinished". */
    public static String jobsBack(Replacement rep) {
        if (Double.isNaN(rep.inFlight())) {
            return "whatever jobs it held go back to the queue unfinished";
        }
        if (rep.inFlight() == 0) {
            return "it held no jobs";
        }
        return "its " + DrainPlanner.jobs(rep.inFlight()) + " job" + (rep.inFlight() == 1 ? "" : "s")
                + " in flight go back to the queue unfinished";
    }

    private static String nothingEvicted(Drain d) {
        return "nothing evicted, " + d.replace().pod() + " left running; " + extraStays(d);
    }

    private static String replicasNow(Drain d, int spec) {
        return spec == d.from() + 1 ? extraStays(d) : "replicas are " + spec;
    }

    private static String extraStays(Drain d) {
        return "replicas stay " + (d.from() + 1) + " (the replacement asked for): the decision takes the extra one back";
    }

    private static DrainStep.Step end(Drain d, DrainPhase phase, String why, Instant now) {
        return DrainStep.Step.stay(d.with(phase, d.pods(), why, now));
    }

    private static Start refused(String why) {
        return new Start(null, why);
    }

    private static PodState find(WorkloadState w, String name) {
        return w.pods().stream().filter(p -> p.name().equals(name)).findFirst().orElse(null);
    }
}
