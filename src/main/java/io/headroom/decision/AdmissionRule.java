package io.headroom.decision;

/**
 * The admission of one class on one tick (design.md §2b): a pure function of the tick's {@link Decision},
 * the class's {@link Policy} and its {@link AdmissionPolicy}. In order:
 * <ol>
 *   <li>a stalled queue is CLOSED (new work would wait behind a stuck head);</li>
 *   <li>missing telemetry is answered by the class's choice: CLOSED, a conservative THROTTLE at what the
 *       ready replicas serve at the target utilisation, or CLOSED naming the class to degrade to;</li>
 *   <li>OPEN while the ready capacity drains the backlog within the objective (the age objective, else the
 *       drain target) at the arrivals: the larger of the arrival rate and the queue's own pace (its waiting jobs
 *       over the oldest's age, once the oldest has waited a poll: it moves first when a burst or a flood of
 *       retries comes; {@link #queuePace}), but not while that pace exceeds the arrival rate and the replicas
 *       the decision waits for start later than the objective (ADR 0027, amendment: admitted work within its
 *       objective throughout a burst); or while the capacity decided (after ceilings and the governor) is ready within the
 *       start-up and then drains the backlog that grew meanwhile within the objective;</li>
 *   <li>otherwise THROTTLE at what the ready replicas serve after draining the backlog within the
 *       objective, {@code R = (ready × k − Q / objective) / S} jobs/s, or CLOSED when that is nothing; the
 *       reason names the capacity it waits for, or the ceiling, governor or maximum that holds it.</li>
 * </ol>
 */
public final class AdmissionRule {
    private AdmissionRule() {
    }

    public static AdmissionVerdict decide(Decision d, Policy p, AdmissionPolicy a) {
        double s = serviceSeconds(d, p);
        int ready = d.readyReplicas();
        int k = p.slotsPerReplica();
        if (d.stalled()) {
            return closed("queue stalled: new work would wait behind a stuck head", 0, Double.NaN);
        }
        double queued = value(d, Signals.QUEUE_LENGTH);
        if (!d.telemetryMissing() && queued == 0 && orZero(value(d, Signals.ARRIVAL_RATE)) == 0 && ready > 0
                && !Double.isFinite(s)) {
            // No work and so no service time yet (as the decision, which needs S only for work): closing would
            // stay so for ever with producers that obey, since no job is let in to be measured.
            return AdmissionVerdict.open("nothing waits and the " + ready + " ready replica" + plural(ready)
                    + " take new work (no service time measured yet)");
        }
        boolean missing = d.telemetryMissing() || !Double.isFinite(queued)
                || !Double.isFinite(live(d, Signals.MEAN_SERVICE)) && !Double.isFinite(s);
        if (missing) {
            return onMissing(a, s, ready, k, p.targetUtilization());
        }
        double windowRate = Math.max(0, orZero(value(d, Signals.ARRIVAL_RATE)));
        double pace = queuePace(queued, value(d, Signals.OLDEST_AGE), p.pollIntervalSeconds());
        double lambda = Math.max(windowRate, orZero(pace));
        // In words when it is what moved the verdict: "the 2127 waiting jobs came in over the last 26.8 s (79.36/s);
        // the arrival rate says 37.3/s".
        String paceWords = pace > windowRate ? "the " + Figures.fmt(Math.floor(queued)) + " waiting jobs came in over"
                + " the last " + Figures.fmtDuration(value(d, Signals.OLDEST_AGE)) + " (" + Figures.fmt(hundredths(pace))
                + "/s); the arrival rate says " + Figures.fmt(windowRate) + "/s" : "";
        double q = Math.max(0, value(d, Signals.QUEUE_LENGTH)) * s; // queued service seconds
        double objective = p.maxAgeSeconds() != null ? p.maxAgeSeconds() : p.drainTargetSeconds();
        double startup = Double.isFinite(d.memory() == null ? Double.NaN : d.memory().startupSeconds())
                ? d.memory().startupSeconds() : p.startupSeconds();
        int desired = d.desiredReplicas();
        double demand = lambda * s;
        double spareReady = ready * (double) k - demand;
        boolean coming = desired > ready;
        // The queue takes in faster than the arrival window says (a burst, or refused jobs retrying) while the
        // replicas that would serve it start later than the objective: the window counts only what admission let
        // in, so opening on it would let a poll's worth of the held work in that nothing ready in time can serve.
        // Stay throttled to what the ready replicas serve until the new ones are ready.
        boolean late = coming && startup > objective && pace > windowRate;
        boolean readyDrains = spareReady >= 0 && (q <= 0 || spareReady > 0 && q / spareReady <= objective);
        late = late && readyDrains; // said only where it is what holds admission back
        if (!late && readyDrains) {
            return AdmissionVerdict.open(q <= 0 ? "the " + ready + " ready replica" + plural(ready)
                    + " serve the arrivals" : "the ready capacity drains the backlog in "
                    + Figures.fmtDuration(q / spareReady));
        }
        if (coming) {
            double grown = q + Math.max(0, -spareReady) * startup;
            double spareTarget = desired * (double) k - demand;
            if (spareTarget > 0 && startup + grown / spareTarget <= objective) {
                return AdmissionVerdict.open(desired + " replicas ready in ~" + Figures.fmtDuration(startup)
                        + " drain the backlog within the objective (" + Figures.fmt(objective) + " s)");
            }
        }
        double rate = (ready * (double) k - q / objective) / s;
        String holds = holds(d, p);
        if (rate < 0.01) {
            String why = "the backlog alone needs more than the " + ready + " ready replica" + plural(ready)
                    + " give within the objective (" + Figures.fmt(objective) + " s)";
            return coming ? closed(why + ": closed until " + desired + " replicas are ready (~"
                    + Figures.fmtDuration(startup) + ")" + (paceWords.isEmpty() ? "" : "; " + paceWords), desired,
                    startup)
                    : closed(why + (holds.isEmpty() ? "" : "; " + holds), 0, Double.NaN);
        }
        String formula = "(" + ready + " × " + k + " − " + Figures.fmt(q) + " s / " + Figures.fmt(objective) + " s) / "
                + Figures.fmt(s) + " s = " + Figures.fmt(hundredths(rate)) + "/s";
        rate = hundredths(rate);
        String why = coming ? "throttled to " + Figures.fmt(rate) + "/s while " + (desired - ready) + " more replica"
                + plural(desired - ready) + " start (~" + Figures.fmtDuration(startup) + ")"
                + (late ? ", not open as " + paceWords + ";" : ":") + " what the " + ready
                + " ready serve within the objective, " + formula
                : "arrivals (" + Figures.fmt(lambda) + "/s"
                + (paceWords.isEmpty() ? "" : ": " + paceWords) + ") exceed what " + ready + " replica" + plural(ready)
                + " serve within the objective, " + formula + (holds.isEmpty() ? "" : "; " + holds);
        return new AdmissionVerdict(AdmissionVerdict.State.THROTTLE, rate, why, null, coming ? desired : 0,
                coming ? startup : Double.NaN);
    }

    private static AdmissionVerdict onMissing(AdmissionPolicy a, double s, int ready, int k, double u) {
        return switch (a.onMissingTelemetry()) {
            case CLOSE -> closed("telemetry missing: closed (onMissingTelemetry: close)", 0, Double.NaN);
            case DEGRADE -> new AdmissionVerdict(AdmissionVerdict.State.CLOSED, 0,
                    "telemetry missing: new work goes to " + a.degradeTo() + " (onMissingTelemetry: "
                            + a.onMissingText() + ")", a.degradeTo(), 0, Double.NaN);
            case CONSERVATIVE -> {
                double rate = Double.isFinite(s) && s > 0 ? hundredths(ready * (double) k * u / s) : 0;
                yield rate >= 0.01 ? new AdmissionVerdict(AdmissionVerdict.State.THROTTLE, rate,
                        "telemetry missing: throttled to what the " + ready + " ready replica" + plural(ready)
                                + " serve at " + Figures.fmt(u * 100) + "% (service time " + Figures.fmt(s) + " s)",
                        null, 0, Double.NaN)
                        : closed("telemetry missing" + (ready == 0 ? " and no replica is ready"
                        : " and no service time is known") + ": closed, a conservative rate cannot be set", 0,
                        Double.NaN);
            }
        };
    }

    /**
     * The pace at which the waiting jobs came in, jobs/s: every job waiting arrived after the oldest did, so
     * {@code queued / oldestAge} is at least what was let in over the oldest's age. It sees a burst (or a flood of
     * retries when admission opens) as the queue grows, before the arrival-rate window, which averages over its
     * whole length, has moved. Counted only when the oldest has waited at least one poll (a shorter span is a
     * few seconds' sample); NaN otherwise.
     */
    static double queuePace(double queued, double oldestAge, double pollSeconds) {
        return queued > 0 && Double.isFinite(oldestAge) && oldestAge >= pollSeconds ? queued / oldestAge : Double.NaN;
    }

    /** What holds the decided capacity where it is, in words (empty when nothing does). */
    private static String holds(Decision d, Policy p) {
        if (d.governorLimit() != null && d.desiredReplicas() >= d.governorLimit()) {
            return "the governor holds " + d.governorLimit() + " replicas (the dependency is struggling)";
        }
        if (d.bindingCeiling() != null) {
            return "the ceiling " + d.bindingCeiling() + " caps it at " + d.desiredReplicas() + " replicas";
        }
        if (d.desiredReplicas() >= p.maxReplicas()) {
            return "at maxReplicas (" + p.maxReplicas() + ")";
        }
        return "";
    }

    /** The mean service time: live, else the last known, else the policy's prior; NaN with none. */
    static double serviceSeconds(Decision d, Policy p) {
        double live = live(d, Signals.MEAN_SERVICE);
        if (Double.isFinite(live) && live > 0) {
            return live;
        }
        double last = d.memory() == null ? Double.NaN : d.memory().lastMeanService();
        if (Double.isFinite(last) && last > 0) {
            return last;
        }
        return p.expectedServiceSeconds() != null ? p.expectedServiceSeconds() : Double.NaN;
    }

    private static AdmissionVerdict closed(String why, int waitsFor, double readyIn) {
        return new AdmissionVerdict(AdmissionVerdict.State.CLOSED, 0, why, null, waitsFor, readyIn);
    }

    /** A usable or partial input's value; NaN otherwise. */
    private static double value(Decision d, SignalName name) {
        InputStatus in = d.input(name);
        return in != null && (in.status() == InputStatus.Status.OK || in.status() == InputStatus.Status.PARTIAL)
                ? in.value() : Double.NaN;
    }

    private static double live(Decision d, SignalName name) {
        InputStatus in = d.input(name);
        return in != null && in.usable() ? in.value() : Double.NaN;
    }

    private static double orZero(double v) {
        return Double.isFinite(v) ? v : 0;
    }

    /** A rate rounded down to hundredths of a job per second (never up: a throttle errs on the safe side). */
    private static double hundredths(double rate) {
        return Math.floor(rate * 100 + 1e-9) / 100;
    }

    private static String plural(int n) {
        return n == 1 ? "" : "s";
    }
}
