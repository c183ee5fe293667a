package io.headroom.drain;

import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Chooses the pods a drain takes out (design.md §5), as a pure function of the workload and the jobs
 * in flight per pod.
 *
 * <p>A Deployment's ReplicaSet removes pods that are not ready before any ready pod, whatever their
 * deletion cost; so the plan takes not-ready pods first, then the ready pods with the fewest jobs
 * in flight (idle first), newest first on ties. A StatefulSet always removes its highest ordinals,
 * so those are the pods, with no choice. A started pod whose jobs in flight are unknown cannot be
 * drained (nobody could tell when it is idle): the plan is refused with the reason. Only a pod
 * that never started (Pending) holds no work without a number to say so.
 */
public final class DrainPlanner {

    private DrainPlanner() {
    }

    /** A plan, or why there is none. */
    public sealed interface Planned permits Plan, Refused {
    }

    /** The drain to start, in phase MARKING, and the marks to set. */
    public record Plan(Drain drain, DrainAction.Mark mark) implements Planned {
    }

    public record Refused(String reason) implements Planned {
    }

    /**
     * @param inFlight jobs in flight per pod name; absent pods are unknown
     * @param to       the replicas after the drain; below the current spec
     * @param deadline    how long the marked pods get to finish their jobs
     * @param noticeGrace how long a worker may take to see its mark (see {@link Drain#noticeGrace})
     */
    public static Planned plan(String id, String className, WorkloadState w, Map<String, Double> inFlight, int to,
                               Duration deadline, Duration noticeGrace, Instant now) {
        int from = w.specReplicas();
        if (to < 0) {
            return new Refused("replicas cannot be negative");
        }
        if (to >= from) {
            return new Refused("a drain lowers replicas; " + to + " is not below the current " + from);
        }
        List<PodState> live = new ArrayList<>();
        for (PodState p : w.pods()) {
            if (p.terminating()) {
                continue;
            }
            if (p.draining()) {
                return new Refused("pod " + p.name() + " is already marked by drain " + p.drainId()
                        + "; let it end, or remove its marks, before another drain");
            }
            live.add(p);
        }
        int n = from - to;
        if (live.size() < from) {
            return new Refused(w.ref() + " has " + live.size() + " running pods for " + from
                    + " replicas: pods still to be created would go first, not the drained ones; try again"
                    + " when they exist, or scale down directly");
        }
        boolean statefulSet = "StatefulSet".equals(w.ref().kind());
        List<PodState> order = new ArrayList<>(live);
        if (statefulSet) {
            order.sort(Comparator.comparingInt((PodState p) -> ordinal(p.name())).reversed());
        } else {
            order.sort(Comparator.comparing((PodState p) -> p.ready())
                    .thenComparingDouble(p -> inFlight.getOrDefault(p.name(), Double.POSITIVE_INFINITY))
                    .thenComparing(PodState::createdAt, Comparator.nullsLast(Comparator.reverseOrder()))
                    .thenComparing(PodState::name, Comparator.reverseOrder()));
        }
        List<DrainPod> chosen = new ArrayList<>();
        for (PodState p : order.subList(0, n)) {
            Double jobs = inFlight.get(p.name());
            boolean pending = "Pending".equals(p.phase());
            if (!pending && (jobs == null || !Double.isFinite(jobs))) {
                return new Refused("jobs in flight on pod " + p.name() + " are unknown, so nobody could tell"
                        + " when it is idle: configure a per-pod in-flight signal (podInFlight), or scale down"
                        + " directly");
            }
            String why = pending ? "not started" : !p.ready() ? "not ready, " + jobs(jobs) + " in flight"
                    : jobs == 0 ? "idle"
                    : jobs(jobs) + " in flight" + (statefulSet ? "" : ", among the least loaded");
            if (statefulSet) {
                why = "highest ordinal; " + why;
            }
            chosen.add(new DrainPod(p.name(), why, jobs == null || !Double.isFinite(jobs) ? Double.NaN : jobs, pending,
                    false, false));
        }
        Drain d = new Drain(id, className, w.ref(), from, to, chosen, now, now.plus(deadline), noticeGrace, null, null,
                DrainPhase.MARKING, "marking " + String.join(", ", chosen.stream().map(DrainPod::name).toList()),
                null);
        return new Plan(d, new DrainAction.Mark(d.podNames(), id));
    }

    /**
     * A drain of exactly the named pods (the operator chose them, e.g. one pod from the pod panel):
     * replicas go down by as many. Refused where the ReplicaSet would not remove exactly those pods: a
     * StatefulSet unless they are its highest ordinals, another pod not ready (it would go first), pods
     * still to be created; and, as for {@link #plan}, a pod already marked or with unknown jobs in flight.
     */
    public static Planned planPods(String id, String className, WorkloadState w, Map<String, Double> inFlight,
                                   List<String> podNames, Duration deadline, Duration noticeGrace, Instant now) {
        if (podNames.isEmpty()) {
            return new Refused("no pod named to drain");
        }
        int from = w.specReplicas();
        List<PodState> live = new ArrayList<>();
        for (PodState p : w.pods()) {
            if (!p.terminating()) {
                live.add(p);
            }
        }
        java.util.Set<String> names = new java.util.LinkedHashSet<>(podNames);
        for (String n : names) {
            PodState p = w.pods().stream().filter(x -> x.name().equals(n)).findFirst().orElse(null);
            if (p == null) {
                return new Refused("pod " + n + " is not a pod of " + w.ref() + " (gone since it was shown?)");
            }
            if (p.terminating()) {
                return new Refused("pod " + n + " is already terminating");
            }
        }
        for (PodState p : live) {
            if (p.draining()) {
                return new Refused("pod " + p.name() + " is already marked by drain " + p.drainId()
                        + "; let it end, or remove its marks, before another drain");
            }
        }
        int to = from - names.size();
        if (to < 0) {
            return new Refused(w.ref() + " runs " + from + " replicas; it cannot lose " + names.size() + " pods");
        }
        if (live.size() < from) {
            return new Refused(w.ref() + " has " + live.size() + " running pods for " + from
                    + " replicas: pods still to be created would go first, not the drained ones; try again"
                    + " when they exist, or scale down directly");
        }
        boolean statefulSet = "StatefulSet".equals(w.ref().kind());
        if (statefulSet) {
            List<String> highest = live.stream().sorted(Comparator.comparingInt((PodState p) -> ordinal(p.name()))
                    .reversed()).limit(names.size()).map(PodState::name).toList();
            if (!names.containsAll(highest)) {
                return new Refused(w.ref() + " is a StatefulSet: lowering replicas removes its highest ordinals ("
                        + String.join(", ", highest) + "), not the pods chosen");
            }
        } else {
            for (PodState p : live) {
                if (!p.ready() && !names.contains(p.name())) {
                    return new Refused("pod " + p.name() + " is not ready, and the ReplicaSet removes a pod that is"
                            + " not ready before any ready one: it would go instead; try again when it is ready");
                }
            }
        }
        List<DrainPod> chosen = new ArrayList<>();
        for (String n : names) {
            PodState p = live.stream().filter(x -> x.name().equals(n)).findFirst().orElseThrow();
            Double jobs = inFlight.get(n);
            boolean pending = "Pending".equals(p.phase());
            if (!pending && (jobs == null || !Double.isFinite(jobs))) {
                return new Refused("jobs in flight on pod " + n + " are unknown, so nobody could tell"
                        + " when it is idle: configure a per-pod in-flight signal (podInFlight), or scale down"
                        + " directly");
            }
            String why = "chosen by the operator; " + (pending ? "not started" : !p.ready() ? "not ready, "
                    + jobs(jobs) + " in flight" : jobs == 0 ? "idle" : jobs(jobs) + " in flight");
            chosen.add(new DrainPod(n, why, jobs == null || !Double.isFinite(jobs) ? Double.NaN : jobs, pending,
                    false, false));
        }
        Drain d = new Drain(id, className, w.ref(), from, to, chosen, now, now.plus(deadline), noticeGrace, null, null,
                DrainPhase.MARKING, "marking " + String.join(", ", names), null);
        return new Plan(d, new DrainAction.Mark(d.podNames(), id));
    }

    /** A StatefulSet pod's ordinal (the number after the last '-'); -1 when there is none. */
    static int ordinal(String podName) {
        int dash = podName.lastIndexOf('-');
        try {
            return dash < 0 ? -1 : Integer.parseInt(podName.substring(dash + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** "2" for 2.0, "1.5" otherwise. */
    static String jobs(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
