package io.headroom.sandbox;

import io.headroom.decision.SignalName;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.metrics.MetricsSource;
import io.headroom.sandbox.SandboxWorld.Measurements;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The sandbox's telemetry: the numbers Prometheus would give for each simulated class. */
public final class SandboxMetrics implements MetricsSource {

    /** Signals every sandbox class reports; {@link Signals#QUEUED_SERVICE} is left out on purpose (default L × S). */
    static final List<SignalName> BASE_SIGNALS = List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE,
            Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE, Signals.IN_FLIGHT, Signals.COMPLETION_RATE);

    private final SandboxWorld world;
    private final Clock clock;

    public SandboxMetrics(SandboxWorld world, Clock clock) {
        this.world = Objects.requireNonNull(world, "world");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String name() {
        return "sandbox";
    }

    /**
     * Advances the world to the clock, then samples every class at world time. {@code now} is only
     * the caller's tick time; the samples carry the world's time, as Prometheus samples carry theirs.
     */
    @Override
    public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
        world.advanceTo(clock.instant());
        Map<String, Map<SignalName, Signal>> out = new LinkedHashMap<>();
        for (String name : classNames) {
            Optional<SandboxClassSpec> spec = world.spec(name);
            Optional<Measurements> m = world.measure(name);
            Map<SignalName, Signal> signals = spec.isPresent() && m.isPresent() ? signals(spec.get(), m.get())
                    : allMissing(Signals.STANDARD, "unknown class");
            ProducerGate.View p = world.producers(name).map(ProducerGate::view).orElse(null);
            if (p != null && m.isPresent() && p.mode() != ProducerGate.Mode.FREE && !m.get().metricsOutage()) {
                signals = new LinkedHashMap<>(signals); // the producers' gauge of the jobs they hold back
                signals.put(Signals.ADMISSION_HELD, Signal.of(p.held(), m.get().at()));
            }
            out.put(name, signals);
        }
        return Map.copyOf(out);
    }

    /**
     * The sandbox's past (the week a forecast needs, issue 29): before the world's start, each class's own arrival
     * programme (its mean over each step, with 5 % noise the same for every reader) and its mean service time (times
     * any cost segment); from the start on, NaN, which the live ticks hold. Other signals have no past here. Reads
     * only the immutable specs: safe on any thread, and the world does not move.
     */
    @Override
    public io.headroom.metrics.SignalHistory range(String className, SignalName signal, Instant from, Instant to,
                                                  java.time.Duration step) {
        Optional<SandboxClassSpec> found = world.spec(className);
        boolean arrivals = Signals.ARRIVAL_RATE.equals(signal);
        if (found.isEmpty() || !(arrivals || Signals.MEAN_SERVICE.equals(signal))) {
            return io.headroom.metrics.SignalHistory.none(className, signal, found.isEmpty() ? "unknown class"
                    : "the sandbox generates no past for it");
        }
        SandboxClassSpec spec = found.get();
        long s = Math.max(1, step.toSeconds());
        long first = Math.floorDiv(from.getEpochSecond(), s) * s;
        int n = (int) Math.max(0, (to.getEpochSecond() - first) / s + 1);
        double[] times = new double[n];
        double[] values = new double[n];
        double start = world.start().getEpochSecond() + world.start().getNano() / 1e9;
        for (int i = 0; i < n; i++) {
            times[i] = first + (double) i * s;
            double t = times[i] - start; // world seconds, negative before the start
            if (t >= 0) {
                values[i] = Double.NaN;
                continue;
            }
            double noise = 1 + 0.05 * new java.util.SplittableRandom(className.hashCode() * 31L + (long) times[i])
                    .nextGaussian();
            if (arrivals) {
                double sum = 0;
                int k = 6; // the programme's mean over the step, not one instant of it
                for (int j = 0; j < k; j++) {
                    sum += spec.rateAt(t - s + (j + 0.5) * s / k);
                }
                values[i] = Math.max(0, sum / k * noise);
            } else {
                values[i] = spec.service().meanSeconds() * spec.costAt(t) * noise;
            }
        }
        return new io.headroom.metrics.SignalHistory(className, signal, times, values, null);
    }

    @Override
    public Map<String, Double> inFlightByPod(String className) {
        world.advanceTo(clock.instant());
        return world.podInFlight(className);
    }

    @Override
    public Map<String, io.headroom.metrics.PodProgress> podProgress(String className) {
        world.advanceTo(clock.instant());
        Map<String, io.headroom.metrics.PodProgress> out = new LinkedHashMap<>();
        world.podProgress(className).forEach((pod, v) -> out.put(pod, new io.headroom.metrics.PodProgress(v[0], v[1])));
        return Map.copyOf(out);
    }

    static Map<SignalName, Signal> signals(SandboxClassSpec spec, Measurements m) {
        List<SignalName> names = signalNames(spec);
        if (m.metricsOutage()) {
            return allMissing(names, SandboxWorld.OUTAGE_REASON);
        }
        Instant at = m.at();
        Map<SignalName, Signal> s = new LinkedHashMap<>();
        s.put(Signals.QUEUE_LENGTH, Signal.of(m.queueLength(), at));
        s.put(Signals.OLDEST_AGE, Signal.of(m.oldestAgeSeconds(), at));
        s.put(Signals.ARRIVAL_RATE, orMissing(m.arrivalRate(), at, "no samples yet"));
        s.put(Signals.MEAN_SERVICE, orMissing(m.meanServiceSeconds(), at, "no completions in window"));
        s.put(Signals.IN_FLIGHT, Signal.of(m.inFlight(), at));
        s.put(Signals.COMPLETION_RATE, orMissing(m.completionRate(), at, "no samples yet"));
        if (spec.dependency() != null) {
            s.put(Signals.DEPENDENCY, Signal.of(m.dependencyLatencyMs(), at));
        }
        if (spec.podMemoryMb() != null) {
            s.put(Signals.POD_MEMORY, orMissing(m.podMemoryMb(), at, "no pods"));
        }
        return s;
    }

    /** The signals a class reports: the base ones, plus dependency and pod memory when configured. */
    static List<SignalName> signalNames(SandboxClassSpec spec) {
        List<SignalName> names = new java.util.ArrayList<>(BASE_SIGNALS);
        if (spec.dependency() != null) {
            names.add(Signals.DEPENDENCY);
        }
        if (spec.podMemoryMb() != null) {
            names.add(Signals.POD_MEMORY);
        }
        return names;
    }

    private static Signal orMissing(double value, Instant at, String reason) {
        return Double.isNaN(value) ? Signal.missing(reason) : Signal.of(value, at);
    }

    private static Map<SignalName, Signal> allMissing(List<SignalName> names, String reason) {
        Map<SignalName, Signal> s = new LinkedHashMap<>();
        for (SignalName n : names) {
            s.put(n, Signal.missing(reason));
        }
        return s;
    }
}
