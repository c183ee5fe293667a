package io.headroom.kube;

import io.headroom.decision.ScheduledFloor;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * KEDA's cron trigger as Headroom's scheduled floors. The expressions are read as KEDA reads them
 * (robfig/cron's parser with the fields Minute Hour Dom Month Dow: lists, ranges, steps, {@code *}
 * and {@code ?}, month and day names; no descriptors), and the window is KEDA's cron scaler's own
 * rule: the trigger is active while the next {@code end} comes before the next {@code start}. That
 * rule is evaluated minute by minute over one week; each stretch of active minutes becomes a floor
 * (those with the same times on several days one floor). Schedules that are not weekly (a day of
 * the month, a month) or hold for a day or more at a stretch have no floor form and are refused
 * with the reason.
 */
final class KedaCron {
    private static final int DAY = 24 * 60;
    private static final int WEEK = 7 * DAY;
    /** A policy holds at most this many floors (the workloads file's limit). */
    static final int MAX_FLOORS = io.headroom.config.PolicyReader.MAX_SCHEDULED_FLOORS;

    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
        "nov", "dec"};
    private static final String[] DAYS = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

    private KedaCron() {
    }

    /** The floors of one cron trigger, or why it has none. */
    record Result(List<ScheduledFloor> floors, String problem) {
        Result {
            floors = List.copyOf(floors);
        }

        static Result refused(String problem) {
            return new Result(List.of(), problem);
        }
    }

    /** One parsed expression: the set bits of each field, and whether Dom/Dow were written as {@code *} or {@code ?}. */
    record Schedule(long minutes, long hours, long doms, long months, long dows, boolean domStar, boolean dowStar) {
        boolean fires(int minuteOfWeek) {
            int dayIndex = minuteOfWeek / DAY; // 0 = Monday
            int minuteOfDay = minuteOfWeek % DAY;
            int dow = (dayIndex + 1) % 7; // cron: 0 = Sunday
            return bit(minutes, minuteOfDay % 60) && bit(hours, minuteOfDay / 60) && bit(dows, dow);
        }

        /** Whether the day part depends on the weekday alone (robfig: Dom AND Dow when either is a star, else OR). */
        String weeklyProblem() {
            if (months != bits(1, 12, 1)) {
                return "it runs in some months only";
            }
            boolean everyDom = doms == bits(1, 31, 1);
            if (!everyDom) {
                return "it runs on days of the month";
            }
            return null;
        }

        /** With every day of the month allowed, robfig's OR (neither a star) means every day, its AND the weekdays. */
        long effectiveDows() {
            return domStar || dowStar ? dows : bits(0, 6, 1);
        }
    }

    /**
     * The floors KEDA's cron trigger holds.
     *
     * @param replicas the trigger's {@code desiredReplicas}
     */
    static Result floors(String start, String end, int replicas) {
        Schedule s;
        Schedule e;
        try {
            s = parse(start);
        } catch (IllegalArgumentException ex) {
            return Result.refused("KEDA cannot parse its start '" + start + "': " + ex.getMessage());
        }
        try {
            e = parse(end);
        } catch (IllegalArgumentException ex) {
            return Result.refused("KEDA cannot parse its end '" + end + "': " + ex.getMessage());
        }
        if (start.equals(end)) {
            return Result.refused("its start and end are the same, which KEDA refuses");
        }
        String problem = s.weeklyProblem() != null ? "its start " + s.weeklyProblem()
                : e.weeklyProblem() != null ? "its end " + e.weeklyProblem() : null;
        if (problem != null) {
            return Result.refused(problem + ", and a scheduled floor repeats every week");
        }
        s = new Schedule(s.minutes, s.hours, s.doms, s.months, s.effectiveDows(), true, true);
        e = new Schedule(e.minutes, e.hours, e.doms, e.months, e.effectiveDows(), true, true);
        boolean[] active = active(s, e);
        return windows(active, replicas);
    }

    /** KEDA's rule at each minute of a week (Monday 00:00 first): active while the next end comes before the next start. */
    static boolean[] active(Schedule start, Schedule end) {
        // Minutes to the next firing strictly after each minute, over two weeks so that every minute sees one.
        int[] toStart = new int[WEEK];
        int[] toEnd = new int[WEEK];
        int nextStart = Integer.MAX_VALUE;
        int nextEnd = Integer.MAX_VALUE;
        for (int m = 2 * WEEK - 1; m >= 0; m--) {
            if (m < WEEK) {
                toStart[m] = nextStart - m;
                toEnd[m] = nextEnd - m;
            }
            if (start.fires(m % WEEK)) {
                nextStart = m;
            }
            if (end.fires(m % WEEK)) {
                nextEnd = m;
            }
        }
        boolean[] active = new boolean[WEEK];
        for (int m = 0; m < WEEK; m++) {
            // cron_scaler.go: outside only when the next start is before the next end.
            active[m] = !(toStart[m] < toEnd[m]);
        }
        return active;
    }

    private static Result windows(boolean[] active, int replicas) {
        int first = -1;
        for (int m = 0; m < WEEK; m++) {
            if (!active[m]) {
                first = m;
                break;
            }
        }
        if (first < 0) {
            return Result.refused("it is active at every minute of the week; a floor at all times is minReplicas");
        }
        Map<List<LocalTime>, Set<DayOfWeek>> byTimes = new LinkedHashMap<>();
        int m = first;
        int seen = 0;
        while (seen < WEEK) {
            if (!active[m % WEEK]) {
                m++;
                seen++;
                continue;
            }
            int from = m;
            while (active[m % WEEK] && seen < WEEK) {
                m++;
                seen++;
            }
            int length = m - from;
            if (length >= DAY) {
                return Result.refused("it holds for " + hours(length) + " at a stretch (from " + at(from) + "), and a"
                        + " scheduled floor lasts less than a day");
            }
            LocalTime a = LocalTime.of((from % DAY) / 60, from % 60);
            LocalTime b = LocalTime.of((m % DAY) / 60, m % 60);
            byTimes.computeIfAbsent(List.of(a, b), k -> EnumSet.noneOf(DayOfWeek.class))
                    .add(DayOfWeek.of((from % WEEK) / DAY + 1));
        }
        if (byTimes.isEmpty()) {
            return Result.refused("it is never active: its end always comes first");
        }
        if (byTimes.size() > MAX_FLOORS) {
            return Result.refused("it opens " + byTimes.size() + " different windows a week, and a policy holds at"
                    + " most " + MAX_FLOORS + " scheduled floors");
        }
        // The week's first window first (Monday 00:00 onwards), so the order does not depend on where the scan began.
        List<Map.Entry<List<LocalTime>, Set<DayOfWeek>>> entries = new ArrayList<>(byTimes.entrySet());
        entries.sort((x, y) -> Integer.compare(firstStart(x), firstStart(y)));
        List<ScheduledFloor> out = new ArrayList<>();
        for (Map.Entry<List<LocalTime>, Set<DayOfWeek>> en : entries) {
            out.add(new ScheduledFloor(en.getValue(), en.getKey().get(0), en.getKey().get(1), replicas));
        }
        return new Result(out, null);
    }

    private static int firstStart(Map.Entry<List<LocalTime>, Set<DayOfWeek>> e) {
        DayOfWeek day = EnumSet.copyOf(e.getValue()).iterator().next();
        LocalTime t = e.getKey().get(0);
        return (day.getValue() - 1) * DAY + t.getHour() * 60 + t.getMinute();
    }

    private static String hours(int minutes) {
        return minutes % 60 == 0 ? minutes / 60 + " h" : minutes / 60 + " h " + minutes % 60 + " min";
    }

    private static String at(int minuteOfWeek) {
        DayOfWeek d = DayOfWeek.of((minuteOfWeek % WEEK) / DAY + 1);
        int md = minuteOfWeek % DAY;
        return d.getDisplayName(java.time.format.TextStyle.SHORT, Locale.ENGLISH) + " "
                + String.format(Locale.ROOT, "%02d:%02d", md / 60, md % 60);
    }

    /**
     * One expression as robfig/cron's parser reads it with the fields Minute Hour Dom Month Dow (KEDA's
     * {@code cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)}).
     *
     * @throws IllegalArgumentException with robfig's reason
     */
    static Schedule parse(String spec) {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("empty spec string");
        }
        String s = spec.strip();
        if (s.startsWith("TZ=") || s.startsWith("CRON_TZ=")) {
            // robfig accepts a zone prefix; KEDA's timezone field is the way to give one.
            throw new IllegalArgumentException("a time zone prefix is not read here: give it as the trigger's timezone");
        }
        if (s.startsWith("@")) {
            throw new IllegalArgumentException("parser does not accept descriptors: " + s);
        }
        String[] f = s.split("\\s+");
        if (f.length != 5) {
            throw new IllegalArgumentException("expected exactly 5 fields, found " + f.length + ": " + s);
        }
        long[] min = field(f[0], 0, 59, null);
        long[] hour = field(f[1], 0, 23, null);
        long[] dom = field(f[2], 1, 31, null);
        long[] month = field(f[3], 1, 12, MONTHS);
        long[] dow = field(f[4], 0, 6, DAYS);
        return new Schedule(min[0], hour[0], dom[0], month[0], dow[0], dom[1] != 0, dow[1] != 0);
    }

    /** A field's bits and (second) 1 when it was a plain star, as robfig's getField/getRange compute them. */
    private static long[] field(String field, int min, int max, String[] names) {
        long bits = 0;
        boolean star = false;
        for (String expr : field.split(",")) {
            if (expr.isEmpty()) {
                continue; // strings.FieldsFunc drops empty parts
            }
            String[] rangeAndStep = expr.split("/", -1);
            String[] lowAndHigh = rangeAndStep[0].split("-", -1);
            boolean single = lowAndHigh.length == 1;
            int start;
            int end;
            boolean isStar = false;
            if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
                start = min;
                end = max;
                isStar = true;
            } else {
                start = intOrName(lowAndHigh[0], names);
                if (lowAndHigh.length == 1) {
                    end = start;
                } else if (lowAndHigh.length == 2) {
                    end = intOrName(lowAndHigh[1], names);
                } else {
                    throw new IllegalArgumentException("too many hyphens: " + expr);
                }
            }
            int step;
            if (rangeAndStep.length == 1) {
                step = 1;
            } else if (rangeAndStep.length == 2) {
                step = positiveInt(rangeAndStep[1]);
                if (single) {
                    end = max; // "N/step" means "N-max/step"
                }
                if (step > 1) {
                    isStar = false;
                }
            } else {
                throw new IllegalArgumentException("too many slashes: " + expr);
            }
            if (start < min) {
                throw new IllegalArgumentException("beginning of range (" + start + ") below minimum (" + min + "): " + expr);
            }
            if (end > max) {
                throw new IllegalArgumentException("end of range (" + end + ") above maximum (" + max + "): " + expr);
            }
            if (start > end) {
                throw new IllegalArgumentException("beginning of range (" + start + ") beyond end of range (" + end + "): "
                        + expr);
            }
            if (step == 0) {
                throw new IllegalArgumentException("step of range should be a positive number: " + expr);
            }
            bits |= bits(start, end, step);
            star |= isStar;
        }
        return new long[] {bits, star ? 1 : 0};
    }

    private static int intOrName(String text, String[] names) {
        if (names != null) {
            String lower = text.toLowerCase(Locale.ROOT);
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(lower)) {
                    return names == MONTHS ? i + 1 : i;
                }
            }
        }
        return positiveInt(text);
    }

    private static int positiveInt(String text) {
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("failed to parse int from " + text);
        }
        if (n < 0) {
            throw new IllegalArgumentException("negative number (" + n + ") not allowed: " + text);
        }
        return n;
    }

    private static long bits(int start, int end, int step) {
        long b = 0;
        for (int i = start; i <= end; i += step) {
            b |= 1L << i;
        }
        return b;
    }

    private static boolean bit(long bits, int i) {
        return (bits & (1L << i)) != 0;
    }
}
