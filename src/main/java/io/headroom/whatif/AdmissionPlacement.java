package io.headroom.whatif;

import io.headroom.decision.Decider;
import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sim.PlacementSimulator;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioClass;
import io.headroom.sim.ScenarioProducers;
import io.headroom.sim.SimPool;
import io.headroom.sim.Simulator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Admission and placement in what-if (issue 30): the replayed window under the live policy, once with the
 * producers obeying admission and once without (jobs held back, time over the objective of the jobs let in), and,
 * for a class placed across pools, once on its pools with the first pool's nodes gone for a third of the window
 * from just before its busiest stretch, and once on that pool alone (the split over the replay, time over the objective, replica-hours).
 * Job by job through the same simulator, decision, {@code ProducerGate} and {@link Placement} as
 * {@code headroom simulate}: none of their logic is copied here. Same arrivals in every run (one seed). Only for
 * windows replayed job by job ({@link Replay#PER_JOB_UP_TO_SECONDS}); the fluid queue has no producers or pools.
 * Pure; call it off the FX thread.
 */
public final class AdmissionPlacement {

    /** How long a refused job waits before its producer offers it again. */
    public static final double RETRY_SECONDS = io.headroom.sandbox.ProducerGate.DEFAULT_RETRY_SECONDS;

    private AdmissionPlacement() {
    }

    /** What the replay is asked: admission off vs on, placement vs one pool, either, or neither. */
    public record Ask(boolean admission, List<Placement.PoolSpec> pools, Placement.Timing timing) {
        public static final Ask NONE = new Ask(false, List.of(), Placement.Timing.DEFAULT);

        public Ask {
            pools = pools == null ? List.of() : List.copyOf(pools);
            timing = timing == null ? Placement.Timing.DEFAULT : timing;
        }

        /** A class with more than one pool is placed; one pool is the class's target, nothing to compare. */
        public boolean placed() {
            return pools.size() > 1;
        }

        public boolean any() {
            return admission || placed();
        }
    }

    /** Admission off (every job submitted) and on (the producers obey admission as decided each tick). */
    public record AdmissionRuns(Replay.Run off, Replay.Run on) {
    }

    /**
     * The class on its pools and on the first alone, that pool's nodes gone from {@code lostFrom} to
     * {@code lostTo} seconds into the window.
     *
     * @param split        replica-hours placed in each pool over the replay, in preference order
     * @param movedAfter   seconds from the nodes going to the first tick whose placement moved a share off the
     *                     pool, or NaN when it never moved
     * @param pendedAfter  seconds from the nodes going to the first of the pool's pods left Pending (the
     *                     unschedulable deadline counts from it), or NaN when none pended
     */
    public record PlacementRuns(Replay.Run onePool, Replay.Run placed, List<Placement.PoolSpec> pools,
                                double lostFrom, double lostTo, Map<String, Double> split, double movedAfter,
                                double pendedAfter) {
        public PlacementRuns {
            split = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(split));
        }

        /** Replica-hours weighted by each pool's cost weight, placed run. */
        public double costHours() {
            double c = 0;
            for (Placement.PoolSpec p : pools) {
                c += split.getOrDefault(p.name(), 0.0) * p.costWeight();
            }
            return c;
        }
    }

    /** What was replayed; a part not asked (or not replayable) is null, with the reason in {@code notes}. */
    public record Result(AdmissionRuns admission, PlacementRuns placement, List<String> notes) {
        public Result {
            notes = List.copyOf(notes);
        }
    }

    /**
     * Replays what {@code ask} asks over {@code h} under {@code live}.
     *
     * @param cancelled asked every few ticks: true stops the replay with a {@link CancellationException}
     * @throws IllegalArgumentException when the history is too short or holds no service time to simulate
     */
    public static Result replay(LoadHistory h, Policy live, Ask ask, long seed, BooleanSupplier cancelled) {
        List<String> notes = new ArrayList<>();
        if (!ask.any()) {
            return new Result(null, null, notes);
        }
        if (h.seconds() > Replay.PER_JOB_UP_TO_SECONDS) {
            notes.add("admission and placement are replayed job by job, for windows up to "
                    + Math.round(Replay.PER_JOB_UP_TO_SECONDS / 60) + " min: pick a shorter window to see them");
            return new Result(null, null, notes);
        }
        if (h.seconds() < 4 * live.pollIntervalSeconds()) {
            throw new IllegalArgumentException("not enough history to replay: " + Math.round(h.seconds())
                    + " s; the history needs a few minutes first");
        }
        double service = h.typicalServiceSeconds();
        if (!Double.isFinite(service)) {
            throw new IllegalArgumentException("no service time is known in the window, so the queue cannot be"
                    + " simulated");
        }
        Policy p = live.dependencyGuard() == null ? live : live.toBuilder().dependencyGuard(null).build();
        SandboxClassSpec spec = Replay.spec(h, service, live.slotsPerReplica());
        AdmissionRuns admission = null;
        if (ask.admission()) {
            ScenarioClass free = new ScenarioClass(spec, p, ScenarioProducers.FREE);
            ScenarioClass obey = new ScenarioClass(spec, p, ScenarioProducers.obey(RETRY_SECONDS));
            admission = new AdmissionRuns(run(scenario(h, p, seed, free), cancelled),
                    run(scenario(h, p, seed, obey), cancelled));
        }
        PlacementRuns placement = null;
        if (ask.placed()) {
            placement = placement(h, p, spec, ask, seed, cancelled);
        }
        return new Result(admission, placement, notes);
    }

    private static Scenario scenario(LoadHistory h, Policy p, long seed, ScenarioClass c) {
        return new Scenario("what-if", h.seconds(), p.pollIntervalSeconds(), seed,
                Instant.ofEpochSecond((long) h.times()[0]), List.of(c));
    }

    private static Replay.Run run(Scenario s, BooleanSupplier cancelled) {
        List<Simulator.TickLine> ticks = new ArrayList<>();
        List<Simulator.ClassSummary> summary = Simulator.run(s, Decider.HEADROOM, line -> {
            ticks.add(line);
            stopIf(cancelled);
        });
        return new Replay.Run(summary.get(0), ticks);
    }

    private static PlacementRuns placement(LoadHistory h, Policy p, SandboxClassSpec spec, Ask ask, long seed,
                                           BooleanSupplier cancelled) {
        double from = busiestStart(h);
        double to = Math.min(h.seconds(), from + Math.floor(h.seconds() / 3));
        List<SandboxClassSpec.Window> gone = List.of(new SandboxClassSpec.Window(from, to));
        List<SimPool> pools = new ArrayList<>();
        for (int i = 0; i < ask.pools().size(); i++) {
            pools.add(new SimPool(ask.pools().get(i), i == 0 ? gone : List.of()));
        }
        Scenario s = scenario(h, p, seed, new ScenarioClass(spec, p));
        String first = ask.pools().get(0).name();
        double tick = p.pollIntervalSeconds();

        List<Simulator.TickLine> placedTicks = new ArrayList<>();
        Map<String, Double> split = new LinkedHashMap<>();
        ask.pools().forEach(x -> split.put(x.name(), 0.0));
        double[] moved = {Double.NaN};
        double[] pended = {Double.NaN};
        Instant start = s.start();
        List<Simulator.ClassSummary> placedSummary = PlacementSimulator.run(s,
                Map.of(spec.name(), pools), ask.timing(), line -> {
                    placedTicks.add(line);
                    stopIf(cancelled);
                }, line -> {
                    for (Placement.PoolShare share : line.result().shares()) {
                        split.merge(share.pool(), share.replicas() * tick / 3600, Double::sum);
                    }
                    Instant since = line.pendingSince().get(first);
                    if (Double.isNaN(pended[0]) && since != null) {
                        double at = java.time.Duration.between(start, since).toMillis() / 1000.0;
                        if (at >= from) {
                            pended[0] = at - from;
                        }
                    }
                    if (Double.isNaN(moved[0]) && line.t() >= from && !line.result().share(first).available()) {
                        moved[0] = line.t() - from;
                    }
                });

        List<Simulator.TickLine> oneTicks = new ArrayList<>();
        List<Simulator.ClassSummary> oneSummary = PlacementSimulator.run(s,
                Map.of(spec.name(), List.of(pools.get(0))), ask.timing(), line -> {
                    oneTicks.add(line);
                    stopIf(cancelled);
                }, line -> { });
        return new PlacementRuns(new Replay.Run(oneSummary.get(0), oneTicks),
                new Replay.Run(placedSummary.get(0), placedTicks), ask.pools(), from, to, split, moved[0], pended[0]);
    }

    /**
     * When the first pool's nodes go: a bucket before the window's busiest stretch starts (the first bucket at
     * 80 % of the highest arrival rate or more), when a pool that cannot grow hurts most; the window's start
     * for a flat load.
     */
    static double busiestStart(LoadHistory h) {
        double[] rates = Replay.bucketRates(h);
        double max = 0;
        for (double r : rates) {
            max = Math.max(max, r);
        }
        for (int b = 0; b < rates.length; b++) {
            if (rates[b] >= 0.8 * max) {
                return Math.max(0, (b - 1) * Replay.BUCKET_SECONDS);
            }
        }
        return 0;
    }

    private static void stopIf(BooleanSupplier cancelled) {
        if (cancelled.getAsBoolean()) {
            throw new CancellationException("the replay was cancelled");
        }
    }

    // ------------------------------------------------------------------ rows, for the window and the CLI

    /** Admission off against on: the window's and {@code headroom whatif}'s rows (off is "current", on "edited"). */
    public static List<ComparisonTable.Row> admissionRows(AdmissionRuns a, Policy live) {
        var off = a.off().summary();
        var on = a.on().summary();
        return List.of(
                row("Time over objective, admitted jobs", off.ageObjectiveViolationSeconds(),
                        on.ageObjectiveViolationSeconds(), " s", ComparisonTable.Better.LOWER),
                row("Oldest age, max", off.maxOldestAgeSeconds(), on.maxOldestAgeSeconds(),
                        " s", ComparisonTable.Better.LOWER),
                row("Jobs held back by admission", off.jobsRejected(), on.jobsRejected(),
                        "", ComparisonTable.Better.LOWER),
                row("Jobs completed", off.jobsCompleted(), on.jobsCompleted(), "",
                        ComparisonTable.Better.HIGHER),
                row("Replica-hours", a.off().replicaHours(), a.on().replicaHours(), " h",
                        ComparisonTable.Better.LOWER));
    }

    /** One pool against placement ("current" the first pool alone, "edited" the class's pools). */
    public static List<ComparisonTable.Row> placementRows(PlacementRuns r) {
        var one = r.onePool().summary();
        var placed = r.placed().summary();
        Placement.PoolSpec first = r.pools().get(0);
        List<ComparisonTable.Row> rows = new ArrayList<>(List.of(
                row("Time over objective", one.ageObjectiveViolationSeconds(),
                        placed.ageObjectiveViolationSeconds(), " s", ComparisonTable.Better.LOWER),
                row("Oldest age, max", one.maxOldestAgeSeconds(), placed.maxOldestAgeSeconds(),
                        " s", ComparisonTable.Better.LOWER),
                row("Replica-hours", r.onePool().replicaHours(), r.placed().replicaHours(),
                        " h", ComparisonTable.Better.LOWER),
                row("Cost-weighted hours", r.onePool().replicaHours() * first.costWeight(),
                        r.costHours(), " h", ComparisonTable.Better.LOWER)));
        List<String> split = new ArrayList<>();
        r.split().forEach((pool, hours) -> split.add(pool + " " + ComparisonTable.num(hours) + " h"));
        rows.add(new ComparisonTable.Row("Replica-hours by pool", first.name() + " only", String.join(", ", split), "",
                "", ComparisonTable.Verdict.NOT_JUDGED));
        rows.add(new ComparisonTable.Row("Share moved off " + first.name(), "never (one pool)",
                Double.isNaN(r.movedAfter()) ? "never" : ComparisonTable.num(r.movedAfter()) + " s after its nodes went"
                        + (Double.isNaN(r.pendedAfter()) ? "" : ", " + ComparisonTable.num(r.movedAfter()
                        - r.pendedAfter()) + " s after its first pod pended"),
                "", "", ComparisonTable.Verdict.NOT_JUDGED));
        return rows;
    }

    /**
     * A row as the policy comparison words it: each figure with its unit, the difference with an arrow and the
     * verdict (the same {@link ComparisonTable#verdict} judges it), no KEDA column.
     */
    static ComparisonTable.Row row(String what, double a, double b, String unit, ComparisonTable.Better better) {
        ComparisonTable.Verdict v = ComparisonTable.verdict(a, b, better);
        double d = b - a;
        String change = v == ComparisonTable.Verdict.SAME ? "same" : (d > 0 ? "+" : "−")
                + ComparisonTable.num(Math.abs(d)) + unit + (d > 0 ? " ▲" : " ▼") + (v.word().isEmpty() ? "" : " "
                + v.word());
        return new ComparisonTable.Row(what, ComparisonTable.num(a) + unit, ComparisonTable.num(b) + unit, change, "",
                v);
    }

    /** "spot's nodes gone from 9 min to 19 min into the window (unschedulable deadline 60 s, …)". */
    public static String scenarioWords(PlacementRuns r, Placement.Timing timing) {
        return String.format(Locale.ROOT, "%s's nodes gone from %s to %s into the window (unschedulable deadline %d s,"
                        + " back after %d s without unschedulable pods)", r.pools().get(0).name(), at(r.lostFrom()),
                at(r.lostTo()), timing.unschedulableDeadline().toSeconds(), timing.recovery().toSeconds());
    }

    private static String at(double seconds) {
        return seconds % 60 == 0 ? Math.round(seconds / 60) + " min" : Math.round(seconds) + " s";
    }
}
