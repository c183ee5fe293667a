package io.headroom.decision;

import io.headroom.decision.ClassMemory.Stamped;
import io.headroom.decision.Reason.Code;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The scale-down window relaxed by a forecast floor (issue 29, decision 0030). The window holds the highest recent
 * recommendation for minutes as insurance that the load may come back. When the class acts on its forecast (propose,
 * once approved, or auto) and a floor that has not lapsed brings back at least as many replicas as the window would
 * hold, that insurance is bought already: the capacity is guaranteed back before the forecast rise. The window is
 * then shortened to {@link #shortWindowSeconds} (two polls: one noisy tick still cannot scale in), and the scale-down
 * is the reactive decision on current data under the same rate policies. The forecast never lowers anything itself:
 * without the floor the decision is the same, and a floor below what the window holds changes nothing.
 */
final class ForecastWindow {

    private ForecastWindow() {
    }

    /** The shortened window: two polls, within the policy's own. */
    static int shortWindowSeconds(Policy p) {
        return (int) Math.min(p.scaleDown().stabilizationWindowSeconds(), Math.ceil(2 * p.pollIntervalSeconds()));
    }

    /**
     * {@code n} (the normal normalisation) or, when a forecast floor covers what the window holds, the same
     * recommendation under the shortened window, said why. The memory keeps the window's recommendations, with those
     * the floor released capped at the result (so the hold does not come back when the floor lapses).
     */
    static Behaviour.Result relax(Policy p, Observation obs, int current, int desired, int sustained,
                                  Behaviour.Result n, List<Stamped> past, List<Stamped> events, Instant now,
                                  boolean words) {
        ForecastFloor ff = obs.forecastFloor();
        if (!p.forecastMode().acts() || ff == null || ff.lapsedAt(now)
                || !n.reasons().contains(Reason.of(Code.STABILISING_DOWN))) {
            return n;
        }
        int brings = Math.min(ff.replicas(), p.maxReplicas());
        int window = shortWindowSeconds(p);
        if (brings < n.replicas() || window >= p.scaleDown().stabilizationWindowSeconds()) {
            return n;
        }
        ScalingBehavior down = new ScalingBehavior(window, p.scaleDown().rules(), p.scaleDown().select());
        Behaviour.Result r = Behaviour.normalise(p.scaleUp(), down, current, desired, sustained, past, events, now,
                false, words);
        if (r.replicas() >= n.replicas()) {
            return n;
        }
        String at = clock(ff.from(), p.timeZone());
        List<Reason> reasons = new ArrayList<>(r.reasons());
        reasons.add(Reason.of(Code.FORECAST_WINDOW_SHORTENED, brings + "@" + ff.from()));
        List<Term> terms = new ArrayList<>(r.terms());
        terms.add(new Term("windowShortened", window, !words ? "" : "scale-down window " + window + " s instead of "
                + p.scaleDown().stabilizationWindowSeconds() + " s: the forecast floor brings " + brings + " back at "
                + at + " (the window held " + n.replicas() + ")"));
        List<String> story = new ArrayList<>(r.story());
        if (words) {
            story.add("scale-down window shortened to " + window + " s: the forecast floor brings " + brings
                    + " back at " + at + ", so holding " + n.replicas() + " until then buys nothing; scaling down on"
                    + " current data");
        }
        List<Stamped> kept = new ArrayList<>(n.recommendations().size());
        for (Stamped s : n.recommendations()) {
            boolean released = Behaviour.seconds(s.at(), now) >= window && s.sustained() > r.replicas();
            kept.add(released ? new Stamped(s.at(), s.value(), r.replicas()) : s);
        }
        return new Behaviour.Result(r.replicas(), terms, reasons, story, kept);
    }

    private static String clock(Instant t, java.time.ZoneId zone) {
        ZonedDateTime z = t.atZone(zone == null ? java.time.ZoneOffset.UTC : zone);
        return z.getSecond() == 0 ? String.format(Locale.ROOT, "%02d:%02d", z.getHour(), z.getMinute())
                : String.format(Locale.ROOT, "%02d:%02d:%02d", z.getHour(), z.getMinute(), z.getSecond());
    }
}
