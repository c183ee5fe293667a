package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import org.junit.jupiter.api.Test;

/** Issue 30 in what-if: admission off vs on, and placement vs one pool with the first pool's nodes gone. */
class AdmissionPlacementTest {
    static final Placement.Timing TIMING = new Placement.Timing(Duration.ofSeconds(30), Duration.ofSeconds(120));
    static final List<Placement.PoolSpec> POOLS = List.of(new Placement.PoolSpec("spot", 20, null, 1, null),
            new Placement.PoolSpec("on-demand", 20, null, 3, null));

    /** Room to scale through the burst (placement's runs). */
    static Policy policy() {
        return ReplayTest.policy(20);
    }

    /** At most 4 replicas of 2 slots against a burst to 12 jobs/s: admission has something to protect. */
    static Policy bounded() {
        return ReplayTest.policy(4);
    }

    @Test
    void admissionOnHoldsJobsBackAndKeepsTheAdmittedOnesNearerTheirObjective() {
        AdmissionPlacement.Result r = AdmissionPlacement.replay(ReplayTest.burst(), bounded(),
                new AdmissionPlacement.Ask(true, List.of(), null), 42, () -> false);
        assertNull(r.placement(), "one pool: nothing to place");
        var off = r.admission().off().summary();
        var on = r.admission().on().summary();
        assertEquals(0, off.jobsRejected(), "producers that obey nothing submit every job");
        assertTrue(on.jobsRejected() > 0, "the burst outruns the ready capacity: admission holds jobs back");
        assertTrue(on.ageObjectiveViolationSeconds() < off.ageObjectiveViolationSeconds(),
                "admitted jobs wait less: " + on.ageObjectiveViolationSeconds() + " s against "
                        + off.ageObjectiveViolationSeconds() + " s");
        List<ComparisonTable.Row> rows = AdmissionPlacement.admissionRows(r.admission(), bounded());
        ComparisonTable.Row held = rows.stream().filter(x -> x.what().equals("Jobs held back by admission")).findFirst()
                .orElseThrow();
        assertEquals("0", held.current());
        assertEquals(Long.toString(on.jobsRejected()), held.edited());
    }

    @Test
    void placementMovesTheShareOffTheLostPoolWithinTwoTicksOfTheDeadlineAndBeatsOnePool() {
        AdmissionPlacement.Result r = AdmissionPlacement.replay(ReplayTest.burst(), policy(),
                new AdmissionPlacement.Ask(false, POOLS, TIMING), 42, () -> false);
        assertNull(r.admission());
        AdmissionPlacement.PlacementRuns p = r.placement();
        // The burst starts at 600 s: the nodes go a bucket (30 s) before it, for a third of the window.
        assertEquals(570, p.lostFrom());
        assertEquals(1170, p.lostTo());
        double tick = policy().pollIntervalSeconds();
        // The deadline counts from spot's first pod left Pending; the share moves within two ticks of it.
        double waited = p.movedAfter() - p.pendedAfter();
        assertTrue(waited >= TIMING.unschedulableDeadline().toSeconds() && waited
                <= TIMING.unschedulableDeadline().toSeconds() + 2 * tick, "moved " + waited + " s after spot's first"
                + " pod pended (deadline 30 s, tick " + tick + " s)");
        assertTrue(p.split().get("on-demand") > 0, "on-demand took work while spot had no nodes: " + p.split());
        assertTrue(p.placed().summary().ageObjectiveViolationSeconds()
                < p.onePool().summary().ageObjectiveViolationSeconds(), "placement keeps the age nearer its objective: "
                + p.placed().summary().ageObjectiveViolationSeconds() + " s against "
                + p.onePool().summary().ageObjectiveViolationSeconds() + " s on spot alone");
        double placedHours = p.split().values().stream().mapToDouble(Double::doubleValue).sum();
        assertTrue(p.costHours() > placedHours, "on-demand costs 3: the cost-weighted hours are more");
        List<ComparisonTable.Row> rows = AdmissionPlacement.placementRows(p);
        assertTrue(rows.stream().anyMatch(x -> x.what().equals("Replica-hours by pool")
                && x.edited().startsWith("spot ") && x.edited().contains(", on-demand ")), rows.toString());
        assertTrue(AdmissionPlacement.scenarioWords(p, TIMING).startsWith("spot's nodes gone from 570 s to 1170 s"));
    }

    @Test
    void aLongWindowIsNotReplayedJobByJobAndSaysSoAndACancelStops() {
        double[] t = new double[2 * 3600 / 5 + 1];
        double[] rate = new double[t.length];
        double[] service = new double[t.length];
        for (int i = 0; i < t.length; i++) {
            t[i] = ReplayTest.T0 + 5.0 * i;
            rate[i] = 2;
            service[i] = 1;
        }
        AdmissionPlacement.Result r = AdmissionPlacement.replay(new LoadHistory(t, rate, service, 0, 3), policy(),
                new AdmissionPlacement.Ask(true, POOLS, TIMING), 42, () -> false);
        assertNull(r.admission());
        assertNull(r.placement());
        assertTrue(r.notes().get(0).contains("up to 60 min"), r.notes().toString());
        assertThrows(CancellationException.class, () -> AdmissionPlacement.replay(ReplayTest.burst(), policy(),
                new AdmissionPlacement.Ask(true, List.of(), null), 42, () -> true));
    }
}
