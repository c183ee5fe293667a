package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.whatif.Replay.Model;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fluid replay (long windows) against the per-job one (the sandbox's world) on short windows
 * both can afford: the same load and policies give the same answer within stated tolerances. The
 * per-job figure is the mean of two seeds, so its own noise does not decide the test.
 *
 * <p>Tolerances: time over the objective within 10 % (or 30 s), replica-hours within 10 %, the
 * peak oldest age within 25 % (or 5 s), jobs completed within 3 %; for both the live and the edited run.
 */
class ReplayModelParityTest {

    record Case(String name, LoadHistory load, Policy live, Policy edited) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** {@code minutes} at a 5 s tick: {@code base} jobs/s, {@code burst} in the middle third. */
    static LoadHistory load(int minutes, double base, double burst, double service, int replicas) {
        int n = minutes * 12 + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = ReplayTest.T0 + 5.0 * i;
            r[i] = i > n / 3 && i < 2 * n / 3 ? burst : base;
            s[i] = service;
        }
        return new LoadHistory(t, r, s, 0, replicas);
    }

    static List<Case> cases() {
        Policy burst = ReplayTest.policy(4);
        Policy steady = Policy.builder().slotsPerReplica(4).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(200)
                .pollIntervalSeconds(5).build();
        Policy slow = Policy.builder().slotsPerReplica(8).maxAgeSeconds(120.0).minReplicas(1).maxReplicas(50)
                .pollIntervalSeconds(15).build();
        Policy tight = Policy.builder().slotsPerReplica(2).maxAgeSeconds(20.0).minReplicas(1).maxReplicas(100)
                .pollIntervalSeconds(5).build();
        return List.of(
                new Case("a burst past maxReplicas, then room to scale", ReplayTest.burst(), burst, ReplayTest.policy(20)),
                new Case("2 to 6 jobs/s, edited to 50 % utilisation", load(60, 2, 6, 1, 1), steady,
                        steady.toBuilder().targetUtilization(0.5).build()),
                new Case("3 s jobs, 1 to 5 jobs/s, 15 s poll", load(60, 1, 5, 3, 1), slow,
                        slow.toBuilder().targetUtilization(0.5).build()),
                new Case("a 20 s objective, 5 to 20 jobs/s of 0.5 s", load(30, 5, 20, 0.5, 2), tight,
                        tight.toBuilder().targetUtilization(0.5).build()));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theFluidReplayGivesThePerJobReplaysAnswer(Case c) {
        Replay.Comparison a = Replay.compare(c.load(), c.live(), c.edited(), 1, null, Replay.Progress.NONE,
                Model.PER_JOB, Runnable::run);
        Replay.Comparison b = Replay.compare(c.load(), c.live(), c.edited(), 2, null, Replay.Progress.NONE,
                Model.PER_JOB, Runnable::run);
        Replay.Comparison fluid = Replay.compare(c.load(), c.live(), c.edited(), 1, null, Replay.Progress.NONE,
                Model.FLUID, Runnable::run);
        assertEquals(a.current().ticks().size(), fluid.current().ticks().size(), "the same ticks");
        same("live", a.current(), b.current(), fluid.current());
        same("edited", a.edited(), b.edited(), fluid.edited());
    }

    private static void same(String which, Replay.Run a, Replay.Run b, Replay.Run fluid) {
        var f = fluid.summary();
        double violation = (a.summary().ageObjectiveViolationSeconds() + b.summary().ageObjectiveViolationSeconds()) / 2;
        double hours = (a.replicaHours() + b.replicaHours()) / 2;
        double peak = (a.summary().maxOldestAgeSeconds() + b.summary().maxOldestAgeSeconds()) / 2;
        double jobs = (a.summary().jobsCompleted() + b.summary().jobsCompleted()) / 2.0;
        assertTrue(Math.abs(f.ageObjectiveViolationSeconds() - violation) <= Math.max(30, 0.10 * violation),
                which + ": time over the objective " + f.ageObjectiveViolationSeconds() + " s against " + violation);
        assertTrue(Math.abs(fluid.replicaHours() - hours) <= 0.10 * hours,
                which + ": replica-hours " + fluid.replicaHours() + " against " + hours);
        assertTrue(Math.abs(f.maxOldestAgeSeconds() - peak) <= Math.max(5, 0.25 * peak),
                which + ": peak age " + f.maxOldestAgeSeconds() + " s against " + peak);
        assertTrue(Math.abs(f.jobsCompleted() - jobs) <= 0.03 * jobs,
                which + ": jobs " + f.jobsCompleted() + " against " + jobs);
    }
}
