package io.headroom.decision;

import io.headroom.decision.GovernorState.Phase;
import io.headroom.decision.Reason.Code;
import java.time.Instant;

/**
 * Step 6 of DESIGN §3, the concurrency governor against the amplification loop, as AIMD (TCP
 * congestion control; Netflix {@code concurrency-limits}): while the dependency breaches, no
 * scale-up; if it stays breached and throughput per replica falls, step down multiplicatively,
 * never below the last count at which the dependency was healthy; once it recovers, probe upward
 * one replica at a time, waiting between probes for the change to show, and back to the count
 * before a probe that breached again (waiting twice as long before the next).
 */
final class Governor {

    /** A fall in throughput per replica smaller than this is noise, not a fall. */
    static final double FALL = 0.02;
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
        double tpr = in.usable(Signals.COMPLETION_RATE) && ready > 0
                ? in.value(Signals.COMPLETION_RATE) / ready : Double.NaN;
        double interval = s.probeSeconds() > 0 ? s.probeSeconds() : g.probeSeconds();
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
        if (v > g.threshold()) {
            t.reason(Code.DEPENDENCY_SATURATED);
            int ticks = s.breachTicks() + 1;
            int base = s.limiting() ? Math.min(s.limit(), current) : current;
            int floor = Math.min(base, Math.max(1, s.lastHealthyReplicas()));
            String breach = g.label() + " " + DecisionEngine.fmt(v) + " > " + DecisionEngine.fmt(g.threshold());
            GovernorState next;
            if (s.phase() == Phase.PROBING && s.probedFrom() >= 0) {
                int back = Math.min(base, s.probedFrom());
                double longer = Math.min(2 * interval, MAX_PROBE_BACKOFF * g.probeSeconds());
                next = new GovernorState(Phase.BACKING_OFF, back, s.lastHealthyReplicas(), ticks, tpr, -1,
                        now.plusMillis((long) (longer * 1000)), longer);
                t.say(breach + " after probing " + s.limit() + " → back to " + back + "; next probe in "
                        + DecisionEngine.fmt(longer) + " s");
            } else if (ticks >= 2 && Double.isFinite(tpr) && Double.isFinite(s.lastThroughputPerReplica())
                    && tpr < s.lastThroughputPerReplica() * (1 - FALL)) {
                int stepped = Math.max(floor, (int) Math.floor(base * g.backoffRatio()));
                Phase phase = stepped < base ? Phase.BACKING_OFF : Phase.HOLDING;
                next = new GovernorState(phase, stepped, s.lastHealthyReplicas(), ticks, tpr, -1,
                        now.plusMillis((long) (interval * 1000)), interval);
                t.say(breach + ", throughput per replica " + DecisionEngine.fmt(s.lastThroughputPerReplica()) + " → "
                        + DecisionEngine.fmt(tpr) + "/s: " + (stepped < base ? "back off to " + stepped
                        : "hold " + stepped) + " (never below " + floor + ", the last healthy count)");
            } else {
                next = new GovernorState(Phase.HOLDING, base, s.lastHealthyReplicas(), ticks, tpr, -1,
                        now.plusMillis((long) (interval * 1000)), interval);
                t.say(breach + " → no scale-up, governor holds " + base);
            }
            t.term("governor", next.limit(), next.phase().name().toLowerCase().replace('_', ' ') + " at "
                    + next.limit() + " (" + breach + ")");
            return new Outcome(next.limit(), next, true);
        }
        // Healthy.
        int healthy = ready;
        if (!s.limiting()) {
            return Outcome.none(new GovernorState(Phase.IDLE, -1, healthy, 0, tpr, -1, null, g.probeSeconds()));
        }
        boolean probeServing = s.probedFrom() >= 0 && ready >= s.limit();
        double wait = probeServing ? g.probeSeconds() : interval; // a probe that held resets the wait
        int probedFrom = probeServing ? -1 : s.probedFrom();
        if (wanted <= s.limit() && probedFrom < 0) {
            t.say(g.label() + " healthy and the estimate is within the governor's " + s.limit() + ": limit lifted");
            return Outcome.none(new GovernorState(Phase.IDLE, -1, healthy, 0, tpr, -1, null, g.probeSeconds()));
        }
        if (probedFrom < 0 && (s.nextProbeAt() == null || !now.isBefore(s.nextProbeAt()))) {
            int raised = s.limit() + 1;
            GovernorState next = new GovernorState(Phase.PROBING, raised, healthy, 0, tpr, s.limit(),
                    now.plusMillis((long) (wait * 1000)), wait);
            t.say(g.label() + " healthy: governor probes " + raised + " (+1 every " + DecisionEngine.fmt(wait) + " s)");
            t.term("governor", raised, "probing at " + raised);
            return new Outcome(raised, next, false);
        }
        GovernorState next = new GovernorState(Phase.PROBING, s.limit(), healthy, 0, tpr, probedFrom,
                s.nextProbeAt(), wait);
        double wait2 = s.nextProbeAt() == null ? 0 : Math.max(0, Behaviour.seconds(now, s.nextProbeAt()));
        t.say(g.label() + " healthy: governor holds " + s.limit() + (probedFrom >= 0
                ? " while the probe starts" : ", next probe in " + DecisionEngine.fmt(wait2) + " s"));
        t.term("governor", s.limit(), "probing at " + s.limit());
        return new Outcome(s.limit(), next, false);
    }
}
