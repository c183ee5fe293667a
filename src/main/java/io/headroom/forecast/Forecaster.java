package io.headroom.forecast;

import java.time.Instant;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Arrays;

/**
 * The explainable forecast (design.md §2a, decision 0028): a profile by time of day, per kind of day, from the
 * history's own past. A slot's p50/p80/p95 are the quantiles of the same time of day (± {@code neighbourSlots}) over
 * the last {@code maxDays} past days of its kind; a level correction scales them by the ratio of the last hours'
 * actuals to what the profile said for them (bounded); the forecast is backtested on the last days, rolling (each
 * slot predicted only from the days before it, with the level known {@code backtestLeadSeconds} ahead), and refused
 * when that error is above the limit or the history too short. Pure: the history in, a {@link Forecast} out.
 *
 * <p>Not thread-safe (it reuses a sort buffer): one per thread.
 */
public final class Forecaster {

    static final double DAY = 86_400;
    /** A slot within this fraction of the highest counts as the peak the words describe (the first such). */
    static final double PEAK_NEAR = 0.9;

    private final ForecastSettings s;
    private final double[] buf;

    // The one forecast being made (set by forecast(), read by its helpers).
    private double slot;
    private int spd;
    private long firstDay;
    private double[] flat;
    private Forecast.Model model;
    private int daysUsed;

    public Forecaster(ForecastSettings settings) {
        this.s = settings;
        this.buf = new double[settings.maxDays() * (2 * settings.neighbourSlots() + 1)];
    }

    public ForecastSettings settings() {
        return s;
    }

    /**
     * The forecast of {@code grid}'s series from {@code now} on, from what the grid knew up to {@code now}.
     *
     * @param unit the series' unit in words ("jobs/s")
     */
    public Forecast forecast(LoadGrid grid, double now, String unit) {
        slot = Math.max(s.slotSeconds(), grid.step());
        if (DAY % slot != 0) {
            throw new IllegalArgumentException("a grid step of " + grid.step() + " s does not divide a day");
        }
        spd = (int) (DAY / slot);
        Offsets offsets = new Offsets(s.zone().getRules());
        double firstKnown = Double.NaN;
        double lastKnown = Double.NaN;
        for (int i = 0; i < grid.size() && grid.time(i) < now; i++) {
            if (!Double.isNaN(grid.values()[i])) {
                if (Double.isNaN(firstKnown)) {
                    firstKnown = grid.time(i);
                }
                lastKnown = grid.time(i);
            }
        }
        double need = s.minHistorySeconds();
        if (Double.isNaN(firstKnown)) {
            return refuse(unit, "no history yet; a forecast needs " + ForecastWords.duration(need));
        }
        double span = Math.min(now, lastKnown + grid.step()) - firstKnown;
        if (span < need) {
            return refuse(unit, "only " + ForecastWords.duration(span) + " of history; a forecast needs "
                    + ForecastWords.duration(need));
        }
        double nowLocal = now + offsets.at(now);
        firstDay = (long) Math.floor((firstKnown + offsets.at(firstKnown)) / DAY);
        long nowDay = (long) Math.floor(nowLocal / DAY);
        int days = (int) (nowDay - firstDay + 1);
        flat = new double[days * spd];
        int[] count = new int[flat.length];
        for (int i = 0; i < grid.size() && grid.time(i) < now; i++) {
            double v = grid.values()[i];
            if (Double.isNaN(v)) {
                continue;
            }
            int idx = index(grid.time(i) + offsets.at(grid.time(i)));
            if (idx >= 0 && idx < flat.length) {
                flat[idx] += v;
                count[idx]++;
            }
        }
        for (int i = 0; i < flat.length; i++) {
            flat[i] = count[i] == 0 ? Double.NaN : flat[i] / count[i];
        }
        int nowIdx = index(nowLocal);
        model = chooseModel(nowDay, span);

        // Backtest, rolling: each slot of the last days from the days before it, levelled as it would have been.
        int levelSlots = (int) Math.round(s.levelSeconds() / slot);
        int leadSlots = (int) Math.round(s.backtestLeadSeconds() / slot);
        int btFrom = Math.max(0, nowIdx - (int) Math.round(s.backtestSeconds() / slot));
        int predFrom = Math.max(0, btFrom - leadSlots - levelSlots);
        double[] pred = new double[nowIdx - predFrom];
        for (int i = predFrom; i < nowIdx; i++) {
            int n = collect(i, i);
            pred[i - predFrom] = n == 0 ? Double.NaN : quantile(n, 0.5);
        }
        double[] actual = new double[Math.max(0, nowIdx - btFrom)];
        double[] predicted = new double[actual.length];
        for (int i = btFrom; i < nowIdx; i++) {
            actual[i - btFrom] = flat[i];
            double p = pred[i - predFrom];
            predicted[i - btFrom] = p * level(pred, predFrom, i - leadSlots - levelSlots, i - leadSlots, levelSlots);
        }
        int checked = Backtest.judged(actual, predicted, 0);
        int minChecked = Math.max(1, (int) Math.round(3600 / slot));
        if (checked < minChecked) {
            return refuse(unit, "only " + ForecastWords.duration(span) + " of history; a forecast is first checked"
                    + " against an hour of the past it could have predicted, so it needs "
                    + ForecastWords.duration(need + 3600));
        }
        double mean = 0;
        int known = 0;
        for (int i = 0; i < actual.length; i++) {
            if (!Double.isNaN(actual[i]) && !Double.isNaN(predicted[i])) {
                mean += actual[i];
                known++;
            }
        }
        double floor = Math.max(s.minLoad(), 0.1 * mean / Math.max(1, known));
        double error = Backtest.mape(actual, predicted, floor);
        double checkedSpan = actual.length * slot;
        if (error > s.maxError()) {
            return refuse(unit, "no forecast: its error over the last " + ForecastWords.duration(checkedSpan) + " was "
                    + Math.round(error * 100) + " % (limit " + Math.round(s.maxError() * 100) + " %)");
        }

        // The forecast: the profile of the next slots, levelled by the last hours.
        double[] levelPred = new double[levelSlots];
        int levelFrom = nowIdx - levelSlots;
        for (int i = Math.max(0, levelFrom); i < nowIdx; i++) {
            levelPred[i - levelFrom] = i - predFrom >= 0 ? pred[i - predFrom] : Double.NaN;
        }
        for (int i = levelFrom; i < 0; i++) {
            levelPred[i - levelFrom] = Double.NaN;
        }
        double level = level(levelPred, levelFrom, levelFrom, nowIdx, levelSlots);
        int h = (int) Math.ceil(s.horizonSeconds() / slot);
        double[] profile = new double[h];
        double[] p50 = new double[h];
        double[] p80 = new double[h];
        double[] p95 = new double[h];
        int firstDays = 0;
        for (int i = 0; i < h; i++) {
            int n = collect(nowIdx + i, nowIdx);
            if (i == 0) {
                firstDays = daysUsed;
            }
            profile[i] = n == 0 ? Double.NaN : quantile(n, 0.5);
            p50[i] = profile[i] * level;
            p80[i] = n == 0 ? Double.NaN : quantile(n, 0.8) * level;
            p95[i] = n == 0 ? Double.NaN : quantile(n, 0.95) * level;
        }
        double start = Math.floor(now / slot) * slot;
        String words = describe(grid, offsets, nowIdx, profile, p80, level, error, checkedSpan, unit, now);
        return new Forecast(unit, model, start, slot, p50, p80, p95, level, error, firstDays, words, s.zone());
    }

    private Forecast refuse(String unit, String why) {
        return Forecast.refused(unit, slot, why, s.zone());
    }

    private int index(double local) {
        long day = (long) Math.floor(local / DAY);
        double inDay = local - day * DAY;
        return (int) ((day - firstDay) * spd + Math.min(spd - 1, (int) (inDay / slot)));
    }

    /** 0 = Monday … 6 = Sunday for a day index. */
    private int weekday(int day) {
        return (int) Math.floorMod(firstDay + day + 3, 7L);
    }

    private int kind(int day) {
        return switch (model) {
            case DAILY -> 0;
            case WEEKDAY_WEEKEND -> weekday(day) >= 5 ? 1 : 0;
            case PER_WEEKDAY -> weekday(day);
        };
    }

    private Forecast.Model chooseModel(long nowDay, double span) {
        int past = (int) (nowDay - firstDay);
        boolean[] seen = new boolean[7];
        for (int d = 0; d < past; d++) {
            int known = 0;
            for (int k = 0; k < spd; k++) {
                known += Double.isNaN(flat[d * spd + k]) ? 0 : 1;
            }
            if (known * 2 >= spd) {
                seen[weekday(d)] = true;
            }
        }
        boolean all = true;
        boolean weekday = false;
        for (int w = 0; w < 7; w++) {
            all &= seen[w];
            weekday |= w < 5 && seen[w];
        }
        if (span >= s.perWeekdayDays() * DAY && all) {
            return Forecast.Model.PER_WEEKDAY;
        }
        if (span >= s.weeklyDays() * DAY && weekday && (seen[5] || seen[6])) {
            return Forecast.Model.WEEKDAY_WEEKEND;
        }
        return Forecast.Model.DAILY;
    }

    /**
     * Collects, sorted into {@link #buf}, the known values at the same time of day (± neighbours) as slot
     * {@code idx} on the last past days of its kind, only from slots before {@code cut}; sets {@link #daysUsed}.
     */
    private int collect(int idx, int cut) {
        int day = Math.floorDiv(idx, spd);
        int k = idx - day * spd;
        int kind = kind(day);
        int n = 0;
        int used = 0;
        int nb = s.neighbourSlots();
        for (int d = Math.min(day - 1, flat.length / spd - 1); d >= 0 && used < s.maxDays(); d--) {
            if (kind(d) != kind) {
                continue;
            }
            boolean any = false;
            for (int j = -nb; j <= nb; j++) {
                int fi = d * spd + k + j;
                if (fi >= 0 && fi < cut && fi < flat.length && !Double.isNaN(flat[fi])) {
                    buf[n++] = flat[fi];
                    any = true;
                }
            }
            used += any ? 1 : 0;
        }
        daysUsed = used;
        Arrays.sort(buf, 0, n);
        return n;
    }

    private double quantile(int n, double q) {
        double pos = q * (n - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(n - 1, lo + 1);
        return buf[lo] + (buf[hi] - buf[lo]) * (pos - lo);
    }

    /**
     * The bounded ratio of actuals to predictions over slots {@code [from, to)} ({@code pred} indexed from
     * {@code predFrom}); 1 when fewer than half the window is known or the prediction is too light to scale.
     */
    private double level(double[] pred, int predFrom, int from, int to, int window) {
        double a = 0;
        double p = 0;
        int n = 0;
        for (int i = Math.max(from, Math.max(0, predFrom)); i < to; i++) {
            double pi = pred[i - predFrom];
            double ai = flat[i];
            if (!Double.isNaN(pi) && !Double.isNaN(ai)) {
                a += ai;
                p += pi;
                n++;
            }
        }
        if (n * 2 < window || p / Math.max(1, n) < s.minLoad() || p <= 0) {
            return 1;
        }
        return Math.max(1 / s.maxLevel(), Math.min(s.maxLevel(), a / p));
    }

    private String describe(LoadGrid grid, Offsets offsets, int nowIdx, double[] profile, double[] p80, double level,
            double error, double checkedSpan, String unit, double now) {
        int peak = -1;
        for (int i = 0; i < profile.length; i++) {
            if (!Double.isNaN(profile[i]) && (peak < 0 || profile[i] > profile[peak])) {
                peak = i;
            }
        }
        if (peak < 0) {
            return "no past day of this kind to forecast from";
        }
        double max = profile[peak];
        // The first slot near the highest: a load that peaks every hour is told by its next rise, not the noisiest one.
        for (int i = 0; i < peak; i++) {
            if (profile[i] >= PEAK_NEAR * profile[peak]) {
                peak = i;
                break;
            }
        }
        int low = peak;
        double min = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= peak; i++) {
            if (!Double.isNaN(profile[i]) && profile[i] < min) {
                min = profile[i];
                low = i;
            }
        }
        StringBuilder w = new StringBuilder();
        boolean rise = max >= 1.5 * min && max - min >= Math.max(s.minLoad(), 0.2 * max);
        if (rise) {
            double mid = (min + max) / 2;
            int at = low;
            while (at < peak && !(profile[at] >= mid)) {
                at++;
            }
            // Said as the medians of the slots below and above half-way (the extremes pick up the noise).
            min = medianOf(profile, 0, at, mid, false);
            max = medianOf(profile, at, profile.length, mid, true);
            int idx = nowIdx + at;
            int n = collect(idx, nowIdx);
            int days = n == 0 ? 0 : daysUsed;
            double[] spread = riseTimes(grid, offsets, idx, mid, now);
            w.append("the last ").append(ForecastWords.days(days, model, kind(Math.floorDiv(idx, spd))))
                    .append(" rose from ").append(ForecastWords.number(min)).append(" to ")
                    .append(ForecastWords.number(max)).append(' ').append(unit).append(" at ")
                    .append(ForecastWords.timeOfDay(spread[0]));
            if (spread[1] >= 0.5 * 60) {
                w.append(" ± ").append(Math.round(spread[1] / 60)).append(" min");
            }
        } else {
            double lo = Double.POSITIVE_INFINITY;
            for (double v : profile) {
                lo = Double.isNaN(v) ? lo : Math.min(lo, v);
            }
            int n = collect(nowIdx, nowIdx);
            w.append("the last ").append(ForecastWords.days(n == 0 ? 0 : daysUsed, model,
                            kind(Math.floorDiv(nowIdx, spd))))
                    .append(" held ").append(ForecastWords.number(lo).equals(ForecastWords.number(max))
                            ? "at " + ForecastWords.number(max) : ForecastWords.number(lo) + "–" + ForecastWords.number(max))
                    .append(' ').append(unit).append(" over the next ")
                    .append(ForecastWords.duration(profile.length * slot));
        }
        w.append("; p80 ").append(ForecastWords.number(p80[peak])).append(' ').append(unit);
        if (Math.abs(level - 1) >= 0.05) {
            w.append("; the last ").append(ForecastWords.duration(s.levelSeconds())).append(" ran at ")
                    .append(ForecastWords.ratio(level)).append(" the usual level, and so does the forecast");
        }
        if (Double.isNaN(error)) {
            w.append("; too little load to measure its error");
        } else {
            w.append("; backtest error ").append(Math.round(error * 100)).append(" % over the last ")
                    .append(ForecastWords.duration(checkedSpan));
        }
        return w.toString();
    }

    /** The median of the known {@code values[from, to)} above (or below) {@code mid}. */
    private static double medianOf(double[] values, int from, int to, double mid, boolean above) {
        double[] kept = new double[Math.max(0, to - from)];
        int n = 0;
        for (int i = from; i < to; i++) {
            if (!Double.isNaN(values[i]) && (above ? values[i] >= mid : values[i] < mid)) {
                kept[n++] = values[i];
            }
        }
        if (n == 0) {
            return Double.NaN;
        }
        Arrays.sort(kept, 0, n);
        return n % 2 == 1 ? kept[n / 2] : (kept[n / 2 - 1] + kept[n / 2]) / 2;
    }

    /**
     * When each past day of slot {@code idx}'s kind crossed {@code mid} within an hour of that time of day, read
     * from the grid itself (finer than a slot): {mean seconds into the day, standard deviation in seconds}.
     */
    private double[] riseTimes(LoadGrid grid, Offsets offsets, int idx, double mid, double now) {
        int day = Math.floorDiv(idx, spd);
        int k = idx - day * spd;
        int kind = kind(day);
        int offset = offsets.at(now);
        double sum = 0;
        double sq = 0;
        int n = 0;
        for (int d = Math.min(day - 1, flat.length / spd - 1), used = 0; d >= 0 && used < s.maxDays(); d--) {
            if (kind(d) != kind) {
                continue;
            }
            used++;
            double dayStart = (firstDay + d) * DAY - offset;
            double centre = dayStart + k * slot;
            int from = Math.max(1, (int) Math.ceil((centre - 3600 - grid.start()) / grid.step()));
            int to = Math.min(grid.size(), (int) Math.ceil((centre + 3600 - grid.start()) / grid.step()));
            double nearest = Double.NaN; // the crossing nearest that time of day (a load may rise every hour)
            for (int i = from; i < to; i++) {
                double v = grid.values()[i];
                double before = grid.values()[i - 1];
                if (v >= mid && before < mid) {
                    double t = grid.time(i - 1) + grid.step() * (0.5 + (mid - before) / (v - before));
                    if (Double.isNaN(nearest) || Math.abs(t - centre) < Math.abs(nearest - centre)) {
                        nearest = t;
                    }
                }
            }
            if (!Double.isNaN(nearest)) {
                double inDay = nearest - dayStart;
                sum += inDay;
                sq += inDay * inDay;
                n++;
            }
        }
        if (n == 0) {
            return new double[] {k * slot, 0};
        }
        double mean = sum / n;
        return new double[] {mean, Math.sqrt(Math.max(0, sq / n - mean * mean))};
    }

    /** The zone's offset at a time, cached between its transitions. */
    private static final class Offsets {
        private final ZoneRules rules;
        private double validFrom = Double.POSITIVE_INFINITY;
        private double validUntil = Double.NEGATIVE_INFINITY;
        private int offset;

        Offsets(ZoneRules rules) {
            this.rules = rules;
            if (rules.isFixedOffset()) {
                offset = rules.getOffset(Instant.EPOCH).getTotalSeconds();
                validFrom = Double.NEGATIVE_INFINITY;
                validUntil = Double.POSITIVE_INFINITY;
            }
        }

        int at(double t) {
            if (t >= validFrom && t < validUntil) {
                return offset;
            }
            Instant i = Instant.ofEpochSecond((long) Math.floor(t));
            offset = rules.getOffset(i).getTotalSeconds();
            ZoneOffsetTransition next = rules.nextTransition(i);
            ZoneOffsetTransition prev = rules.previousTransition(i.plusSeconds(1));
            validUntil = next == null ? Double.POSITIVE_INFINITY : next.toEpochSecond();
            validFrom = prev == null ? Double.NEGATIVE_INFINITY : prev.toEpochSecond();
            return offset;
        }
    }
}
