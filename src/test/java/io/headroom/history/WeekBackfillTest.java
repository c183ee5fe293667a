package io.headroom.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Signal;
import io.headroom.decision.SignalName;
import io.headroom.decision.Signals;
import io.headroom.history.ClassHistory.Series;
import io.headroom.metrics.MetricsSource;
import io.headroom.metrics.SignalHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A week's backfill into the week tier: chunked newest first, with progress, stoppable, under the live minutes. */
class WeekBackfillTest {

    static final Instant NOW = Instant.parse("2026-03-09T06:00:30Z");

    /** A past of arrivals = the hour of day, service 2 s, every step; counts its requests. */
    static class PastSource implements MetricsSource {
        final AtomicInteger requests = new AtomicInteger();
        final List<Instant> ends = new ArrayList<>();

        @Override
        public String name() {
            return "past";
        }

        @Override
        public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
            return Map.of();
        }

        @Override
        public synchronized SignalHistory range(String className, SignalName signal, Instant from, Instant to,
                                                Duration step) {
            requests.incrementAndGet();
            if (signal.equals(Signals.ARRIVAL_RATE)) {
                ends.add(to);
            }
            if (!signal.equals(Signals.ARRIVAL_RATE) && !signal.equals(Signals.MEAN_SERVICE)) {
                return SignalHistory.none(className, signal, "no query for it");
            }
            long s = step.toSeconds();
            long first = Math.floorDiv(from.getEpochSecond(), s) * s;
            int n = (int) ((to.getEpochSecond() - first) / s) + 1;
            double[] t = new double[n];
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                t[i] = first + (double) i * s;
                v[i] = signal.equals(Signals.ARRIVAL_RATE) ? Math.floorMod((long) t[i], 86_400L) / 3600 : 2;
            }
            return new SignalHistory(className, signal, t, v, null);
        }
    }

    @Test
    void aWeekComesInTwentyEightChunksOfSixHoursNewestFirstWithProgressInDays() {
        History history = new History(Duration.ofSeconds(5));
        PastSource source = new PastSource();
        List<WeekBackfill.Progress> seen = new ArrayList<>();
        WeekBackfill.Progress last = WeekBackfill.run(history, source, List.of("a", "b"), NOW, History.WEEK,
                WeekBackfill.CHUNK, seen::add, () -> false);

        assertEquals(WeekBackfill.State.DONE, last.state());
        assertEquals("history: 7 days", last.words());
        assertEquals(7 * 86_400 + 90, last.foundSeconds(), 1e-9,
                "arrivals known back to a week before the settled minute (05:59, 90 s before now)");
        assertEquals(1 + 28, seen.size(), "the start, then one per chunk");
        assertEquals(28, source.ends.size() / 2, "one arrival-rate request per chunk and class");
        assertTrue(source.ends.get(0).isAfter(source.ends.get(2)), "newest first: " + source.ends.subList(0, 4));
        assertEquals("history: 3 of 7 days…", seen.get(12).words(), "12 chunks of 6 h are 3 days");
        assertEquals("history: 6 h of 7 days…", seen.get(1).words());
        for (int i = 1; i < seen.size(); i++) {
            assertTrue(seen.get(i).secondsDone() > seen.get(i - 1).secondsDone(), "progress only grows");
        }
        ClassHistory week = history.findWeek("a");
        assertEquals(History.WEEK_POINTS, week.size(), "a week at a minute, both ends: 10,081 points");
        for (int i = 1; i < week.size(); i++) {
            assertEquals(60, week.time(i) - week.time(i - 1), 0, "one grid across the chunks, no duplicates");
        }
        assertEquals(NOW.getEpochSecond() / 60 * 60 - 60, week.lastTime(), 0,
                "up to the last whole minute a minute old (a rate at now lacks the scrapes not yet ingested)");
        int at = 500;
        assertEquals(Math.floorMod((long) week.time(at), 86_400L) / 3600, week.value(Series.ARRIVAL_RATE, at));
        assertEquals(2, week.value(Series.MEAN_SERVICE, at));
        assertTrue(Double.isNaN(week.value(Series.QUEUE_LENGTH, at)), "a signal with no past stays NaN, never 0");
        assertTrue(last.problem().contains("no query for it"), last.problem());
        assertEquals(0, history.find("a") == null ? 0 : history.find("a").size(), "the day tier is not touched");
    }

    @Test
    void theNewestMinuteAskedIsSettledEvenWhenNowIsJustPastAMinute() {
        // 1 s past a whole minute: a rate at that minute would read a window whose last scrapes are not yet in
        // (against a real Prometheus, 0.35 jobs/s for 0.5). The newest point asked for is a minute older.
        Instant justPast = Instant.parse("2026-03-09T06:01:01Z");
        PastSource source = new PastSource();
        History history = new History(Duration.ofSeconds(5));
        WeekBackfill.run(history, source, List.of("a"), justPast, Duration.ofHours(6), WeekBackfill.CHUNK, p -> { },
                () -> false);
        assertEquals(Instant.parse("2026-03-09T06:00:00Z"), source.ends.get(0), "the range ends a settled minute back");
        assertEquals(Instant.parse("2026-03-09T06:00:00Z").getEpochSecond(), history.findWeek("a").lastTime(), 0);
        Instant settled = Instant.parse("2026-03-09T06:01:59Z");
        PastSource later = new PastSource();
        WeekBackfill.run(new History(Duration.ofSeconds(5)), later, List.of("a"), settled, Duration.ofHours(6),
                WeekBackfill.CHUNK, p -> { }, () -> false);
        assertEquals(Instant.parse("2026-03-09T06:00:00Z"), later.ends.get(0), "59 s past: still the minute before");
    }

    @Test
    void aSourceWithLessThanAWeekIsSaidAsWhatItHad() {
        History history = new History(Duration.ofSeconds(5));
        PastSource young = new PastSource() {
            @Override
            public synchronized SignalHistory range(String className, SignalName signal, Instant from, Instant to,
                                                    Duration step) {
                SignalHistory all = super.range(className, signal, from, to, step);
                double[] v = all.values().clone();
                for (int i = 0; i < v.length; i++) {
                    v[i] = all.times()[i] < NOW.getEpochSecond() - 30 * 3600 ? Double.NaN : v[i]; // up 30 h
                }
                return new SignalHistory(className, signal, all.times(), v, null);
            }
        };
        WeekBackfill.Progress last = WeekBackfill.run(history, young, List.of("a"), NOW, History.WEEK,
                WeekBackfill.CHUNK, p -> { }, () -> false);
        assertEquals(WeekBackfill.State.DONE, last.state());
        assertEquals("history: 30 h of 7 days (the source has no older)", last.words());
    }

    @Test
    void stoppedBetweenChunksItSaysHowFarItGot() {
        History history = new History(Duration.ofSeconds(5));
        PastSource source = new PastSource();
        AtomicInteger chunks = new AtomicInteger();
        WeekBackfill.Progress last = WeekBackfill.run(history, source, List.of("a"), NOW, History.WEEK,
                WeekBackfill.CHUNK, p -> chunks.set(p.chunksDone()), () -> chunks.get() >= 5);
        assertEquals(WeekBackfill.State.STOPPED, last.state());
        assertEquals(5, source.ends.size(), "no request after the stop");
        assertEquals("history: 1 of 7 days (stopped)", last.words());
        assertEquals(5 * 6 * 60 + 1, history.findWeek("a").size(), "30 h at a minute, both ends");
    }

    @Test
    void thePastGoesUnderTheMinutesTheLiveTicksRolledUp() {
        History history = new History(Duration.ofSeconds(5));
        double[] row = new double[ClassHistory.SERIES];
        Arrays.fill(row, Double.NaN);
        double start = NOW.getEpochSecond() - 150; // 05:58:00
        for (double t = start; t <= start + 125; t += 5) {
            row[Series.ARRIVAL_RATE.ordinal()] = t < start + 60 ? 100 : 200;
            history.rollUp("a", t, row);
        }
        ClassHistory week = history.findWeek("a");
        assertEquals(2, week.size(), "two whole minutes rolled up; the third is still open");
        assertEquals(100, week.value(Series.ARRIVAL_RATE, 0), "the minute's mean");
        assertEquals(start, week.time(0));
        WeekBackfill.Progress done = WeekBackfill.run(history, new PastSource(), List.of("a"), NOW,
                Duration.ofHours(12), WeekBackfill.CHUNK, p -> { }, () -> false);
        assertEquals(12 * 60 + 1, week.size(),
                "17:59 to 05:57 from the past (12 h to the settled 05:59), then the two live minutes");
        assertEquals("history: 12 h", done.words(), "all it asked for, found");
        assertEquals(200, week.value(Series.ARRIVAL_RATE, week.size() - 1), "the live minute, as rolled up");
        assertEquals(100, week.value(Series.ARRIVAL_RATE, week.size() - 2));
        assertEquals(5, week.value(Series.ARRIVAL_RATE, week.size() - 3), "05:57 from the past: hour 5");
    }
}
