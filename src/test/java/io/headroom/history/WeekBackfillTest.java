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
    static final class PastSource implements MetricsSource {
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
        assertEquals(NOW.getEpochSecond() / 60 * 60, week.lastTime(), 0, "up to the last whole minute");
        int at = 500;
        assertEquals(Math.floorMod((long) week.time(at), 86_400L) / 3600, week.value(Series.ARRIVAL_RATE, at));
        assertEquals(2, week.value(Series.MEAN_SERVICE, at));
        assertTrue(Double.isNaN(week.value(Series.QUEUE_LENGTH, at)), "a signal with no past stays NaN, never 0");
        assertTrue(last.problem().contains("no query for it"), last.problem());
        assertEquals(0, history.find("a") == null ? 0 : history.find("a").size(), "the day tier is not touched");
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
        WeekBackfill.run(history, new PastSource(), List.of("a"), NOW, Duration.ofHours(12), WeekBackfill.CHUNK,
                p -> { }, () -> false);
        assertEquals(12 * 60, week.size(), "18:00 to 05:57 from the past, then the two live minutes");
        assertEquals(200, week.value(Series.ARRIVAL_RATE, week.size() - 1), "the live minute, as rolled up");
        assertEquals(100, week.value(Series.ARRIVAL_RATE, week.size() - 2));
        assertEquals(5, week.value(Series.ARRIVAL_RATE, week.size() - 3), "05:57 from the past: hour 5");
    }
}
