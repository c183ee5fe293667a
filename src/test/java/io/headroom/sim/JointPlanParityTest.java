package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ConfigTree;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.ForecastFloor;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Term;
import io.headroom.forecast.Anticipation;
import io.headroom.forecast.ForecastSettings;
import io.headroom.forecast.LoadGrid;
import io.headroom.history.ClassHistory;
import io.headroom.history.History;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.session.AnticipatedFloors;
import io.headroom.session.ForecastRunner;
import io.headroom.supervise.FloorPlanner;
import io.headroom.time.ManualClock;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Predictive;
import io.headroom.whatif.Replay;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulator, the what-if's predictive run and the console plan the same floor from the same history (issue 29):
 * all three from the joint forecast of the work (each minute's arrivals × its own service time, p80 of the product),
 * not p80 arrivals × the service time's median. The history is a week of weekday rises of different heights whose
 * jobs are slower on the busier days (a shared database), so the two differ by replicas.
 */
class JointPlanParityTest {

    static final String NAME = "reports";
    static final String JOINT_WORDS = "jobs in service (each past day's arrivals × its service time)";
    /** Busy jobs/s from 09:00 to 12:00, Monday to Friday; 2 jobs/s otherwise and at the weekend. */
    static final double[] WEEKDAYS = {16, 24, 18, 22, 20};

    /**
     * A week's programme from Monday 08:45 (the moment every path plans at), repeated weekly, a week of it generated
     * before the start: each weekday's rise at 09:00 with its jobs rate/20 times as long as the 1 s of the quiet hours.
     */
    static Scenario scenario() throws Exception {
        StringBuilder segments = new StringBuilder();
        StringBuilder costs = new StringBuilder();
        for (int d = 0; d < WEEKDAYS.length; d++) {
            double from = d * 86_400 + 900;
            double to = from + 3 * 3600;
            segments.append("        - {from: %.0f, to: %.0f, rate: %.0f}\n".formatted(from, to, WEEKDAYS[d]));
            costs.append("      - {from: %.0f, to: %.0f, factor: %s}\n".formatted(from, to, WEEKDAYS[d] / 20));
        }
        return ScenarioReader.read("joint.yaml", """
                name: joint-parity
                durationSeconds: 604800
                tickSeconds: 60
                seed: 29
                start: 2026-03-09T08:45:00Z
                classes:
                  - name: reports
                    arrival:
                      baseRate: 2
                      segments:
                %s      repeatSeconds: 604800
                    costSegments:
                %s    service: {distribution: lognormal, meanSeconds: 1, cv: 0.3}
                    concurrency: 1
                    startupSeconds: 20
                    initialReplicas: 3
                    policy:
                      maxAgeSeconds: 60
                      minReplicas: 1
                      maxReplicas: 200
                      forecast: auto
                anticipation:
                  historyDays: 7
                  slotSeconds: 300
                  neighbourSlots: 1
                  everySeconds: 300
                """.formatted(segments, costs), ConfigTree.Format.YAML);
    }

    @Test
    void theSimulatorTheWhatIfAndTheConsolePlanTheSameJointFloor() throws Exception {
        Scenario s = scenario();
        ScenarioClass c = s.classes().get(0);
        Policy policy = c.policy();
        Instant now = s.start();
        double t0 = now.getEpochSecond();
        Observation obs = new Observation(3, 3, Map.of());

        // The simulator's plan at its first tick, from the week it generated before it.
        SandboxWorld world = new SandboxWorld(List.of(c.sandbox()), s.seed(), now);
        SimAnticipator sim = (SimAnticipator) SimAnticipator.wrap(s, Decider.HEADROOM, world);
        sim.decide(NAME, policy, obs, ClassMemory.initial(), now);
        ForecastFloor simFloor = sim.floor(NAME);
        LoadGrid[] week = sim.history(NAME);
        assertEquals(t0 - 7 * 86_400, week[0].start(), 1e-9);
        assertEquals(7 * 1440, week[0].size());

        // The console: the same minutes in the class's week tier, forecast by ForecastRunner, planned by
        // AnticipatedFloors at the same moment.
        History history = new History(Duration.ofSeconds(5));
        ClassHistory tier = history.weekOf(NAME);
        double[] row = new double[ClassHistory.SERIES];
        for (int i = 0; i < week[0].size(); i++) {
            Arrays.fill(row, Double.NaN);
            row[ClassHistory.Series.ARRIVAL_RATE.ordinal()] = week[0].values()[i];
            row[ClassHistory.Series.MEAN_SERVICE.ordinal()] = week[1].values()[i];
            tier.append(week[0].time(i), row);
        }
        WorkloadClass cls = new WorkloadClass(NAME, new WorkloadRef("ctx", "ns", "Deployment", NAME), policy, null);
        ForecastRunner runner = new ForecastRunner(history, () -> List.of(cls), new ManualClock(now),
                ForecastSettings.DEFAULTS, ForecastRunner.EVERY);
        assertEquals(1, runner.runDue());
        assertTrue(runner.work(NAME).available(), runner.work(NAME).reason());
        FloorPlanner.Planned console = new AnticipatedFloors(runner, s.anticipation().settings()).plan(cls, obs, now);
        assertNotNull(console, "the console proposes a floor for the 09:00 rise");

        // The what-if: the same week before the window, then half an hour replayed from the moment (its load last
        // Monday's), the predictive run's floor as the decision holds it.
        int past = week[0].size();
        int n = past + 30;
        double[] times = new double[n];
        double[] rates = new double[n];
        double[] service = new double[n];
        for (int i = 0; i < n; i++) {
            int from = i < past ? i : i - past;
            times[i] = week[0].time(0) + 60.0 * i;
            rates[i] = week[0].values()[from];
            service[i] = week[1].values()[from];
        }
        LoadHistory all = new LoadHistory(times, rates, service, 0, 3);
        LoadHistory window = new LoadHistory(Arrays.copyOfRange(times, past, n), Arrays.copyOfRange(rates, past, n),
                Arrays.copyOfRange(service, past, n), 0, 3);
        Replay.Comparison whatIf = Replay.compare(window, policy, policy, 1, null, Predictive.of(all),
                Replay.Progress.NONE, Replay.Model.FLUID, Runnable::run);
        Term held = whatIf.predictive().ticks().stream().flatMap(l -> l.terms().stream())
                .filter(t -> t.name().equals("forecastFloor")).findFirst().orElseThrow(() -> new AssertionError(
                        "the predictive run holds no floor: " + whatIf.predictiveSummary().words()));

        int replicas = console.floor().replicas();
        assertNotNull(simFloor, "the simulator holds a floor for the 09:00 rise");
        String said = "\nconsole: " + console.floor().why();
        assertEquals(replicas, simFloor.replicas(), "simulator: " + simFloor.why() + said);
        assertEquals(replicas, (int) held.value(), "what-if: " + whatIf.predictiveSummary().words() + said);
        assertTrue(console.floor().why().contains(JOINT_WORDS), console.floor().why());
        assertTrue(simFloor.why().contains(JOINT_WORDS), simFloor.why());
        // (The what-if decides without words, so its term has none to compare.)

        // The history tells the joint from p80 arrivals × the median service time: that plan is replicas off.
        Anticipation.Plan apart = Anticipation.plan(runner.arrivals(NAME), runner.service(NAME), 1.0, policy, 3,
                policy.startupSeconds(), now, s.anticipation().settings());
        assertNotNull(apart.floor(), apart.words());
        assertTrue(Math.abs(apart.floor().replicas() - replicas) >= 2, "joint " + replicas + ", apart "
                + apart.floor().replicas() + ": " + apart.words());
    }
}
