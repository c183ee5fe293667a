package io.headroom.sim;

import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxWorld;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A scripted run: sandbox classes with their policies, played for {@code durationSeconds} with
 * a control tick every {@code tickSeconds}, from a seed so it replays identically.
 */
public record Scenario(String name, double durationSeconds, double tickSeconds, long seed, Instant start,
                       List<ScenarioClass> classes, ScenarioPlacement placement, ScenarioAnticipation anticipation) {

    /** Start of every scenario that does not name one. */
    public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

    public Scenario {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a scenario needs a name");
        }
        if (!(durationSeconds > 0) || Double.isInfinite(durationSeconds)) {
            throw new IllegalArgumentException("durationSeconds must be > 0, got " + durationSeconds);
        }
        if (!(tickSeconds > 0) || tickSeconds > durationSeconds) {
            throw new IllegalArgumentException("tickSeconds must be > 0 and <= durationSeconds ("
                    + durationSeconds + "), got " + tickSeconds);
        }
        if (start == null) {
            start = DEFAULT_START;
        }
        if (anticipation == null) {
            anticipation = ScenarioAnticipation.DEFAULTS;
        }
        classes = List.copyOf(classes);
        if (classes.isEmpty()) {
            throw new IllegalArgumentException("classes must name at least one class");
        }
        Set<String> names = new HashSet<>();
        for (ScenarioClass c : classes) {
            Objects.requireNonNull(c, "class");
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("class name '" + c.name() + "' is used twice");
            }
        }
    }

    /** Without an {@code anticipation:} block (its defaults). */
    public Scenario(String name, double durationSeconds, double tickSeconds, long seed, Instant start,
                    List<ScenarioClass> classes, ScenarioPlacement placement) {
        this(name, durationSeconds, tickSeconds, seed, start, classes, placement, null);
    }

    /** A scenario without {@code placement:}: each class is one pool. */
    public Scenario(String name, double durationSeconds, double tickSeconds, long seed, Instant start,
                    List<ScenarioClass> classes) {
        this(name, durationSeconds, tickSeconds, seed, start, classes, null);
    }

    /** The same scenario with {@code placed} as its pools (null: each class one pool). */
    public Scenario withPlacement(ScenarioPlacement placed) {
        return new Scenario(name, durationSeconds, tickSeconds, seed, start, classes, placed, anticipation);
    }

    /** A fresh world playing this scenario's classes from its seed and start. */
    public SandboxWorld newWorld() {
        List<SandboxClassSpec> specs = classes.stream().map(ScenarioClass::sandbox).toList();
        return new SandboxWorld(specs, seed, start);
    }

    /** The same scenario from another seed (other arrivals and service times, same programme). */
    public Scenario withSeed(long otherSeed) {
        return new Scenario(name, durationSeconds, tickSeconds, otherSeed, start, classes, placement, anticipation);
    }

    /** The same scenario with every class's policy in forecast mode {@code mode} (e.g. reactive beside auto). */
    public Scenario withForecastMode(io.headroom.decision.ForecastMode mode) {
        List<ScenarioClass> cs = classes.stream().map(c -> new ScenarioClass(c.sandbox(),
                c.policy().toBuilder().forecastMode(mode).build(), c.producers())).toList();
        return new Scenario(name, durationSeconds, tickSeconds, seed, start, cs, placement, anticipation);
    }

    /** The number of control ticks in the run. */
    public int ticks() {
        return (int) Math.floor(durationSeconds / tickSeconds + 1e-9);
    }
}
