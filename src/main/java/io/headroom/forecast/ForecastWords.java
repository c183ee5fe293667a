package io.headroom.forecast;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Locale;

/** Numbers, times and days in a forecast's words. */
public final class ForecastWords {

    private static final String[] WEEKDAYS = {"Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays",
        "Saturdays", "Sundays"};

    private ForecastWords() {
    }

    /** 38, 5, 4.5, 0.25: whole above 10, one decimal (or two below 1) under it, no trailing zeros. */
    public static String number(double v) {
        if (Double.isNaN(v)) {
            return "?";
        }
        double a = Math.abs(v);
        String f = a >= 10 ? String.format(Locale.ROOT, "%.0f", v)
                : a >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
        if (f.contains(".")) {
            f = f.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return f;
    }

    /** "45 min", "14 h", "3 days". */
    static String duration(double seconds) {
        if (seconds < 2 * 3600) {
            return Math.round(seconds / 60) + " min";
        }
        if (seconds < 48 * 3600) {
            return Math.round(seconds / 3600) + " h";
        }
        return number(Math.round(seconds / 3600 / 24 * 10) / 10.0) + " days";
    }

    /** "1.5×", to a tenth. */
    static String ratio(double r) {
        return String.format(Locale.ROOT, "%.1f", r).replaceAll("\\.0$", "") + "×";
    }

    /** Seconds into a day as "09:00". */
    static String timeOfDay(double seconds) {
        long m = Math.floorMod(Math.round(seconds / 60), 24 * 60L);
        return String.format(Locale.ROOT, "%02d:%02d", m / 60, m % 60);
    }

    /** An epoch second's time of day in a zone, "09:00". */
    public static String clock(double epochSeconds, ZoneId zone) {
        ZonedDateTime t = Instant.ofEpochSecond((long) Math.floor(epochSeconds)).atZone(zone);
        return String.format(Locale.ROOT, "%02d:%02d", t.getHour(), t.getMinute());
    }

    /** "5 weekdays", "day", "2 Mondays", "3 weekend days" (one is said without its number: "the last weekday"). */
    static String days(int n, Forecast.Model model, int kind) {
        String one;
        String many;
        switch (model) {
            case WEEKDAY_WEEKEND -> {
                one = kind == 1 ? "weekend day" : "weekday";
                many = kind == 1 ? "weekend days" : "weekdays";
            }
            case PER_WEEKDAY -> {
                many = WEEKDAYS[kind];
                one = many.substring(0, many.length() - 1);
            }
            default -> {
                one = "day";
                many = "days";
            }
        }
        return n == 1 ? one : n + " " + many;
    }
}
