package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ConfigException;
import io.headroom.sandbox.ProducerGate;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Issue 30: a scenario's producers that obey admission. The burst against 90 s start-up violates the
 * objective when producers submit everything; when they obey, the jobs let in stay within it, and the
 * refused ones are counted and retried, so the work is done, not lost.
 */
class ObedientProducersTest {

    static Scenario scenario() throws Exception {
        return ScenarioReader.read(Path.of("examples/scenarios/admission-burst.yaml"));
    }

    static Scenario with(Scenario s, ScenarioProducers p) {
        return new Scenario(s.name(), s.durationSeconds(), s.tickSeconds(), s.seed(), s.start(),
                s.classes().stream().map(c -> c.withProducers(p)).toList());
    }

    @Test
    void theScenarioSaysItsProducersObeyAdmission() throws Exception {
        ScenarioProducers p = scenario().classes().get(0).producers();
        assertEquals(ProducerGate.Mode.OBEY, p.mode());
        assertEquals(30, p.retrySeconds());
    }

    @Test
    void obeyingProducersKeepAdmittedWorkWithinItsObjectiveAndLoseNoJob() throws Exception {
        Scenario s = scenario();
        Simulator.ClassSummary free = Simulator.run(with(s, ScenarioProducers.FREE), line -> { }).get(0);
        Simulator.ClassSummary obey = Simulator.run(s, line -> { }).get(0);
        assertTrue(free.ageObjectiveViolationSeconds() > 60, "the burst violates without admission: " + free);
        assertEquals(0, free.jobsRejected());
        assertTrue(obey.ageObjectiveViolationSeconds() < free.ageObjectiveViolationSeconds() / 4,
                "admission protects the admitted jobs: " + obey.ageObjectiveViolationSeconds() + " s vs "
                        + free.ageObjectiveViolationSeconds() + " s");
        assertTrue(obey.jobsRejected() > 0, "admission held jobs back during the burst: " + obey);
        assertEquals(0, obey.jobsHeld(), "every refused job was retried and let in by the end");
        // The same work is done: the burst's jobs were delayed, not dropped (same seed, same arrivals).
        assertTrue(Math.abs(obey.jobsCompleted() - free.jobsCompleted()) <= free.jobsCompleted() / 100,
                obey.jobsCompleted() + " vs " + free.jobsCompleted());
    }

    @Test
    void aFixedLimitKeepsTheQueueButRefusesMoreThanAdmission() throws Exception {
        Scenario s = scenario();
        Simulator.ClassSummary obey = Simulator.run(s, line -> { }).get(0);
        Simulator.ClassSummary limit = Simulator.run(with(s, ScenarioProducers.limit(
                ObedientProducersTest.steadyLimit(s.classes().get(0)), 30)), line -> { }).get(0);
        assertTrue(limit.jobsRejected() > obey.jobsRejected(), "limit " + limit + " vs admission " + obey);
    }

    /** The fixed limit the benchmark uses: the steady replicas' slots plus what they drain within the objective. */
    static int steadyLimit(ScenarioClass c) {
        return FixedLimit.of(c);
    }

    @Test
    void aProducersBlockIsReadAndCheckedInWords() {
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> ScenarioReader.read("x.yaml", """
                        name: x
                        durationSeconds: 60
                        tickSeconds: 15
                        classes:
                          - name: a
                            arrival: {baseRate: 1}
                            service: {distribution: constant, meanSeconds: 1}
                            producers: {obey: limit}
                        """, io.headroom.config.ConfigTree.Format.YAML));
        assertTrue(e.getMessage().contains("limit >= 1"), e.getMessage());
    }
}
