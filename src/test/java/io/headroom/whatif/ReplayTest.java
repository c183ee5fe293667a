package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import org.junit.jupiter.api.Test;

class ReplayTest {
    static final double T0 = 1_796_000_000;

    /** 30 minutes at a 5 s tick: 2 jobs/s of 1 s, with a 10-minute burst to 12 jobs/s in the middle. */
    static LoadHistory burst() {
        int n = 361;
        double[] t = new double[n];
        double[] rate = new double[n];
        double[] service = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = T0 + 5.0 * i;
            rate[i] = i >= 120 && i < 240 ? 12 : 2;
            service[i] = i % 50 == 7 ? Double.NaN : 1.0; // gaps in the telemetry are ignored
        }
        return new LoadHistory(t, rate, service, 0, 3);
    }

    static Policy policy(int maxReplicas) {
        return Policy.builder().slotsPerReplica(2).maxAgeSeconds(30.0).minReplicas(1).maxReplicas(maxReplicas)
                .pollIntervalSeconds(5).build();
    }

    @Test
    void aHigherMaxReplicasKeepsTheAgeObjectiveThroughTheBurstAndCostsReplicaHours() {
        Replay.Comparison c = Replay.compare(burst(), policy(4), policy(20), 42);
        assertEquals(1800, c.seconds());
        double tightViolation = c.current().summary().ageObjectiveViolationSeconds();
        double looseViolation = c.edited().summary().ageObjectiveViolationSeconds();
        assertTrue(tightViolation > 300, "4 replicas of 2 slots cannot serve 12 jobs/s: " + tightViolation);
        assertTrue(looseViolation < tightViolation / 3, "room to scale serves the burst: " + looseViolation);
        assertTrue(c.edited().summary().maxOldestAgeSeconds() < c.current().summary().maxOldestAgeSeconds());
        assertTrue(c.edited().replicaHours() > c.current().replicaHours(), "paid for with replicas");
        assertTrue(c.current().ticks().stream().allMatch(l -> l.desiredReplicas() <= 4));
        assertTrue(c.edited().ticks().stream().anyMatch(l -> l.desiredReplicas() > 4));
    }

    @Test
    void kedasRuleIsAThirdRunOnTheSameLoadWithTheLivePolicysBounds() {
        io.headroom.baseline.Baselines.Named keda = io.headroom.baseline.Baselines.parse("keda:listLength=5");
        Replay.Comparison c = Replay.compare(burst(), policy(20), policy(20), 42, keda);
        assertEquals("keda:listLength=5", c.baselineLabel());
        Replay.Run k = c.baseline();
        assertEquals(c.current().ticks().size(), k.ticks().size(), "the same window and tick");
        assertTrue(k.ticks().stream().allMatch(l -> l.desiredReplicas() <= 20), "the live max applies");
        assertTrue(k.ticks().stream().allMatch(l -> l.explanation().startsWith("KEDA")), "decided by KEDA's rule");
        // Same arrivals: whatever each rule did, the jobs that arrived are (almost) all done.
        assertTrue(Math.abs(k.summary().jobsCompleted() - c.current().summary().jobsCompleted()) < 100);
        assertEquals(null, Replay.compare(burst(), policy(20), policy(20), 42).baseline());
    }

    @Test
    void bothRunsSeeTheSameArrivalsSoAnUnchangedPolicyChangesNothing() {
        Replay.Comparison c = Replay.compare(burst(), policy(10), policy(10), 7);
        assertEquals(c.current().summary(), c.edited().summary());
        assertEquals(c.current().ticks(), c.edited().ticks());
        assertEquals(c.current().summary(), Replay.compare(burst(), policy(10), policy(10), 7).current().summary(),
                "and a replay replays");
    }

    @Test
    void tooLittleHistoryOrNoServiceTimeIsSaidNotGuessed() {
        LoadHistory shortOne = new LoadHistory(new double[] {T0, T0 + 5}, new double[] {1, 1}, new double[] {1, 1},
                0, 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Replay.compare(shortOne, policy(4), policy(8), 1))
                .getMessage().startsWith("not enough history to replay"));
        double[] t = new double[100];
        double[] r = new double[100];
        double[] s = new double[100];
        for (int i = 0; i < 100; i++) {
            t[i] = T0 + 5 * i;
            r[i] = 1;
            s[i] = Double.NaN;
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Replay.compare(new LoadHistory(t, r, s, 0, 1),
                policy(4), policy(8), 1)).getMessage().startsWith("no service time is known"));
    }

    @Test
    void aDependencyGuardIsLeftOutAndSaidSoSinceTheReplayHasNoDependencySignal() {
        Policy guarded = policy(20).toBuilder().dependencyGuard(new io.headroom.decision.DependencyGuard(200, "p95 ms"))
                .build();
        Replay.Comparison c = Replay.compare(burst(), guarded, guarded, 3);
        assertEquals(java.util.List.of("the dependency guard is left out (the replay has no dependency signal)"),
                c.caveats());
        assertTrue(c.current().ticks().stream().anyMatch(l -> l.desiredReplicas() > 3),
                "without the guard the burst scales up (with it, an unknown dependency would block every scale-up)");
    }
}
