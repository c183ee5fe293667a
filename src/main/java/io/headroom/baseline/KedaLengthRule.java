package io.headroom.baseline;

import io.headroom.decision.SignalName;
import io.headroom.decision.Behaviour;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.Figures;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.decision.Term;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * KEDA's queue-length rule as a pure function over the same observations Headroom decides on:
 * {@code desired = ceil(length / listLength)} through the HPA's {@code AverageValue} target (10 %
 * tolerance) and behaviour normalisation, with KEDA's activation (0 ↔ 1 replica) and cooldown
 * before scale-to-zero. It is what a ScaledObject with a queue trigger does, so an operator can see
 * "what KEDA's rule would have done".
 *
 * <p>The class's policy lends its {@code minReplicas}/{@code maxReplicas} (as minReplicaCount and
 * maxReplicaCount), its scale-up and scale-down behaviour (HPA defaults unless edited) and its
 * cooldown; nothing else of it (no ceilings, no age objective, no dependency guard: KEDA has none).
 *
 * @param listLength         the trigger's target: waiting jobs per replica
 * @param activation         the activation threshold: at or below it the class is inactive (scale to zero)
 * @param includeInFlight    count jobs in flight as part of the length, as the SQS ({@code scaleOnInFlight})
 *                           and RabbitMQ ({@code messages} = ready + unacked) scalers do by default; the
 *                           Redis lists scaler, whose {@code listLength} this is, counts waiting jobs only
 * @param ignoreNullValues   KEDA's Prometheus scaler default: an empty or missing result reads as 0;
 *                           when false a missing length is an error and the HPA keeps its replicas
 */
public record KedaLengthRule(double listLength, double activation, boolean includeInFlight,
                             boolean ignoreNullValues) implements Decider {

    /** The HPA's default tolerance: a ratio within 10 % of 1 changes nothing. */
    public static final double TOLERANCE = 0.1;

    public KedaLengthRule {
        if (!(listLength > 0) || Double.isInfinite(listLength)) {
            throw new IllegalArgumentException("listLength must be > 0, got " + listLength);
        }
        if (!(activation >= 0) || Double.isInfinite(activation)) {
            throw new IllegalArgumentException("activation must be >= 0, got " + activation);
        }
    }

    /**
     * KEDA's defaults for a list trigger with this target: the Redis lists scaler's {@code listLength}
     * over the waiting jobs (in-flight jobs have left the list), activation 0, empty reads as 0.
     */
    public static KedaLengthRule of(double listLength) {
        return new KedaLengthRule(listLength, 0, false, true);
    }

    @Override
    public Decision decide(String className, Policy p, Observation obs, ClassMemory memory, Instant now) {
        ClassMemory mem = memory == null ? ClassMemory.initial() : memory;
        int current = obs.currentReplicas();
        List<ClassMemory.Stamped> recs = Baselines.recommendations(mem, current, now);
        List<Term> terms = new ArrayList<>();
        List<Reason> reasons = new ArrayList<>();
        List<String> story = new ArrayList<>();
        List<InputStatus> inputs = new ArrayList<>();

        Reading waiting = read(obs, Signals.QUEUE_LENGTH, p, now, inputs);
        Reading inFlight = includeInFlight ? read(obs, Signals.IN_FLIGHT, p, now, inputs) : Reading.ZERO;
        List<ClassMemory.Stamped> events = Behaviour.observedEvents(p.scaleUp(), p.scaleDown(), mem, obs, now);
        Baselines.observed(obs, p, now, inputs);
        boolean missing = !waiting.ok || !inFlight.ok;
        // KEDA's HPA has min max(1, minReplicaCount); at zero, KEDA's executor acts below minReplicaCount.
        int min = Math.max(1, p.minReplicas());
        int kedaMin = current == 0 ? p.minReplicas() : min;
        if (missing && !ignoreNullValues) {
            // The scaler errors; the HPA keeps the replicas it has (no KEDA fallback configured), unless they are
            // outside min..max: those it moves before reading any metric, and KEDA raises zero to minReplicaCount.
            reasons.add(Reason.of(Reason.Code.TELEMETRY_MISSING, Signals.QUEUE_LENGTH));
            story.add("KEDA: scaler error (" + waiting.why + ") → HPA holds " + current);
            Behaviour.Result bound = Behaviour.outOfRange(kedaMin, p.maxReplicas(), current, recs, true);
            int held = current;
            if (bound != null) {
                held = bound.replicas();
                terms.addAll(bound.terms());
                reasons.addAll(bound.reasons());
                story.addAll(bound.story());
            }
            return Baselines.decision(className, now, obs, held, Double.NaN, terms, reasons, inputs,
                    String.join("; ", story), mem.next(current, now, mem.lastActiveAt(), recs, events));
        }
        double length = (waiting.ok ? waiting.value : 0) + (inFlight.ok ? inFlight.value : 0);
        if (missing) {
            story.add("KEDA reads the missing length as 0 (ignoreNullValues)");
        }
        terms.add(new Term("kedaLength", length, includeInFlight ? "waiting + in flight" : "waiting"));
        boolean active = length > activation;
        Instant lastActive = active || mem.lastActiveAt() == null ? now : mem.lastActiveAt();

        int desired;
        boolean zero = false;
        if (current == 0) {
            zero = true;
            desired = active || p.minReplicas() > 0 ? min : 0;
            story.add(active ? "KEDA activates: 0 → " + desired
                    : desired > 0 ? "KEDA: inactive, below minReplicaCount" : "KEDA: inactive, stays at 0");
            if (active) {
                reasons.add(Reason.of(Reason.Code.SCALE_FROM_ZERO));
            }
        } else if (!active && p.minReplicas() == 0
                && seconds(lastActive, now) >= p.cooldownSeconds()) {
            zero = true;
            desired = 0;
            reasons.add(Reason.of(Reason.Code.SCALE_TO_ZERO));
            story.add("KEDA: inactive for the " + Figures.fmt(p.cooldownSeconds()) + " s cooldown → 0");
        } else {
            double ratio = length / (current * listLength);
            int rec;
            if (Math.abs(ratio - 1) <= TOLERANCE) {
                rec = current;
                story.add("KEDA: " + Figures.fmt(length) + " / (" + current + " × "
                        + Figures.fmt(listLength) + ") within 10 % tolerance");
            } else {
                rec = (int) Math.min(Integer.MAX_VALUE, Math.ceil(length / listLength - 1e-9));
                story.add("KEDA: ceil(" + Figures.fmt(length) + " / " + Figures.fmt(listLength)
                        + ") = " + rec);
            }
            terms.add(new Term("kedaRecommendation", rec, "ceil(length / listLength)"));
            desired = rec;
        }
        // From zero KEDA's executor sets minReplicaCount itself, without the HPA's rate policies; from 0 to 1 and
        // to zero it moves as Behaviour's zero transitions do; otherwise the HPA normalises within min..max.
        Behaviour.Result n = current == 0 && p.minReplicas() > 0
                ? Behaviour.outOfRange(kedaMin, p.maxReplicas(), current, recs, true)
                : zero ? Behaviour.normalise(p.scaleUp(), p.scaleDown(), current, desired, recs, events,
                        now, true)
                : Behaviour.normaliseWithin(p.scaleUp(), p.scaleDown(), min, p.maxReplicas(), current, desired,
                        recs, events, now);
        return Baselines.normalised(className, now, obs, n, length, terms, reasons, story, inputs,
                mem.next(current, now, lastActive, n.recommendations(), events));
    }

    private static Reading read(Observation obs, SignalName name, Policy p, Instant now, List<InputStatus> inputs) {
        Signal s = obs.signal(name);
        if (!s.present()) {
            inputs.add(new InputStatus(name, InputStatus.Status.MISSING, Double.NaN, null, s.missingReason()));
            return new Reading(false, 0, s.missingReason());
        }
        double age = seconds(s.sampledAt(), now);
        if (age > 2 * p.pollIntervalSeconds()) {
            inputs.add(new InputStatus(name, InputStatus.Status.STALE, s.value(), s.sampledAt(), "stale"));
            return new Reading(false, 0, "stale");
        }
        inputs.add(new InputStatus(name, InputStatus.Status.OK, s.value(), s.sampledAt(), null));
        return new Reading(true, Math.max(0, s.value()), null);
    }

    private record Reading(boolean ok, double value, String why) {
        static final Reading ZERO = new Reading(true, 0, null);
    }

    static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }
}
