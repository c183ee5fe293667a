package io.headroom.decision;

import io.headroom.decision.InputStatus.Status;
import io.headroom.decision.Reason.Code;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Steps 4 and 5 of design.md §3: the estimate and the age term combined, clamped to min/max, the
 * transitions to and from zero, then every ceiling (the binding one named). The governor (step 6)
 * and the behaviour normalisation (step 8) come after, in their own stages.
 */
final class Bounds {

    private Bounds() {
    }

    /**
     * @param recommended the estimate after min/max, before ceilings
     * @param toZero      idle for the whole cooldown: scale to zero
     * @param fromZero    work waits and nothing runs: start at once
     */
    record Result(int desired, int recommended, boolean toZero, boolean fromZero, List<CeilingResult> ceilings,
                  String binding) {
    }

    static Result apply(Policy p, Inputs in, Observation obs, SlotEstimate.Result e, Instant lastActive,
                        Instant now, Trail t) {
        int current = obs.currentReplicas();
        int desired = Math.max(e.slotReplicas() == null ? 0 : e.slotReplicas(),
                e.ageApplied() ? e.ageReplicas() : 0);
        if (e.slotReplicas() == null && !e.ageApplied()) {
            desired = current; // nothing to estimate with (the engine holds before it gets here)
        }
        if (desired < p.minReplicas()) {
            desired = p.minReplicas();
            t.reason(Code.MIN_REPLICAS);
            t.say("min " + p.minReplicas());
        } else if (desired > p.maxReplicas()) {
            desired = p.maxReplicas();
            t.reason(Code.MAX_REPLICAS);
            t.say("max " + p.maxReplicas());
        }
        int floor = floor(p, now);
        if (floor > desired) {
            desired = floor;
            ScheduledFloor f = activeFloor(p, now);
            t.reason(Code.SCHEDULED_FLOOR, f.dayRange() + " " + f.from() + "–" + f.to());
            t.term("scheduledFloor", floor, f.describe() + " (" + p.timeZone() + ")");
            t.say("scheduled floor " + f.describe());
        }
        ForecastFloor ff = obs.forecastFloor();
        if (ff != null && ff.activeAt(now)) {
            int held = Math.min(ff.replicas(), p.maxReplicas());
            if (held > desired) {
                desired = held;
                t.reason(Code.FORECAST_FLOOR, "until " + ff.until());
                t.term("forecastFloor", held, ff.why());
                t.say(!t.explains() ? "" : "forecast floor " + held + " until " + clock(ff.until(), p)
                        + (ff.why().isEmpty() ? "" : ": " + ff.why()));
            }
        }
        int recommended = desired;

        double l = in.value(Signals.QUEUE_LENGTH);
        double lambda = in.value(Signals.ARRIVAL_RATE);
        boolean workWaits = (Double.isFinite(l) && l > 0) || (Double.isFinite(lambda) && lambda > 0);
        // Idle only on complete answers: a partial zero may be a shard that did not answer.
        boolean idle = in.complete(Signals.QUEUE_LENGTH) && in.complete(Signals.IN_FLIGHT) && l == 0
                && in.value(Signals.IN_FLIGHT) == 0;
        boolean toZero = false;
        if (desired == 0) {
            double idleFor = Behaviour.seconds(lastActive, now);
            if (workWaits || !idle) {
                desired = 1;
            } else if (current > 0 && idleFor < p.cooldownSeconds()) {
                desired = 1;
                t.reason(Code.COOLDOWN);
                t.say("idle " + Figures.fmt(idleFor) + " s; scale to zero after " + Figures.fmt(p.cooldownSeconds())
                        + " s cooldown (" + Figures.fmt(p.cooldownSeconds() - idleFor) + " s more)");
            } else if (current > 0) {
                toZero = true;
                t.reason(Code.SCALE_TO_ZERO);
                t.say("idle for the " + Figures.fmt(p.cooldownSeconds()) + " s cooldown → scale to zero");
            }
        }
        boolean fromZero = current == 0 && workWaits;
        if (fromZero) {
            desired = Math.max(1, desired);
            t.reason(Code.SCALE_FROM_ZERO);
            t.say("work waits with no replica → start " + desired + " at once");
        }

        // Step 5: ceilings, after the estimate; the lowest binds.
        List<CeilingResult> ceilings = new ArrayList<>();
        String binding = null;
        int capped = desired;
        for (CeilingSpec c : p.ceilings()) {
            CeilingResult r = evaluate(c, in, obs, p, now, t);
            ceilings.add(r);
            if (r.limit() < capped) {
                capped = r.limit();
                binding = c.name();
            }
        }
        if (binding != null) {
            for (int i = 0; i < ceilings.size(); i++) {
                CeilingResult r = ceilings.get(i);
                if (r.name().equals(binding)) {
                    ceilings.set(i, new CeilingResult(r.name(), r.limit(), r.budget(), r.perReplica(),
                            r.fromFallback(), true, r.note()));
                }
            }
            t.reason(Code.CEILING, binding);
            if (capped < p.minReplicas()) {
                t.reason(Code.CEILING_BELOW_MIN, binding);
            }
            t.term("ceiling", capped, !t.explains() ? "" : "min(" + desired + ", " + binding + " " + capped + ")");
        }
        for (CeilingResult r : t.explains() ? ceilings : List.<CeilingResult>of()) {
            t.say("ceiling " + r.name() + " " + r.limit() + (r.binding() ? " binding" : " not binding")
                    + (r.fromFallback() ? " (conservative: " + r.note() + ")" : ""));
        }
        return new Result(capped, recommended, toZero, fromZero, ceilings, binding);
    }

    /** A time as the operator reads it: its time of day in the policy's zone ("09:15"), seconds when not whole. */
    private static String clock(Instant t, Policy p) {
        return ForecastWindow.clock(t, p.timeZone()) + (java.time.ZoneOffset.UTC.equals(p.timeZone()) ? " UTC" : "");
    }

    /** The highest scheduled floor active at {@code now}, within maxReplicas; 0 when none is. */
    static int floor(Policy p, Instant now) {
        ScheduledFloor f = activeFloor(p, now);
        return f == null ? 0 : Math.min(f.replicas(), p.maxReplicas());
    }

    private static ScheduledFloor activeFloor(Policy p, Instant now) {
        if (p.scheduledFloors().isEmpty()) {
            return null;
        }
        java.time.ZonedDateTime local = now.atZone(p.timeZone());
        ScheduledFloor best = null;
        for (ScheduledFloor f : p.scheduledFloors()) {
            if (f.activeAt(local) && (best == null || f.replicas() > best.replicas())) {
                best = f;
            }
        }
        return best;
    }

    /** Every ceiling as it stands, for a decision that holds (none binds a hold). */
    static List<CeilingResult> evaluateAll(Policy p, Inputs in, Observation obs, Instant now, Trail t) {
        List<CeilingResult> out = new ArrayList<>();
        for (CeilingSpec c : p.ceilings()) {
            out.add(evaluate(c, in, obs, p, now, t));
        }
        return out;
    }

    static CeilingResult evaluate(CeilingSpec c, Inputs in, Observation obs, Policy p, Instant now, Trail t) {
        int current = obs.currentReplicas();
        double budget = c.budget().constant();
        double per = c.perReplica().constant();
        String problem = null;
        if (c.budget().signal() != null) {
            InputStatus s = named(c.budget().signal(), in, obs, p, now);
            budget = s.value();
            if (!s.usable()) {
                problem = c.budget().signal() + " " + s.label() + " (" + s.reason() + ")";
            }
        }
        if (problem == null && c.perReplica().signal() != null) {
            InputStatus s = named(c.perReplica().signal(), in, obs, p, now);
            per = s.value();
            if (!s.usable()) {
                problem = c.perReplica().signal() + " " + s.label() + " (" + s.reason() + ")";
            } else if (!(per > 0)) {
                problem = c.perReplica().signal() + " is " + Figures.fmt(per) + ", not a positive per-replica amount";
            }
        }
        if (problem == null && !(budget >= 0)) {
            problem = "budget is " + Figures.fmt(budget) + ", not a budget";
        }
        if (problem != null) {
            t.reason(Code.CEILING_FALLBACK, c.name());
            if (c.conservativeReplicas() != null) {
                return new CeilingResult(c.name(), c.conservativeReplicas(), budget, per, true, false, problem);
            }
            return new CeilingResult(c.name(), current, budget, per, true, false,
                    problem + "; no conservative value, holding current " + current);
        }
        double ratio = Math.floor(budget / per + SlotEstimate.EPS);
        int limit = ratio >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) Math.max(0, ratio);
        return new CeilingResult(c.name(), limit, budget, per, false, false,
                Figures.fmt(budget) + " / " + Figures.fmt(per) + " per replica");
    }

    /**
     * A ceiling's signal: a standard input as judged, or another named signal of the observation. Only
     * an OK one is used; a partial one (a budget summed over the shards that answered) is as good as
     * missing here, so a partial answer never lowers a ceiling.
     */
    private static InputStatus named(SignalName name, Inputs in, Observation obs, Policy p, Instant now) {
        if (Signals.STANDARD.contains(name)) {
            return in.get(name);
        }
        Signal s = obs.signal(name);
        if (!s.present()) {
            return new InputStatus(name, s.notCollected() ? Status.NOT_COLLECTED : Status.MISSING, Double.NaN, null,
                    s.missingReason(), s.annotations());
        }
        double age = Behaviour.seconds(s.sampledAt(), now);
        if (age > 2 * p.pollIntervalSeconds()) {
            return new InputStatus(name, Status.STALE, s.value(), s.sampledAt(),
                    "sample " + Figures.fmt(age) + " s old", s.annotations());
        }
        if (s.partial()) {
            return new InputStatus(name, Status.PARTIAL, s.value(), s.sampledAt(), s.annotations().partialReason(),
                    s.annotations());
        }
        return new InputStatus(name, Status.OK, s.value(), s.sampledAt(), null, s.annotations());
    }
}
