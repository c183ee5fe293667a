package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The week what-if computed ahead (issue 29): one per class, the replay the What-if window runs for the week range
 * and an unedited policy; given back only for the same live policy and listLength while fresh on the clock; a cancel
 * stops it; a class with no week history gets none.
 */
class WeekAheadTest {
    /** Monday 2026-11-30 00:00 UTC. */
    static final double MONDAY = io.headroom.testing.OfficeWeek.MONDAY;
    final Policy live = Policy.builder().slotsPerReplica(4).minReplicas(1).maxReplicas(100).maxAgeSeconds(20.0)
            .pollIntervalSeconds(60).build();
    final ClassHistory week = tier(MONDAY, 8 * 1440, 60);
    /** The day's history: its last day, at the same minute (its newest point is the window's end). */
    final ClassHistory day = tier(MONDAY + 7 * 86_400, 1440, 60);
    final io.headroom.time.ManualClock clock = new io.headroom.time.ManualClock(Instant.parse("2026-12-08T00:05:00Z"));
    final ExecutorService pool = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** {@code points} a {@code step} apart from {@code from}: 1 job/s, 60 jobs/s 09:00–17:00 on weekdays, 2 s a job. */
    static ClassHistory tier(double from, int points, double step) {
        return io.headroom.testing.OfficeWeek.history(from, points, step);
    }

    Optional<WeekAhead.Entry> computed(WeekAhead ahead) throws Exception {
        return ahead.compute("orders", live, LoadSource.of(() -> day), LoadSource.of(() -> week), pool)
                .get(120, TimeUnit.SECONDS);
    }

    @Test
    void itIsTheWindowsOwnWeekReplayAndFreshForAQuarterOfAnHour() throws Exception {
        WeekAhead ahead = new WeekAhead(clock);
        assertTrue(ahead.needs("orders", live), "nothing computed yet");
        assertTrue(ahead.lookup("orders", live, ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isEmpty());
        WeekAhead.Entry e = computed(ahead).orElseThrow();
        assertEquals(day.lastTime(), e.end(), "to the day's newest point, as the window pins it");
        assertEquals(clock.instant(), e.computedAt());
        // The same replay as the What-if window's for the week range and an unedited policy.
        Replay.Comparison exact = ReplayInputs.of(LoadSource.of(() -> day), LoadSource.of(() -> week), day.lastTime(),
                WeekAhead.WEEK_MINUTES, live.timeZone(), ComparisonTable.DEFAULT_KEDA_LIST_LENGTH)
                .compare(live, live, ComparisonTable.SEED, Replay.Progress.NONE, Runnable::run);
        Replay.Comparison c = e.comparison();
        assertEquals(7 * 86_400, c.seconds(), 60);
        assertTrue(c.baseline() != null && c.predictive() != null, "KEDA's rule and the predictive run");
        assertEquals(exact.current().summary(), c.current().summary());
        assertEquals(exact.baseline().summary(), c.baseline().summary());
        assertEquals(exact.predictive().summary(), c.predictive().summary());

        assertEquals(Optional.of(e), ahead.lookup("orders", live, ComparisonTable.DEFAULT_KEDA_LIST_LENGTH));
        assertFalse(ahead.needs("orders", live));
        clock.advance(Duration.ofMinutes(14).plusSeconds(59));
        assertEquals(Duration.ofMinutes(14).plusSeconds(59), ahead.age(e));
        assertTrue(ahead.lookup("orders", live, ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isPresent(), "still fresh");
        clock.advance(Duration.ofSeconds(1));
        assertTrue(ahead.lookup("orders", live, ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isEmpty(),
                "15 min old: stale");
        assertTrue(ahead.needs("orders", live), "computed again");
        assertTrue(ahead.lookup("payments", live, ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isEmpty(),
                "another class's");
    }

    @Test
    void anotherPolicyOrListLengthGetsNone() throws Exception {
        WeekAhead ahead = new WeekAhead(clock);
        computed(ahead).orElseThrow();
        Policy same = live.toBuilder().build();
        assertTrue(ahead.lookup("orders", same, ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isPresent(),
                "an equal policy is the same policy");
        assertTrue(ahead.lookup("orders", live.toBuilder().maxReplicas(50).build(),
                ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isEmpty(), "another policy");
        assertTrue(ahead.needs("orders", live.toBuilder().maxReplicas(50).build()),
                "the live policy changed: computed again");
        assertTrue(ahead.lookup("orders", live, 10).isEmpty(), "another listLength");
    }

    @Test
    void aCancelStopsItAndItKeepsNothing() throws Exception {
        WeekAhead ahead = new WeekAhead(clock);
        List<Runnable> queued = new ArrayList<>();
        var f = ahead.compute("orders", live, LoadSource.of(() -> day), LoadSource.of(() -> week), queued::add);
        ahead.cancel();
        queued.forEach(Runnable::run);
        ExecutionException x = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
        assertInstanceOf(java.util.concurrent.CancellationException.class, x.getCause());
        assertTrue(ahead.needs("orders", live), "nothing kept");

        // Cancelled while it replays: it stops at its next progress check.
        java.util.concurrent.CountDownLatch replaying = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);
        LoadSource slowWeek = new LoadSource() {
            @Override
            public double newestTime() {
                return week.lastTime();
            }

            @Override
            public LoadHistory between(double from, double to) {
                replaying.countDown(); // read from the computing thread, just before it replays
                try {
                    assertTrue(cancelled.await(30, TimeUnit.SECONDS));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return LoadHistory.of(week, from, to);
            }
        };
        var g = ahead.compute("orders", live, LoadSource.of(() -> day), slowWeek, pool);
        assertTrue(replaying.await(30, TimeUnit.SECONDS));
        ahead.cancel();
        cancelled.countDown();
        x = assertThrows(ExecutionException.class, () -> g.get(60, TimeUnit.SECONDS));
        assertInstanceOf(java.util.concurrent.CancellationException.class, x.getCause());
        assertTrue(ahead.needs("orders", live), "nothing kept");

        // A cancel stops what runs, not what comes after it.
        assertTrue(computed(ahead).isPresent());
        assertEquals(Thread.NORM_PRIORITY, pool.submit(() -> Thread.currentThread().getPriority()).get(),
                "the pool's thread gets its priority back");
    }

    @Test
    void aClassWithNoWeekHistoryGetsNone() throws Exception {
        WeekAhead ahead = new WeekAhead(clock);
        ClassHistory empty = new ClassHistory("orders", 10);
        assertEquals(Optional.empty(), ahead.compute("orders", live, LoadSource.of(() -> day),
                LoadSource.of(() -> empty), pool).get(30, TimeUnit.SECONDS));
        assertEquals(Optional.empty(), ahead.compute("orders", live, LoadSource.of(() -> day),
                LoadSource.of(() -> null), pool).get(30, TimeUnit.SECONDS));
        assertTrue(ahead.needs("orders", live));
    }
}
