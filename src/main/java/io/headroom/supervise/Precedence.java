package io.headroom.supervise;

import io.headroom.drain.Drain;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The supervisor's precedence as a pure step (like {@code DrainStep}): freeze > override > mode
 * turns one class's decision into what to do, withhold, apply, propose, drain or hold, and
 * whether a pending proposal goes. No clock, no cluster, no journal: all of it is in the input.
 */
final class Precedence {
    static final DateTimeFormatter HHMM = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private Precedence() {
    }

    /** Who asked for a scale: an override re-pins after a conflict; the others give up and decide again. */
    enum Cause { OVERRIDE, AUTO, APPROVED }

    /** A change the operator rejected, not proposed again before {@code until}. */
    record Rejection(int from, int to, Instant until) {
        boolean covers(int current, int desired, Instant now) {
            return now.isBefore(until) && from == current && to == desired;
        }
    }

    /**
     * Everything the step looks at, for one class at one tick.
     *
     * @param freeze            the freeze covering the class (global first), or null
     * @param drainsOnScaleDown the class drains instead of scaling down at once
     * @param workloadSeen      its workload (pods and all) was read this tick: a drain can be planned
     * @param autoDrainAfter    no automatic drain before this (after one that did not complete), or null
     * @param rejected          the last rejected change, or null
     */
    record Input(Freeze freeze, ReplicaOverride override, Mode mode, int current, int desired, boolean wantsChange,
                 boolean drainsOnScaleDown, boolean workloadSeen, Instant autoDrainAfter, Rejection rejected,
                 Instant now) {
    }

    /** What to do. */
    sealed interface Step permits Withhold, Apply, Propose, StartDrain, Hold {
    }

    /** Act on nothing; {@code why} says what kept it. */
    record Withhold(int desired, String why) implements Step {
    }

    /** Scale to {@code to} now. */
    record Apply(int to, Cause cause, String why) implements Step {
    }

    /** Ask the operator: {@code from} → {@code to} (a pending proposal for the same change is kept). */
    record Propose(int from, int to) implements Step {
    }

    /** Scale down to {@code to} through a drain. */
    record StartDrain(int to) implements Step {
    }

    /** The decision keeps the replicas as they are. */
    record Hold() implements Step {
    }

    /** The step, and why a pending proposal is withdrawn (null: it stays). */
    record Plan(Step step, String withdraw) {
    }

    static Plan decide(Input in) {
        if (in.freeze() != null) {
            return new Plan(new Withhold(in.desired(), "frozen until " + HHMM.format(in.freeze().until()) + ": "
                    + in.freeze().reason()), null);
        }
        if (in.override() != null) {
            int pinned = in.override().replicas();
            return new Plan(in.current() != pinned
                    ? new Apply(pinned, Cause.OVERRIDE, "override: " + in.override().reason())
                    : new Withhold(pinned, "override pins " + pinned + " until " + HHMM.format(in.override().until())),
                    null);
        }
        switch (in.mode()) {
            case OBSERVE:
                return new Plan(new Withhold(in.desired(), "observe mode: decided, not acted on"), "observe mode");
            case AUTO:
                if (!in.wantsChange()) {
                    return new Plan(new Hold(), "auto mode");
                }
                if (in.desired() < in.current() && in.drainsOnScaleDown() && in.workloadSeen()) {
                    if (in.autoDrainAfter() != null && in.now().isBefore(in.autoDrainAfter())) {
                        return new Plan(new Withhold(in.desired(), "auto: the last drain did not complete; next try"
                                + " after " + HHMM.format(in.autoDrainAfter()) + " (or drain by hand)"), "auto mode");
                    }
                    return new Plan(new StartDrain(in.desired()), "auto mode");
                }
                return new Plan(new Apply(in.desired(), Cause.AUTO, "auto"), "auto mode");
            default:
                if (!in.wantsChange()) {
                    return new Plan(new Hold(), "the decision now holds " + in.current());
                }
                if (in.rejected() != null && in.rejected().covers(in.current(), in.desired(), in.now())) {
                    return new Plan(new Withhold(in.desired(), "rejected by the operator; not proposed again before "
                            + HHMM.format(in.rejected().until())), null);
                }
                return new Plan(new Propose(in.current(), in.desired()), null);
        }
    }

    /** Why a running drain must stop now (a freeze, or load it would cut), or null when it goes on. */
    static String drainStop(Freeze freeze, Drain drain, int desired) {
        if (freeze != null) {
            return "frozen (" + freeze.reason() + ")";
        }
        // A replacement adds capacity first (the hung pod is none): the decision wanting more is why it runs.
        return desired > drain.from() && drain.replace() == null ? "the load rose: the decision now wants " + desired + " replicas" : null;
    }
}
