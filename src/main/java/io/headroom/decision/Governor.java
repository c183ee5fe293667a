package io.headroom.decision;

import io.headroom.decision.GovernorState.Phase;
import io.headroom.decision.Reason.Code;
import java.time.Instant;

/**
 * Step 6 of design.md §3, the concurrency governor against the amplification loop, as AIMD (TCP
 * congestion control; Netflix {@code concurrency-limits}) steered by throughput:
 * <ul>
 * <li>while the dependency breaches its threshold, no scale-up; if it stays breached and throughput
 *     per replica falls, step down multiplicatively, never below the last count at which the
 *     dependency was healthy;</li>
 * <li>once it is healthy again, probe one replica at a time, upward, or downward while it still
 *     reads slower than uncongested; each probe is judged after it has had time to show in the
 *     completion rate: one more replica must complete more jobs, one fewer must complete as many,
 *     else the limit goes back and the wait before the next probe doubles. So the limit settles
 *     where throughput is best, not merely under the threshold;</li>
 * <li>the limit lifts when the estimate no longer asks for more than it allows.</li>
 * </ul>
 */
final class Governor {

    /** A change in throughput smaller than this share is noise. */
    static final double NOISE = 0.02;
    /** Above its lowest reading by this share, the dependency is congested (though within the threshold). */
    static final double CONGESTED = 0.1;
    /** The longest wait between probes, in multiples of the guard's probe interval. */
    static final int MAX_PROBE_BACKOFF = 16;

    private Governor() {
    }

    /**
     * What the governor allows this tick.
     *
     * @param limit     the replica limit, or -1 when none
     * @param saturated the dependency breaches its threshold
     */
    record Outcome(int limit, GovernorState next, boolean saturated) {
        static Outcome none(GovernorState s) {
            return new Outcome(-1, s, false);
        }
    }

    /**
     * @param wanted the replicas the estimate asks for before the governor (after bounds and ceilings)
     */
    static Outcome step(DependencyGuard g, Inputs in, int current, int ready, int wanted, GovernorState s,
                        Instant now, boolean fromZero, Trail t) {
        if (g == null) {
            return Outcome.none(GovernorState.IDLE);
        }
        InputStatus dep = in.get(Signals.DEPENDENCY);
        // Complete answers only: the throughput sets the limit a back-off lowers replicas to.
        double completions = in.complete(Signals.COMPLETION_RATE) ? in.value(Signals.COMPLETION_RATE) : Double.NaN;
        double tpr = Double.isFinite(completions) && ready > 0 ? completions / ready : Double.NaN;
        double backoff = s.backoffSeconds() > 0 ? s.backoffSeconds() : g.probeSeconds();
        if (!dep.usable()) {
            if (fromZero || wanted <= current) {
                return new Outcome(s.limit(), s, false);
            }
            // Unknown is not healthy: hold what runs, keep what the governor knew.
            t.reason(Code.DEPENDENCY_UNKNOWN);
            t.say(g.label() + " " + dep.label() + " (" + dep.reason() + ") → no scale-up");
            return new Outcome(s.limiting() ? Math.min(s.limit(), current) : current, s, false);
        }
        double v = dep.value();
        double baseline = Double.isFinite(s.baseline()) ? Math.min(s.baseline(), v) : v;
        if (v > g.threshold()) {
            return breached(g, s, current, tpr, completions, v, baseline, backoff, now, t);
        }
        int healthy = ready;
        if (!s.limiting()) {
            return Outcome.none(new GovernorState(Phase.IDLE, -1, healthy, 0, tpr, -1, Double.NaN, null, null,
                    g.probeSeconds(), baseline));
        }
        if (wanted <= s.limit() && (s.probedFrom() < 0 || wanted <= s.probedFrom())) {
            t.say(g.label() + " healthy and the estimate is within the governor's " + s.limit() + ": limit lifted");
            return Outcome.none(new GovernorState(Phase.IDLE, -1, healthy, 0, tpr, -1, Double.NaN, null, null,
                    g.probeSeconds(), baseline));
        }
        if (s.probedFrom() >= 0) {
            return judge(g, s, ready, healthy, tpr, completions, baseline, backoff, now, t);
        }
        if (s.nextProbeAt() != null && now.isBefore(s.nextProbeAt())) {
            double in2 = Behaviour.seconds(now, s.nextProbeAt());
            t.say(g.label() + " healthy: governor holds " + s.limit() + ", next probe in " + Figures.fmt(in2) + " s");
            t.term("governor", s.limit(), "holding at " + s.limit());
            return new Outcome(s.limit(), new GovernorState(Phase.PROBING, s.limit(), healthy, 0, tpr, -1,
                    Double.NaN, null, s.nextProbeAt(), backoff, baseline), false);
        }
        boolean congested = v > baseline * (1 + CONGESTED) && s.limit() > 1;
        int probe = congested ? s.limit() - 1 : s.limit() + 1;
        GovernorState next = new GovernorState(Phase.PROBING, probe, healthy, 0, tpr, s.limit(), completions,
                now.plusMillis((long) (g.probeSeconds() * 1000)), null, backoff, baseline);
        t.say(g.label() + " " + Figures.fmt(v) + (congested ? " above its uncongested " + Figures.fmt(baseline)
                + ": governor probes one fewer, " : " healthy: governor probes one more, ") + probe
                + " (judged in " + Figures.fmt(g.probeSeconds()) + " s)");
        t.term("governor", probe, "probing at " + probe + " from " + s.limit());
        return new Outcome(probe, next, false);
    }

    /** A probe has had its time: keep it if it paid, else go back and wait longer before the next. */
    private static Outcome judge(DependencyGuard g, GovernorState s, int ready, int healthy, double tpr,
                                 double completions, double baseline, double backoff, Instant now, Trail t) {
        boolean up = s.limit() > s.probedFrom();
        boolean serving = up ? ready >= s.limit() : ready <= s.limit();
        if (now.isBefore(s.judgeAt()) || !serving) {
            t.say(g.label() + " healthy: governor tries " + s.limit() + " (from " + s.probedFrom() + ")");
            t.term("governor", s.limit(), "probing at " + s.limit() + " from " + s.probedFrom());
            return new Outcome(s.limit(), new GovernorState(Phase.PROBING, s.limit(), healthy, 0, tpr, s.probedFrom(),
                    s.fromThroughput(), s.judgeAt(), null, backoff, baseline), false);
        }
        double before = s.fromThroughput();
        boolean known = Double.isFinite(completions) && Double.isFinite(before);
        // Unknown throughput: an upward probe that stayed healthy holds; a downward one goes back.
        boolean paid = known ? (up ? completions > before * (1 + NOISE) : completions >= before * (1 - NOISE)) : up;
        String figures = known ? Figures.fmt(before) + " → " + Figures.fmt(completions) + " jobs/s"
                : "throughput unknown";
        if (paid) {
            t.say(g.label() + " healthy: " + s.limit() + " replicas paid (" + figures + "); governor keeps " + s.limit());
            t.term("governor", s.limit(), "keeps " + s.limit() + " (" + figures + ")");
            return new Outcome(s.limit(), new GovernorState(Phase.PROBING, s.limit(), healthy, 0, tpr, -1, Double.NaN,
                    null, null, g.probeSeconds(), baseline), false);
        }
        double longer = Math.min(2 * backoff, MAX_PROBE_BACKOFF * g.probeSeconds());
        t.say(g.label() + " healthy, but " + s.limit() + " replicas did not pay (" + figures + "): back to "
                + s.probedFrom() + "; next probe in " + Figures.fmt(longer) + " s");
        t.term("governor", s.probedFrom(), "back to " + s.probedFrom() + " (" + figures + " at " + s.limit() + ")");
        return new Outcome(s.probedFrom(), new GovernorState(Phase.PROBING, s.probedFrom(), healthy, 0, tpr, -1,
                Double.NaN, null, now.plusMillis((long) (longer * 1000)), longer, baseline), false);
    }

    private static Outcome breached(DependencyGuard g, GovernorState s, int current, double tpr, double completions,
                                    double v, double baseline, double backoff, Instant now, Trail t) {
        t.reason(Code.DEPENDENCY_SATURATED);
        int ticks = s.breachTicks() + 1;
        int base = s.limiting() ? Math.min(s.limit(), current) : current;
        int floor = Math.min(base, Math.max(1, s.lastHealthyReplicas()));
        String breach = g.label() + " " + Figures.fmt(v) + " > " + Figures.fmt(g.threshold());
        GovernorState next;
        if (s.probedFrom() >= 0 && s.limit() > s.probedFrom()) {
            int back = Math.min(base, s.probedFrom());
            double longer = Math.min(2 * backoff, MAX_PROBE_BACKOFF * g.probeSeconds());
            next = new GovernorState(Phase.BACKING_OFF, back, s.lastHealthyReplicas(), ticks, tpr, -1, Double.NaN, null,
                    now.plusMillis((long) (longer * 1000)), longer, baseline);
            t.say(breach + " after probing " + s.limit() + " → back to " + back + "; next probe in "
                    + Figures.fmt(longer) + " s");
        } else if (ticks >= 2 && Double.isFinite(tpr) && Double.isFinite(s.lastThroughputPerReplica())
                && tpr < s.lastThroughputPerReplica() * (1 - NOISE)) {
            int stepped = Math.max(floor, (int) Math.floor(base * g.backoffRatio()));
            Phase phase = stepped < base ? Phase.BACKING_OFF : Phase.HOLDING;
            next = new GovernorState(phase, stepped, s.lastHealthyReplicas(), ticks, tpr, -1, Double.NaN, null,
                    now.plusMillis((long) (backoff * 1000)), backoff, baseline);
            t.say(breach + ", throughput per replica " + Figures.fmt(s.lastThroughputPerReplica()) + " → "
                    + Figures.fmt(tpr) + "/s: " + (stepped < base ? "back off to " + stepped
                    : "hold " + stepped) + " (never below " + floor + ", the last healthy count)");
        } else {
            next = new GovernorState(Phase.HOLDING, base, s.lastHealthyReplicas(), ticks, tpr, -1, Double.NaN, null,
                    now.plusMillis((long) (backoff * 1000)), backoff, baseline);
            t.say(breach + " → no scale-up, governor holds " + base);
        }
        t.term("governor", next.limit(), next.phase().name().toLowerCase().replace('_', ' ') + " at "
                + next.limit() + " (" + breach + ")");
        return new Outcome(next.limit(), next, true);
    }
}
