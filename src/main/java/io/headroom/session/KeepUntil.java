package io.headroom.session;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a pause kept at exit ends, as the operator chooses it (design.md §4, hand back): as the hold
 * itself ends (the default: a freeze's or pin's end, or {@link HandBack#AUTO_KEEP} for auto mode), in
 * one or four hours, tomorrow at 09:00, or a custom duration ({@code 90m}, {@code 2h30m}, {@code 1d})
 * or time ({@code 17:30} today, {@code 2026-12-03 08:00}). A custom end that is unreadable, not after
 * now, or more than {@link #LONGEST} away is refused with a sentence saying why. Pure: the present and
 * the zone are given.
 */
public final class KeepUntil {
    /** The longest a kept pause may last: a workload nobody scales for longer would go unnoticed. */
    public static final Duration LONGEST = Duration.ofDays(7);
    /** "Until tomorrow" means this local time. */
    public static final LocalTime MORNING = LocalTime.of(9, 0);

    private static final Pattern DURATION = Pattern.compile(
            "(?:(\\d+)\\s*d(?:ays?)?)?\\s*(?:(\\d+)\\s*h(?:ours?)?)?\\s*(?:(\\d+)\\s*m(?:in(?:utes?)?)?)?");
    private static final Pattern CLOCK = Pattern.compile("(\\d{1,2}):(\\d{2})");
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm");
    private static final DateTimeFormatter HHMM = DateTimeFormatter.ofPattern("HH:mm");
    private static final DateTimeFormatter DAY_HHMM = DateTimeFormatter.ofPattern("EEE d MMM HH:mm", Locale.ENGLISH);

    /** The choices the exit dialog offers, the hold's own end first (today's behaviour). */
    public enum Option { AS_HELD, ONE_HOUR, FOUR_HOURS, TOMORROW_MORNING, CUSTOM }

    /** A chosen end, or why it is refused (then {@code until} is null). */
    public record Chosen(Instant until, String problem) {
        public boolean ok() {
            return problem == null;
        }

        static Chosen at(Instant until) {
            return new Chosen(until, null);
        }

        static Chosen refused(String why) {
            return new Chosen(null, why);
        }
    }

    private KeepUntil() {
    }

    /**
     * The end {@code option} means now: {@code asHeld} is the hold's own end, {@code custom} the text
     * typed for {@link Option#CUSTOM}.
     */
    public static Chosen resolve(Option option, String custom, Instant asHeld, Instant now, ZoneId zone) {
        return switch (option) {
            case AS_HELD -> Chosen.at(asHeld);
            case ONE_HOUR -> Chosen.at(now.plus(Duration.ofHours(1)));
            case FOUR_HOURS -> Chosen.at(now.plus(Duration.ofHours(4)));
            case TOMORROW_MORNING -> Chosen.at(LocalDate.ofInstant(now, zone).plusDays(1).atTime(MORNING)
                    .atZone(zone).toInstant());
            case CUSTOM -> custom(custom, now, zone);
        };
    }

    /** The option in words, with the end it means now: "as held (14:05)", "1 h (12:40)", "tomorrow 09:00", "custom…". */
    public static String label(Option option, Instant asHeld, Instant now, ZoneId zone) {
        return switch (option) {
            case AS_HELD -> "as held (" + when(asHeld, now, zone) + ")";
            case ONE_HOUR -> "1 h (" + when(now.plus(Duration.ofHours(1)), now, zone) + ")";
            case FOUR_HOURS -> "4 h (" + when(now.plus(Duration.ofHours(4)), now, zone) + ")";
            case TOMORROW_MORNING -> "tomorrow " + HHMM.format(MORNING);
            case CUSTOM -> "custom…";
        };
    }

    /** A time as the operator reads it: "14:05" today, else "Thu 3 Dec 09:00". */
    public static String when(Instant t, Instant now, ZoneId zone) {
        ZonedDateTime z = t.atZone(zone);
        return z.toLocalDate().equals(LocalDate.ofInstant(now, zone)) ? HHMM.format(z) : DAY_HHMM.format(z);
    }

    static Chosen custom(String text, Instant now, ZoneId zone) {
        String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        if (t.isEmpty()) {
            return Chosen.refused("type how long the pause lasts (90m, 2h, 1d) or when it ends (17:30, 2026-12-03 08:00)");
        }
        Instant until;
        Matcher d = DURATION.matcher(t);
        Matcher c = CLOCK.matcher(t);
        try {
            if (d.matches() && (d.group(1) != null || d.group(2) != null || d.group(3) != null)) {
                Duration length = Duration.ofDays(number(d.group(1))).plusHours(number(d.group(2)))
                        .plusMinutes(number(d.group(3)));
                if (length.isZero()) {
                    return Chosen.refused("'" + text.strip() + "' ends now: a kept pause must end later");
                }
                until = now.plus(length);
            } else if (c.matches()) {
                LocalTime at = LocalTime.of(Integer.parseInt(c.group(1)), Integer.parseInt(c.group(2)));
                until = LocalDate.ofInstant(now, zone).atTime(at).atZone(zone).toInstant();
                if (!until.isAfter(now)) {
                    return Chosen.refused(text.strip() + " today has passed: give a later time, or a duration (2h)");
                }
            } else {
                until = LocalDateTime.parse(t, DATE_TIME).atZone(zone).toInstant();
            }
        } catch (DateTimeException | ArithmeticException e) {
            return Chosen.refused("'" + text.strip() + "' is neither a duration (90m, 2h, 1d) nor a time (17:30, "
                    + "2026-12-03 08:00)");
        }
        if (!until.isAfter(now)) {
            return Chosen.refused(when(until, now, zone) + " is in the past: a kept pause must end later");
        }
        if (Duration.between(now, until).compareTo(LONGEST) > 0) {
            return Chosen.refused(when(until, now, zone) + " is more than " + LONGEST.toDays()
                    + " days away: a workload nobody scales for that long goes unnoticed");
        }
        return Chosen.at(until);
    }

    private static long number(String digits) {
        if (digits == null) {
            return 0;
        }
        if (digits.length() > 6) {
            throw new ArithmeticException("too long");
        }
        return Long.parseLong(digits);
    }
}
