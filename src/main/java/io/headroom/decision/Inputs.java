package io.headroom.decision;

import io.headroom.decision.InputStatus.Status;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The first stage: each signal the tick saw, judged usable, stale, missing or absurd. A value no
 * real queue can have (a billion jobs, a negative rate, a service time of years) is bad data, never
 * believed: it counts as missing, so replicas are held rather than scaled on it. A fresh value from an
 * answer the source warned may be incomplete is partial: {@link #usable} (the estimate may scale up
 * on it) but not {@link #complete} (nothing lowers replicas, judges idleness or a stall on it).
 */
final class Inputs {

    /** The largest believable value of each standard signal; beyond it the sample is bad data. */
    static final Map<SignalName, Double> LIMITS = Map.of(
            Signals.QUEUE_LENGTH, 1e9,
            Signals.OLDEST_AGE, 3.2e8,          // ten years
            Signals.ARRIVAL_RATE, 1e7,
            Signals.MEAN_SERVICE, 1e6,          // eleven days a job
            Signals.QUEUED_SERVICE, 1e12,
            Signals.IN_FLIGHT, 1e9,
            Signals.COMPLETION_RATE, 1e7,
            Signals.POD_MEMORY, 1e9);

    private final Observation obs;
    private final Policy p;
    private final Instant now;
    /** The standard signals judged, in {@link Signals#STANDARD}'s order (an array: a decision reads them tens of times). */
    private final InputStatus[] resolved = new InputStatus[STANDARD.length];

    private static final SignalName[] STANDARD = Signals.STANDARD.toArray(new SignalName[0]);
    /** A standard signal the class does not collect is judged the same every tick: one status each, shared. */
    private static final InputStatus[] NOT_COLLECTED = new InputStatus[STANDARD.length];
    /** {@link #LIMITS} by standard signal, null for none: read without a map lookup nine times a decision. */
    private static final Double[] STANDARD_LIMITS = new Double[STANDARD.length];

    static {
        for (int i = 0; i < STANDARD.length; i++) {
            NOT_COLLECTED[i] = new InputStatus(STANDARD[i], Status.NOT_COLLECTED, Double.NaN, null,
                    Signal.NOT_COLLECTED.missingReason());
            STANDARD_LIMITS[i] = LIMITS.get(STANDARD[i]);
        }
    }

    Inputs(Observation obs, Policy p, Instant now) {
        this.obs = obs;
        this.p = p;
        this.now = now;
        for (int i = 0; i < STANDARD.length; i++) {
            Signal s = obs.signal(STANDARD[i]);
            resolved[i] = s.notCollected() ? NOT_COLLECTED[i] : judge(STANDARD[i], s, STANDARD_LIMITS[i]);
        }
    }

    /** Every standard signal's status, in {@link Signals#STANDARD}'s order. */
    List<InputStatus> all() {
        return List.of(resolved);
    }

    InputStatus get(SignalName name) {
        // The stages ask by the constants of Signals: found by identity without comparing names (tens of times a tick).
        for (int i = 0; i < STANDARD.length; i++) {
            if (STANDARD[i] == name) {
                return resolved[i];
            }
        }
        for (int i = 0; i < STANDARD.length; i++) {
            if (STANDARD[i].equals(name)) {
                return resolved[i];
            }
        }
        return judge(name, obs.signal(name), LIMITS.get(name));
    }

    /** Fresh and believable, complete or {@link Status#PARTIAL}: the estimate may use its value. */
    boolean usable(SignalName name) {
        Status s = get(name).status();
        return s == Status.OK || s == Status.PARTIAL;
    }

    /** Fresh, believable and from a complete answer. */
    boolean complete(SignalName name) {
        return get(name).usable();
    }

    /** The value when usable (partial included), else NaN. */
    double value(SignalName name) {
        return usable(name) ? get(name).value() : Double.NaN;
    }

    /** The standard inputs that came from partial answers, in {@link Signals#STANDARD}'s order. */
    List<InputStatus> partial() {
        List<InputStatus> out = new java.util.ArrayList<>(0);
        for (InputStatus in : resolved) {
            if (in.status() == Status.PARTIAL) {
                out.add(in);
            }
        }
        return out;
    }

    /** @param max the largest believable value of the signal, null for no limit */
    private InputStatus judge(SignalName name, Signal s, Double max) {
        Annotations a = s.annotations();
        if (!s.present()) {
            return new InputStatus(name, s.notCollected() ? Status.NOT_COLLECTED : Status.MISSING, Double.NaN, null,
                    s.missingReason(), a);
        }
        double age = Behaviour.seconds(s.sampledAt(), now);
        double limit = 2 * p.pollIntervalSeconds();
        if (age > limit) {
            return new InputStatus(name, Status.STALE, s.value(), s.sampledAt(),
                    "sample " + Figures.fmt(age) + " s old (limit " + Figures.fmt(limit) + " s)", a);
        }
        if (s.value() < 0 && !name.equals(Signals.DEPENDENCY)) {
            return new InputStatus(name, Status.MISSING, s.value(), s.sampledAt(),
                    "negative value " + Figures.fmt(s.value()), a);
        }
        if (max != null && s.value() > max) {
            return new InputStatus(name, Status.MISSING, s.value(), s.sampledAt(),
                    "bad data: " + String.format(java.util.Locale.ROOT, "%.3g", s.value())
                            + " is beyond any real " + name + " (at most " + String.format(java.util.Locale.ROOT, "%.0g", max) + ")", a);
        }
        if (s.partial()) {
            return new InputStatus(name, Status.PARTIAL, s.value(), s.sampledAt(), a.partialReason(), a);
        }
        return new InputStatus(name, Status.OK, s.value(), s.sampledAt(), null, a);
    }
}
