package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.Downsampler;
import io.headroom.history.History;
import io.headroom.history.WeekBackfill;
import io.headroom.loop.TickResult;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The detail's 7-day window without the toolkit (issue 29): 7 d reads the week tier at a point a minute, the choice
 * stays when another class is opened, a one-minute burst survives the charts' reduction to pixel columns, new minutes
 * and backfilled days reach the charts, and the part of the week not read yet says how far the backfill got.
 */
class DetailWeekWindowTest {
    static final double NOW = DetailWorkStripTest.T0.getEpochSecond();
    static final double WEEK = 7 * 86_400;

    /** The minutes {@code from..to} (exclusive) of a week tier: 5 jobs/s, 3 replicas, age 20 s. */
    static void minutes(ClassHistory week, double from, double to, double arrivals) {
        double[] row = new double[ClassHistory.SERIES];
        for (double t = from; t < to; t += 60) {
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = arrivals;
            row[Series.REPLICAS.ordinal()] = 3;
            row[Series.OLDEST_AGE.ordinal()] = 20;
            week.append(t, row);
        }
    }

    private static DetailViewModel detail(History h, AtomicReference<WeekBackfill.Progress> progress) {
        DetailViewModel vm = new DetailViewModel(Clock.fixed(DetailWorkStripTest.T0, ZoneOffset.UTC), Runnable::run);
        vm.setWeekHistory(h::findWeek, progress::get, Runnable::run);
        vm.apply(List.of(new TickResult(DetailWorkStripTest.T0, List.of(DetailWorkStripTest.snapshot("a", 6, 4, 90),
                DetailWorkStripTest.snapshot("b", 3, 3, 0)), "dev", "test")));
        vm.select("a");
        return vm;
    }

    @Test
    void sevenDaysReadsTheWeekTierAndTheChoiceStaysWhenAnotherClassOpens() {
        History h = new History(Duration.ofSeconds(15));
        minutes(h.weekOf("a"), NOW - WEEK, NOW, 5);
        minutes(h.weekOf("b"), NOW - WEEK, NOW, 9);
        DetailViewModel vm = detail(h, new AtomicReference<>(WeekBackfill.Progress.NONE));
        ClassSeries day = vm.seriesProperty().get();
        assertEquals(1, day.arrivalRate.size(), "the day's charts hold the one tick");

        vm.showWindow(DetailViewModel.WEEK, 700);
        assertTrue(vm.weekShown());
        ClassSeries week = vm.seriesProperty().get();
        assertNotSame(day, week, "the week's own series");
        assertEquals(10_080, week.arrivalRate.size(), "a point a minute over the week");
        assertEquals(NOW - WEEK, week.arrivalRate.time(0));
        assertEquals(5, week.arrivalRate.value(0));
        assertEquals(3 * 4, week.capacitySlots.value(0), "replicas × 4 slots per replica, the capacity chart's unit");
        assertEquals(150, vm.gapSpacingSeconds(), "at a minute a point, a gap is two and a half minutes without one");
        assertEquals("", vm.weekPendingProperty().get(), "the whole week is in: nothing to say over it");

        vm.select("b");
        assertEquals(DetailViewModel.WEEK, vm.windowProperty().get(), "another class opens at the week too");
        assertEquals(9, vm.seriesProperty().get().arrivalRate.value(0), "b's week");

        vm.showWindow(Duration.ofHours(24), 700);
        assertSame(vm.series("b"), vm.seriesProperty().get(), "24 h: the day's charts again");
        assertEquals(37.5, vm.gapSpacingSeconds(), "back to the tick's gap spacing");
    }

    @Test
    void aOneMinuteBurstSurvivesTheReductionToPixelColumnsAtSevenDays() {
        History h = new History(Duration.ofSeconds(15));
        ClassHistory a = h.weekOf("a");
        double burst = NOW - 3 * 86_400 + 17 * 60; // one minute, three days back
        minutes(a, NOW - WEEK, burst, 5);
        minutes(a, burst, burst + 60, 80);
        minutes(a, burst + 60, NOW, 5);
        DetailViewModel vm = detail(h, new AtomicReference<>(WeekBackfill.Progress.NONE));
        vm.showWindow(DetailViewModel.WEEK, 700);

        Downsampler d = new Downsampler();
        int drawn = d.run(vm.seriesProperty().get().arrivalRate, NOW - WEEK, NOW, 700);
        assertTrue(drawn <= 4 * 700, "at most four points a column are drawn: " + drawn);
        assertTrue(drawn < 10_080 / 3, "the week is reduced: " + drawn);
        assertEquals(80, d.max(), "the burst sets the axis");
        List<Double> at = new ArrayList<>();
        for (int i = 0; i < drawn; i++) {
            if (d.value(i) == 80) {
                at.add(d.time(i));
            }
        }
        assertEquals(List.of(burst), at, "the burst's minute is drawn, at its time");
    }

    @Test
    void theWeekStillArrivingIsSaidOverItsEmptyPartAndEachChunkAndMinuteReachesTheCharts() {
        History h = new History(Duration.ofSeconds(15));
        ClassHistory a = h.weekOf("a");
        minutes(a, NOW - 3 * 86_400, NOW - 60, 5); // the newest three days are in
        AtomicReference<WeekBackfill.Progress> progress = new AtomicReference<>(new WeekBackfill.Progress(
                WeekBackfill.State.RUNNING, 3 * 86_400, WEEK, 12, 28, "", Double.NaN));
        DetailViewModel vm = detail(h, progress);
        assertEquals("", vm.weekPendingProperty().get(), "the day is shown: nothing pending");
        vm.showWindow(DetailViewModel.WEEK, 700);
        assertEquals("history: 3 of 7 days…", vm.weekPendingProperty().get());
        assertEquals(NOW - 3 * 86_400, vm.weekPendingUntilProperty().get(), "said over what is older than the read");
        assertEquals(3 * 1440 - 1, vm.seriesProperty().get().arrivalRate.size());

        // The next chunk (days 4 to 6 back) and a new minute rolled up; the next tick brings both to the charts.
        int n = 3 * 1440;
        double[] times = new double[n];
        double[] rate = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = NOW - 6 * 86_400 + 60.0 * i;
            rate[i] = 7;
        }
        a.backfill(times, Map.of(Series.ARRIVAL_RATE, rate));
        minutes(a, NOW - 60, NOW, 6);
        progress.set(new WeekBackfill.Progress(WeekBackfill.State.RUNNING, 6 * 86_400, WEEK, 24, 28, "", Double.NaN));
        ClassSeries before = vm.seriesProperty().get();
        vm.apply(List.of(new TickResult(DetailWorkStripTest.T0, List.of(DetailWorkStripTest.snapshot("a", 6, 4, 90),
                DetailWorkStripTest.snapshot("b", 3, 3, 0)), "dev", "test")));
        ClassSeries after = vm.seriesProperty().get();
        assertNotSame(before, after, "copied again: the week grew");
        assertEquals(6 * 1440, after.arrivalRate.size());
        assertEquals(NOW - 6 * 86_400, after.arrivalRate.time(0));
        assertEquals(7, after.arrivalRate.value(0), "the backfilled chunk");
        assertEquals(6, after.arrivalRate.value(after.arrivalRate.size() - 1), "the newest minute");
        assertEquals("history: 6 of 7 days…", vm.weekPendingProperty().get());
        assertEquals(NOW - 6 * 86_400, vm.weekPendingUntilProperty().get());

        long structure = vm.structureProperty().get();
        vm.apply(List.of(new TickResult(DetailWorkStripTest.T0, List.of(DetailWorkStripTest.snapshot("a", 6, 4, 90)),
                "dev", "test")));
        assertSame(after, vm.seriesProperty().get(), "nothing new in the week: not copied again");
        assertEquals(structure, vm.structureProperty().get());

        // The source had no older: the backfill is done, and the words say so.
        progress.set(new WeekBackfill.Progress(WeekBackfill.State.DONE, WEEK, WEEK, 28, 28, "", 6 * 86_400));
        vm.apply(List.of());
        assertEquals("history: 6 days of 7 days (the source has no older)", vm.weekPendingProperty().get());

        vm.showWindow(Duration.ofHours(6), 700);
        assertEquals("", vm.weekPendingProperty().get(), "only the week window says it");
        assertFalse(vm.weekShown());
    }

    /**
     * The sandbox's week (and a source without an age query) holds arrivals and service time only: before the live
     * ticks the age and capacity charts have nothing. That is not an outage ("no data" over six days read like one):
     * those two charts say what the week's history holds, the load chart nothing.
     */
    @Test
    void aWeekOfArrivalsOnlySaysSoOverTheAgeAndCapacityChartsNotNoData() {
        History h = new History(Duration.ofSeconds(15));
        ClassHistory week = h.weekOf("a");
        double[] row = new double[ClassHistory.SERIES];
        double live = NOW - 3600; // the console's own ticks: the last hour
        for (double t = NOW - WEEK; t < NOW; t += 60) {
            java.util.Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = 5;
            if (t >= live) {
                row[Series.REPLICAS.ordinal()] = 3;
                row[Series.OLDEST_AGE.ordinal()] = 20;
            }
            week.append(t, row);
        }
        DetailViewModel vm = detail(h, new AtomicReference<>(new WeekBackfill.Progress(WeekBackfill.State.DONE,
                WEEK, WEEK, 28, 28, "", WEEK)));
        vm.showWindow(DetailViewModel.WEEK, 700);
        assertEquals("", vm.weekPendingProperty().get(), "the load chart's week is all in");
        assertEquals(live, vm.weekAgePendingUntilProperty().get());
        assertEquals("the week's history has no oldest age before Tue 09:00",
                vm.weekAgePendingProperty().get());
        assertEquals(live, vm.weekCapacityPendingUntilProperty().get());
        assertEquals("the week's history has no replicas before Tue 09:00",
                vm.weekCapacityPendingProperty().get());

        minutes(h.weekOf("b"), NOW - WEEK, NOW, 9); // every series all week
        vm.select("b");
        assertEquals("", vm.weekAgePendingProperty().get(), "b's week holds its age: nothing to say");
        assertEquals("", vm.weekCapacityPendingProperty().get());
        vm.showWindow(java.time.Duration.ofMinutes(15), 700);
        vm.select("a");
        assertEquals("", vm.weekAgePendingProperty().get(), "only the week window says it");
    }
}
