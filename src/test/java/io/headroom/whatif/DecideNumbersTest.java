package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Admission;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Policy;
import io.headroom.decision.Term;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioReader;
import io.headroom.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The decision without words ({@link DecisionEngine#decideNumbers}, what the what-if replays use)
 * against the explained one ({@link DecisionEngine#decide}) on the same inputs, tick by tick: every
 * example scenario (bursts, outages, a poison head, ceilings, a dependency governor, scale from and
 * to zero) and a day of what-if under three policies. At each tick both are asked the same thing and
 * must agree on everything but the words (the explanation, the terms' formulas, the admission's
 * message); the run goes on with the explained decision's memory, so the numbers path, agreeing at
 * every tick, follows the same run.
 */
class DecideNumbersTest {

    /** Asks both paths, checks they agree, and answers with the explained one. */
    static final class Both implements Decider {
        int decisions;
        int explained;

        @Override
        public Decision decide(String className, Policy policy, io.headroom.decision.Observation obs,
                               io.headroom.decision.ClassMemory memory, java.time.Instant now) {
            Decision full = DecisionEngine.decide(className, policy, obs, memory, now);
            Decision numbers = DecisionEngine.decideNumbers(className, policy, obs, memory, now);
            assertEquals(withoutWords(full), numbers, () -> className + " at " + now + ": " + full.explanation());
            assertEquals("", numbers.explanation());
            decisions++;
            if (!full.explanation().isEmpty() && full.terms().stream().anyMatch(t -> !t.formula().isEmpty())) {
                explained++;
            }
            return full;
        }
    }

    /** {@code d} with its words blanked: what the numbers path must give. */
    static Decision withoutWords(Decision d) {
        List<Term> terms = new ArrayList<>();
        for (Term t : d.terms()) {
            terms.add(new Term(t.name(), t.value(), ""));
        }
        Admission a = d.admission();
        Admission bare = a == null ? null : new Admission(a.state(), a.drainSecondsNow(), a.drainSecondsAtTarget(),
                a.sustainableArrivalRate(), "");
        return new Decision(d.className(), d.at(), d.currentReplicas(), d.readyReplicas(), d.desiredReplicas(),
                d.incomingSlots(), d.backlogSlots(), d.estimatedSlots(), d.slotReplicas(), d.ageReplicas(),
                d.recommendedReplicas(), d.ceilings(), d.bindingCeiling(), d.stalled(), d.telemetryMissing(),
                d.governorLimit(), d.inputs(), terms, d.reasons(), bare, "", d.memory(), d.stuckPods());
    }

    @Test
    void everyExampleScenarioGivesTheSameNumbersWithoutWords() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("examples/scenarios"))) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(files.size() >= 10, "the example scenarios: " + files);
        Both both = new Both();
        for (Path f : files) {
            Scenario sc = ScenarioReader.read(f);
            Simulator.run(sc, both, line -> { });
        }
        assertTrue(both.decisions > 1_000, "decisions compared: " + both.decisions);
        assertTrue(both.explained > both.decisions / 2, "the explained path had words: " + both.explained);
    }

    @Test
    void aDayOfWhatIfGivesTheSameNumbersWithoutWords() {
        LoadHistory day = day();
        Policy live = LIVE;
        // A tight objective with a step to absorb: the reaction gap and its reserve speak every tick.
        Policy tight = Policy.builder().slotsPerReplica(2).maxAgeSeconds(20.0).minReplicas(1).maxReplicas(40)
                .pollIntervalSeconds(15).absorbStep(2.0).build();
        double[] arrivals = FluidRun.arrivals(Replay.bucketRates(day), day.seconds(), 1);
        Both both = new Both();
        for (Policy p : List.of(live, live.toBuilder().targetUtilization(0.5).build(), tight)) {
            FluidRun.run(arrivals, day, day.typicalServiceSeconds(), p.slotsPerReplica(), p, 15, both, t -> { });
        }
        assertEquals(3 * 5_761, both.decisions, "every 15 s tick of the day, three runs");
        assertTrue(both.explained > both.decisions / 2, "the explained path had words: " + both.explained);
    }

    @Test
    void theWhatIfReplaysWithoutWordsAndKeepsKedaExplained() {
        LoadHistory day = day();
        Policy live = LIVE;
        Replay.Comparison c = Replay.compare(day, live, live.toBuilder().targetUtilization(0.5).build(), 1,
                io.headroom.baseline.Baselines.parse("keda:listLength=20"));
        assertTrue(c.current().ticks().stream().allMatch(l -> l.explanation().isEmpty()), "live run: numbers only");
        assertTrue(c.edited().ticks().stream().allMatch(l -> l.explanation().isEmpty()), "edited run: numbers only");
        assertTrue(c.baseline().ticks().stream().allMatch(l -> l.explanation().startsWith("KEDA")),
                "the baseline keeps its own words");
    }

    /** The day's live policy: 4 slots a replica, a 60 s objective, 1-200 replicas, a 15 s poll. */
    static final Policy LIVE = Policy.builder().slotsPerReplica(4).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(200)
            .pollIntervalSeconds(15).build();

    /** A day at a 15 s tick: a daily wave from 1 to 5 jobs/s of 2 s, a burst every 4 h, a short gap. */
    static LoadHistory day() {
        int n = 5_761;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = ReplayTest.T0 + 15.0 * i;
            double wave = 3 + 2 * Math.sin(2 * Math.PI * i / (n - 1));
            r[i] = i % 960 < 40 ? 3 * wave : wave;
            s[i] = i > 3_000 && i < 3_020 ? Double.NaN : 2;
        }
        return new LoadHistory(t, r, s, 0, 2);
    }
}
