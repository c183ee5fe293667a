package io.headroom.whatif;

import io.headroom.decision.SignalName;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.sim.Simulator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One policy's replay over a {@link FluidQueue}: the control loop of {@code Simulator} (read,
 * decide with the same decision code, scale, pods ready after the start-up) with the queue as a
 * fluid instead of one event per job, so a day costs its ticks, not its jobs. The summary is
 * measured as the simulator measures it (the truth every second, or every tick when shorter).
 *
 * <p>Arrivals keep their randomness (a Poisson count every second, the same for both runs); what it
 * leaves out against the per-job world is the randomness within a second and of service times (work
 * drains as a fluid at the typical service time). The per-job replay keeps them for the short
 * windows it can afford ({@link Replay#PER_JOB_UP_TO_SECONDS}).
 */
final class FluidRun {

    static final String NAME = "what-if";

    private final FluidQueue queue;
    private final int concurrency;
    private final double service;
    private int ready;
    /** Ready times of pods still starting, oldest first (all start in the same time, so in creation order). */
    private double[] pending = new double[16];
    private int pendingHead;
    private int pendingCount;

    /** Arrivals are drawn per second: the noise a queue and a 1-minute rate really show. */
    static final double ARRIVAL_SECONDS = 1;
    /** Above this many expected arrivals in a second, the Poisson count is drawn from its normal approximation. */
    private static final double NORMAL_ABOVE = 15;

    private FluidRun(double[] arrivals, LoadHistory h, double service, int concurrency) {
        this.service = service;
        this.concurrency = concurrency;
        this.ready = h.replicasAtStart();
        double backlog = Math.max(0, Math.round(Double.isFinite(h.queueAtStart()) ? h.queueAtStart() : 0));
        this.queue = new FluidQueue(arrivals, ARRIVAL_SECONDS, h.seconds(), backlog, service, ready * concurrency);
    }

    /**
     * The arrivals both runs see: for each second of the window a Poisson count at the bucket's
     * rate (from {@code seed}), as a rate for that second. The queue then forms and the measured rate
     * wanders as they do with real traffic, which the decision answers to, while the cost stays one
     * draw a second whatever the rate.
     *
     * @param rates arrival rate per {@link Replay#BUCKET_SECONDS} bucket from the window's start
     */
    static double[] arrivals(double[] rates, double seconds, long seed) {
        int n = (int) Math.ceil(seconds / ARRIVAL_SECONDS - 1e-9);
        double[] out = new double[Math.max(0, n)];
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L);
        for (int k = 0; k < out.length; k++) {
            double from = k * ARRIVAL_SECONDS;
            double len = Math.min(seconds, from + ARRIVAL_SECONDS) - from;
            int b = Math.min(rates.length - 1, (int) (from / Replay.BUCKET_SECONDS));
            double mean = b < 0 ? 0 : rates[b] * len;
            out[k] = len > 0 ? poisson(random, mean) / len : 0;
        }
        return out;
    }

    static double poisson(java.util.SplittableRandom random, double mean) {
        if (!(mean > 0)) {
            return 0;
        }
        if (mean > NORMAL_ABOVE) {
            // Box-Muller written out, as the sandbox does, so the stream does not depend on the JDK.
            double z = Math.sqrt(-2 * Math.log(1.0 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
            return Math.max(0, Math.round(mean + Math.sqrt(mean) * z));
        }
        double limit = Math.exp(-mean);
        double product = random.nextDouble();
        int k = 0;
        while (product > limit) {
            k++;
            product *= random.nextDouble();
        }
        return k;
    }

    /**
     * @param arrivals arrival rate per {@link #ARRIVAL_SECONDS} from the window's start ({@link #arrivals})
     * @param service  the typical service time, seconds
     * @param onTick   told each tick's time (seconds into the run); throws to stop the run
     */
    static Replay.Run run(double[] arrivals, LoadHistory h, double service, int concurrency, Policy p, double tick,
                          Decider rule, java.util.function.DoubleConsumer onTick) {
        return new FluidRun(arrivals, h, service, concurrency).run(h, p, tick, rule, onTick);
    }

    private Replay.Run run(LoadHistory h, Policy p, double tick, Decider rule, java.util.function.DoubleConsumer onTick) {
        Instant start = Instant.ofEpochSecond((long) h.times()[0]);
        long ticks = (long) Math.floor(h.seconds() / tick + 1e-9);
        int samples = (int) Math.max(1, Math.ceil(tick - 1e-9)); // the truth every second, as the simulator samples it
        double step = tick / samples;
        double window = SandboxWorld.WINDOW_SECONDS;
        // Completed jobs at each of the last samples, for the completion rate over the window.
        int ringSize = (int) Math.ceil(window / step) + 2;
        double[] ring = new double[ringSize];
        double perWindow = window / step;

        Double objective = p.maxAgeSeconds();
        double[] ages = new double[(int) (ticks * samples + 1)];
        int n = 0;
        double maxAge = 0;
        double violation = 0;
        double replicaSeconds = 0;
        int scaleEvents = 0;
        ClassMemory memory = ClassMemory.initial();
        List<Simulator.TickLine> lines = new ArrayList<>((int) ticks + 1);
        for (long i = 0; i <= ticks; i++) {
            double t = i * tick;
            advance(t);
            long m = i * samples; // this sample's index
            Instant now = start.plusNanos((long) (t * 1e9));
            Decision d = rule.decide(NAME, p, observe(t, now, m, ring, perWindow, window), memory, now);
            memory = d.memory();
            if (d.wantsChange() && d.desiredReplicas() >= 0 && d.desiredReplicas() <= SandboxWorld.MAX_REPLICAS) {
                scale(t, d.desiredReplicas());
                scaleEvents++;
                // The rate policies count a change from when it was applied, as the control loop stamps it.
                memory = memory.applied(now, d.currentReplicas(), d.desiredReplicas());
            }
            lines.add(Simulator.line(t, NAME, d));
            onTick.accept(t);
            int count = i < ticks ? samples : 1;
            double dt = i < ticks ? step : 0;
            for (int j = 0; j < count; j++) {
                if (j > 0) {
                    advance(t + j * step);
                }
                ring[(int) ((m + j) % ringSize)] = queue.completed();
                double age = queue.oldestAge();
                ages[n++] = age;
                maxAge = Math.max(maxAge, age);
                if (objective != null && age > objective) {
                    violation += dt;
                }
                replicaSeconds += specReplicas() * dt;
            }
        }
        double p95 = n == 0 ? 0 : Percentile.select(ages, n, Math.min(n - 1, (int) Math.ceil(0.95 * n) - 1));
        Simulator.ClassSummary summary = new Simulator.ClassSummary(NAME, maxAge, p95, violation, replicaSeconds,
                scaleEvents, Math.round(queue.completed()));
        return new Replay.Run(summary, lines);
    }

    /** What the metrics and the cluster show at {@code t}: the sandbox's signals, from the fluid. */
    private Observation observe(double t, Instant now, long m, double[] ring, double perWindow, double window) {
        double w = Math.min(window, t);
        Signal arrival;
        Signal completion;
        Signal meanService;
        if (w > 0) {
            double arrived = queue.arrivals(t) - queue.arrivals(t - w);
            double done = queue.completed() - completedAt(ring, m - Math.min(perWindow, m));
            arrival = Signal.of(arrived / w, now);
            completion = Signal.of(done / w, now);
            // The mean service of the jobs finished in the window: the typical one, once one has finished.
            meanService = done >= 0.5 ? Signal.of(service, now) : Signal.missing("no completions in window");
        } else {
            arrival = Signal.missing("no samples yet");
            completion = Signal.missing("no samples yet");
            meanService = Signal.missing("no completions in window");
        }
        Map<SignalName, Signal> signals = Map.of(
                Signals.QUEUE_LENGTH, Signal.of(queue.backlog(), now),
                Signals.OLDEST_AGE, Signal.of(queue.oldestAge(), now),
                Signals.ARRIVAL_RATE, arrival,
                Signals.MEAN_SERVICE, meanService,
                Signals.IN_FLIGHT, Signal.of(queue.busy(), now),
                Signals.COMPLETION_RATE, completion);
        // Pods that hold work or are ready show their start-up, as the cluster would.
        double startup = ready > 0 || queue.busy() > 0 ? Replay.STARTUP_SECONDS : Double.NaN;
        Instant startingSince = pendingCount == 0 ? null
                : start(now, t, pending[pendingHead] - Replay.STARTUP_SECONDS);
        return new Observation(specReplicas(), ready, signals, startup, null, startingSince, Map.of());
    }

    private static Instant start(Instant now, double t, double createdAt) {
        return now.minusNanos((long) ((t - createdAt) * 1e9));
    }

    /** Completed jobs at sample index {@code at} (fractional: between two samples), 0 before the start. */
    private static double completedAt(double[] ring, double at) {
        if (at <= 0) {
            return 0;
        }
        long lo = (long) Math.floor(at);
        double f = at - lo;
        double a = ring[(int) (lo % ring.length)];
        if (f == 0) {
            return a;
        }
        double b = ring[(int) ((lo + 1) % ring.length)];
        return a + (b - a) * f;
    }

    private int specReplicas() {
        return ready + pendingCount;
    }

    /** Pods whose start-up ends by {@code t} become ready on the way there. */
    private void advance(double t) {
        while (pendingCount > 0 && pending[pendingHead] <= t) {
            queue.advanceTo(pending[pendingHead]);
            pendingHead = (pendingHead + 1) % pending.length;
            pendingCount--;
            ready++;
            queue.setSlots(ready * concurrency);
        }
        queue.advanceTo(t);
    }

    /**
     * Scale-up starts pods that are ready after the start-up; scale-down takes starting pods first
     * (the newest), then ready ones, as a ReplicaSet does. A ready pod that goes finishes its work in
     * flight (the queue's busy drains to the slots left) and takes no new work.
     */
    private void scale(double t, int replicas) {
        int spec = specReplicas();
        if (replicas > spec) {
            for (int i = spec; i < replicas; i++) {
                if (pendingCount == pending.length) {
                    double[] grown = new double[pending.length * 2];
                    for (int k = 0; k < pendingCount; k++) {
                        grown[k] = pending[(pendingHead + k) % pending.length];
                    }
                    pending = grown;
                    pendingHead = 0;
                }
                pending[(pendingHead + pendingCount) % pending.length] = t + Replay.STARTUP_SECONDS;
                pendingCount++;
            }
            return;
        }
        int remove = spec - replicas;
        int fromPending = Math.min(remove, pendingCount);
        pendingCount -= fromPending;
        ready -= remove - fromPending;
        queue.setSlots(ready * concurrency);
    }
}
