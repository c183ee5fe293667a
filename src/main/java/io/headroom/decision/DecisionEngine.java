package io.headroom.decision;

import io.headroom.decision.ClassMemory.Stamped;
import io.headroom.decision.Reason.Code;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The scaling decision of design.md §3: plain values in, a {@link Decision} out, time passed in.
 * It never touches the network, the UI thread or the wall clock (like the HPA's
 * {@code replica_calculator.go}, apart from the loop that reads and writes the world).
 *
 * <p>It runs in stages that each read as the brief's steps and are tested apart:
 * {@link Inputs} (usable, stale, missing or bad data), {@link SlotEstimate} (steps 1–3: slots,
 * replicas, the age backstop, stalls), {@link Bounds} (steps 4–5: min/max, zero, ceilings),
 * {@link Governor} (step 6), the fallback hold (step 7) and {@link Behaviour} (step 8); the
 * explanation is the story the stages wrote, in order.
 */
public final class DecisionEngine {

    private DecisionEngine() {
    }

    /** Decides one tick for one class. */
    public static Decision decide(String className, Policy policy, Observation obs, ClassMemory memory,
                                  Instant now) {
        return decide(className, policy, obs, memory, now, true);
    }

    /**
     * The same decision as {@link #decide} without its words, for a replay that reads only numbers
     * (the what-if's runs: 11,000 decisions for a day, where the words cost about half of each and
     * nobody reads them). Every number, term value, reason, input, ceiling, the admission's state and
     * figures and the next memory are {@link #decide}'s; the explanation, the terms' formulas and the
     * admission's message are empty ({@code DecideNumbersTest} holds both paths equal).
     */
    public static Decision decideNumbers(String className, Policy policy, Observation obs, ClassMemory memory,
                                         Instant now) {
        return decide(className, policy, obs, memory, now, false);
    }

    private static Decision decide(String className, Policy policy, Observation obs, ClassMemory memory,
                                   Instant now, boolean explain) {
        ClassMemory mem = memory == null ? ClassMemory.initial() : memory;
        Trail t = new Trail(explain);
        Inputs in = new Inputs(obs, policy, now);
        int current = obs.currentReplicas();
        List<Stamped> events = Behaviour.observedEvents(policy.scaleUp(), policy.scaleDown(), mem, obs, now);

        double l = in.value(Signals.QUEUE_LENGTH);
        boolean idle = in.complete(Signals.QUEUE_LENGTH) && in.complete(Signals.IN_FLIGHT) && l == 0
                && in.value(Signals.IN_FLIGHT) == 0;
        Instant lastActive = mem.lastActiveAt() == null || !idle ? now : mem.lastActiveAt();

        List<InputStatus> partialAnswers = in.partial();
        for (InputStatus s : partialAnswers) {
            t.reason(Code.PARTIAL_DATA, s.name());
            t.say(!t.explains() ? "" : s.name() + " partial (" + s.reason() + "): may scale up on it, never down");
        }
        SlotEstimate.Result e = SlotEstimate.estimate(policy, in, obs, mem, now, t);
        List<SignalName> missing = missingRequired(policy, in, e);
        boolean partial = !missing.isEmpty();
        if (partial) {
            // What is known can only add: the backlog without λ, the age term without S, one replica for
            // work waiting at zero. Above current, act on that lower bound; never below it.
            int lowerBound = lowerBound(policy, in, e, current);
            boolean knowable = in.usable(Signals.QUEUE_LENGTH)
                    && (policy.maxAgeSeconds() == null || in.usable(Signals.OLDEST_AGE))
                    && List.of(Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE).containsAll(missing);
            if (!knowable || lowerBound <= current) {
                return hold(className, policy, obs, mem, in, e, missing, lastActive, events, now, t);
            }
            for (SignalName m : missing) {
                InputStatus s = in.get(m);
                t.reason(Code.TELEMETRY_MISSING, m);
                t.say(!t.explains() ? "" : m + " " + s.label() + " (" + s.reason() + "): acting on what is known,"
                        + " at least " + lowerBound);
            }
        }

        Bounds.Result b = Bounds.apply(policy, in, obs, e, lastActive, now, t);
        int desired = partial ? Math.max(current, b.desired()) : b.desired();
        if (!partialAnswers.isEmpty()) {
            desired = Math.max(desired, partialFloor(policy, current, b, t));
        }
        Governor.Outcome g = Governor.step(policy.dependencyGuard(), in, current, obs.readyReplicas(), desired,
                mem.governor(), now, b.fromZero(), t);
        if (g.limit() >= 0 && desired > g.limit()) {
            desired = g.limit();
        }
        // A stuck head does not move with more consumers, and a dead dependency only gets more load.
        if (e.stalled() && desired > current && !b.fromZero()) {
            desired = current;
            t.say("no scale-up while stalled");
        }

        // A count outside min..max goes straight to the bound, as the HPA moves it (decision 0018); idle for the
        // cooldown, it goes to zero instead, as KEDA's executor does.
        Behaviour.Result n = b.toZero() ? null : Behaviour.outOfRange(policy.minReplicas(), policy.maxReplicas(),
                current, mem.recommendations(), t.explains());
        boolean outside = n != null;
        if (!outside) {
            int sustained = sustained(policy, e, b, g, desired, partial || !partialAnswers.isEmpty(), now);
            n = Behaviour.normalise(policy.scaleUp(), policy.scaleDown(), current, desired, sustained,
                    mem.recommendations(), events, now, b.toZero() || b.fromZero(), t.explains());
            if (!partial && partialAnswers.isEmpty() && !b.toZero() && !b.fromZero()) {
                n = ForecastWindow.relax(policy, in, obs, current, desired, sustained, n, mem.recommendations(), events,
                        mem.inServiceLow(), now, t.explains());
            }
        }
        t.addAll(n);
        int result = outside ? underCeilings(n.replicas(), b.ceilings(), t) : n.replicas();
        if (g.limit() >= 0 && result > g.limit()) {
            // Backing off breaks the amplification loop now, not after the scale-down window.
            result = Math.max(g.limit(), 0);
            t.say(!t.explains() ? "" : "the governor's " + g.limit() + " overrides the scale-down window");
        }
        t.term("desired", result, outside ? "back within min..max" : "after the governor, stabilisation and rate policies");

        startupShare(in, obs, now, t);
        Admission admission = admission(policy, obs, e, result, t.explains());
        // A complete decision's target above the count is pursued through a later outage (§3.7); a partial one keeps
        // the last complete decision's.
        Integer upTarget = partial || !partialAnswers.isEmpty() ? mem.upTarget()
                : !outside && desired > current ? Integer.valueOf(desired) : null;
        ClassMemory next = remember(mem, obs, in, e, now, 0, lastActive, g.next(), n.recommendations(), events,
                upTarget);
        return new Decision(className, now, current, obs.readyReplicas(), result, e.incoming(), e.backlog(),
                e.slots(), e.slotReplicas(), e.ageReplicas(), b.recommended(), b.ceilings(), b.binding(),
                e.stalled(), partial, g.limit() >= 0 ? g.limit() : null, in.all(),
                t.terms, t.reasons, admission, t.explains() ? explanation(t.story, current, result) : "", next,
                e.stuckPods());
    }

    /**
     * What the scale-down window holds of this recommendation: the replicas the incoming work needs
     * (within min/max, ceilings and the governor), not the share that drains a backlog or answers an
     * age breach. That share is released as soon as the backlog is gone, not a window later; while
     * the backlog is there, the recommendation itself keeps it.
     */
    private static int sustained(Policy p, SlotEstimate.Result e, Bounds.Result b, Governor.Outcome g, int desired,
                                 boolean partial, Instant now) {
        if (partial || e.slots() == null || !Double.isFinite(e.incoming())) {
            return desired;
        }
        int slots = SlotEstimate.ceil(e.incoming() / p.targetUtilization());
        long replicas = ((long) slots + p.slotsPerReplica() - 1) / p.slotsPerReplica();
        // The reserve is warm capacity for the arrivals to come: the window holds it like the incoming share.
        replicas = Math.max(replicas, e.gap().reserve());
        int r = (int) Math.max(Math.max(p.minReplicas(), Bounds.floor(p, now)), Math.min(p.maxReplicas(), replicas));
        for (CeilingResult c : b.ceilings()) {
            r = Math.min(r, c.limit());
        }
        if (g.limit() >= 0) {
            r = Math.min(r, g.limit());
        }
        return Math.min(desired, r);
    }

    /** The move back within min..max stops at the lowest ceiling below it: ceilings protect, as they do below min. */
    private static int underCeilings(int replicas, List<CeilingResult> ceilings, Trail t) {
        CeilingResult lowest = null;
        for (CeilingResult c : ceilings) {
            if (c.limit() < replicas && (lowest == null || c.limit() < lowest.limit())) {
                lowest = c;
            }
        }
        if (lowest == null) {
            return replicas;
        }
        if (!t.reasons.contains(Reason.of(Code.CEILING, lowest.name()))) {
            t.reason(Code.CEILING, lowest.name());
        }
        t.say(!t.explains() ? "" : "ceiling " + lowest.name() + " holds it at " + lowest.limit());
        return lowest.limit();
    }

    /**
     * Warm capacity's price, shown (design.md §5): while pods are starting, the part of the oldest job's
     * age spent since the oldest of them was created, and whether they started from zero (no ready
     * replica). A term, {@code waitingOnStartup}, in seconds; nothing when no pod is starting or no job waits.
     */
    private static void startupShare(Inputs in, Observation obs, Instant now, Trail t) {
        double age = in.value(Signals.OLDEST_AGE);
        if (!(age > 0) || obs.startingSince() == null || obs.startingSince().isAfter(now)) {
            return;
        }
        double waiting = Math.min(age, Behaviour.seconds(obs.startingSince(), now));
        int starting = Math.max(1, obs.currentReplicas() - obs.readyReplicas());
        t.term("waitingOnStartup", waiting, !t.explains() ? "" : Figures.fmt(waiting) + " s of the oldest age " + Figures.fmt(age) + " s ("
                + Math.round(100 * waiting / age) + " %) is pods starting" + (obs.readyReplicas() == 0
                ? " from zero (no replica ready)" : " (" + starting + " not ready yet)"));
    }

    /**
     * The fewest replicas a decision on partial answers may ask for: the current count, unless the
     * policy's maximum or a ceiling is lower (those are configuration, or a ceiling's conservative
     * value, never the partial numbers: {@link Bounds} does not use a partial ceiling input). What the
     * estimate says below it is not believed: the missing part of the answer may be the busy part.
     */
    private static int partialFloor(Policy p, int current, Bounds.Result b, Trail t) {
        int floor = Math.min(current, p.maxReplicas());
        for (CeilingResult c : b.ceilings()) {
            floor = Math.min(floor, c.limit());
        }
        if (b.desired() < floor) {
            t.term("partialFloor", floor, !t.explains() ? "" : "no scale-down on a partial answer: min(current "
                    + current + ", max " + p.maxReplicas() + ", ceilings)");
            t.say("no scale-down on a partial answer → at least " + floor);
        }
        return floor;
    }

    /** Required inputs that are unusable: L and λ, the age with an objective, S when there is work to size. */
    private static List<SignalName> missingRequired(Policy p, Inputs in, SlotEstimate.Result e) {
        List<SignalName> missing = new ArrayList<>();
        for (SignalName name : List.of(Signals.QUEUE_LENGTH, Signals.ARRIVAL_RATE)) {
            if (!in.usable(name)) {
                missing.add(name);
            }
        }
        boolean work = in.value(Signals.QUEUE_LENGTH) > 0 || in.value(Signals.ARRIVAL_RATE) > 0;
        if (work && !Double.isFinite(e.s())
                && !(in.usable(Signals.QUEUED_SERVICE) && in.usable(Signals.ARRIVAL_RATE) && in.value(Signals.ARRIVAL_RATE) == 0)) {
            missing.add(Signals.MEAN_SERVICE);
        }
        if (p.maxAgeSeconds() != null && !in.usable(Signals.OLDEST_AGE)) {
            missing.add(Signals.OLDEST_AGE);
        }
        return missing;
    }

    /** The replicas the known inputs prove necessary when others are missing. */
    private static int lowerBound(Policy p, Inputs in, SlotEstimate.Result e, int current) {
        int bound = e.slotReplicas() != null ? e.slotReplicas() : 0;
        if (e.ageApplied()) {
            bound = Math.max(bound, e.ageReplicas());
        }
        if (current == 0 && in.value(Signals.QUEUE_LENGTH) > 0) {
            bound = Math.max(bound, Math.max(1, p.minReplicas()));
        }
        return Math.min(bound, p.maxReplicas());
    }

    /** Step 7: never scale on missing data; after failureThreshold ticks hold at least the floor. */
    private static Decision hold(String cls, Policy p, Observation obs, ClassMemory mem, Inputs in,
                                 SlotEstimate.Result e, List<SignalName> missing, Instant lastActive,
                                 List<Stamped> events, Instant now, Trail t) {
        int current = obs.currentReplicas();
        int failures = mem.failureTicks() + 1;
        int desired = current;
        StringBuilder why = new StringBuilder();
        for (SignalName m : missing) {
            InputStatus s = in.get(m);
            t.reason(Code.TELEMETRY_MISSING, m);
            if (why.length() > 0) {
                why.append(", ");
            }
            why.append(m).append(' ').append(s.label()).append(" (").append(s.reason()).append(')');
        }
        int said = t.story.size();
        t.say(why + " → hold " + current);
        Integer floor = p.fallback().floorReplicas();
        if (failures >= p.fallback().failureThreshold()) {
            t.reason(Code.FALLBACK);
            if (floor != null && floor > current) {
                desired = Math.min(floor, p.maxReplicas());
                t.say(failures + " ticks without data → fallback floor " + desired);
            } else {
                t.say(failures + " ticks without data");
            }
        }
        List<CeilingResult> ceilings = Bounds.evaluateAll(p, in, obs, now, t);
        int stepping = continuing(p, in, mem, current, ceilings, events, now, t);
        if (stepping > current && t.explains() && said < t.story.size()) {
            t.story.set(said, why.toString()); // not held: the next sentence says where it steps
        }
        desired = Math.max(desired, stepping);
        // Outside min..max the HPA moves the count before it reads any metric (decision 0018).
        Behaviour.Result bound = Behaviour.outOfRange(p.minReplicas(), p.maxReplicas(), current, mem.recommendations(),
                t.explains());
        if (bound != null) {
            int within = Math.min(Math.max(desired, p.minReplicas()), p.maxReplicas());
            if (within == bound.replicas()) {
                t.addAll(bound);
            } else {
                t.reason(bound.reasons().get(0).code()); // the fallback floor asked for more than min: it said so
            }
            // Raised to min, a ceiling still protects; nothing goes below current on missing data.
            desired = within > current ? Math.max(current, underCeilings(within, ceilings, t)) : within;
        }
        t.term("desired", desired, "held: telemetry missing for " + failures + " tick" + Figures.plural(failures)
                + (bound != null ? ", within min..max" : ""));
        List<Stamped> recs = ClassMemory.keepSince(mem.recommendations(), now, java.time.Duration.ofSeconds(
                Math.max(p.scaleUp().stabilizationWindowSeconds(), p.scaleDown().stabilizationWindowSeconds())));
        if (bound == null) {
            recs.add(new Stamped(now, desired));
        }
        Admission admission = e.stalled()
                ? new Admission(Admission.State.CLOSED, Double.NaN, Double.NaN, Double.NaN,
                        t.explains() ? "queue stalled: new work waits behind a stuck head" : "")
                : Admission.unknown(t.explains() ? "telemetry missing" : "");
        ClassMemory next = remember(mem, obs, in, e, now, failures, lastActive, mem.governor(), recs, events,
                mem.upTarget());
        return new Decision(cls, now, current, obs.readyReplicas(), desired, Double.NaN, Double.NaN, null, null,
                e.ageReplicas(), desired, ceilings, null, e.stalled(), true, null, in.all(),
                t.terms, t.reasons, admission, t.explains() ? String.join("; ", t.story) : "", next, e.stuckPods());
    }

    private static ClassMemory remember(ClassMemory mem, Observation obs, Inputs in, SlotEstimate.Result e, Instant now,
                                        int failures, Instant lastActive, GovernorState governor, List<Stamped> recs,
                                        List<Stamped> events, Integer upTarget) {
        boolean liveS = in.complete(Signals.MEAN_SERVICE); // a partial S is not remembered as the last known
        return new ClassMemory(obs.currentReplicas(), now, in.value(Signals.QUEUE_LENGTH), in.value(Signals.OLDEST_AGE),
                e.stallSince(), liveS ? in.value(Signals.MEAN_SERVICE) : mem.lastMeanService(),
                liveS ? in.get(Signals.MEAN_SERVICE).sampledAt() : mem.lastMeanServiceAt(), failures, lastActive,
                e.startupMeasured(), governor, recs, events, upTarget, e.suspectedAt(), e.samples(),
                Double.isFinite(ForecastWindow.inServiceFell(in)) ? mem.inServiceLow() + 1 : 0);
    }

    /**
     * While data is missing, a scale-up the last complete decision asked for is not lost: the count keeps
     * stepping toward that target as fast as the scale-up policies allow, never beyond it, the maximum or a
     * ceiling, and never while a dependency guard cannot see its dependency healthy. Returns the count to hold
     * at least (current when there is nothing to pursue).
     */
    private static int continuing(Policy p, Inputs in, ClassMemory mem, int current, List<CeilingResult> ceilings,
                                  List<Stamped> events, Instant now, Trail t) {
        Integer target = mem.upTarget();
        if (target == null || target <= current || current < p.minReplicas() || current > p.maxReplicas()) {
            return current;
        }
        DependencyGuard guard = p.dependencyGuard();
        if (guard != null && !(in.usable(Signals.DEPENDENCY) && in.value(Signals.DEPENDENCY) <= guard.threshold())) {
            t.say("the dependency is not seen healthy: no scale-up toward the last target " + target);
            return current;
        }
        int limit = Math.min(target, p.maxReplicas());
        for (CeilingResult c : ceilings) {
            limit = Math.min(limit, c.limit());
        }
        if (limit <= current) {
            return current;
        }
        int step = Math.min(limit, Behaviour.scaleUpLimit(p.scaleUp(), current, events, now));
        if (step <= current) {
            return current;
        }
        t.reason(Code.CONTINUING_SCALE_UP, String.valueOf(target));
        if (step < limit) {
            t.reason(Code.RATE_LIMITED_UP);
        }
        t.term("continuing", step, !t.explains() ? "" : "min(last complete decision's target " + target
                + (limit < target ? " within max and ceilings " + limit : "") + ", rate policy "
                + Behaviour.scaleUpLimit(p.scaleUp(), current, events, now) + ")");
        t.say(!t.explains() ? "" : "still stepping toward the last complete decision's target " + target + " → "
                + step);
        return step;
    }

    /** @param w false for no words: the message is empty (the state and figures are the same) */
    private static Admission admission(Policy p, Observation obs, SlotEstimate.Result e, int desired, boolean w) {
        double lambda = e.lambdaUp();
        double s = Double.isFinite(e.s()) ? e.s() : 0;
        double q = Double.isFinite(e.q()) ? e.q() : 0;
        int k = p.slotsPerReplica();
        double objective = p.maxAgeSeconds() != null ? p.maxAgeSeconds() : p.drainTargetSeconds();
        double demand = lambda * s;
        double drainNow = drain(q, obs.readyReplicas() * (double) k - demand);
        double drainTarget = drain(q, desired * (double) k - demand);
        double sustainable = s > 0 ? desired * (double) k / s : Double.POSITIVE_INFINITY;
        if (e.stalled()) {
            return new Admission(Admission.State.CLOSED, drainNow, drainTarget, sustainable,
                    !w ? "" : "queue stalled: new work waits behind a stuck head");
        }
        if (!Double.isFinite(e.s())) {
            return Admission.unknown(!w ? "" : "service time unknown");
        }
        if (drainNow <= objective) {
            return new Admission(Admission.State.OPEN, drainNow, drainTarget, sustainable,
                    !w ? "" : "ready capacity drains the backlog in " + Figures.fmtDuration(drainNow));
        }
        if (drainTarget <= objective) {
            return new Admission(Admission.State.THROTTLE, drainNow, drainTarget, sustainable,
                    !w ? "" : "throttle while capacity catches up: drain " + Figures.fmtDuration(drainTarget) + " at "
                            + desired + " replicas");
        }
        if (Double.isFinite(drainTarget)) {
            return new Admission(Admission.State.THROTTLE, drainNow, drainTarget, sustainable,
                    !w ? "" : "drain takes " + Figures.fmtDuration(drainTarget) + " even at " + desired + " replicas (objective "
                            + Figures.fmt(objective) + " s)");
        }
        return new Admission(Admission.State.CLOSED, drainNow, drainTarget, sustainable,
                !w ? "" : "arrivals exceed what " + desired + " replicas can serve (" + Figures.fmt(sustainable) + "/s)");
    }

    private static double drain(double backlogSeconds, double spareSlots) {
        if (backlogSeconds <= 0) {
            return 0;
        }
        return spareSlots > 0 ? backlogSeconds / spareSlots : Double.POSITIVE_INFINITY;
    }

    /** The explanation stage: the stages' story, in order, and what it comes to. */
    static String explanation(List<String> story, int current, int result) {
        String head = String.join("; ", story);
        String tail = result == current ? "hold " + current : current + " → " + result;
        return head.isEmpty() ? tail : head + "; " + tail;
    }
}
