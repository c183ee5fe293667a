package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ConfigException;
import io.headroom.config.ConfigTree;
import io.headroom.decision.Decider;
import io.headroom.decision.ForecastMode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The forecast acting in the simulator (issue 29): a class in {@code forecast: auto} or {@code propose} holds the
 * floor ahead of each forecast rise and lets the scale-down window go when the floor brings the capacity back;
 * forecast-only changes nothing.
 */
class SimAnticipationTest {

    /** The periodic scenario's class for 40 minutes: a one-minute burst of 30 jobs/s every ten minutes. */
    static Scenario periodic(String mode, String anticipation) throws ConfigException {
        return ScenarioReader.read("p.yaml", """
                name: periodic-short
                durationSeconds: 2400
                tickSeconds: 15
                seed: 61
                classes:
                  - name: report-fanout
                    arrival:
                      baseRate: 2
                      segments:
                        - {from: 300, to: 360, rate: 30}
                      repeatSeconds: 600
                    service: {distribution: lognormal, meanSeconds: 2, cv: 0.5}
                    concurrency: 4
                    startupSeconds: 20
                    initialReplicas: 3
                    policy:
                      maxAgeSeconds: 60
                      minReplicas: 2
                      maxReplicas: 80
                      forecast: %s
                """.formatted(mode) + anticipation, ConfigTree.Format.YAML);
    }

    static final String HISTORY = """
            anticipation:
              historyDays: 2
              slotSeconds: 60
              neighbourSlots: 0
              everySeconds: 300
              bufferSeconds: 0
            """;

    static List<Simulator.TickLine> lines(Scenario s, List<Simulator.ClassSummary> out) {
        List<Simulator.TickLine> lines = new ArrayList<>();
        out.addAll(Simulator.run(s, Decider.HEADROOM, lines::add));
        return lines;
    }

    static boolean has(Simulator.TickLine l, String code) {
        return l.reasons().stream().anyMatch(r -> r.startsWith(code));
    }

    @Test
    void inAutoTheFloorComesAheadOfEachBurstAndTheWindowLetsGoAfterIt() throws Exception {
        List<Simulator.ClassSummary> auto = new ArrayList<>();
        List<Simulator.TickLine> lines = lines(periodic("auto", HISTORY), auto);
        List<Simulator.ClassSummary> reactive = new ArrayList<>();
        lines(periodic("forecast-only", HISTORY), reactive);

        // Before the burst at 300 s (start-up 20 s + poll 15 s ahead) the floor is held, with the forecast's words.
        Simulator.TickLine before = lines.stream().filter(l -> l.t() == 285).findFirst().orElseThrow();
        assertTrue(has(before, "FORECAST_FLOOR"), before.reasons() + " " + before.explanation());
        assertTrue(before.desiredReplicas() > 3, "raised toward the floor, paced by the scale-up policy: "
                + before.explanation());
        // The joint figure, as the console plans it: 30 jobs/s of 2 s each is 60 in service.
        assertTrue(before.explanation().contains(
                "auto: p80 60 jobs in service (each past day's arrivals × its service time)"), before.explanation());
        assertTrue(lines.stream().filter(l -> l.t() < 240).noneMatch(l -> has(l, "FORECAST_FLOOR")),
                "not earlier than the lead");
        // After it, the window is shortened because the next burst's floor brings the replicas back.
        Simulator.TickLine after = lines.stream().filter(l -> l.t() > 360 && l.t() < 600 && has(l,
                "FORECAST_WINDOW_SHORTENED")).findFirst().orElseThrow();
        assertTrue(after.explanation().contains("the forecast floor brings"), after.explanation());
        assertTrue(lines.stream().filter(l -> l.t() >= 480 && l.t() < 540).allMatch(l -> l.desiredReplicas() <= 3),
                "back at the base load's 2 replicas well before the next burst");

        assertEquals(0, auto.get(0).ageObjectiveViolationSeconds());
        assertTrue(auto.get(0).maxOldestAgeSeconds() < reactive.get(0).maxOldestAgeSeconds(),
                auto.get(0) + " vs " + reactive.get(0));
        assertTrue(auto.get(0).replicaSeconds() < 0.7 * reactive.get(0).replicaSeconds(),
                auto.get(0) + " vs " + reactive.get(0));
    }

    @Test
    void forecastOnlyChangesNothing() throws Exception {
        List<Simulator.ClassSummary> withBlock = new ArrayList<>();
        List<Simulator.TickLine> a = lines(periodic("forecast-only", HISTORY), withBlock);
        List<Simulator.ClassSummary> without = new ArrayList<>();
        List<Simulator.TickLine> b = lines(periodic("forecast-only", ""), without);
        assertEquals(without, withBlock);
        assertEquals(b.stream().map(Simulator.TickLine::desiredReplicas).toList(),
                a.stream().map(Simulator.TickLine::desiredReplicas).toList());
        assertTrue(a.stream().noneMatch(l -> has(l, "FORECAST")));
    }

    @Test
    void proposeCountsAsApprovedAtOnceAndSaysSo() throws Exception {
        List<Simulator.TickLine> lines = lines(periodic("propose", HISTORY), new ArrayList<>());
        Simulator.TickLine held = lines.stream().filter(l -> has(l, "FORECAST_FLOOR")).findFirst().orElseThrow();
        assertTrue(held.explanation().contains("proposal approved at once (simulator)"), held.explanation());
    }

    @Test
    void withoutHistoryTheForecastIsRefusedAndNothingActs() throws Exception {
        List<Simulator.ClassSummary> auto = new ArrayList<>();
        List<Simulator.TickLine> lines = lines(periodic("auto", ""), auto);
        assertTrue(lines.stream().noneMatch(l -> has(l, "FORECAST")), "40 minutes is no history for a forecast");
        List<Simulator.ClassSummary> reactive = new ArrayList<>();
        lines(periodic("forecast-only", ""), reactive);
        assertEquals(reactive, auto);
    }

    @Test
    void theBlockIsReadAndCheckedAsTheScenarioIs() throws Exception {
        Scenario s = periodic("auto", HISTORY);
        assertEquals(2, s.anticipation().historyDays());
        assertEquals(60, s.anticipation().slotSeconds());
        assertEquals(0, s.anticipation().neighbourSlots());
        assertEquals(0, s.anticipation().settings().bufferSeconds());
        assertEquals(0.8, s.anticipation().settings().quantile());
        assertEquals(ScenarioAnticipation.DEFAULTS, periodic("auto", "").anticipation());
        ConfigException e = assertThrows(ConfigException.class, () -> periodic("auto", """
                anticipation:
                  slotSeconds: 70
                  quantile: 0.9
                  historyDays: 40
                """));
        assertTrue(e.getMessage().contains("slotSeconds: must be at least 60 and divide a day"), e.getMessage());
        assertTrue(e.getMessage().contains("quantile: must be 0.5, 0.8 or 0.95, got 0.9"), e.getMessage());
        assertTrue(e.getMessage().contains("historyDays: must be at most 28"), e.getMessage());
        assertFalse(periodic("auto", HISTORY).withForecastMode(ForecastMode.OFF).classes().get(0).policy()
                .forecastMode().acts());
    }
}
