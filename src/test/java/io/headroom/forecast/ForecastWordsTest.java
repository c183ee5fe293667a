package io.headroom.forecast;

import static org.assertj.core.api.Assertions.assertThat;

import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ForecastWordsTest {

    @Test
    void numbersDurationsAndDays() {
        assertThat(ForecastWords.number(38.4)).isEqualTo("38");
        assertThat(ForecastWords.number(5.0)).isEqualTo("5");
        assertThat(ForecastWords.number(4.46)).isEqualTo("4.5");
        assertThat(ForecastWords.number(0.25)).isEqualTo("0.25");
        assertThat(ForecastWords.duration(14 * 3600)).isEqualTo("14 h");
        assertThat(ForecastWords.duration(45 * 60)).isEqualTo("45 min");
        assertThat(ForecastWords.duration(3 * 86_400)).isEqualTo("3 days");
        assertThat(ForecastWords.timeOfDay(9 * 3600 + 2 * 60 + 10)).isEqualTo("09:02");
        assertThat(ForecastWords.days(5, Forecast.Model.WEEKDAY_WEEKEND, 0)).isEqualTo("5 weekdays");
        assertThat(ForecastWords.days(1, Forecast.Model.DAILY, 0)).isEqualTo("day");
        assertThat(ForecastWords.days(2, Forecast.Model.PER_WEEKDAY, 0)).isEqualTo("2 Mondays");
        assertThat(ForecastWords.ratio(1.5)).isEqualTo("1.5×");
    }

    @Test
    void aGridFromAHistoryAveragesEachCellAndLeavesGapsUnknown() {
        ClassHistory h = new ClassHistory("c", 100);
        double[] row = new double[ClassHistory.SERIES];
        double[] rates = {2, 4, Double.NaN, 6, Double.NaN, Double.NaN, 9};
        for (int i = 0; i < rates.length; i++) {
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = rates[i];
            h.append(600 + i * 30, row);
        }
        // 60 s cells from 600: {2,4} → 3, {NaN,6} → 6, {NaN,NaN} → unknown, {9} → 9.
        LoadGrid g = LoadGrid.of(h, Series.ARRIVAL_RATE, 600, 840, 60);

        assertThat(g.start()).isEqualTo(600);
        assertThat(g.values()).containsExactly(3, 6, Double.NaN, 9);
    }
}
