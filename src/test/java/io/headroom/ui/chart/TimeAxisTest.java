package io.headroom.ui.chart;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class TimeAxisTest {

    // 2026-03-01T10:00:00Z
    private static final double T = Instant.parse("2026-03-01T10:00:00Z").getEpochSecond();

    @ParameterizedTest(name = "{0} s in at most {1} ticks -> {2} s")
    @CsvSource({
        "10, 10, 1",
        "60, 6, 10",
        "60, 4, 15",
        "300, 10, 30",
        "900, 8, 120",
        "900, 15, 60",
        "3600, 6, 600",
        "3600, 4, 900",
        "21600, 6, 3600",
        "86400, 8, 10800",
        "86400, 4, 21600",
        "86400, 2, 43200",
        "604800, 7, 86400",
        "604800, 4, 172800",
        "604800, 3, 432000",
    })
    void picksTheSmallestNiceTimeStep(double span, int maxTicks, double expected) {
        assertEquals(expected, TimeAxis.timeTickStep(span, maxTicks));
    }

    @Test
    void timeTicksLandOnRoundTimes() {
        TimeAxis axis = new TimeAxis(fixedClock(), ZoneOffset.UTC);

        double[] ticks = axis.timeTicks(T + 7, T + 65, 6); // 10 s step

        assertArrayEquals(new double[] {T + 10, T + 20, T + 30, T + 40, T + 50, T + 60}, ticks);
    }

    @Test
    void hourTicksAlignToLocalHoursInTheGivenZone() {
        // +05:30: local hours are half past in UTC; ticks must read 16:00, 17:00 locally.
        TimeAxis axis = new TimeAxis(fixedClock(), ZoneId.of("Asia/Kolkata"));

        double[] ticks = axis.timeTicks(T, T + 3 * 3600, 3);

        assertEquals(T + 1800, ticks[0]);
        assertEquals("16:00", axis.formatTime(ticks[0], 3600));
        assertEquals("17:00", axis.formatTime(ticks[1], 3600));
    }

    @Test
    void labelsShowSecondsOnlyForSubMinuteSteps() {
        TimeAxis axis = new TimeAxis(fixedClock(), ZoneOffset.UTC);

        assertEquals("10:00:30", axis.formatTime(T + 30, 30));
        assertEquals("10:01", axis.formatTime(T + 60, 60));
        assertEquals("Mar 1", axis.formatTime(T, 86400));
        assertEquals("10:00:05", axis.formatTimeFull(T + 5));
    }

    @Test
    void aDaysBoundaryIsItsLocalMidnightNamedByItsWeekday() {
        TimeAxis axis = new TimeAxis(fixedClock(), ZoneOffset.UTC);
        double midnight = Instant.parse("2026-03-01T00:00:00Z").getEpochSecond(); // a Sunday
        assertTrue(axis.isDayStart(midnight));
        assertFalse(axis.isDayStart(midnight + 12 * 3600));
        assertEquals("Sun 1", axis.dayLabel(midnight));
        axis.zoneProperty().set(ZoneOffset.ofHours(-5));
        assertFalse(axis.isDayStart(midnight), "in another zone the day starts elsewhere");
        assertTrue(axis.isDayStart(midnight + 5 * 3600));
        assertEquals("Sun 1", axis.dayLabel(midnight + 5 * 3600));
        // A week's ticks: twelve hours apart, every other one a day's boundary.
        double[] ticks = axis.timeTicks(midnight, midnight + 7 * 86_400, 14);
        assertEquals(12 * 3600, ticks[1] - ticks[0]);
        int days = 0;
        for (double t : ticks) {
            days += axis.isDayStart(t) ? 1 : 0;
        }
        assertEquals(7, days);
    }

    @Test
    void zoneCanBeChangedLater() {
        TimeAxis axis = new TimeAxis(fixedClock(), ZoneOffset.UTC);
        axis.zoneProperty().set(ZoneOffset.ofHours(2));

        assertEquals("12:00", axis.formatTime(T, 60));
    }

    @ParameterizedTest(name = "[{0}, {1}] in {2} -> step {3}")
    @CsvSource({
        "0, 1, 5, 0.2",
        "0, 137, 5, 50",
        "0, 137, 10, 20",
        "0, 100, 5, 20",
        "0, 0.03, 3, 0.01",
        "-40, 40, 4, 20",
        "0, 25000, 5, 5000",
    })
    void valueStepsAreOneTwoFive(double min, double max, int maxTicks, double step) {
        assertEquals(step, TimeAxis.niceStep(max - min, maxTicks), 1e-12);
    }

    @Test
    void valueTicksAreExactDecimals() {
        assertArrayEquals(new double[] {0, 0.2, 0.4, 0.6, 0.8, 1.0}, TimeAxis.valueTicks(0, 1, 5));
        assertArrayEquals(new double[] {0, 50, 100}, TimeAxis.valueTicks(0, 137, 5));
        assertArrayEquals(new double[] {-40, -20, 0, 20, 40}, TimeAxis.valueTicks(-40, 40, 4));
        assertArrayEquals(new double[] {0.1, 0.2, 0.3}, TimeAxis.valueTicks(0.05, 0.3, 3));
    }

    @Test
    void valueLabelsHaveJustEnoughDecimals() {
        assertEquals("0.6", TimeAxis.formatValue(0.6, 0.2));
        assertEquals("120", TimeAxis.formatValue(120, 20));
        assertEquals("0.05", TimeAxis.formatValue(0.05, 0.05));
        assertEquals("12k", TimeAxis.formatValue(12_000, 2_000));
        assertEquals("12.5k", TimeAxis.formatValue(12_500, 500));
        assertEquals("25M", TimeAxis.formatValue(25e6, 5e6));
        assertEquals("-20", TimeAxis.formatValue(-20, 20));
    }

    @Test
    void followsTheClockOnlyWhenLiveAndOnlyByAtLeastTheResolution() {
        MutableClock clock = new MutableClock(T);
        TimeAxis axis = new TimeAxis(clock, ZoneOffset.UTC);
        assertEquals(T, axis.getWindowEnd());

        clock.seconds = T + 0.5;
        assertFalse(axis.advanceLive(1), "half a pixel: no redraw");
        clock.seconds = T + 1.2;
        assertTrue(axis.advanceLive(1));
        assertEquals(T + 1.2, axis.getWindowEnd(), 1e-9);

        axis.setFollowLive(false);
        clock.seconds = T + 100;
        assertFalse(axis.advanceLive(1));
        assertEquals(T + 1.2, axis.getWindowEnd(), 1e-9);
        assertEquals(T + 1.2 - 900, axis.getWindowStart(), 1e-9);
    }

    private static Clock fixedClock() {
        return Clock.fixed(Instant.ofEpochSecond((long) T), ZoneOffset.UTC);
    }

    /** A clock the test moves by hand. */
    static final class MutableClock extends Clock {
        double seconds;

        MutableClock(double seconds) {
            this.seconds = seconds;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(Math.round(seconds * 1000));
        }
    }
}
