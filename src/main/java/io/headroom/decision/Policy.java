package io.headroom.decision;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A class's scaling policy (design.md §3). Every field has a default; invalid values are rejected
 * with a message that names the field.
 *
 * @param maxAgeSeconds the age objective, or {@code null} for none
 * @param dependencyGuard {@code null} when the class has no dependency guard
 * @param expectedServiceSeconds the prior for the mean service time before any job was seen to
 *                               complete (scale from zero is sized with it), or {@code null} for none
 * @param startupSeconds how long a new pod takes from creation to ready when the cluster does not
 *                       show it (measured start-up replaces it as soon as pods are seen starting)
 * @param scheduledFloors warm capacity on a schedule: at least N replicas in a time window (empty for none)
 * @param timeZone the zone the scheduled floors' times are in (default UTC)
 * @param stuckAfterSeconds a ready pod holding work that finishes nothing for {@code max(3 × S, this)} is
 *                          STUCK: it counts as no capacity
 * @param minDrainSeconds the shortest drain target {@code D_eff} the age objective may ask for (never
 *                        more than {@code drainTargetSeconds}: the smaller of the two applies)
 * @param absorbStep the reaction-gap reserve's target: hold at least the replicas that absorb a step of the
 *                   arrivals to this many times their rate within the age objective ({@link ReactionGap}'s
 *                   model); {@code 1} for no reserve; {@code null} (the default) for the step the class would
 *                   absorb if its pods were ready within the objective, where they are not
 * @param forecastMode what the class does with its forecast: off, forecast only (the default), propose or auto
 */
public record Policy(
        int slotsPerReplica,
        double targetUtilization,
        double drainTargetSeconds,
        Double maxAgeSeconds,
        int minReplicas,
        int maxReplicas,
        ScalingBehavior scaleUp,
        ScalingBehavior scaleDown,
        double cooldownSeconds,
        double pollIntervalSeconds,
        Fallback fallback,
        List<CeilingSpec> ceilings,
        DependencyGuard dependencyGuard,
        Double expectedServiceSeconds,
        double startupSeconds,
        double minDrainSeconds,
        List<ScheduledFloor> scheduledFloors,
        java.time.ZoneId timeZone,
        double stuckAfterSeconds,
        Double absorbStep,
        ForecastMode forecastMode) {

    public Policy {
        forecastMode = forecastMode == null ? ForecastMode.FORECAST_ONLY : forecastMode;
        if (slotsPerReplica < 1) {
            throw new IllegalArgumentException("slotsPerReplica must be >= 1, got " + slotsPerReplica);
        }
        if (!(targetUtilization > 0 && targetUtilization <= 1)) {
            throw new IllegalArgumentException("targetUtilization must be in (0, 1], got " + targetUtilization);
        }
        if (!(drainTargetSeconds > 0) || Double.isInfinite(drainTargetSeconds)) {
            throw new IllegalArgumentException("drainTargetSeconds must be > 0, got " + drainTargetSeconds);
        }
        if (maxAgeSeconds != null && (!(maxAgeSeconds > 0) || maxAgeSeconds.isInfinite())) {
            throw new IllegalArgumentException("maxAgeSeconds must be > 0, got " + maxAgeSeconds);
        }
        if (minReplicas < 0) {
            throw new IllegalArgumentException("minReplicas cannot be negative, got " + minReplicas);
        }
        if (maxReplicas < 1) {
            throw new IllegalArgumentException("maxReplicas must be >= 1, got " + maxReplicas);
        }
        if (maxReplicas < minReplicas) {
            throw new IllegalArgumentException(
                    "maxReplicas (" + maxReplicas + ") is below minReplicas (" + minReplicas + ")");
        }
        if (!(cooldownSeconds >= 0) || Double.isInfinite(cooldownSeconds)) {
            throw new IllegalArgumentException("cooldownSeconds must be >= 0, got " + cooldownSeconds);
        }
        if (!(pollIntervalSeconds > 0) || Double.isInfinite(pollIntervalSeconds)) {
            throw new IllegalArgumentException("pollIntervalSeconds must be > 0, got " + pollIntervalSeconds);
        }
        if (scaleUp == null) {
            scaleUp = ScalingBehavior.defaultUp();
        }
        if (scaleDown == null) {
            scaleDown = ScalingBehavior.defaultDown();
        }
        if (fallback == null) {
            fallback = Fallback.defaults();
        }
        if (expectedServiceSeconds != null && (!(expectedServiceSeconds > 0) || expectedServiceSeconds.isInfinite())) {
            throw new IllegalArgumentException("expectedServiceSeconds must be > 0, got " + expectedServiceSeconds);
        }
        if (!(startupSeconds >= 0) || startupSeconds > 86400) {
            throw new IllegalArgumentException("startupSeconds must be in 0..86400, got " + startupSeconds);
        }
        if (!(minDrainSeconds > 0) || Double.isInfinite(minDrainSeconds)) {
            throw new IllegalArgumentException("minDrainSeconds must be > 0, got " + minDrainSeconds);
        }
        scheduledFloors = scheduledFloors == null ? List.of() : List.copyOf(scheduledFloors);
        if (!(stuckAfterSeconds > 0) || Double.isInfinite(stuckAfterSeconds)) {
            throw new IllegalArgumentException("stuckAfterSeconds must be > 0, got " + stuckAfterSeconds);
        }
        if (timeZone == null) {
            timeZone = java.time.ZoneOffset.UTC;
        }
        if (absorbStep != null && (!(absorbStep >= 1) || absorbStep > 1000)) {
            throw new IllegalArgumentException("absorbStep must be in 1..1000, got " + absorbStep);
        }
        ceilings = ceilings == null ? List.of() : List.copyOf(ceilings);
        Set<String> names = new HashSet<>();
        for (CeilingSpec c : ceilings) {
            if (!names.add(c.name())) {
                throw new IllegalArgumentException("ceiling name '" + c.name() + "' is used twice");
            }
        }
    }

    /** A new pod's start-up when nothing measured it: image pull, runtime start, readiness. */
    public static final double DEFAULT_STARTUP_SECONDS = 30;
    /** The shortest drain target the age objective asks for by default. */
    public static final double DEFAULT_MIN_DRAIN_SECONDS = 10;
    /** A pod holding work that finishes nothing for at least this long (and 3 × S) is STUCK. */
    public static final double DEFAULT_STUCK_AFTER_SECONDS = 120;

    /** The defaults from the brief: k 1, u 0.7, D 60 s, 1..50 replicas, HPA behaviours, 300 s cooldown, 15 s poll. */
    public static Policy defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.slotsPerReplica = slotsPerReplica;
        b.targetUtilization = targetUtilization;
        b.drainTargetSeconds = drainTargetSeconds;
        b.maxAgeSeconds = maxAgeSeconds;
        b.minReplicas = minReplicas;
        b.maxReplicas = maxReplicas;
        b.scaleUp = scaleUp;
        b.scaleDown = scaleDown;
        b.cooldownSeconds = cooldownSeconds;
        b.pollIntervalSeconds = pollIntervalSeconds;
        b.fallback = fallback;
        b.ceilings = ceilings;
        b.dependencyGuard = dependencyGuard;
        b.expectedServiceSeconds = expectedServiceSeconds;
        b.startupSeconds = startupSeconds;
        b.minDrainSeconds = minDrainSeconds;
        b.scheduledFloors = scheduledFloors;
        b.timeZone = timeZone;
        b.stuckAfterSeconds = stuckAfterSeconds;
        b.absorbStep = absorbStep;
        b.forecastMode = forecastMode;
        return b;
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private int slotsPerReplica = 1;
        private double targetUtilization = 0.7;
        private double drainTargetSeconds = 60;
        private Double maxAgeSeconds;
        private int minReplicas = 1;
        private int maxReplicas = 50;
        private ScalingBehavior scaleUp = ScalingBehavior.defaultUp();
        private ScalingBehavior scaleDown = ScalingBehavior.defaultDown();
        private double cooldownSeconds = 300;
        private double pollIntervalSeconds = 15;
        private Fallback fallback = Fallback.defaults();
        private List<CeilingSpec> ceilings = List.of();
        private DependencyGuard dependencyGuard;
        private Double expectedServiceSeconds;
        private double startupSeconds = DEFAULT_STARTUP_SECONDS;
        private Double minDrainSeconds;
        private List<ScheduledFloor> scheduledFloors = List.of();
        private java.time.ZoneId timeZone = java.time.ZoneOffset.UTC;
        private double stuckAfterSeconds = DEFAULT_STUCK_AFTER_SECONDS;
        private Double absorbStep;
        private ForecastMode forecastMode = ForecastMode.FORECAST_ONLY;

        private Builder() {
        }

        public Builder slotsPerReplica(int v) { slotsPerReplica = v; return this; }
        public Builder targetUtilization(double v) { targetUtilization = v; return this; }
        public Builder drainTargetSeconds(double v) { drainTargetSeconds = v; return this; }
        public Builder maxAgeSeconds(Double v) { maxAgeSeconds = v; return this; }
        public Builder minReplicas(int v) { minReplicas = v; return this; }
        public Builder maxReplicas(int v) { maxReplicas = v; return this; }
        public Builder scaleUp(ScalingBehavior v) { scaleUp = v; return this; }
        public Builder scaleDown(ScalingBehavior v) { scaleDown = v; return this; }
        public Builder cooldownSeconds(double v) { cooldownSeconds = v; return this; }
        public Builder pollIntervalSeconds(double v) { pollIntervalSeconds = v; return this; }
        public Builder fallback(Fallback v) { fallback = v; return this; }
        public Builder ceilings(List<CeilingSpec> v) { ceilings = v; return this; }
        public Builder dependencyGuard(DependencyGuard v) { dependencyGuard = v; return this; }
        public Builder expectedServiceSeconds(Double v) { expectedServiceSeconds = v; return this; }
        public Builder startupSeconds(double v) { startupSeconds = v; return this; }
        /** D_min; unset, {@value #DEFAULT_MIN_DRAIN_SECONDS} s. */
        public Builder minDrainSeconds(Double v) { minDrainSeconds = v; return this; }
        public Builder scheduledFloors(List<ScheduledFloor> v) { scheduledFloors = v; return this; }
        public Builder timeZone(java.time.ZoneId v) { timeZone = v; return this; }
        public Builder stuckAfterSeconds(double v) { stuckAfterSeconds = v; return this; }
        /** The reserve's target step (1: none); null (the default) for the step timely pods would absorb. */
        public Builder absorbStep(Double v) { absorbStep = v; return this; }
        /** What the class does with its forecast; unset, forecast only. */
        public Builder forecastMode(ForecastMode v) { forecastMode = v; return this; }

        public Policy build() {
            return new Policy(slotsPerReplica, targetUtilization, drainTargetSeconds, maxAgeSeconds,
                    minReplicas, maxReplicas, scaleUp, scaleDown, cooldownSeconds, pollIntervalSeconds,
                    fallback, ceilings, dependencyGuard, expectedServiceSeconds, startupSeconds,
                    minDrainSeconds != null ? minDrainSeconds : DEFAULT_MIN_DRAIN_SECONDS, scheduledFloors, timeZone,
                    stuckAfterSeconds, absorbStep, forecastMode);
        }
    }
}
