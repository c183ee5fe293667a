package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.whatif.Replay.Model;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class ReplaySideBySideTest {

    /** {@code hours} of a class at a 15 s tick: a daily-like wave between 1 and 7 jobs/s of 1 s, a burst each hour. */
    static LoadHistory day(double hours) {
        int n = (int) (hours * 240) + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = ReplayTest.T0 + 15.0 * i;
            r[i] = (4 + 3 * Math.sin(2 * Math.PI * i / 5760)) * (i % 240 < 8 ? 3 : 1);
            s[i] = 1;
        }
        return new LoadHistory(t, r, s, 0, 2);
    }

    static Policy policy() {
        return Policy.builder().slotsPerReplica(4).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(200)
                .pollIntervalSeconds(15).build();
    }

    @Test
    void windowsUpToAnHourAreReplayedJobByJobAndLongerOnesAsAFluid() {
        assertEquals(Model.PER_JOB, Model.forWindow(15 * 60));
        assertEquals(Model.PER_JOB, Model.forWindow(3600));
        assertEquals(Model.FLUID, Model.forWindow(3 * 3600));
        Policy edited = policy().toBuilder().targetUtilization(0.5).build();
        Replay.Comparison c = Replay.compare(day(24), policy(), edited, 1, null);
        assertEquals(86_400, c.seconds());
        assertEquals(5761, c.current().ticks().size(), "every 15 s tick of the day");
        assertEquals(c.current().summary().jobsCompleted(), c.edited().summary().jobsCompleted(), 0.01 * c.current()
                .summary().jobsCompleted(), "the same arrivals in both runs");
        assertTrue(c.edited().replicaHours() > c.current().replicaHours() * 1.1, "half the utilisation costs replicas: "
                + c.edited().replicaHours() + " h against " + c.current().replicaHours() + " h");
        assertTrue(c.current().ticks().stream().map(l -> l.desiredReplicas()).distinct().count() > 3,
                "the day's wave moves the replicas");
    }

    @Test
    void runsSideBySideGiveTheSameComparisonAsOneAfterTheOther() {
        Policy edited = policy().toBuilder().targetUtilization(0.5).build();
        var keda = ComparisonTable.keda(5.0);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (Model m : Model.values()) {
                LoadHistory h = m == Model.FLUID ? day(6) : day(0.5);
                Replay.Comparison alone = Replay.compare(h, policy(), edited, 3, keda, Replay.Progress.NONE, m, Runnable::run);
                Replay.Comparison together = Replay.compare(h, policy(), edited, 3, keda, Replay.Progress.NONE, m, pool);
                assertEquals(alone.current().summary(), together.current().summary(), m.name());
                assertEquals(alone.edited().summary(), together.edited().summary(), m.name());
                assertEquals(alone.baseline().summary(), together.baseline().summary(), m.name());
                assertEquals(alone.edited().ticks(), together.edited().ticks(), m.name());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anExecutorThatNeverRunsTheRunsOnlyMakesItSlowerNeverStuck() {
        List<Runnable> parked = Collections.synchronizedList(new ArrayList<>());
        Executor never = parked::add; // accepts and never runs, like a pool busy with this very replay
        List<Callable<String>> jobs = List.of(() -> "live", () -> "edited", () -> "keda");
        assertEquals(List.of("live", "edited", "keda"), Replay.sideBySide(jobs, never));
        assertEquals(2, parked.size(), "the others were offered");
        parked.forEach(Runnable::run); // running them late does nothing: each ran once
        Executor refusing = r -> {
            throw new java.util.concurrent.RejectedExecutionException("full");
        };
        assertEquals(List.of("live", "edited", "keda"), Replay.sideBySide(jobs, refusing));
    }

    @Test
    void theRunsUseTheThreadsTheyAreGivenAndACancelStopsEveryOne() throws Exception {
        Set<String> threads = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.CountDownLatch both = new java.util.concurrent.CountDownLatch(2);
            List<Callable<Integer>> jobs = List.of(() -> {
                threads.add(Thread.currentThread().getName());
                both.countDown();
                both.await(30, java.util.concurrent.TimeUnit.SECONDS);
                return 1;
            }, () -> {
                threads.add(Thread.currentThread().getName());
                both.countDown();
                both.await(30, java.util.concurrent.TimeUnit.SECONDS);
                return 2;
            });
            assertEquals(List.of(1, 2), Replay.sideBySide(jobs, pool));
            assertEquals(2, threads.size(), "the two ran at once, on two threads");

            Replay.Progress cancelled = new Replay.Progress() {
                @Override
                public void done(double fraction) {
                }

                @Override
                public boolean cancelled() {
                    return true;
                }
            };
            assertThrows(CancellationException.class, () -> Replay.compare(day(6), policy(), policy(), 1, null,
                    cancelled, Model.FLUID, pool));
        } finally {
            pool.shutdownNow();
        }
    }
}
