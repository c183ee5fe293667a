package io.headroom.decision;

import io.headroom.decision.ClassMemory.Stamped;
import io.headroom.decision.Reason.Code;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Step 8 of design.md §3, HPA behaviour normalisation apart from any rule that recommends replicas
 * (the HPA keeps {@code stabilizeRecommendationWithBehaviors} and
 * {@code convertDesiredReplicasWithBehaviorRate} apart from {@code replica_calculator.go}):
 * stabilisation windows over past recommendations, then rate policies over the replica changes
 * made within each policy's period, counted from the moment each change was applied. Pure; used
 * by Headroom's decision and by the baselines it is judged against.
 */
public final class Behaviour {

    private Behaviour() {
    }

    /**
     * The normalised replicas and how they came about.
     *
     * @param recommendations the window's recommendations including this one, for the next tick
     */
    public record Result(int replicas, List<Term> terms, List<Reason> reasons, List<String> story,
                         List<Stamped> recommendations) {
        public Result {
            terms = List.copyOf(terms);
            reasons = List.copyOf(reasons);
            story = List.copyOf(story);
            recommendations = List.copyOf(recommendations);
        }
    }

    /**
     * Normalises one recommendation.
     *
     * @param pastRecommendations earlier recommendations (older ones are dropped here)
     * @param scaleEvents replica changes as (applied at, delta), see {@link ClassMemory#scaleEvents()}
     * @param zeroTransition true for scale to or from zero, which skips the windows (the cooldown is
     *                       the window for zero; work waiting must not wait for a window)
     */
    public static Result normalise(ScalingBehavior up, ScalingBehavior down, int current, int desired,
                                   List<Stamped> pastRecommendations, List<Stamped> scaleEvents, Instant now,
                                   boolean zeroTransition) {
        return normalise(up, down, current, desired, desired, pastRecommendations, scaleEvents, now, zeroTransition);
    }

    /**
     * Normalises one recommendation, remembering {@code remembered} (at most {@code desired}) for the
     * windows instead: the part of a recommendation that only drains a backlog need not be held for
     * the scale-down window once the backlog is gone.
     */
    public static Result normalise(ScalingBehavior up, ScalingBehavior down, int current, int desired,
                                   int remembered, List<Stamped> pastRecommendations, List<Stamped> scaleEvents,
                                   Instant now, boolean zeroTransition) {
        return normalise(up, down, current, desired, remembered, pastRecommendations, scaleEvents, now, zeroTransition,
                true);
    }

    /** As above; {@code words} false leaves the story empty and the terms' formulas blank (the numbers are the same). */
    static Result normalise(ScalingBehavior up, ScalingBehavior down, int current, int desired, int remembered,
                            List<Stamped> pastRecommendations, List<Stamped> scaleEvents, Instant now,
                            boolean zeroTransition, boolean words) {
        Run r = new Run(up, down, current, scaleEvents, now);
        r.words = words;
        List<Stamped> recs = ClassMemory.keepSince(pastRecommendations, now, Duration.ofSeconds(
                Math.max(up.stabilizationWindowSeconds(), down.stabilizationWindowSeconds())));
        recs.add(new Stamped(now, desired, Math.min(desired, remembered)));
        int result;
        if (zeroTransition && current == 0) {
            result = Math.min(desired, Math.max(1, r.scaleUpLimit()));
            if (result < desired) {
                r.reasons.add(Reason.of(Code.RATE_LIMITED_UP));
                r.say("scale-up rate limits the start from zero to ", result);
                r.term("rateLimited", result, "scale-up policies allow ", result);
            }
        } else if (zeroTransition) {
            result = desired;
        } else {
            result = r.limitRate(r.stabilise(desired, recs));
        }
        return new Result(result, r.terms, r.reasons, r.story, recs);
    }

    /**
     * The HPA's rule for a count outside {@code [min, max]} ({@code reconcileAutoscaler}, before any metric is
     * read): above max it goes straight to max, below min straight to min, with no stabilisation window and no
     * rate policy; this move is not a recommendation the windows remember. Null when current is within the range.
     * At zero with {@code min >= 1} the HPA counts scaling as disabled: a rule that follows it there handles zero
     * before asking (Headroom and KEDA's executor go to min, decision 0018).
     */
    public static Result outOfRange(int min, int max, int current, List<Stamped> pastRecommendations,
                                    boolean words) {
        if (current >= min && current <= max) {
            return null;
        }
        boolean above = current > max;
        int bound = above ? max : min;
        String count = current + (current == 1 ? " replica" : " replicas");
        List<String> story = !words ? List.of() : List.of(count + ", " + (above ? "above max " : "below min ") + bound
                + ": straight to " + bound + " (no window or rate policy holds a count outside min..max)");
        Term term = new Term("bound", bound, words ? (above ? "max " : "min ") + bound + ", from " + count : "");
        return new Result(bound, List.of(term), List.of(Reason.of(above ? Code.ABOVE_MAX : Code.BELOW_MIN)), story,
                pastRecommendations);
    }

    /**
     * The HPA's whole normalisation ({@code normalizeDesiredReplicasWithBehaviors} and the out-of-range moves
     * before it): a count outside {@code [min, max]} goes straight to the bound; otherwise the recommendation is
     * clamped to {@code [min, max]}, then stabilised and rate-limited. Windows read the clamped recommendations,
     * which gives the HPA's numbers (it clamps after stabilising; with current inside the range the order does
     * not change the result). For rules that follow the HPA as a whole (the baselines); Headroom's own decision
     * clamps in {@link Bounds}, with ceilings between.
     */
    public static Result normaliseWithin(ScalingBehavior up, ScalingBehavior down, int min, int max, int current,
                                         int desired, List<Stamped> pastRecommendations, List<Stamped> scaleEvents,
                                         Instant now) {
        Result out = outOfRange(min, max, current, pastRecommendations, true);
        if (out != null) {
            return out;
        }
        List<Reason> reasons = new ArrayList<>();
        List<String> story = new ArrayList<>();
        int clamped = desired;
        if (desired < min) {
            clamped = min;
            reasons.add(Reason.of(Code.MIN_REPLICAS));
            story.add("min " + min);
        } else if (desired > max) {
            clamped = max;
            reasons.add(Reason.of(Code.MAX_REPLICAS));
            story.add("max " + max);
        }
        Result n = normalise(up, down, current, clamped, pastRecommendations, scaleEvents, now, false);
        reasons.addAll(n.reasons());
        story.addAll(n.story());
        return new Result(n.replicas(), n.terms(), reasons, story, n.recommendations());
    }

    /** The most replicas the scale-up policies allow now (at least current). */
    public static int scaleUpLimit(ScalingBehavior up, int current, List<Stamped> scaleEvents, Instant now) {
        return new Run(up, null, current, scaleEvents, now).scaleUpLimit();
    }

    /** The fewest replicas the scale-down policies allow now (at most current, never below zero). */
    public static int scaleDownLimit(ScalingBehavior down, int current, List<Stamped> scaleEvents, Instant now) {
        return new Run(null, down, current, scaleEvents, now).scaleDownLimit();
    }

    /** Scale events within the longest rate-policy period of either direction; older ones no longer count. */
    public static List<Stamped> recentEvents(ScalingBehavior up, ScalingBehavior down, List<Stamped> events,
                                             Instant now) {
        int horizon = 0;
        for (ScalingRule r : up.rules()) {
            horizon = Math.max(horizon, r.periodSeconds());
        }
        for (ScalingRule r : down.rules()) {
            horizon = Math.max(horizon, r.periodSeconds());
        }
        return ClassMemory.keepSince(events, now, Duration.ofSeconds(horizon));
    }

    /**
     * The replica changes the rate policies count now: those in memory (stamped when they were
     * applied) within the longest period, plus a change nobody told the memory about (another
     * actor, an approval between ticks), counted from when the cluster shows it happened, else now.
     */
    public static List<Stamped> observedEvents(ScalingBehavior up, ScalingBehavior down, ClassMemory mem,
                                               Observation obs, Instant now) {
        List<Stamped> events = new ArrayList<>(recentEvents(up, down, mem.scaleEvents(), now));
        int current = obs.currentReplicas();
        if (mem.lastReplicas() != null && mem.lastReplicas() != current) {
            Instant at = obs.replicasChangedAt();
            boolean known = at != null && !at.isAfter(now) && (mem.lastTickAt() == null || at.isAfter(mem.lastTickAt()));
            events.add(new Stamped(known ? at : now, current - mem.lastReplicas()));
        }
        return events;
    }

    private static final class Run {
        final ScalingBehavior up;
        final ScalingBehavior down;
        final int current;
        final List<Stamped> events;
        final Instant now;
        final List<Term> terms = new ArrayList<>();
        final List<Reason> reasons = new ArrayList<>();
        final List<String> story = new ArrayList<>();
        /** False for no words: nothing is said, formulas are blank. */
        boolean words = true;

        void say(String text, int n) {
            if (words) {
                story.add(text + n);
            }
        }

        void term(String name, int value, String text, int n) {
            terms.add(new Term(name, value, words ? text + n : ""));
        }

        Run(ScalingBehavior up, ScalingBehavior down, int current, List<Stamped> events, Instant now) {
            this.up = up;
            this.down = down;
            this.current = current;
            this.events = events;
            this.now = now;
        }

        /** HPA's stabilizeRecommendationWithBehaviors over {@code recs} (which include this tick's). */
        int stabilise(int desired, List<Stamped> recs) {
            int upWindow = up.stabilizationWindowSeconds();
            int downWindow = down.stabilizationWindowSeconds();
            int upRec = desired;
            int downRec = desired;
            Instant holdDownUntil = null;
            Instant holdUpUntil = null;
            for (Stamped r : recs) {
                double ago = seconds(r.at(), now);
                if (ago < upWindow && r.value() < upRec) {
                    upRec = r.value();
                }
                if (ago < upWindow && r.value() < desired) {
                    holdUpUntil = later(holdUpUntil, r.at().plusSeconds(upWindow));
                }
                if (ago < downWindow && r.sustained() > downRec) {
                    downRec = r.sustained();
                }
                if (ago < downWindow && r.sustained() > desired) {
                    holdDownUntil = later(holdDownUntil, r.at().plusSeconds(downWindow));
                }
            }
            int result = current;
            if (upRec > current) {
                result = upRec;
            }
            if (downRec < current) {
                result = downRec;
            }
            if (desired < current && result > desired) {
                reasons.add(Reason.of(Code.STABILISING_DOWN));
                if (words) {
                    story.add("scale-down window holds " + result + " for "
                            + Figures.fmt(seconds(now, holdDownUntil)) + " s more");
                }
            } else if (desired > current && result < desired) {
                reasons.add(Reason.of(Code.STABILISING_UP));
                if (words) {
                    story.add("scale-up window holds " + result + " for "
                            + Figures.fmt(seconds(now, holdUpUntil)) + " s more");
                }
            }
            if (result != desired) {
                terms.add(new Term("stabilised", result, words ? "window holds " + result + " instead of " + desired : ""));
            }
            return result;
        }

        int limitRate(int desired) {
            if (desired > current) {
                if (up.select() == ScalingBehavior.SelectPolicy.DISABLED) {
                    reasons.add(Reason.of(Code.SCALE_UP_DISABLED));
                    if (words) {
                        story.add("scale-up disabled by policy");
                    }
                    return current;
                }
                int limit = scaleUpLimit();
                if (desired > limit) {
                    reasons.add(Reason.of(Code.RATE_LIMITED_UP));
                    say("scale-up rate limits this step to ", limit);
                    term("rateLimited", limit, "scale-up policies allow ", limit);
                    return limit;
                }
            } else if (desired < current) {
                if (down.select() == ScalingBehavior.SelectPolicy.DISABLED) {
                    reasons.add(Reason.of(Code.SCALE_DOWN_DISABLED));
                    if (words) {
                        story.add("scale-down disabled by policy");
                    }
                    return current;
                }
                int limit = scaleDownLimit();
                if (desired < limit) {
                    reasons.add(Reason.of(Code.RATE_LIMITED_DOWN));
                    say("scale-down rate limits this step to ", limit);
                    term("rateLimited", limit, "scale-down policies allow ", limit);
                    return limit;
                }
            }
            return desired;
        }

        /** HPA's calculateScaleUpLimitWithScalingRules: replicas at the period's start plus the policy. */
        int scaleUpLimit() {
            boolean max = up.select() != ScalingBehavior.SelectPolicy.MIN;
            long result = max ? Long.MIN_VALUE : Long.MAX_VALUE;
            for (ScalingRule rule : up.rules()) {
                long start = (long) current - changed(rule.periodSeconds(), true) + changed(rule.periodSeconds(), false);
                long proposed = rule.type() == ScalingRule.Type.PODS
                        ? start + rule.value()
                        : (long) Math.ceil(start * (1 + rule.value() / 100.0));
                result = max ? Math.max(result, proposed) : Math.min(result, proposed);
            }
            return (int) Math.min(Integer.MAX_VALUE, Math.max(result, current));
        }

        /** HPA's calculateScaleDownLimitWithBehaviors. */
        int scaleDownLimit() {
            boolean max = down.select() != ScalingBehavior.SelectPolicy.MIN;
            long result = max ? Long.MAX_VALUE : Long.MIN_VALUE;
            for (ScalingRule rule : down.rules()) {
                long start = (long) current + changed(rule.periodSeconds(), false) - changed(rule.periodSeconds(), true);
                long proposed = rule.type() == ScalingRule.Type.PODS
                        ? start - rule.value()
                        : (long) (start * (1 - rule.value() / 100.0));
                result = max ? Math.min(result, proposed) : Math.max(result, proposed);
            }
            return (int) Math.max(0, Math.min(result, current));
        }

        /** Replicas added (up) or removed (!up) by changes applied within the last period seconds. */
        long changed(int periodSeconds, boolean upward) {
            long sum = 0;
            for (Stamped e : events) {
                if (seconds(e.at(), now) < periodSeconds) {
                    if (upward && e.value() > 0) {
                        sum += e.value();
                    } else if (!upward && e.value() < 0) {
                        sum -= e.value();
                    }
                }
            }
            return sum;
        }
    }

    /**
     * Seconds from {@code from} to {@code to}: {@code Duration.between(from, to).toNanos() / 1e9}, the
     * same figure (and the same ArithmeticException beyond 292 years) without a Duration a call; a
     * decision asks this several times a tick, and a day's what-if has 11,000 decisions.
     */
    static double seconds(Instant from, Instant to) {
        long secs = Math.subtractExact(to.getEpochSecond(), from.getEpochSecond());
        return Math.addExact(Math.multiplyExact(secs, 1_000_000_000L), to.getNano() - from.getNano()) / 1e9;
    }

    private static Instant later(Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }
}
