package io.headroom.loop;

import io.headroom.decision.SignalName;
import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.Observation;
import io.headroom.decision.Signal;
import io.headroom.metrics.MetricsSource;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One control tick for every class: read the world, decide (pure), hand the decision to the
 * actuator, publish the result. This is the HPA's {@code horizontal.go} to the decision core's
 * {@code replica_calculator.go}. It runs on whatever thread calls {@link #tick()}, never the FX thread.
 */
public final class ControlLoop {
    private static final Logger LOG = Logger.getLogger(ControlLoop.class.getName());

    /** Immutable; replaced whole when an operator edits a class's policy (read by any thread). */
    private volatile List<WorkloadClass> classes;
    private final ClusterPorts cluster;
    private final MetricsSource metrics;
    private final Clock clock;
    private final Decider decider;
    private final Map<String, ClassMemory> memory = new HashMap<>();
    private final Map<String, PodProgressTracker> progress = new HashMap<>();
    private final Map<String, PodCompletions> completions = new HashMap<>();
    /** What placement remembers per pooled class between ticks (decision 0029). */
    private final Map<String, io.headroom.decision.Placement.Memory> placements = new HashMap<>();
    private final List<Consumer<TickResult>> listeners = new CopyOnWriteArrayList<>();
    private volatile Actuator actuator;

    public ControlLoop(List<WorkloadClass> classes, ClusterPorts cluster, MetricsSource metrics,
                       Actuator actuator, Clock clock) {
        this(classes, cluster, metrics, actuator, clock, Decider.HEADROOM);
    }

    /** A loop deciding by another rule (a baseline such as KEDA's, for side-by-side runs). */
    public ControlLoop(List<WorkloadClass> classes, ClusterPorts cluster, MetricsSource metrics,
                       Actuator actuator, Clock clock, Decider decider) {
        this.decider = java.util.Objects.requireNonNull(decider, "decider");
        this.classes = List.copyOf(classes);
        this.cluster = cluster;
        this.metrics = metrics;
        this.actuator = actuator;
        this.clock = clock;
    }

    public List<WorkloadClass> classes() {
        return classes;
    }

    /**
     * Replaces a class's live policy from the next tick on (an operator's edit, journaled by the
     * caller); returns the policy it replaced. Waits for a running tick to end.
     *
     * @throws IllegalArgumentException when no class has that name
     */
    public synchronized io.headroom.decision.Policy setPolicy(String className, io.headroom.decision.Policy policy) {
        java.util.Objects.requireNonNull(policy, "policy");
        List<WorkloadClass> next = new ArrayList<>(classes);
        for (int i = 0; i < next.size(); i++) {
            WorkloadClass c = next.get(i);
            if (c.name().equals(className)) {
                next.set(i, c.withPolicy(policy));
                classes = List.copyOf(next);
                return c.policy();
            }
        }
        throw new IllegalArgumentException("no class named " + className);
    }

    public ClusterPorts cluster() {
        return cluster;
    }

    public MetricsSource metrics() {
        return metrics;
    }

    /** Swaps how decisions are acted on (direct today; supervised proposals later). */
    public void setActuator(Actuator actuator) {
        this.actuator = actuator;
    }

    /** Listeners run on the loop's thread; the UI hands results over to the FX thread itself. */
    public void addListener(Consumer<TickResult> listener) {
        listeners.add(listener);
    }

    public void removeListener(Consumer<TickResult> listener) {
        listeners.remove(listener);
    }

    /** Runs one tick at the clock's current time. */
    public synchronized TickResult tick() {
        Instant now = clock.instant();
        List<String> names = new ArrayList<>(classes.size());
        for (WorkloadClass c : classes) {
            names.add(c.name());
        }
        Map<String, Map<SignalName, Signal>> readings;
        try {
            readings = metrics.read(names, now);
        } catch (RuntimeException e) {
            // A broken source is no data for everyone, never zero load.
            LOG.log(Level.WARNING, "metrics read failed", e);
            readings = Map.of();
        }
        List<ClassSnapshot> snapshots = new ArrayList<>(classes.size());
        Actuator act = actuator;
        act.tickStarted(now);
        try {
            for (WorkloadClass c : classes) {
                snapshots.add(tickClass(c, readings.getOrDefault(c.name(), Map.of()), now, act));
            }
        } finally {
            act.tickEnded(now);
        }
        TickResult result = new TickResult(now, snapshots, cluster.contextName(), metrics.name());
        for (Consumer<TickResult> l : listeners) {
            try {
                l.accept(result);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "tick listener failed", e);
            }
        }
        return result;
    }

    private static ClassSnapshot unobserved(WorkloadClass c, Instant now, Actuator act, String problem,
                                            Map<SignalName, Signal> signals) {
        try {
            act.unobserved(c, problem);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "actuator failed for unreadable " + c.name(), e);
        }
        return new ClassSnapshot(c, now, null, null, null, null, problem, signals); // the metrics' figures still show
    }

    /** The forecast floor the actuator holds for the class; a problem with it never breaks the tick. */
    private static io.headroom.decision.ForecastFloor floor(WorkloadClass c, Observation obs, Instant now,
                                                            Actuator act) {
        try {
            return act.forecastFloor(c, obs, now);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "forecast floor not looked at for " + c.name(), e);
            return null;
        }
    }

    private ClassSnapshot tickClass(WorkloadClass c, Map<SignalName, Signal> signals, Instant now, Actuator act) {
        Optional<WorkloadState> state;
        Map<String, WorkloadState> pools = null;
        try {
            if (c.pooled()) {
                StringBuilder problem = new StringBuilder();
                pools = PoolPlacement.read(cluster.workloads(), c.pools(), problem);
                if (pools == null) {
                    return unobserved(c, now, act, problem.toString(), signals);
                }
                state = Optional.of(PoolPlacement.combined(c.target(), pools));
            } else {
                state = cluster.workloads().workload(c.target());
            }
        } catch (RuntimeException e) {
            return unobserved(c, now, act, "cluster read failed: " + io.headroom.ErrorWords.of(e), signals);
        }
        if (state.isEmpty()) {
            return unobserved(c, now, act, "workload " + c.target() + " not found", signals);
        }
        WorkloadState w = state.get();
        Map<String, io.headroom.metrics.PodProgress> perPod;
        try {
            perPod = metrics.podProgress(c.name());
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "per-pod progress unavailable for " + c.name(), e);
            perPod = Map.of(); // unknown progress flags nothing
        }
        PodProgressTracker tracker = progress.computeIfAbsent(c.name(), k -> new PodProgressTracker());
        Map<String, PodWork> podWork = completions.computeIfAbsent(c.name(), k -> new PodCompletions())
                .update(perPod, now);
        ClassMemory before = memory.get(c.name());
        if (before != null && before.stallSince() != null) {
            // While the class shows a stall (a poison head, a dead dependency) that explains its idle
            // workers; each pod's clock starts again once it is over.
            tracker.forget();
        }
        Map<String, Instant> noProgress = tracker.update(w.pods(), perPod, now);
        Observation obs = new Observation(w.specReplicas(), w.readyReplicas(), signals,
                PodStartup.measure(w.pods()), null, PodStartup.startingSince(w.pods()), noProgress);
        obs = obs.withForecastFloor(floor(c, obs, now, act));
        Decision d = decider.decide(c.name(), c.policy(), obs,
                memory.getOrDefault(c.name(), ClassMemory.initial()), now);
        memory.put(c.name(), d.memory());
        Actuation a;
        PoolPlacement placed = null;
        try {
            if (pools != null) {
                placed = PoolPlacement.place(c.pools(), pools, d.desiredReplicas(), placements.get(c.name()), now,
                        signals, c.policy().scaleUp());
                placements.put(c.name(), placed.result().memory());
                a = act.handlePools(c, d, w, placed);
            } else {
                a = act.handle(c, d, w);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "actuation failed for " + c.name(), e);
            a = new Actuation(Actuation.Kind.FAILED, d.currentReplicas(), d.currentReplicas(),
                    "actuation failed: " + io.headroom.ErrorWords.of(e));
        }
        if (a.kind() == Actuation.Kind.APPLIED && a.to() != a.from()) {
            // The rate policies count a change from when it was applied, not from the next tick that sees it.
            memory.put(c.name(), d.memory().applied(now, a.from(), a.to()));
        }
        return new ClassSnapshot(c, now, obs, w, d, a, null, obs.signals(), podWork,
                placed == null ? null : placed.result(), placed == null ? null : placed.observed(),
                placed == null ? null : placed.podPools());
    }
}
