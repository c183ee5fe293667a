package io.headroom.forecast;

import java.time.ZoneId;
import java.util.Optional;

/**
 * A class's forecast of one series for the next hours, or the reason there is none. Decisions as data: the
 * quantiles per slot, the level correction, the backtest error and the words are all here; nobody re-derives them.
 *
 * @param unit        the series' unit in words ("jobs/s", "s")
 * @param model       how days are told apart; null when refused
 * @param start       epoch seconds of the first slot (the one holding the time the forecast was made)
 * @param slotSeconds width of a slot
 * @param p50         median of the same slot over past days of the same kind, times the level; empty when refused
 * @param p80         80th percentile, likewise
 * @param p95         95th percentile, likewise
 * @param level       the level correction applied (1 when none)
 * @param error       backtest error as a fraction (NaN when too little load to judge, or refused before it)
 * @param days        past days of the kind the next slot belongs to that its quantiles were taken from
 * @param reason      the forecast in words, or why there is none
 * @param zone        the zone its times of day are told in
 */
public record Forecast(String unit, Model model, double start, double slotSeconds, double[] p50, double[] p80,
        double[] p95, double level, double error, int days, String reason, ZoneId zone) {

    /** How past days are grouped into profiles. */
    public enum Model {
        /** Every day alike (less than the weekly settings' days of history, or no weekend seen yet). */
        DAILY,
        /** Weekdays apart from weekend days. */
        WEEKDAY_WEEKEND,
        /** Each weekday its own profile (two weeks of history). */
        PER_WEEKDAY
    }

    /** No forecast, and why. */
    public static Forecast refused(String unit, double slotSeconds, String reason, ZoneId zone) {
        return new Forecast(unit, null, Double.NaN, slotSeconds, new double[0], new double[0], new double[0], 1,
                Double.NaN, 0, reason, zone);
    }

    public boolean available() {
        return model != null;
    }

    /** Slots in the forecast. */
    public int slots() {
        return p50.length;
    }

    /** Start of the {@code i}-th slot. */
    public double time(int i) {
        return start + i * slotSeconds;
    }

    /** The slot holding {@code t}, or -1 outside the forecast. */
    public int slotAt(double t) {
        if (!available() || t < start) {
            return -1;
        }
        int i = (int) ((t - start) / slotSeconds);
        return i < slots() ? i : -1;
    }

    /**
     * The first slot within {@code horizonSeconds} of {@code now} whose p80 exceeds the current need by more than
     * {@code margin} (a fraction: 0.2 is 20 % above), for proposals ahead of a rise. Never a reason to scale in:
     * only rises are reported.
     *
     * @param need the need now, in the forecast's unit
     * @return when, and by how much; empty without a forecast or without such a slot
     */
    public Optional<Rise> nextRise(double now, double horizonSeconds, double need, double margin) {
        if (!available() || Double.isNaN(need)) {
            return Optional.empty();
        }
        double threshold = Math.max(0, need) * (1 + Math.max(0, margin));
        int from = now < start ? 0 : slotAt(now);
        if (from < 0) {
            return Optional.empty(); // past the forecast's end: a stale forecast says nothing about now
        }
        double end = now + horizonSeconds;
        for (int i = from; i < slots() && time(i) < end; i++) {
            if (p80[i] > threshold) {
                int peak = i;
                for (int j = i + 1; j < slots() && time(j) < end; j++) {
                    if (p80[j] > p80[peak]) {
                        peak = j;
                    }
                }
                double at = Math.max(now, time(i));
                String why = "p80 " + ForecastWords.number(p80[i]) + " " + unit + " at "
                        + ForecastWords.clock(at, zone) + " exceeds the " + ForecastWords.number(need)
                        + " " + unit + " needed now by more than " + Math.round(margin * 100) + " %; peak p80 "
                        + ForecastWords.number(p80[peak]) + " " + unit;
                return Optional.of(new Rise(at, p50[i], p80[i], time(peak), p80[peak], need, why));
            }
        }
        return Optional.empty();
    }

    /**
     * A forecast rise above the current need.
     *
     * @param at      when the first slot above need × (1 + margin) begins (not before now)
     * @param p50     the median at that slot
     * @param p80     the p80 at that slot
     * @param peakAt  start of the highest p80 slot within the horizon
     * @param peakP80 that p80
     * @param need    the need it was compared with
     * @param why     the rise in words
     */
    public record Rise(double at, double p50, double p80, double peakAt, double peakP80, double need, String why) {
        /** The p80 over the need (how much more than now), at the rise's slot. */
        public double factor() {
            return need > 0 ? p80 / need : Double.POSITIVE_INFINITY;
        }
    }
}
