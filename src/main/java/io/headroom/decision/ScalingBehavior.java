package io.headroom.decision;

import java.util.List;

/**
 * Scale-up or scale-down behaviour with HPA semantics: a stabilisation window over past
 * recommendations, rate policies, and which policy wins.
 */
public record ScalingBehavior(int stabilizationWindowSeconds, List<ScalingRule> rules, SelectPolicy select) {

    /** Max picks the policy allowing the largest change, Min the smallest, Disabled forbids the direction. */
    public enum SelectPolicy { MAX, MIN, DISABLED }

    public ScalingBehavior {
        if (stabilizationWindowSeconds < 0 || stabilizationWindowSeconds > 3600) {
            throw new IllegalArgumentException(
                    "stabilizationWindowSeconds must be in 0..3600, got " + stabilizationWindowSeconds);
        }
        rules = List.copyOf(rules);
        if (select == null) {
            select = SelectPolicy.MAX;
        }
        if (rules.isEmpty() && select != SelectPolicy.DISABLED) {
            throw new IllegalArgumentException("a behaviour needs at least one rate policy unless disabled");
        }
    }

    /** HPA default for scale-up: no window, max(100 %, 4 pods) per 15 s. */
    public static ScalingBehavior defaultUp() {
        return new ScalingBehavior(0,
                List.of(ScalingRule.percent(100, 15), ScalingRule.pods(4, 15)), SelectPolicy.MAX);
    }

    /** HPA default for scale-down: 300 s window, 100 % per 15 s. */
    public static ScalingBehavior defaultDown() {
        return new ScalingBehavior(300, List.of(ScalingRule.percent(100, 15)), SelectPolicy.MAX);
    }

    public ScalingBehavior withWindow(int seconds) {
        return new ScalingBehavior(seconds, rules, select);
    }
}
