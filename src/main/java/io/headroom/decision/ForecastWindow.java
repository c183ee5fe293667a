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
 * once approved, or auto) and a floor that has not lapsed brings back at least {@link #COVERS} of the replicas the
 * window would hold, that insurance is bought already: the capacity is guaranteed back before the forecast rise. The window is
 * then shortened to {@link #shortWindowSeconds} (one poll), so the scale-down is the reactive decision on current data,
 * under the same rate policies; if the load comes back early the reactive decision scales up on it as ever. The forecast never lowers anything itself:
 * without the floor the decision is the same, and a floor well below what the window holds changes nothing. Ahead of
 * the floor, with the queue empty and the jobs in service far below the arrival window's λ × S on this tick and the one
 * before, the decision follows the work in service ({@link #inServiceFell}): the arrival window still holds a load that
 * fell. One tick is enough only when the reading is far below ({@link #FAR}σ: a burst's end, never noise): at a
 * steady load the jobs in service read 2σ low on about one tick in fifty (Poisson noise), and following one such
 * reading dropped a class from 38 to 13 replicas in mid-peak.
 */
final class ForecastWindow {

    /**
     * The share of what the window holds that the floor must bring back: the last tick of a burst often reads a replica
     * or two above the forecast's p80 (noise), and holding that for the whole window costs far more than the reactive
     * decision adding the difference if the load comes back that high.
     */
    static final double COVERS = 0.9;

    private ForecastWindow() {
    }

    /** The shortened window: one poll (this tick's recommendation alone), within the policy's own. */
    static int shortWindowSeconds(Policy p) {
        return (int) Math.min(p.scaleDown().stabilizationWindowSeconds(), Math.ceil(p.pollIntervalSeconds()));
    }

    /**
     * {@code n} (the normal normalisation) or, when a forecast floor covers what the window holds, the same
     * recommendation under the shortened window, said why. The memory keeps the window's recommendations, with those
     * the floor released capped at the result (so the hold does not come back when the floor lapses).
     */
    static Behaviour.Result relax(Policy p, Inputs in, Observation obs, int current, int desired, int sustained,
                                  Behaviour.Result n, List<Stamped> past, List<Stamped> events, int lowBefore,
                                  Instant now, boolean words) {
        ForecastFloor ff = obs.forecastFloor();
        if (!p.forecastMode().acts() || ff == null || ff.lapsedAt(now)) {
            return n;
        }
        // Ahead of the floor, with the queue empty and the work in service clearly below what the arrival window says,
        // the load fell within that window: the decision follows the work in service now (current data, not the
        // forecast), and a scale-up the lagging window alone asks for is not taken (the queue is empty).
        // Two ticks in a row (this one and lowBefore), or one far below (a burst's end): one reading a little low is noise.
        double inFlight = now.isBefore(ff.from()) && (lowBefore >= 1 || farBelow(in)) ? inServiceFell(p, in)
                : Double.NaN;
        boolean holding = n.reasons().contains(Reason.of(Code.STABILISING_DOWN));
        if (!holding && !Double.isFinite(inFlight)) {
            return n;
        }
        int brings = Math.min(ff.replicas(), p.maxReplicas());
        int window = shortWindowSeconds(p);
        if (brings < COVERS * n.replicas() - 1e-9 || window >= p.scaleDown().stabilizationWindowSeconds()) {
            return n;
        }
        int now2 = Double.isNaN(inFlight) ? desired : Math.min(desired, inServiceReplicas(p, inFlight, now));
        int sustainedNow = now2 < desired ? Math.min(sustained, now2) : sustained;
        ScalingBehavior down = new ScalingBehavior(window, p.scaleDown().rules(), p.scaleDown().select());
        Behaviour.Result r = Behaviour.normalise(p.scaleUp(), down, current, now2, sustainedNow, past, events, now,
                false, words);
        if (r.replicas() >= n.replicas()) {
            return n;
        }
        if (now2 == desired && n.replicas() - r.replicas() <= noise(n.replicas())) {
            // A release within a tick's noise is what the next tick asks back: at base load the shortened window
            // flapped 5 → 4 → 5 on one poll's slot estimate. The window holds it, as it would without the floor.
            return n;
        }
        String at = clock(ff.from(), p.timeZone());
        List<Reason> reasons = new ArrayList<>(r.reasons());
        reasons.add(Reason.of(Code.FORECAST_WINDOW_SHORTENED, brings + "@" + ff.from()));
        List<Term> terms = new ArrayList<>(r.terms());
        if (now2 < desired) {
            terms.add(new Term("inFlightNow", inFlight, !words ? "" : "queue empty and " + Figures.fmt(inFlight)
                    + " jobs in service, below λ × S = " + Figures.fmt(in.value(Signals.ARRIVAL_RATE)) + "/s × "
                    + Figures.fmt(in.value(Signals.MEAN_SERVICE)) + " s by more than its noise: ceil(ceil("
                    + Figures.fmt(inFlight) + " / " + Figures.fmt(p.targetUtilization()) + ") / " + p.slotsPerReplica()
                    + ") → " + now2 + " (the arrival window still holds the load that fell)"));
        }
        terms.add(new Term("windowShortened", window, !words ? "" : "scale-down window " + window + " s instead of "
                + p.scaleDown().stabilizationWindowSeconds() + " s: the forecast floor brings " + brings + " back at "
                + at + " (the window held " + n.replicas() + ")"));
        List<String> story = new ArrayList<>(r.story());
        if (words && !holding) {
            story.add("no scale-up on the arrival window's " + Figures.fmt(in.value(Signals.ARRIVAL_RATE)) + "/s: the"
                    + " queue is empty and " + Figures.fmt(inFlight) + " jobs in service need " + now2 + " replica"
                    + Figures.plural(now2) + " (the load fell inside the window); the forecast floor brings " + brings
                    + " back at " + at);
        } else if (words) {
            story.add("scale-down window shortened to " + window + " s: the forecast floor brings " + brings
                    + " back at " + at + ", so holding " + n.replicas() + " until then buys nothing; scaling down on"
                    + " current data" + (now2 < desired ? " (queue empty, " + Figures.fmt(inFlight)
                    + " jobs in service: " + now2 + " replica" + Figures.plural(now2) + ", where the "
                    + Figures.fmt(in.value(Signals.ARRIVAL_RATE)) + "/s the arrival window still reads would hold "
                    + desired + ")" : ""));
        }
        List<Stamped> kept = new ArrayList<>(n.recommendations().size());
        for (Stamped s : n.recommendations()) {
            boolean released = Behaviour.seconds(s.at(), now) >= window && s.sustained() > r.replicas();
            boolean thisTick = now2 < desired && s.at().equals(now);
            kept.add(released ? new Stamped(s.at(), s.value(), r.replicas())
                    : thisTick ? new Stamped(s.at(), Math.min(s.value(), now2), Math.min(s.sustained(), sustainedNow)) : s);
        }
        return new Behaviour.Result(r.replicas(), terms, reasons, story, kept);
    }

    /**
     * The jobs in service when the queue is empty and they are fewer than the arrival window's λ × S by more than
     * two standard deviations of Poisson noise (the load fell inside the window), else NaN. Complete answers only;
     * never with a reaction-gap reserve (the reserve is bought against the arrival rate).
     */
    static double inServiceFell(Policy p, Inputs in) {
        return p.absorbStep() != null ? Double.NaN : inServiceFell(in);
    }

    /**
     * The replicas a shortened window does not release alone, out of {@code held}: one, or a tenth (a tick's noise in
     * the slot estimate); a burst's release is far more, and a fall in the work in service is released whatever its size.
     */
    static int noise(int held) {
        return Math.max(1, held / 10);
    }

    /** Standard deviations of Poisson noise below λ × S that one reading alone says a fall (about 3 in 100,000). */
    static final double FAR = 4;

    /** True when the jobs in service read {@link #FAR}σ or more below λ × S with the queue empty. */
    static boolean farBelow(Inputs in) {
        double inFlight = inServiceFell(in);
        double expected = in.value(Signals.ARRIVAL_RATE) * in.value(Signals.MEAN_SERVICE);
        return Double.isFinite(inFlight) && inFlight < expected - FAR * Math.sqrt(expected);
    }

    /** As {@link #inServiceFell(Policy, Inputs)}, whatever the policy: what the memory counts tick by tick. */
    static double inServiceFell(Inputs in) {
        if (!in.complete(Signals.QUEUE_LENGTH) || in.value(Signals.QUEUE_LENGTH) != 0
                || !in.complete(Signals.IN_FLIGHT) || !in.complete(Signals.ARRIVAL_RATE)
                || !in.complete(Signals.MEAN_SERVICE)) {
            return Double.NaN;
        }
        double expected = in.value(Signals.ARRIVAL_RATE) * in.value(Signals.MEAN_SERVICE);
        double inFlight = in.value(Signals.IN_FLIGHT);
        return Double.isFinite(expected) && inFlight >= 0 && inFlight < expected - 2 * Math.sqrt(expected)
                ? inFlight : Double.NaN;
    }

    /** The replicas the work in service needs at the target utilisation, at least min and any scheduled floor. */
    static int inServiceReplicas(Policy p, double inFlight, Instant now) {
        int slots = SlotEstimate.ceil(inFlight / p.targetUtilization());
        int replicas = (slots + p.slotsPerReplica() - 1) / p.slotsPerReplica();
        return Math.max(replicas, Math.max(Math.min(p.minReplicas(), p.maxReplicas()), Bounds.floor(p, now)));
    }

    /** A time of day in {@code zone}: "09:15", with seconds when they are not zero. */
    static String clock(Instant t, java.time.ZoneId zone) {
        ZonedDateTime z = t.atZone(zone == null ? java.time.ZoneOffset.UTC : zone);
        return z.getSecond() == 0 ? String.format(Locale.ROOT, "%02d:%02d", z.getHour(), z.getMinute())
                : String.format(Locale.ROOT, "%02d:%02d:%02d", z.getHour(), z.getMinute(), z.getSecond());
    }
}
