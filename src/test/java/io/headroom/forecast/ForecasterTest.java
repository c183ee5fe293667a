package io.headroom.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.headroom.forecast.Forecast.Model;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ForecasterTest {

    /** Monday 2026-03-02 00:00 UTC. */
    static final double MONDAY = Instant.parse("2026-03-02T00:00:00Z").getEpochSecond();
    static final double DAY = 86_400;
    static final double H = 3600;

    /**
     * A minute grid from Monday 00:00 for {@code days}: 5 jobs/s, rising to 38 at 09:00 (± up to 4 min a day) until
     * 17:00 on weekdays, flat at 5 on weekends; 5 % noise; {@code today} scales the last (partial) day.
     */
    static LoadGrid weekdayRise(double days, long seed, double today) {
        Random random = new Random(seed);
        int n = (int) Math.round(days * DAY / 60);
        double[] v = new double[n];
        double jitter = 0;
        for (int i = 0; i < n; i++) {
            double t = i * 60.0;
            int day = (int) (t / DAY);
            double inDay = t - day * DAY;
            if (inDay == 0) {
                jitter = (random.nextInt(9) - 4) * 60;
            }
            boolean weekend = day % 7 >= 5;
            boolean busy = !weekend && inDay >= 9 * H + jitter && inDay < 17 * H;
            double rate = busy ? 38 : 5;
            if (day == (int) ((n - 1) * 60.0 / DAY)) {
                rate *= today;
            }
            v[i] = rate * (1 + 0.05 * random.nextGaussian());
        }
        return new LoadGrid(MONDAY, 60, v);
    }

    static Forecast forecast(LoadGrid grid, double now) {
        return new Forecaster(ForecastSettings.DEFAULTS).forecast(grid, now, "jobs/s");
    }

    static double p50At(Forecast f, double t) {
        return f.p50()[f.slotAt(t)];
    }

    @Test
    void aWeekdayRiseIsForecastWithinATenthOfTheTruthWithOrderedQuantiles() {
        double now = MONDAY + 8 * DAY + 6 * H; // Tuesday of the second week, 06:00
        Forecast f = forecast(weekdayRise(8.25, 1, 1), now);

        assertThat(f.available()).as(f.reason()).isTrue();
        assertThat(f.model()).isEqualTo(Model.WEEKDAY_WEEKEND);
        assertThat(p50At(f, MONDAY + 8 * DAY + 7 * H)).isCloseTo(5, within(0.5));
        assertThat(p50At(f, MONDAY + 8 * DAY + 10 * H)).isCloseTo(38, within(3.8));
        for (int i = 0; i < f.slots(); i++) {
            assertThat(f.p50()[i]).isLessThanOrEqualTo(f.p80()[i]);
            assertThat(f.p80()[i]).isLessThanOrEqualTo(f.p95()[i]);
        }
        assertThat(f.level()).isCloseTo(1, within(0.05));
        assertThat(f.error()).isLessThan(0.3);
        assertThat(f.reason()).startsWith("the last 6 weekdays rose from 5 to 38 jobs/s at 09:0")
                .contains(" ± ").contains(" min; p80 ").contains("backtest error ");
    }

    @Test
    void aWeekendDayHasNoRiseAndNothingAboveTheNeed() {
        double now = MONDAY + 13 * DAY + 6 * H; // Sunday of the second week, 06:00
        Forecast f = forecast(weekdayRise(13.25, 2, 1), now);

        assertThat(f.available()).as(f.reason()).isTrue();
        assertThat(f.model()).isEqualTo(Model.WEEKDAY_WEEKEND);
        assertThat(p50At(f, now + 4 * H)).isCloseTo(5, within(0.5));
        assertThat(f.reason()).startsWith("the last 3 weekend days held ").contains(" over the next 6 h");
        assertThat(f.nextRise(now, 6 * H, 5, 0.3)).isEmpty();
    }

    @Test
    void aSeriesThatHoldsOneValueIsSaidOnceNotAsARangeFromItToItself() {
        Random random = new Random(4);
        double[] v = new double[4 * 1440];
        for (int i = 0; i < v.length; i++) {
            v[i] = 2 * (1 + 0.002 * random.nextGaussian()); // a mean service time that barely moves
        }
        double now = MONDAY + 4 * DAY;
        Forecast f = new Forecaster(ForecastSettings.DEFAULTS).forecast(new LoadGrid(MONDAY, 60, v), now, "s");
        assertThat(f.available()).as(f.reason()).isTrue();
        assertThat(f.reason()).startsWith("the last 4 days held at 2 s over the next 6 h; p80 2 s")
                .doesNotContain("2–2");
    }

    @Test
    void nextRiseSaysWhenTheP80PassesTheNeedAndByHowMuch() {
        double now = MONDAY + 8 * DAY + 6 * H;
        Forecast f = forecast(weekdayRise(8.25, 3, 1), now);

        Optional<Forecast.Rise> rise = f.nextRise(now, 6 * H, 5, 0.5);

        assertThat(rise).isPresent();
        double nine = MONDAY + 8 * DAY + 9 * H;
        assertThat(rise.get().at()).isBetween(nine - 15 * 60, nine + 5 * 60);
        assertThat(rise.get().peakP80()).isCloseTo(38, within(5.0));
        assertThat(rise.get().factor()).isGreaterThan(1.5);
        assertThat(rise.get().why()).contains("exceeds the 5 jobs/s needed now by more than 50 %");
        // Already at the peak's need: nothing rises above it.
        assertThat(f.nextRise(now, 6 * H, 45, 0.2)).isEmpty();
        // Beyond the horizon asked: not seen.
        assertThat(f.nextRise(now, 2 * H, 5, 0.5)).isEmpty();
    }

    @Test
    void aStaleForecastPromisesNoRise() {
        double now = MONDAY + 8 * DAY + 6 * H;
        Forecast f = forecast(weekdayRise(8.25, 3, 1), now);

        assertThat(f.nextRise(now + 7 * H, 6 * H, 1, 0.2)).isEmpty();
    }

    @Test
    void theLevelIsBounded() {
        double now = MONDAY + 8 * DAY + 12 * H; // Tuesday 12:00 at 3× since midnight: bounded to 2×
        Forecast f = forecast(weekdayRise(8.5, 4, 3), now);

        assertThat(f.level()).isEqualTo(2.0);
    }

    @Test
    void serviceTimeIsForecastByTheSameProfile() {
        // 2 s a job at night, 3 s from 08:00 to 20:00, every day, 2 % noise: three days and six hours of it.
        Random random = new Random(12);
        double[] v = new double[(int) (3.25 * 1440)];
        for (int i = 0; i < v.length; i++) {
            double inDay = (i % 1440) * 60.0;
            v[i] = (inDay >= 8 * H && inDay < 20 * H ? 3 : 2) * (1 + 0.02 * random.nextGaussian());
        }
        double now = MONDAY + 3 * DAY + 6 * H;
        Forecast f = new Forecaster(ForecastSettings.DEFAULTS).forecast(new LoadGrid(MONDAY, 60, v), now, "s");

        assertThat(f.available()).as(f.reason()).isTrue();
        assertThat(p50At(f, now + 3 * H)).isCloseTo(3, within(0.15));
        assertThat(f.reason()).startsWith("the last 3 days rose from 2 to 3 s at 08:00");
    }

    @Test
    void theLevelFollowsAUniformlyHigherDay() {
        double now = MONDAY + 8 * DAY + 12 * H; // Tuesday 12:00, running at 1.5× since midnight
        Forecast f = forecast(weekdayRise(8.5, 4, 1.5), now);

        assertThat(f.available()).as(f.reason()).isTrue();
        assertThat(f.level()).isCloseTo(1.5, within(0.1));
        assertThat(p50At(f, now + H)).isCloseTo(57, within(5.7));
        assertThat(f.reason()).contains("the last 3 h ran at 1.5× the usual level");
    }

    @Test
    void twoWeeksGiveEachWeekdayItsOwnProfile() {
        double now = MONDAY + 15 * DAY + 6 * H; // Tuesday of the third week
        Forecast f = forecast(weekdayRise(15.25, 5, 1), now);

        assertThat(f.model()).isEqualTo(Model.PER_WEEKDAY);
        assertThat(f.reason()).startsWith("the last 2 Tuesdays rose from 5 to 38 jobs/s");
        assertThat(p50At(f, now + 4 * H)).isCloseTo(38, within(3.8));
    }

    @Test
    void underThreeDaysEveryDayIsAlike() {
        // Every day rises: two and a half days of it.
        LoadGrid g = weekdayRise(2.25, 6, 1);
        Forecast f = forecast(g, MONDAY + 2 * DAY + 6 * H);

        assertThat(f.model()).isEqualTo(Model.DAILY);
        assertThat(f.reason()).startsWith("the last 2 days rose from 5 to 38 jobs/s at 09:0");
    }

    @Test
    void tooShortAHistoryIsRefusedWithItsLength() {
        double now = MONDAY + 14 * H;
        Forecast f = forecast(weekdayRise(14.0 / 24, 7, 1), now);

        assertThat(f.available()).isFalse();
        assertThat(f.reason()).isEqualTo("only 14 h of history; a forecast needs 24 h");
        assertThat(f.slots()).isZero();
        assertThat(f.nextRise(now, 6 * H, 1, 0.2)).isEmpty();
    }

    @Test
    void aDayWithNothingToCheckItAgainstIsRefused() {
        double now = MONDAY + DAY + 10 * 60;
        Forecast f = forecast(weekdayRise(1 + 10.0 / 1440, 8, 1), now);

        assertThat(f.available()).isFalse();
        assertThat(f.reason()).startsWith("only 24 h of history; a forecast is first checked")
                .endsWith("so it needs 25 h");
    }

    @Test
    void noiseWithoutAPatternIsRefusedWithItsError() {
        Random random = new Random(9);
        double[] v = new double[8 * 1440];
        double block = 0;
        for (int i = 0; i < v.length; i++) {
            if (i % 30 == 0) {
                block = 1 + 60 * random.nextDouble();
            }
            v[i] = block;
        }
        Forecast f = forecast(new LoadGrid(MONDAY, 60, v), MONDAY + 8 * DAY);

        assertThat(f.available()).isFalse();
        assertThat(f.reason()).matches("no forecast: its error over the last 3 days was \\d+ % \\(limit 30 %\\)");
    }

    @Test
    void theErrorLimitIsASetting() {
        double now = MONDAY + 8 * DAY + 6 * H;
        Forecast f = new Forecaster(ForecastSettings.DEFAULTS.withMaxError(0.001))
                .forecast(weekdayRise(8.25, 10, 1), now, "jobs/s");

        assertThat(f.available()).isFalse();
        assertThat(f.reason()).contains("(limit 0 %)");
    }

    @Test
    void mapeOnAHandCheckedExample() {
        double[] actual = {10, 20, 0.01, Double.NaN, 40};
        double[] forecast = {12, 15, 5, 3, 40};
        // |10-12|/10 = 0.20, |20-15|/20 = 0.25, 0.01 under the floor, NaN not known, 40 exact: (0.2+0.25+0)/3.
        assertThat(Backtest.mape(actual, forecast, 1)).isCloseTo(0.15, within(1e-12));
        assertThat(Backtest.judged(actual, forecast, 1)).isEqualTo(3);
        assertThat(Backtest.mape(new double[] {0.5}, new double[] {1}, 1)).isNaN();
    }

    @Test
    void timesOfDayFollowTheZone() {
        // The same weekday rise at 09:00 in Berlin (08:00 UTC in March): the words say 09:00 in Berlin.
        LoadGrid utc = weekdayRise(8.25, 11, 1);
        LoadGrid berlin = new LoadGrid(utc.start() - H, 60, utc.values());
        Forecast f = new Forecaster(ForecastSettings.DEFAULTS.withZone(java.time.ZoneId.of("Europe/Berlin")))
                .forecast(berlin, MONDAY + 8 * DAY + 5 * H, "jobs/s");

        assertThat(f.reason()).as(f.reason()).containsPattern("to 38 jobs/s at (08:5|09:0)\\d");
    }
}
