package io.headroom.config;

import io.headroom.decision.ScheduledFloor;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scheduled floors as one line of text, the way {@link ScheduledFloor#describe()} writes them:
 * {@code Mon–Fri 08:00–20:00 → 2; Sat, Sun 10:00–14:00 → 1}. The What-if window and
 * {@code headroom whatif --set scheduledFloors=…} read it; the days are read as in a workloads file.
 */
public final class FloorText {

    private FloorText() {
    }

    private static final Pattern ONE = Pattern.compile(
            "^(.+?)\\s+(\\d{1,2}:\\d{2})\\s*(?:-|–|to)\\s*(\\d{1,2}:\\d{2})\\s*(?:→|->|=>|=|:)?\\s*(\\S+)$");

    /** The floors as text: each floor's description, joined by "; " (blank for none). */
    public static String format(List<ScheduledFloor> floors) {
        return String.join("; ", floors.stream().map(ScheduledFloor::describe).toList());
    }

    /**
     * The floors a line of text names (blank or "none": none).
     *
     * @throws IllegalArgumentException in plain words, naming the floor that is wrong
     */
    public static List<ScheduledFloor> parse(String text) {
        List<ScheduledFloor> out = new ArrayList<>();
        if (text == null || text.isBlank() || text.trim().equalsIgnoreCase("none")) {
            return out;
        }
        String[] parts = text.split(";");
        if (parts.length > PolicyReader.MAX_SCHEDULED_FLOORS) {
            throw new IllegalArgumentException("has " + parts.length + " floors; at most "
                    + PolicyReader.MAX_SCHEDULED_FLOORS);
        }
        for (String raw : parts) {
            String part = raw.trim();
            if (part.isEmpty()) {
                continue;
            }
            Matcher m = ONE.matcher(part);
            if (!m.matches()) {
                throw new IllegalArgumentException("\"" + part + "\" is not a floor: write days, from–to and "
                        + "replicas, e.g. Mon–Fri 08:00–20:00 → 2");
            }
            Set<DayOfWeek> days = days(m.group(1));
            LocalTime from = time(m.group(2), part);
            LocalTime to = time(m.group(3), part);
            int replicas;
            try {
                replicas = Integer.parseInt(m.group(4));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"" + part + "\": " + m.group(4) + " is not a whole number of replicas");
            }
            if (replicas < 0 || replicas > PolicyReader.MAX_REPLICAS) {
                throw new IllegalArgumentException("\"" + part + "\": replicas must be 0 to " + PolicyReader.MAX_REPLICAS);
            }
            try {
                out.add(new ScheduledFloor(days, from, to, replicas));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("\"" + part + "\": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * Days as an operator writes them: "Mon-Fri", "Sat,Sun", "Monday", "every day".
     *
     * @throws IllegalArgumentException naming the word that is not a day
     */
    public static Set<DayOfWeek> days(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("every day") || t.equals("daily") || t.equals("*")) {
            return EnumSet.allOf(DayOfWeek.class);
        }
        Set<DayOfWeek> out = EnumSet.noneOf(DayOfWeek.class);
        for (String part : t.split(",")) {
            String[] range = part.trim().split("\\s*[-–]\\s*");
            if (range.length > 2) {
                throw new IllegalArgumentException("\"" + part.trim() + "\" is not a day or a range of days");
            }
            DayOfWeek a = day(range[0]);
            DayOfWeek z = range.length > 1 ? day(range[1]) : a;
            for (DayOfWeek d = a; ; d = d.plus(1)) {
                out.add(d);
                if (d == z) {
                    break;
                }
            }
        }
        return out;
    }

    private static DayOfWeek day(String name) {
        String n = name.trim();
        for (DayOfWeek d : DayOfWeek.values()) {
            if (n.length() >= 3 && d.name().toLowerCase(Locale.ROOT).startsWith(n)) {
                return d;
            }
        }
        throw new IllegalArgumentException("\"" + n + "\" is not a day (Mon, Tue, … or Monday, …; ranges like Mon-Fri)");
    }

    private static LocalTime time(String text, String part) {
        try {
            return LocalTime.parse(text.length() == 4 ? "0" + text : text);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"" + part + "\": " + text + " is not a time of day HH:MM");
        }
    }
}
