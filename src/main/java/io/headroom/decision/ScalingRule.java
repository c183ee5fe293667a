package io.headroom.decision;

/** One HPA-style rate policy: at most {@code value} pods or percent per {@code periodSeconds}. */
public record ScalingRule(Type type, int value, int periodSeconds) {

    /** Pods adds/removes a count; Percent a share of the replicas at the start of the period. */
    public enum Type { PODS, PERCENT }

    public ScalingRule {
        if (type == null) {
            throw new IllegalArgumentException("rate policy type is required (Pods or Percent)");
        }
        if (value <= 0) {
            throw new IllegalArgumentException("rate policy value must be > 0, got " + value);
        }
        if (periodSeconds <= 0 || periodSeconds > 1800) {
            throw new IllegalArgumentException("rate policy periodSeconds must be in 1..1800, got " + periodSeconds);
        }
    }

    public static ScalingRule pods(int value, int periodSeconds) {
        return new ScalingRule(Type.PODS, value, periodSeconds);
    }

    public static ScalingRule percent(int value, int periodSeconds) {
        return new ScalingRule(Type.PERCENT, value, periodSeconds);
    }
}
