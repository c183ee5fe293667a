package io.headroom.decision;

import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Warm capacity bought on a schedule (design.md §5): at least {@code replicas} on the given days between
 * {@code from} and {@code to}, in the policy's time zone. A window whose {@code to} is not after its
 * {@code from} runs past midnight into the next day (22:00–06:00); {@code days} are the days it starts.
 */
public record ScheduledFloor(Set<DayOfWeek> days, LocalTime from, LocalTime to, int replicas) {

    public ScheduledFloor {
        if (days == null || days.isEmpty()) {
            throw new IllegalArgumentException("a scheduled floor needs at least one day");
        }
        days = Set.copyOf(EnumSet.copyOf(days));
        if (from == null || to == null) {
            throw new IllegalArgumentException("a scheduled floor needs from and to times");
        }
        if (from.equals(to)) {
            throw new IllegalArgumentException("a scheduled floor's from and to are both " + from + ": an empty window");
        }
        if (replicas < 0) {
            throw new IllegalArgumentException("a scheduled floor's replicas cannot be negative, got " + replicas);
        }
    }

    /** Whether the window covers {@code t} (already in the policy's zone). */
    public boolean activeAt(ZonedDateTime t) {
        LocalTime time = t.toLocalTime();
        if (from.isBefore(to)) {
            return days.contains(t.getDayOfWeek()) && !time.isBefore(from) && time.isBefore(to);
        }
        // Past midnight: the evening part belongs to today, the morning part to yesterday's window.
        return days.contains(t.getDayOfWeek()) && !time.isBefore(from)
                || days.contains(t.getDayOfWeek().minus(1)) && time.isBefore(to);
    }

    /** E.g. "Mon–Fri 08:00–20:00 → 2". */
    public String describe() {
        return dayRange() + " " + from + "–" + to + " → " + replicas;
    }

    /** The days as an operator writes them: "Mon–Fri", "Sat, Sun", "every day". */
    public String dayRange() {
        if (days.size() == 7) {
            return "every day";
        }
        DayOfWeek[] all = DayOfWeek.values();
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < 7) {
            if (!days.contains(all[i])) {
                i++;
                continue;
            }
            int j = i;
            while (j + 1 < 7 && days.contains(all[j + 1])) {
                j++;
            }
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(name(all[i]));
            if (j > i + 1) {
                b.append('–').append(name(all[j]));
            } else if (j == i + 1) {
                b.append(", ").append(name(all[j]));
            }
            i = j + 1;
        }
        return b.toString();
    }

    private static String name(DayOfWeek d) {
        return d.getDisplayName(TextStyle.SHORT, Locale.ENGLISH);
    }
}
