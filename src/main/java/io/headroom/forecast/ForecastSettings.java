package io.headroom.forecast;

import java.time.ZoneId;
import java.util.Objects;

/**
 * What a forecast may assume and when it must refuse (design.md §2a).
 *
 * @param slotSeconds        width of a profile slot (divides a day); the history is averaged into slots
 * @param horizonSeconds     how far ahead the forecast reaches
 * @param maxError           the backtest error (a fraction) above which no forecast is given
 * @param minHistorySeconds  history needed before any forecast
 * @param weeklyDays         days of history before weekdays and weekend days are told apart
 * @param perWeekdayDays     days of history before each weekday has a profile of its own
 * @param maxDays            past days of the same kind a slot's quantiles are taken from (newest first)
 * @param neighbourSlots     slots either side of the same time of day pooled into its quantiles
 * @param levelSeconds       the last hours whose ratio of actuals to the profile corrects the level
 * @param maxLevel           the level correction is bounded to [1/maxLevel, maxLevel]
 * @param backtestSeconds    how far back the backtest reaches
 * @param backtestLeadSeconds the level correction a backtested slot uses ends this long before it
 * @param minLoad            the load (in the series' unit) below which a slot is too light to judge an error on
 * @param zone               the zone whose days and weekdays the load follows
 */
public record ForecastSettings(double slotSeconds, double horizonSeconds, double maxError, double minHistorySeconds,
        int weeklyDays, int perWeekdayDays, int maxDays, int neighbourSlots, double levelSeconds, double maxLevel,
        double backtestSeconds, double backtestLeadSeconds, double minLoad, ZoneId zone) {

    /** 5-minute slots, 6 h ahead, 30 % error at most, 24 h of history, UTC. */
    public static final ForecastSettings DEFAULTS = new ForecastSettings(300, 6 * 3600, 0.30, 24 * 3600, 3, 14, 10, 1,
            3 * 3600, 2.0, 3 * 86_400, 3600, 0.05, ZoneId.of("UTC"));

    public ForecastSettings {
        Objects.requireNonNull(zone, "zone");
        if (!(slotSeconds >= 60) || 86_400 % slotSeconds != 0) {
            throw new IllegalArgumentException("a slot is at least 60 s and divides a day: " + slotSeconds);
        }
        if (!(horizonSeconds > 0) || !(maxError > 0) || !(minHistorySeconds >= 0) || !(maxLevel >= 1)
                || !(levelSeconds >= slotSeconds) || !(backtestSeconds > 0) || !(backtestLeadSeconds >= 0)
                || !(minLoad >= 0) || maxDays < 1 || neighbourSlots < 0 || weeklyDays < 1 || perWeekdayDays < 7) {
            throw new IllegalArgumentException("forecast settings out of range: " + this);
        }
    }

    public ForecastSettings withZone(ZoneId z) {
        return new ForecastSettings(slotSeconds, horizonSeconds, maxError, minHistorySeconds, weeklyDays,
                perWeekdayDays, maxDays, neighbourSlots, levelSeconds, maxLevel, backtestSeconds, backtestLeadSeconds,
                minLoad, z);
    }

    public ForecastSettings withMaxError(double e) {
        return new ForecastSettings(slotSeconds, horizonSeconds, e, minHistorySeconds, weeklyDays, perWeekdayDays,
                maxDays, neighbourSlots, levelSeconds, maxLevel, backtestSeconds, backtestLeadSeconds, minLoad, zone);
    }

    public ForecastSettings withSlotSeconds(double s) {
        return new ForecastSettings(s, horizonSeconds, maxError, minHistorySeconds, weeklyDays, perWeekdayDays,
                maxDays, neighbourSlots, levelSeconds, maxLevel, backtestSeconds, backtestLeadSeconds, minLoad, zone);
    }
}
