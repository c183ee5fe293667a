package io.headroom.sim;

import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.AdmissionRule;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.decision.SignalName;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Signals;
import io.headroom.decision.Term;
import io.headroom.loop.Actuation;
import io.headroom.loop.Actuator;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.DirectActuator;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.ProducerGate;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a scenario faster than real time through the same sandbox, control loop and decision
 * core as the console, stepping a manual clock one control interval at a time.
 */
public final class Simulator {

    /**
     * One class at one tick, as {@code headroom simulate} prints it. Values the control loop could
     * not observe (outages) are NaN / null: the simulator reports what the loop saw.
     *
     * @param replicas spec replicas observed at the tick, before this tick's action
     */
    public record TickLine(double t, String className, double queueLength, double oldestAgeSeconds,
                           double arrivalRate, double meanServiceSeconds, Integer estimatedSlots,
                           int desiredReplicas, int replicas, int readyReplicas, String bindingCeiling,
                           List<String> reasons, String explanation, List<Term> terms, Integer governorLimit) {
        public TickLine {
            reasons = List.copyOf(reasons);
            terms = List.copyOf(terms);
        }
    }

    /**
     * One class over the whole run, from the simulated world's ground truth (not from the
     * possibly missing telemetry). The ages are the queue's: of the jobs the producers let in.
     *
     * @param jobsRejected jobs the producers refused at least once (admission or a fixed limit), each once
     * @param rejections   refusals, retries included
     * @param jobsHeld     refused jobs still waiting to retry at the end (not lost: counted here)
     */
    public record ClassSummary(String className, double maxOldestAgeSeconds, double p95OldestAgeSeconds,
                               double ageObjectiveViolationSeconds, double replicaSeconds, int scaleEvents,
                               long jobsCompleted, long jobsRejected, long rejections, int jobsHeld) {
        /** A run whose producers refused nothing. */
        public ClassSummary(String className, double maxOldestAgeSeconds, double p95OldestAgeSeconds,
                            double ageObjectiveViolationSeconds, double replicaSeconds, int scaleEvents,
                            long jobsCompleted) {
            this(className, maxOldestAgeSeconds, p95OldestAgeSeconds, ageObjectiveViolationSeconds, replicaSeconds,
                    scaleEvents, jobsCompleted, 0, 0, 0);
        }
    }

    /** The admission obeying producers read: decided each tick, conservative while telemetry is missing. */
    static final AdmissionPolicy OBEYED = new AdmissionPolicy(true, AdmissionPolicy.OnMissing.CONSERVATIVE, null);

    /** How often the world's truth is sampled for the summaries. */
    static final double TRUTH_SECONDS = 1;

    private Simulator() {
    }

    /** Runs the whole scenario under Headroom's decision; {@code onTick} sees every line in order. */
    public static List<ClassSummary> run(Scenario scenario, Consumer<TickLine> onTick) {
        return run(scenario, Decider.HEADROOM, onTick);
    }

    /**
     * Runs the whole scenario with {@code decider} choosing replicas (Headroom's decision or a
     * baseline); the world, its seed and its arrivals are the same whichever decides.
     */
    public static List<ClassSummary> run(Scenario scenario, Decider decider, Consumer<TickLine> onTick) {
        return run(scenario, decider, onTick, r -> { });
    }

    /**
     * The same, and {@code onResult} sees each tick's whole {@link TickResult} (e.g. a
     * {@code HistoryRecorder}, so the simulated load becomes a class's history).
     */
    public static List<ClassSummary> run(Scenario scenario, Decider decider, Consumer<TickLine> onTick,
                                         Consumer<TickResult> onResult) {
        return run(scenario, decider, onTick, onResult, (t, name, truth) -> { });
    }

    /** The world's ground truth for one class right after a tick (the numbers the summaries are made of). */
    @FunctionalInterface
    public interface TruthListener {
        void at(double t, String className, SandboxWorld.Truth truth);
    }

    /**
     * The same, and {@code onTruth} sees each class's ground truth right after each tick: e.g. the jobs
     * completed by several times in one run, where cutting the run at each time would repeat it.
     */
    public static List<ClassSummary> run(Scenario scenario, Decider decider, Consumer<TickLine> onTick,
                                         Consumer<TickResult> onResult, TruthListener onTruth) {
        return run(scenario, decider, onTick, onResult, onTruth, scenario.placement() == null
                ? (world, cluster) -> new DirectActuator(cluster) : PlacementSimulator.actuator(scenario, line -> { }));
    }

    /** What acts on the loop's decisions in a run: e.g. {@link PlacementSimulator}'s pools in front of the world. */
    @FunctionalInterface
    interface ActuatorFactory {
        Actuator create(SandboxWorld world, io.headroom.cluster.ClusterPorts cluster);
    }

    static List<ClassSummary> run(Scenario scenario, Decider decider, Consumer<TickLine> onTick,
                                  Consumer<TickResult> onResult, TruthListener onTruth, ActuatorFactory actuator) {
        Instant start = scenario.start();
        List<SandboxClassSpec> specs = new ArrayList<>();
        List<WorkloadClass> classes = new ArrayList<>();
        for (ScenarioClass c : scenario.classes()) {
            specs.add(c.sandbox());
            classes.add(new WorkloadClass(c.sandbox().name(), c.sandbox().target(), c.policy()));
        }
        ManualClock clock = new ManualClock(start);
        SandboxWorld world = new SandboxWorld(specs, scenario.seed(), start);
        io.headroom.cluster.ClusterPorts cluster = new SandboxCluster(world, clock).ports();
        SandboxMetrics metrics = new SandboxMetrics(world, clock);
        // Classes whose policy acts on its forecast (propose, approved at once here, or auto) decide with anticipation.
        Decider deciding = SimAnticipator.wrap(scenario, decider, world);
        ControlLoop loop = new ControlLoop(classes, cluster, metrics, actuator.create(world, cluster), clock, deciding);
        Map<String, ProducerGate> obeying = new LinkedHashMap<>();
        for (ScenarioClass c : scenario.classes()) {
            ProducerGate gate = world.producers(c.name()).orElseThrow();
            c.producers().apply(gate);
            if (c.producers().mode() == ProducerGate.Mode.OBEY) {
                obeying.put(c.name(), gate);
            }
        }

        Map<String, io.headroom.decision.Policy> policies = new LinkedHashMap<>();
        for (WorkloadClass c : classes) {
            policies.put(c.name(), c.policy());
        }
        Map<String, Accumulator> acc = new LinkedHashMap<>();
        for (WorkloadClass c : classes) {
            acc.put(c.name(), new Accumulator(c.policy().maxAgeSeconds()));
        }
        double tick = scenario.tickSeconds();
        long ticks = (long) Math.floor(scenario.durationSeconds() / tick + 1e-9);
        // The world's truth is sampled every second between ticks (or every tick when shorter), so
        // violation seconds and replica-hours are measured, not rounded to whole ticks.
        int samples = (int) Math.max(1, Math.ceil(tick / TRUTH_SECONDS - 1e-9));
        double step = tick / samples;
        for (long i = 0; i <= ticks; i++) {
            double t = i * tick;
            clock.set(start.plus(Duration.ofNanos((long) (t * 1e9))));
            TickResult r = loop.tick();
            onResult.accept(r);
            for (ClassSnapshot s : r.classes()) {
                acc.get(s.name()).scaled(s.actuation());
                ProducerGate gate = obeying.get(s.name());
                if (gate != null && s.decision() != null) {
                    // What the console would publish this tick, read by the producers at once.
                    AdmissionVerdict v = AdmissionRule.decide(s.decision(), policies.get(s.name()), OBEYED);
                    gate.admission(v.state(), v.rate(), null);
                }
                onTick.accept(line(t, s));
            }
            int n = i < ticks ? samples : 1;
            for (int j = 0; j < n; j++) {
                if (j > 0) {
                    world.advanceTo(start.plus(Duration.ofNanos((long) ((t + j * step) * 1e9))));
                }
                for (WorkloadClass c : classes) {
                    SandboxWorld.Truth truth = world.truth(c.name()).orElseThrow();
                    if (j == 0) {
                        onTruth.at(t, c.name(), truth);
                    }
                    acc.get(c.name()).add(truth, i < ticks ? step : 0);
                }
            }
        }
        List<ClassSummary> out = new ArrayList<>();
        for (Map.Entry<String, Accumulator> e : acc.entrySet()) {
            SandboxWorld.Measurements last = world.measure(e.getKey()).orElseThrow();
            ProducerGate.View p = world.producers(e.getKey()).orElseThrow().view();
            out.add(e.getValue().summary(e.getKey(), last.jobsCompleted(), p));
        }
        return out;
    }

    static TickLine line(double t, ClassSnapshot s) {
        Decision d = s.decision();
        if (d == null) {
            return new TickLine(t, s.name(), Double.NaN, Double.NaN, Double.NaN, Double.NaN, null, 0, 0, 0, null,
                    List.of("PROBLEM"), s.problem(), List.of(), null);
        }
        return line(t, s.name(), d);
    }

    /** The line for one class's decision at {@code t} seconds into the run (also a what-if replay's own loop). */
    public static TickLine line(double t, String className, Decision d) {
        // A loop, not a stream: a day's what-if makes 11,000 lines.
        String[] words = new String[d.reasons().size()];
        for (int i = 0; i < words.length; i++) {
            words[i] = d.reasons().get(i).toString();
        }
        List<String> reasons = List.of(words);
        return new TickLine(t, className, value(d, Signals.QUEUE_LENGTH), value(d, Signals.OLDEST_AGE),
                value(d, Signals.ARRIVAL_RATE), value(d, Signals.MEAN_SERVICE), d.estimatedSlots(),
                d.desiredReplicas(), d.currentReplicas(), d.readyReplicas(), d.bindingCeiling(), reasons,
                d.explanation(), d.terms(), d.governorLimit());
    }

    private static double value(Decision d, SignalName name) {
        InputStatus in = d.input(name);
        return in != null && in.usable() ? in.value() : Double.NaN;
    }

    /** Summary figures for one class, accumulated tick by tick. */
    private static final class Accumulator {
        private final Double objective;
        private double[] ages = new double[256];
        private int n;
        private double maxAge;
        private double violation;
        private double replicaSeconds;
        private int scaleEvents;

        Accumulator(Double objective) {
            this.objective = objective;
        }

        void scaled(Actuation a) {
            if (a != null && a.kind() == Actuation.Kind.APPLIED) {
                scaleEvents++;
            }
        }

        void add(SandboxWorld.Truth m, double dt) {
            double age = m.oldestAgeSeconds();
            if (n == ages.length) {
                ages = Arrays.copyOf(ages, n * 2);
            }
            ages[n++] = age;
            maxAge = Math.max(maxAge, age);
            if (objective != null && age > objective) {
                violation += dt;
            }
            replicaSeconds += m.specReplicas() * dt;
        }

        ClassSummary summary(String name, long completed, ProducerGate.View p) {
            double[] sorted = Arrays.copyOf(ages, n);
            Arrays.sort(sorted);
            double p95 = n == 0 ? 0 : sorted[Math.min(n - 1, (int) Math.ceil(0.95 * n) - 1)];
            return new ClassSummary(name, maxAge, p95, violation, replicaSeconds, scaleEvents, completed,
                    p.jobsRejected(), p.rejections(), p.held());
        }
    }
}
