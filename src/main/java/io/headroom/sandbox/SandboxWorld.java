package io.headroom.sandbox;

import static io.headroom.sandbox.WorldHash.mix;
import static io.headroom.sandbox.WorldHash.nameHash;

import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.sandbox.SandboxClassSpec.Dependency;
import io.headroom.sandbox.SandboxClassSpec.RateSegment;
import io.headroom.sandbox.SandboxClassSpec.ServiceTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * A deterministic discrete-event simulation of sandbox workloads and their queues. Identical
 * specs, seed and start give identical histories; each class draws from its own random streams
 * so classes do not perturb each other, and arrivals from a stream of their own so a different
 * scaling policy sees the same traffic. Thread-safe: every public method is synchronized.
 */
public final class SandboxWorld {

    /** The rolling window of the rate and service-time measurements, like a PromQL {@code [1m]}. */
    public static final double WINDOW_SECONDS = 60;
    /** The most replicas a sandbox workload accepts; more is refused to keep the simulation cheap. */
    public static final int MAX_REPLICAS = 1000;
    static final String OUTAGE_REASON = "metrics outage (sandbox)";

    private static final int ARRIVAL = 0;
    private static final int COMPLETION = 1;
    private static final int POD_READY = 2;
    private static final int POISON_START = 3;
    private static final int POISON_CLEAR = 4;
    private static final int POD_HANG = 5;
    private static final int POD_KILL = 6;
    private static final int RETRY = 7;
    /** A terminating pod that still holds work after this long is killed, as the kubelet does. */
    static final double TERMINATION_GRACE_SECONDS = 30;

    private final Instant start;
    private final long seed;
    private final Map<String, ClassSim> classes = new LinkedHashMap<>();
    /** The sandbox's nodes; pods are placed two at a time on each in turn, skipping cordoned ones. */
    public static final List<String> NODES = List.of("sandbox-node-1", "sandbox-node-2", "sandbox-node-3");
    /** Cordons and disruption budgets: the nodes' side of the world, under the world's lock. */
    private final SandboxNodes nodeSide = new SandboxNodes(this);
    private final PriorityQueue<SandboxEvent> events = new PriorityQueue<>();
    private long sequence;
    private double now;

    public SandboxWorld(List<SandboxClassSpec> specs, long seed, Instant start) {
        this.start = java.util.Objects.requireNonNull(start, "start");
        this.seed = seed;
        for (SandboxClassSpec spec : specs) {
            if (classes.containsKey(spec.name())) {
                throw new IllegalArgumentException("sandbox class '" + spec.name() + "' is defined twice");
            }
            classes.put(spec.name(), new ClassSim(spec));
        }
        for (ClassSim c : classes.values()) {
            c.init();
        }
    }

    public Instant start() {
        return start;
    }

    public long seed() {
        return seed;
    }

    public synchronized Instant now() {
        return toInstant(now);
    }

    /** Seconds of simulated time since the start. */
    public synchronized double elapsedSeconds() {
        return now;
    }

    /** Class names in the order given. */
    public List<String> classNames() {
        return List.copyOf(classes.keySet());
    }

    /** The spec of a class, or empty when unknown. */
    public Optional<SandboxClassSpec> spec(String className) {
        ClassSim c = classes.get(className);
        return c == null ? Optional.empty() : Optional.of(c.spec);
    }

    /** The class whose workload is {@code ref} (matched by namespace, kind and name), or empty. */
    public Optional<String> classOf(WorkloadRef ref) {
        for (ClassSim c : classes.values()) {
            WorkloadRef t = c.spec.target();
            if (t.namespace().equals(ref.namespace()) && t.name().equals(ref.name())
                    && t.kind().equalsIgnoreCase(ref.kind())) {
                return Optional.of(c.spec.name());
            }
        }
        return Optional.empty();
    }

    /** Processes every event up to {@code t}; an earlier {@code t} is a no-op (time never goes back). */
    public synchronized void advanceTo(Instant t) {
        double target = toSeconds(t);
        if (!(target > now)) {
            return;
        }
        while (!events.isEmpty() && events.peek().time <= target) {
            SandboxEvent e = events.poll();
            now = e.time;
            handle(e);
        }
        now = target;
        for (ClassSim c : classes.values()) {
            c.trimWindows();
        }
    }

    /** Sets the workload's spec replicas without a version check (see {@link #scale}). */
    public synchronized void setReplicas(String className, int replicas) {
        ScaleResult r = scale(className, replicas, null);
        if (!r.ok()) {
            throw new IllegalArgumentException(r.message());
        }
    }

    /**
     * Sets spec replicas. Scale-up creates pods that become ready after the start-up time;
     * scale-down terminates pods in ReplicaSet order (not ready first, then the newest ready),
     * and a terminating pod finishes its in-flight jobs before it goes.
     */
    public synchronized ScaleResult scale(String className, int replicas, String expectedResourceVersion) {
        ClassSim c = classes.get(className);
        if (c == null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "no sandbox class '" + className + "'");
        }
        if (replicas < 0 || replicas > MAX_REPLICAS) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, c.specReplicas,
                    "replicas must be in 0.." + MAX_REPLICAS + ", got " + replicas);
        }
        if (expectedResourceVersion != null && !expectedResourceVersion.equals(c.resourceVersion())) {
            return ScaleResult.of(ScaleResult.Outcome.CONFLICT, c.specReplicas, "resourceVersion is "
                    + c.resourceVersion() + ", expected " + expectedResourceVersion);
        }
        if (replicas != c.specReplicas) {
            c.rescale(replicas);
        }
        return ScaleResult.applied(replicas);
    }

    /** The current resource version of a class's workload, or empty when unknown. */
    public synchronized Optional<String> resourceVersion(String className) {
        ClassSim c = classes.get(className);
        return c == null ? Optional.empty() : Optional.of(c.resourceVersion());
    }

    /** The workload as the Kubernetes API would show it, or empty when unknown. */
    public synchronized Optional<WorkloadState> workload(String className) {
        ClassSim c = classes.get(className);
        if (c == null) {
            return Optional.empty();
        }
        List<PodState> pods = new ArrayList<>(c.pods.size());
        for (SandboxPod p : c.pods) {
            pods.add(new PodState(p.name, p.ready ? "Running" : "Pending", p.ready && !p.terminating(),
                    toInstant(p.createdAt), p.terminating() ? toInstant(p.deletedAt) : null, p.node, p.deletionCost,
                    p.drainId, Double.isNaN(p.readyAt) ? null : toInstant(p.readyAt)));
        }
        return Optional.of(new WorkloadState(c.spec.target(), c.specReplicas, c.readyReplicas(),
                c.resourceVersion(), pods, toInstant(now)));
    }

    /**
     * Sets (or with a null {@code drainId}, removes) a drain's marks on pods of a class: the lowest
     * deletion cost, and the drain annotation its workers obey by taking no new work. A pod that is
     * gone fails when marking and counts as done when unmarking.
     */
    public synchronized PodMarks.Result mark(String className, List<String> podNames, String drainId) {
        ClassSim c = classes.get(className);
        if (c == null) {
            return PodMarks.Result.refused(podNames, "no sandbox class '" + className + "'");
        }
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String n : podNames) {
            SandboxPod p = c.pods.stream().filter(x -> x.name.equals(n)).findFirst().orElse(null);
            if (p == null) {
                (drainId == null ? done : failed).add(drainId == null ? n : n + ": no such pod in " + className);
                continue;
            }
            p.drainId = drainId;
            p.deletionCost = drainId == null ? null : PodMarks.DRAIN_DELETION_COST;
            done.add(n);
        }
        c.dispatch(); // unmarked pods take work again
        return new PodMarks.Result(done, failed);
    }

    /** Removes drain {@code drainId}'s marks; a pod gone, or marked by another drain, is left as it is (done). */
    public synchronized PodMarks.Result unmark(String className, List<String> podNames, String drainId) {
        ClassSim c = classes.get(className);
        if (c == null) {
            return PodMarks.Result.refused(podNames, "no sandbox class '" + className + "'");
        }
        List<String> ours = new ArrayList<>();
        for (String n : podNames) {
            SandboxPod p = c.pods.stream().filter(x -> x.name.equals(n)).findFirst().orElse(null);
            if (p == null || p.drainId == null || p.drainId.equals(drainId)) {
                ours.add(n);
            }
        }
        List<String> others = podNames.stream().filter(n -> !ours.contains(n)).toList();
        PodMarks.Result r = mark(className, ours, null);
        List<String> done = new ArrayList<>(r.done());
        done.addAll(others);
        return new PodMarks.Result(done, r.failed());
    }

    /** Jobs in flight per pod of a class (as a per-pod gauge would report), empty during a metrics outage. */
    public synchronized Map<String, Double> podInFlight(String className) {
        ClassSim c = classes.get(className);
        if (c == null || c.spec.inOutage(now)) {
            return Map.of();
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (SandboxPod p : c.pods) {
            out.put(p.name, (double) p.inFlight);
        }
        return out;
    }

    /**
     * Per pod: jobs in flight and jobs finished so far (as a per-pod gauge and counter would report),
     * empty during a metrics outage.
     */
    public synchronized Map<String, double[]> podProgress(String className) {
        ClassSim c = classes.get(className);
        if (c == null || c.spec.inOutage(now)) {
            return Map.of();
        }
        Map<String, double[]> out = new LinkedHashMap<>();
        for (SandboxPod p : c.pods) {
            out.put(p.name, new double[] {p.inFlight, p.completed});
        }
        return out;
    }

    /** Names of the pods that hang (ground truth for tests and the tour). */
    public synchronized List<String> hungPods(String className) {
        ClassSim c = classes.get(className);
        List<String> out = new ArrayList<>();
        if (c != null) {
            for (SandboxPod p : c.pods) {
                if (p.hung) {
                    out.add(p.name);
                }
            }
        }
        return out;
    }

    /** Everything measurable about a class at world time, or empty when unknown. */
    public synchronized Optional<Measurements> measure(String className) {
        ClassSim c = classes.get(className);
        return c == null ? Optional.empty() : Optional.of(c.measure());
    }

    /**
     * The numbers a simulation's summary samples every simulated second, or empty when the class
     * is unknown: the same as {@link #measure}'s, without summing the 60 s windows for the rates (a
     * simulator samples truth 15 times per control tick, and those sums were a quarter of its time).
     */
    public synchronized Optional<Truth> truth(String className) {
        ClassSim c = classes.get(className);
        return c == null ? Optional.empty() : Optional.of(new Truth(c.oldestAgeSeconds(), c.specReplicas, c.jobsCompleted));
    }

    /** A class's oldest job age, spec replicas and jobs completed so far at world time (see {@link #truth}). */
    public record Truth(double oldestAgeSeconds, int specReplicas, long jobsCompleted) {
    }

    /**
     * What a class looks like at one moment: the numbers Prometheus would give plus cumulative
     * counters for summaries. {@code NaN} marks a value that is not available (see the accessors'
     * notes); a 0 is a real 0.
     *
     * @param arrivalRate        jobs/s over the last 60 s (or the elapsed time when shorter); NaN at time 0
     * @param meanServiceSeconds mean service time of jobs completed in the last 60 s; NaN when none completed
     * @param completionRate     completions/s over the same window as the arrival rate; NaN at time 0
     * @param dependencyLatencyMs NaN when the class has no dependency
     * @param podMemoryMb        NaN when not configured or when there are no pods
     */
    public record Measurements(Instant at, double elapsedSeconds, int queueLength, double oldestAgeSeconds,
                               double arrivalRate, double meanServiceSeconds, int inFlight, double completionRate,
                               double dependencyLatencyMs, double podMemoryMb, boolean metricsOutage,
                               boolean poisonActive, long jobsArrived, long jobsCompleted, int specReplicas,
                               int readyReplicas, int pods, String resourceVersion) {
    }

    // ---------------------------------------------------------------- internals

    private void handle(SandboxEvent e) {
        ClassSim c = e.sim;
        switch (e.type) {
            case ARRIVAL -> c.onArrival();
            case COMPLETION -> c.onCompletion(e);
            case POD_READY -> c.onPodReady(e.pod);
            case POISON_START -> c.onPoisonStart();
            case POISON_CLEAR -> c.onPoisonClear();
            case POD_HANG -> c.onPodHang();
            case POD_KILL -> c.onPodKill(e.pod);
            case RETRY -> c.offer(false);
            default -> throw new IllegalStateException("unknown event " + e.type);
        }
    }

    private void schedule(double time, int type, ClassSim sim, SandboxPod pod, double service, int poisonGeneration) {
        events.add(new SandboxEvent(time, sequence++, type, sim, pod, service, poisonGeneration));
    }

    Instant toInstant(double seconds) {
        return start.plusNanos(Math.round(seconds * 1e9));
    }

    double toSeconds(Instant t) {
        Duration d = Duration.between(start, t);
        return d.getSeconds() + d.getNano() / 1e9;
    }


    /** The state of one class: its queue, pods, random streams and rolling windows. */
    final class ClassSim {
        final SandboxClassSpec spec;
        final SplittableRandom arrivalRandom;
        final SplittableRandom serviceRandom;
        /** Programme-local times where the rate function may change, ascending. */
        final double[] breakpoints;
        final boolean anyArrivals;

        final DoubleRing waiting = new DoubleRing(64);
        final ProducerGate gate = new ProducerGate(SandboxWorld.this);
        final List<SandboxPod> pods = new ArrayList<>();
        final DoubleRing arrivalTimes = new DoubleRing(256);
        final DoubleRing completionTimes = new DoubleRing(256);
        final DoubleRing completionServices = new DoubleRing(256);

        int specReplicas;
        long version = 1;
        int podCounter;
        int inFlight;
        long jobsArrived;
        long jobsCompleted;

        boolean poisonActive;
        boolean poisonInFlight;
        double poisonEnqueuedAt;
        int poisonGeneration;

        ClassSim(SandboxClassSpec spec) {
            this.spec = spec;
            SplittableRandom root = new SplittableRandom(mix(seed) ^ mix(nameHash(spec.name())));
            this.arrivalRandom = root.split();
            this.serviceRandom = root.split();
            TreeSet<Double> bps = new TreeSet<>();
            bps.add(0.0);
            double maxRate = spec.baseRate();
            for (RateSegment s : spec.segments()) {
                bps.add(s.fromSeconds());
                bps.add(s.toSeconds());
                maxRate = Math.max(maxRate, s.maxRate());
            }
            if (spec.repeatSeconds() != null) {
                bps.add(spec.repeatSeconds());
                bps.removeIf(b -> b > spec.repeatSeconds());
            }
            this.breakpoints = bps.stream().mapToDouble(Double::doubleValue).toArray();
            this.anyArrivals = maxRate > 0;
            List<RateSegment> segs = spec.segments();
            this.segmentFrom = new double[segs.size()];
            boolean inOrder = true;
            for (int i = 0; i < segs.size(); i++) {
                segmentFrom[i] = segs.get(i).fromSeconds();
                inOrder &= i == 0 || segs.get(i - 1).toSeconds() <= segmentFrom[i];
            }
            this.segmentsInOrder = inOrder;
        }

        /** Segment starts, for a binary search when the segments are in order and do not overlap. */
        private final double[] segmentFrom;
        private final boolean segmentsInOrder;

        /**
         * The segment holding {@code local}, or null: as the spec's first-match scan, by binary search
         * when the segments are in order (a what-if replay of a day has thousands of them).
         */
        RateSegment segmentAt(double local) {
            List<RateSegment> segs = spec.segments();
            if (segmentsInOrder) {
                int i = Arrays.binarySearch(segmentFrom, local);
                i = i >= 0 ? i : -i - 2;
                return i >= 0 && local < segs.get(i).toSeconds() ? segs.get(i) : null;
            }
            for (RateSegment s : segs) {
                if (local >= s.fromSeconds() && local < s.toSeconds()) {
                    return s;
                }
            }
            return null;
        }

        /** The programme's rate at {@code t}, as {@link SandboxClassSpec#rateAt}. */
        double rateAt(double t) {
            double local = spec.localTime(t);
            RateSegment s = segmentAt(local);
            return s == null ? spec.baseRate() : s.rateAt(local);
        }

        void init() {
            for (int i = 0; i < spec.initialReplicas(); i++) {
                // Running before the world began: created one start-up earlier, ready at 0.
                SandboxPod p = newPod(-spec.startupSeconds());
                p.ready = true;
                p.readyAt = 0;
            }
            specReplicas = spec.initialReplicas();
            for (int i = 0; i < spec.initialBacklog(); i++) {
                waiting.addLast(0);
            }
            scheduleNextArrival(0);
            for (double h : spec.podHangs()) {
                schedule(h, POD_HANG, this, null, 0, -1);
            }
            if (spec.poison() != null) {
                schedule(spec.poison().atSeconds(), POISON_START, this, null, 0, -1);
                if (spec.poison().clearAtSeconds() != null) {
                    schedule(spec.poison().clearAtSeconds(), POISON_CLEAR, this, null, 0, -1);
                }
            }
            dispatch();
        }

        String resourceVersion() {
            return Long.toString(version);
        }

        int readyReplicas() {
            int n = 0;
            for (SandboxPod p : pods) {
                if (p.ready && !p.terminating()) {
                    n++;
                }
            }
            return n;
        }

        SandboxPod newPod() {
            return newPod(now);
        }

        SandboxPod newPod(double createdAt) {
            podCounter++;
            SandboxPod p = new SandboxPod(String.format("%s-%05d", spec.name(), podCounter), nodeSide.place(podCounter), createdAt);
            pods.add(p);
            return p;
        }

        void rescale(int replicas) {
            version++;
            if (replicas > specReplicas) {
                for (int i = specReplicas; i < replicas; i++) {
                    SandboxPod p = newPod();
                    schedule(now + spec.startupSeconds(), POD_READY, this, p, 0, -1);
                }
            } else {
                List<SandboxPod> candidates = new ArrayList<>();
                for (SandboxPod p : pods) {
                    if (!p.terminating()) {
                        candidates.add(p);
                    }
                }
                // ReplicaSet deletion order: not-ready before ready, then the lowest pod-deletion-cost,
                // then the newest first.
                candidates.sort((a, b) -> {
                    if (a.ready != b.ready) {
                        return a.ready ? 1 : -1;
                    }
                    int byCost = Integer.compare(a.deletionCost == null ? 0 : a.deletionCost,
                            b.deletionCost == null ? 0 : b.deletionCost);
                    if (byCost != 0) {
                        return byCost;
                    }
                    double ta = a.ready ? a.readyAt : a.createdAt;
                    double tb = b.ready ? b.readyAt : b.createdAt;
                    int byTime = Double.compare(tb, ta);
                    return byTime != 0 ? byTime : b.name.compareTo(a.name);
                });
                for (int i = 0; i < specReplicas - replicas; i++) {
                    SandboxPod p = candidates.get(i);
                    p.deletedAt = now;
                    if (p.inFlight == 0) {
                        remove(p);
                    } else if (p.hung) {
                        schedule(now + TERMINATION_GRACE_SECONDS, POD_KILL, this, p, 0, -1);
                    }
                }
            }
            specReplicas = replicas;
            dispatch();
        }

        /** An eviction: the pod terminates as on scale-down, and the ReplicaSet replaces it (spec unchanged). */
        void evict(SandboxPod p) {
            p.deletedAt = now;
            if (p.inFlight == 0) {
                remove(p);
            } else {
                schedule(now + TERMINATION_GRACE_SECONDS, POD_KILL, this, p, 0, -1);
            }
            SandboxPod replacement = newPod();
            schedule(now + spec.startupSeconds(), POD_READY, this, replacement, 0, -1);
            dispatch();
        }

        void remove(SandboxPod p) {
            p.gone = true;
            pods.remove(p);
        }

        // ---------------------------------------------------------- events

        void onArrival() {
            jobsArrived++;
            scheduleNextArrival(now);
            offer(true);
        }

        /** A job a producer offers (new, or a retry): queued, or held and retried later ({@link ProducerGate}). */
        void offer(boolean fresh) {
            if (!gate.admit(now, fresh, waiting.size() + inFlight)) {
                schedule(now + gate.retrySeconds(), RETRY, this, null, 0, -1);
                return;
            }
            waiting.addLast(now);
            arrivalTimes.addLast(now);
            trim(arrivalTimes, null);
            dispatch();
        }

        void onCompletion(SandboxEvent e) {
            SandboxPod pod = e.pod;
            if (pod.hung || pod.gone) {
                return; // a hung worker never finishes; a killed pod's jobs were handed back
            }
            pod.inFlight--;
            inFlight--;
            if (e.poisonGeneration >= 0) {
                // A failed attempt at the poison message: it goes back to the head unless it was dead-lettered meanwhile.
                if (poisonActive && e.poisonGeneration == poisonGeneration) {
                    poisonInFlight = false;
                }
            } else {
                jobsCompleted++;
                pod.completed++;
                completionTimes.addLast(now);
                completionServices.addLast(e.service);
                trim(completionTimes, completionServices);
            }
            if (pod.terminating() && pod.inFlight == 0) {
                remove(pod);
            }
            dispatch();
        }

        void onPodReady(SandboxPod pod) {
            if (pod.gone || pod.terminating()) {
                return;
            }
            pod.ready = true;
            pod.readyAt = now;
            dispatch();
        }

        /** The oldest healthy ready pod hangs: it keeps taking work until its slots are full and finishes none. */
        void onPodHang() {
            for (SandboxPod p : pods) {
                if (p.ready && !p.terminating() && !p.hung) {
                    p.hung = true;
                    p.hungAt = now;
                    return;
                }
            }
        }

        /** The grace period is over: the pod is killed and its jobs go back to the head of the queue. */
        void onPodKill(SandboxPod pod) {
            if (pod.gone) {
                return;
            }
            for (int i = 0; i < pod.inFlight; i++) {
                waiting.addFirst(Double.isNaN(pod.hungAt) ? now : pod.hungAt);
            }
            inFlight -= pod.inFlight;
            pod.inFlight = 0;
            remove(pod);
            dispatch();
        }

        void onPoisonStart() {
            if (!poisonActive) {
                poisonActive = true;
                poisonInFlight = false;
                poisonEnqueuedAt = now;
                poisonGeneration++;
            }
            if (spec.repeatSeconds() != null) {
                schedule(now + spec.repeatSeconds(), POISON_START, this, null, 0, -1);
            }
            dispatch();
        }

        void onPoisonClear() {
            poisonActive = false;
            poisonInFlight = false;
            if (spec.repeatSeconds() != null) {
                schedule(now + spec.repeatSeconds(), POISON_CLEAR, this, null, 0, -1);
            }
            dispatch();
        }

        // ---------------------------------------------------------- dispatch

        /** Hands waiting jobs, in order, to free slots; a poison message at the head blocks the rest. */
        void dispatch() {
            while (true) {
                if (poisonActive) {
                    if (!poisonInFlight) {
                        SandboxPod pod = freePod();
                        if (pod != null) {
                            poisonInFlight = true;
                            start(pod, poisonGeneration, 1);
                        }
                    }
                    return;
                }
                if (waiting.isEmpty()) {
                    return;
                }
                SandboxPod pod = freePod();
                if (pod == null) {
                    return;
                }
                double arrivedAt = waiting.pollFirst();
                start(pod, -1, spec.costAt(arrivedAt));
            }
        }

        /** The least-loaded ready pod with a free slot (first in creation order on ties), or null. */
        SandboxPod freePod() {
            SandboxPod best = null;
            for (SandboxPod p : pods) {
                if (p.ready && !p.terminating() && p.drainId == null && p.inFlight < spec.concurrency()
                        && (best == null || p.inFlight < best.inFlight)) {
                    best = p;
                    if (p.inFlight == 0) {
                        break; // no later pod is less loaded, and ties go to the first
                    }
                }
            }
            return best;
        }

        void start(SandboxPod pod, int poisonGen, double cost) {
            pod.inFlight++;
            inFlight++;
            double service = sampleService() * cost;
            Dependency dep = spec.dependency();
            if (dep != null) {
                service *= dep.factor(inFlight);
            }
            schedule(now + service, COMPLETION, this, pod, service, poisonGen);
        }

        double sampleService() {
            ServiceTime st = spec.service();
            switch (st.distribution()) {
                case CONSTANT:
                    return st.meanSeconds();
                case EXPONENTIAL:
                    return -st.meanSeconds() * Math.log(1.0 - serviceRandom.nextDouble());
                case UNIFORM:
                    return st.minSeconds() + (st.maxSeconds() - st.minSeconds()) * serviceRandom.nextDouble();
                case LOGNORMAL: {
                    double cv = st.cv();
                    double sigma2 = Math.log(1 + cv * cv);
                    double mu = Math.log(st.meanSeconds()) - sigma2 / 2;
                    // Box-Muller written out, so the stream does not depend on the JDK's Gaussian algorithm.
                    double u1 = 1.0 - serviceRandom.nextDouble();
                    double u2 = serviceRandom.nextDouble();
                    double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
                    return Math.exp(mu + Math.sqrt(sigma2) * z);
                }
                default:
                    throw new IllegalStateException(st.distribution().toString());
            }
        }

        // ---------------------------------------------------------- arrivals

        /**
         * Schedules the next arrival after {@code from}: exponential gaps at the piece's (upper-bound)
         * rate, restarted at every breakpoint (exact by memorylessness) and thinned inside ramps.
         */
        void scheduleNextArrival(double from) {
            if (!anyArrivals) {
                return;
            }
            double t = from;
            while (true) {
                double local = spec.localTime(t);
                double boundary = nextBoundary(t, local);
                double bound = pieceBound(local);
                if (bound <= 0) {
                    if (Double.isInfinite(boundary)) {
                        return;
                    }
                    t = boundary;
                    continue;
                }
                double candidate = t - Math.log(1.0 - arrivalRandom.nextDouble()) / bound;
                if (candidate >= boundary) {
                    t = boundary;
                    continue;
                }
                double rate = rateAt(candidate);
                if (rate >= bound || arrivalRandom.nextDouble() * bound < rate) {
                    schedule(candidate, ARRIVAL, this, null, 0, -1);
                    return;
                }
                t = candidate;
            }
        }

        /** Absolute time of the next breakpoint after {@code t}; infinite when the programme never changes again. */
        double nextBoundary(double t, double local) {
            int i = Arrays.binarySearch(breakpoints, local);
            i = i >= 0 ? i + 1 : -i - 1;
            double next;
            if (i < breakpoints.length) {
                next = t + (breakpoints[i] - local);
            } else if (spec.repeatSeconds() != null) {
                next = t + (spec.repeatSeconds() - local);
            } else {
                return Double.POSITIVE_INFINITY;
            }
            // Rounding can land on t itself; always make progress.
            return next > t ? next : Math.nextUp(t);
        }

        /** An upper bound of the rate across the piece containing {@code local}. */
        double pieceBound(double local) {
            RateSegment s = segmentAt(local);
            return s == null ? spec.baseRate() : s.maxRate();
        }

        // ---------------------------------------------------------- measurements

        void trimWindows() {
            trim(arrivalTimes, null);
            trim(completionTimes, completionServices);
        }

        /** Drops samples that left the window; {@code paired} is trimmed in lockstep. */
        void trim(DoubleRing times, DoubleRing paired) {
            double cutoff = now - WINDOW_SECONDS;
            while (!times.isEmpty() && times.peekFirst() <= cutoff) {
                times.pollFirst();
                if (paired != null) {
                    paired.pollFirst();
                }
            }
        }

        Measurements measure() {
            trimWindows();
            double window = Math.min(WINDOW_SECONDS, now);
            double arrivalRate = window > 0 ? arrivalTimes.size() / window : Double.NaN;
            double completionRate = window > 0 ? completionTimes.size() / window : Double.NaN;
            double meanService = Double.NaN;
            if (!completionServices.isEmpty()) {
                double sum = 0;
                for (int i = 0; i < completionServices.size(); i++) {
                    sum += completionServices.get(i);
                }
                meanService = sum / completionServices.size();
            }
            double oldestAge = oldestAgeSeconds();
            int queueLength = waiting.size() + (poisonActive && !poisonInFlight ? 1 : 0);
            double dependency = spec.dependency() == null ? Double.NaN
                    : spec.dependency().baseLatencyMs() * spec.dependency().factor(inFlight);
            double memory = Double.NaN;
            if (spec.podMemoryMb() != null && !pods.isEmpty()) {
                memory = spec.podMemoryMb() * (1 + 0.04 * noise());
            }
            return new Measurements(toInstant(now), now, queueLength, oldestAge, arrivalRate, meanService,
                    inFlight, completionRate, dependency, memory, spec.inOutage(now), poisonActive,
                    jobsArrived, jobsCompleted, specReplicas, readyReplicas(), pods.size(), resourceVersion());
        }

        /** Age of the oldest waiting job (the poison message counts while it is active); 0 when none waits. */
        double oldestAgeSeconds() {
            double oldest = Double.POSITIVE_INFINITY;
            if (!waiting.isEmpty()) {
                oldest = waiting.peekFirst();
            }
            if (poisonActive) {
                oldest = Math.min(oldest, poisonEnqueuedAt);
            }
            return Double.isInfinite(oldest) ? 0 : now - oldest;
        }

        /**
         * Noise in [-1, 1] that changes every 15 s, hashed from seed, class name and time rather than
         * drawn from a stream: reading metrics must never change what the simulation does next.
         */
        double noise() {
            long bucket = (long) Math.floor(now / 15);
            long h = mix(mix(seed ^ nameHash(spec.name())) + bucket);
            return ((h >>> 11) * 0x1.0p-53) * 2 - 1;
        }
    }

    // ---------------------------------------------------------- nodes (node drains): SandboxNodes

    /**
     * A PodDisruptionBudget on a class's pods, like {@code maxUnavailable}: an eviction is refused while
     * fewer than spec replicas − {@code maxUnavailable} pods would stay ready.
     */
    public synchronized void setDisruptionBudget(String className, String budgetName, int maxUnavailable) {
        if (!classes.containsKey(className)) {
            throw new IllegalArgumentException("no sandbox class '" + className + "'");
        }
        nodeSide.budgets.put(className, Map.entry(budgetName, maxUnavailable));
    }

    /** Cordons or uncordons a node: new pods (scale-ups, replacements) are placed elsewhere. */
    public synchronized boolean cordon(String node, boolean unschedulable) {
        return nodeSide.cordon(node, unschedulable);
    }

    /** One node as a drain sees it: each class's pods on it, and the node's DaemonSet pod. */
    public record NodeView(String name, boolean cordoned, List<NodePodView> pods) {
    }

    /** A pod on a node: namespace, name, owner (a ReplicaSet or the DaemonSet), terminating, drain mark. */
    public record NodePodView(String namespace, String name, String ownerKind, String ownerName, boolean ready,
                              Instant deletedAt, String drainId) {
    }

    public synchronized List<NodeView> nodes() {
        return nodeSide.nodes(classes.values());
    }

    /** What an eviction did: evicted, no such pod, or refused by the named budget with the API server's sentence. */
    public record Eviction(boolean evicted, boolean found, String budget, String message) {
    }

    /** The disruption budgets and what each allows now ({@link SandboxNodes#budgets}). */
    public synchronized List<io.headroom.cluster.DisruptionBudget> budgets() {
        return nodeSide.budgets(classes.values());
    }

    /** Evicts a pod as the Eviction API does ({@link SandboxNodes#evict}). */
    public synchronized Eviction evict(String namespace, String podName) {
        return nodeSide.evict(classes.values(), namespace, podName);
    }

    /** The producers of a class and the admission they obey (free unless told otherwise). */
    public Optional<ProducerGate> producers(String className) {
        return Optional.ofNullable(classes.get(className)).map(c -> c.gate);
    }

    /** Pods of a class in list order; for tests. */
    synchronized List<String> podNames(String className) {
        return classes.get(className).pods.stream().map(p -> p.name).toList();
    }
}
