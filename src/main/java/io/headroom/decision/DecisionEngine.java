package io.headroom.decision;

import io.headroom.decision.ClassMemory.Stamped;
import io.headroom.decision.InputStatus.Status;
import io.headroom.decision.Reason.Code;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scaling decision of DESIGN §3: plain values in, a {@link Decision} out, time passed in.
 * It never touches the network, the UI thread or the wall clock (like the HPA's
 * {@code replica_calculator.go}, apart from the loop that reads and writes the world).
 */
public final class DecisionEngine {

    /** Completions per second below this count as "nothing completes" for stall detection. */
    static final double NO_COMPLETIONS = 1e-3;
    /** Guards ceil() against floating-point dust: 12.000000000001 slots is 12 slots. */
    private static final double EPS = 1e-9;

    private DecisionEngine() {
    }

    /** Decides one tick for one class. */
    public static Decision decide(String className, Policy policy, Observation obs, ClassMemory memory,
                                  Instant now) {
        return new Run(className, policy, obs, memory, now).decide();
    }

    /** One evaluation; holds the intermediate terms so each step reads as the brief's step. */
    private static final class Run {
        final String cls;
        final Policy p;
        final Observation obs;
        final ClassMemory mem;
        final Instant now;
        final int current;
        final Map<String, InputStatus> inputs = new LinkedHashMap<>();
        final List<Term> terms = new ArrayList<>();
        final List<Reason> reasons = new ArrayList<>();
        final List<String> story = new ArrayList<>();
        List<Stamped> events;

        Run(String cls, Policy p, Observation obs, ClassMemory mem, Instant now) {
            this.cls = cls;
            this.p = p;
            this.obs = obs;
            this.mem = mem == null ? ClassMemory.initial() : mem;
            this.now = now;
            this.current = obs.currentReplicas();
        }

        Decision decide() {
            for (String name : Signals.STANDARD) {
                inputs.put(name, resolve(name));
            }
            events = recordReplicaChange();
            double l = value(Signals.QUEUE_LENGTH);
            double lambda = value(Signals.ARRIVAL_RATE);
            double inFlight = value(Signals.IN_FLIGHT);
            boolean idleKnown = usable(Signals.QUEUE_LENGTH) && usable(Signals.IN_FLIGHT);
            boolean idle = idleKnown && l == 0 && inFlight == 0;
            boolean workWaits = (usable(Signals.QUEUE_LENGTH) && l > 0)
                    || (usable(Signals.ARRIVAL_RATE) && lambda > 0);
            Instant lastActive = mem.lastActiveAt() == null || !idle ? now : mem.lastActiveAt();

            // Stall detection first: a stalled queue is flagged even when other inputs are missing.
            double age = value(Signals.OLDEST_AGE);
            boolean ageKnown = usable(Signals.OLDEST_AGE);
            Instant stallSince = stallSince(age, ageKnown, l);
            double lastS = usable(Signals.MEAN_SERVICE) ? value(Signals.MEAN_SERVICE) : mem.lastMeanService();
            double stallAfter = Math.max(3 * p.pollIntervalSeconds(), Double.isNaN(lastS) ? 0 : 2 * lastS);
            boolean stalled = stallSince != null && seconds(stallSince, now) >= stallAfter;
            // No completions in the window is data, not missing telemetry: keep the last known S.
            boolean nothingCompletes = inputs.get(Signals.COMPLETION_RATE).usable()
                    && inputs.get(Signals.COMPLETION_RATE).value() < NO_COMPLETIONS;
            boolean useLastS = !usable(Signals.MEAN_SERVICE) && nothingCompletes && !Double.isNaN(lastS);
            // With no ready consumer nothing can complete, so S cannot be measured: that is not a
            // telemetry failure. Scale from zero on what is known; S arrives with the first completions.
            boolean noConsumers = obs.readyReplicas() == 0;
            boolean sUnknowable = !usable(Signals.MEAN_SERVICE) && !useLastS && noConsumers;

            List<String> missing = missingRequired(l, lambda, useLastS || sUnknowable);
            if (!missing.isEmpty()) {
                return hold(missing, lastActive, ageKnown ? age : Double.NaN, stallSince, stalled, lastS);
            }

            // Step 1–2: slot estimate.
            double s = usable(Signals.MEAN_SERVICE) ? value(Signals.MEAN_SERVICE) : useLastS ? lastS : 0;
            if (useLastS) {
                terms.add(new Term("S", s, "last known mean service time (no completions in the window)"));
            } else if (sUnknowable) {
                terms.add(new Term("S", 0, "unknown until the first completions (no ready replica)"));
                story.add("S unknown with no ready replica");
            }
            double q = usable(Signals.QUEUED_SERVICE) ? value(Signals.QUEUED_SERVICE) : l * s;
            double incoming = lambda * s;
            double backlog = q / p.drainTargetSeconds();
            double raw = (incoming + backlog) / p.targetUtilization();
            int slots = ceil(raw);
            int slotReplicas = ceilDiv(slots, p.slotsPerReplica());
            terms.add(new Term("incoming", incoming, "λ × S = " + fmt(lambda) + "/s × " + fmt(s) + " s"));
            terms.add(new Term("backlog", backlog, "Q / D = " + fmt(q) + " s / " + fmt(p.drainTargetSeconds()) + " s"
                    + (usable(Signals.QUEUED_SERVICE) ? "" : " (Q = L × S)")));
            terms.add(new Term("slots", slots, "ceil((" + fmt(incoming) + " + " + fmt(backlog) + ") / "
                    + fmt(p.targetUtilization()) + ") = ceil(" + fmtBeforeCeil(raw) + ")"));
            terms.add(new Term("slotReplicas", slotReplicas, "ceil(" + slots + " / " + p.slotsPerReplica() + ")"));
            story.add("(" + fmt(lambda) + "/s × " + fmt(s) + " s + " + fmt(q) + " s / " + fmt(p.drainTargetSeconds())
                    + " s) / " + fmt(p.targetUtilization()) + " = " + fmtBeforeCeil(raw) + " → " + slots + " slots → "
                    + slotReplicas + " replica" + plural(slotReplicas));

            // Step 3: age term (stall detection above).
            Integer ageReplicas = null;
            if (ageKnown && p.maxAgeSeconds() != null && age > p.maxAgeSeconds()) {
                int byRatio = ceil(current * age / p.maxAgeSeconds());
                int term = Math.max(current + 1, byRatio);
                if (stalled) {
                    reasons.add(Reason.of(Code.STALLED));
                    story.add("stalled: age " + fmt(age) + " s grows with no completions; more replicas may not help,"
                            + " age term not applied");
                } else {
                    ageReplicas = term;
                    reasons.add(Reason.of(Code.AGE_BREACH));
                    story.add("age " + fmt(age) + " s > " + fmt(p.maxAgeSeconds()) + " s objective → " + term
                            + " replica" + plural(term));
                }
                terms.add(new Term("ageReplicas", term, "max(current + 1, ceil(" + current + " × " + fmt(age)
                        + " / " + fmt(p.maxAgeSeconds()) + "))" + (stalled ? " — not applied: stalled" : "")));
            } else if (stalled) {
                reasons.add(Reason.of(Code.STALLED));
                story.add("stalled: age " + fmt(age) + " s grows with no completions; more replicas may not help");
            }

            // Step 4: max of the terms, clamped to min/max.
            int desired = Math.max(slotReplicas, ageReplicas == null ? 0 : ageReplicas);
            if (desired < p.minReplicas()) {
                desired = p.minReplicas();
                reasons.add(Reason.of(Code.MIN_REPLICAS));
                story.add("min " + p.minReplicas());
            } else if (desired > p.maxReplicas()) {
                desired = p.maxReplicas();
                reasons.add(Reason.of(Code.MAX_REPLICAS));
                story.add("max " + p.maxReplicas());
            }
            int recommended = desired;

            // Scale-to-zero waits for the cooldown; scale-from-zero happens as soon as work waits.
            boolean toZero = false;
            if (desired == 0) {
                double idleFor = seconds(lastActive, now);
                if (workWaits || !idle) {
                    desired = 1;
                } else if (current > 0 && idleFor < p.cooldownSeconds()) {
                    desired = 1;
                    reasons.add(Reason.of(Code.COOLDOWN));
                    story.add("idle " + fmt(idleFor) + " s; scale to zero after " + fmt(p.cooldownSeconds())
                            + " s cooldown (" + fmt(p.cooldownSeconds() - idleFor) + " s more)");
                } else if (current > 0) {
                    toZero = true;
                    reasons.add(Reason.of(Code.SCALE_TO_ZERO));
                    story.add("idle for the " + fmt(p.cooldownSeconds()) + " s cooldown → scale to zero");
                }
            }
            boolean fromZero = current == 0 && workWaits;
            if (fromZero) {
                desired = Math.max(1, desired);
                reasons.add(Reason.of(Code.SCALE_FROM_ZERO));
            }

            // Step 5: ceilings.
            List<CeilingResult> ceilings = new ArrayList<>();
            String binding = null;
            int capped = desired;
            for (CeilingSpec c : p.ceilings()) {
                CeilingResult r = evaluate(c);
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
                reasons.add(Reason.of(Code.CEILING, binding));
                if (capped < p.minReplicas()) {
                    reasons.add(Reason.of(Code.CEILING_BELOW_MIN, binding));
                }
                terms.add(new Term("ceiling", capped, "min(" + desired + ", " + binding + " " + capped + ")"));
            }
            for (CeilingResult r : ceilings) {
                story.add("ceiling " + r.name() + " " + r.limit() + (r.binding() ? " binding" : " not binding")
                        + (r.fromFallback() ? " (conservative: " + r.note() + ")" : ""));
            }
            desired = capped;

            // Step 6: dependency guard.
            boolean saturated = false;
            if (p.dependencyGuard() != null && desired > current && !fromZero) {
                DependencyGuard g = p.dependencyGuard();
                InputStatus dep = inputs.get(Signals.DEPENDENCY);
                if (!dep.usable()) {
                    desired = current;
                    reasons.add(Reason.of(Code.DEPENDENCY_UNKNOWN));
                    story.add(g.label() + " " + dep.status().name().toLowerCase() + " (" + dep.reason()
                            + ") → no scale-up");
                } else if (dep.value() > g.threshold()) {
                    desired = current;
                    saturated = true;
                    reasons.add(Reason.of(Code.DEPENDENCY_SATURATED));
                    story.add(g.label() + " " + fmt(dep.value()) + " > " + fmt(g.threshold()) + " → no scale-up");
                }
            } else if (p.dependencyGuard() != null && inputs.get(Signals.DEPENDENCY).usable()
                    && inputs.get(Signals.DEPENDENCY).value() > p.dependencyGuard().threshold()) {
                saturated = true;
                reasons.add(Reason.of(Code.DEPENDENCY_SATURATED));
            }

            // A stuck head does not move with more consumers, and a dead dependency only gets more load.
            if (stalled && desired > current && !fromZero) {
                desired = current;
                story.add("no scale-up while stalled");
            }

            // Step 8: stabilisation windows and rate policies (skipped for the zero transitions).
            List<Stamped> recs = ClassMemory.keepSince(mem.recommendations(), now, Duration.ofSeconds(
                    Math.max(p.scaleUp().stabilizationWindowSeconds(), p.scaleDown().stabilizationWindowSeconds())));
            int beforeBehaviour = desired;
            recs.add(new Stamped(now, beforeBehaviour));
            int result;
            if (toZero || fromZero) {
                result = fromZero ? Math.min(desired, Math.max(1, scaleUpLimit())) : 0;
                if (fromZero && result < desired) {
                    reasons.add(Reason.of(Code.RATE_LIMITED_UP));
                }
            } else {
                result = stabilise(desired, recs);
                result = limitRate(result);
            }
            terms.add(new Term("desired", result, "after stabilisation and rate policies"));

            Admission admission = admission(lambda, s, q, result, stalled);
            double ageForMemory = ageKnown ? age : Double.NaN;
            ClassMemory next = new ClassMemory(current, ageForMemory, stallSince, lastS, 0, lastActive, recs, events);
            return new Decision(cls, now, current, obs.readyReplicas(), result, incoming, backlog, slots,
                    slotReplicas, ageReplicas, recommended, ceilings, binding, stalled, false,
                    List.copyOf(inputs.values()), terms, reasons, admission, explanation(result), next);
        }

        /** Required inputs that are unusable; S only matters when there is work. */
        private List<String> missingRequired(double l, double lambda, boolean lastServiceStandsIn) {
            List<String> missing = new ArrayList<>();
            for (String name : List.of(Signals.QUEUE_LENGTH, Signals.ARRIVAL_RATE)) {
                if (!usable(name)) {
                    missing.add(name);
                }
            }
            boolean work = (usable(Signals.QUEUE_LENGTH) && l > 0) || (usable(Signals.ARRIVAL_RATE) && lambda > 0);
            if (work && !usable(Signals.MEAN_SERVICE) && !lastServiceStandsIn
                    && !(usable(Signals.QUEUED_SERVICE) && (!usable(Signals.ARRIVAL_RATE) || lambda == 0))) {
                missing.add(Signals.MEAN_SERVICE);
            }
            if (p.maxAgeSeconds() != null && !usable(Signals.OLDEST_AGE)) {
                missing.add(Signals.OLDEST_AGE);
            }
            return missing;
        }

        /** Step 7: never scale on missing data; after failureThreshold ticks hold at least the floor. */
        private Decision hold(List<String> missing, Instant lastActive, double age, Instant stallSince,
                              boolean stalled, double lastS) {
            int failures = mem.failureTicks() + 1;
            int desired = current;
            if (stalled) {
                reasons.add(Reason.of(Code.STALLED));
                story.add("stalled: age " + fmt(age) + " s grows with no completions; more replicas may not help");
            }
            StringBuilder why = new StringBuilder();
            for (String m : missing) {
                InputStatus in = inputs.get(m);
                reasons.add(Reason.of(Code.TELEMETRY_MISSING, m));
                if (why.length() > 0) {
                    why.append(", ");
                }
                why.append(m).append(' ').append(in.status().name().toLowerCase()).append(" (").append(in.reason())
                        .append(')');
            }
            story.add(why + " → hold " + current);
            Integer floor = p.fallback().floorReplicas();
            if (failures >= p.fallback().failureThreshold()) {
                reasons.add(Reason.of(Code.FALLBACK));
                if (floor != null && floor > current) {
                    desired = Math.min(floor, p.maxReplicas());
                    story.add(failures + " ticks without data → fallback floor " + desired);
                } else {
                    story.add(failures + " ticks without data");
                }
            }
            List<CeilingResult> ceilings = new ArrayList<>();
            for (CeilingSpec c : p.ceilings()) {
                ceilings.add(evaluate(c));
            }
            terms.add(new Term("desired", desired, "held: telemetry missing for " + failures + " tick"
                    + plural(failures)));
            List<Stamped> recs = ClassMemory.keepSince(mem.recommendations(), now, Duration.ofSeconds(
                    Math.max(p.scaleUp().stabilizationWindowSeconds(), p.scaleDown().stabilizationWindowSeconds())));
            recs.add(new Stamped(now, desired));
            ClassMemory next = new ClassMemory(current, Double.isNaN(age) ? mem.lastOldestAge() : age,
                    Double.isNaN(age) ? mem.stallSince() : stallSince, lastS, failures, lastActive, recs, events);
            Admission admission = stalled
                    ? new Admission(Admission.State.CLOSED, Double.NaN, Double.NaN, Double.NaN,
                            "queue stalled: new work waits behind a stuck head")
                    : Admission.unknown("telemetry missing");
            return new Decision(cls, now, current, obs.readyReplicas(), desired, Double.NaN, Double.NaN, null, null,
                    null, desired, ceilings, null, stalled, true, List.copyOf(inputs.values()), terms, reasons,
                    admission, String.join("; ", story), next);
        }

        private InputStatus resolve(String name) {
            Signal s = obs.signal(name);
            if (!s.present()) {
                return new InputStatus(name, Status.MISSING, Double.NaN, null, s.missingReason());
            }
            double age = seconds(s.sampledAt(), now);
            double limit = 2 * p.pollIntervalSeconds();
            if (age > limit) {
                return new InputStatus(name, Status.STALE, s.value(), s.sampledAt(),
                        "sample " + fmt(age) + " s old (limit " + fmt(limit) + " s)");
            }
            if (s.value() < 0 && !name.equals(Signals.DEPENDENCY)) {
                return new InputStatus(name, Status.MISSING, s.value(), s.sampledAt(),
                        "negative value " + fmt(s.value()));
            }
            return new InputStatus(name, Status.OK, s.value(), s.sampledAt(), null);
        }

        private Signal ceilingSignal(String name) {
            return obs.signal(name);
        }

        private CeilingResult evaluate(CeilingSpec c) {
            double budget = c.budget().constant();
            double per = c.perReplica().constant();
            String problem = null;
            if (c.budget().signal() != null) {
                InputStatus in = resolveNamed(c.budget().signal());
                budget = in.value();
                if (!in.usable()) {
                    problem = c.budget().signal() + " " + in.status().name().toLowerCase() + " (" + in.reason() + ")";
                }
            }
            if (problem == null && c.perReplica().signal() != null) {
                InputStatus in = resolveNamed(c.perReplica().signal());
                per = in.value();
                if (!in.usable()) {
                    problem = c.perReplica().signal() + " " + in.status().name().toLowerCase() + " (" + in.reason()
                            + ")";
                } else if (!(per > 0)) {
                    problem = c.perReplica().signal() + " is " + fmt(per) + ", not a positive per-replica amount";
                }
            }
            if (problem != null) {
                reasons.add(Reason.of(Code.CEILING_FALLBACK, c.name()));
                if (c.conservativeReplicas() != null) {
                    return new CeilingResult(c.name(), c.conservativeReplicas(), budget, per, true, false, problem);
                }
                return new CeilingResult(c.name(), current, budget, per, true, false,
                        problem + "; no conservative value, holding current " + current);
            }
            int limit = (int) Math.min(Integer.MAX_VALUE, Math.floor(budget / per + EPS));
            return new CeilingResult(c.name(), Math.max(0, limit), budget, per, false, false,
                    fmt(budget) + " / " + fmt(per) + " per replica");
        }

        private InputStatus resolveNamed(String name) {
            InputStatus known = inputs.get(name);
            return known != null ? known : resolveExtra(name);
        }

        private InputStatus resolveExtra(String name) {
            Signal s = ceilingSignal(name);
            if (!s.present()) {
                return new InputStatus(name, Status.MISSING, Double.NaN, null, s.missingReason());
            }
            double age = seconds(s.sampledAt(), now);
            if (age > 2 * p.pollIntervalSeconds()) {
                return new InputStatus(name, Status.STALE, s.value(), s.sampledAt(), "sample " + fmt(age) + " s old");
            }
            return new InputStatus(name, Status.OK, s.value(), s.sampledAt(), null);
        }

        /** Replica changes are observed, whoever made them, so rate policies count real steps. */
        private List<Stamped> recordReplicaChange() {
            int horizon = 0;
            for (ScalingRule r : p.scaleUp().rules()) {
                horizon = Math.max(horizon, r.periodSeconds());
            }
            for (ScalingRule r : p.scaleDown().rules()) {
                horizon = Math.max(horizon, r.periodSeconds());
            }
            List<Stamped> kept = ClassMemory.keepSince(mem.scaleEvents(), now, Duration.ofSeconds(horizon));
            if (mem.lastReplicas() != null && mem.lastReplicas() != current) {
                kept.add(new Stamped(now, current - mem.lastReplicas()));
            }
            return kept;
        }

        private Instant stallSince(double age, boolean ageKnown, double l) {
            InputStatus completions = inputs.get(Signals.COMPLETION_RATE);
            boolean growing = ageKnown && !Double.isNaN(mem.lastOldestAge()) && age > mem.lastOldestAge() && age > 0;
            boolean nothingCompletes = completions.usable() && completions.value() < NO_COMPLETIONS;
            boolean waiting = usable(Signals.QUEUE_LENGTH) && l > 0;
            // Nothing completes without consumers; that is capacity, not a stall.
            boolean consumers = obs.readyReplicas() > 0;
            if (growing && nothingCompletes && waiting && consumers) {
                return mem.stallSince() != null ? mem.stallSince() : now;
            }
            return null;
        }

        private int stabilise(int desired, List<Stamped> recs) {
            int upWindow = p.scaleUp().stabilizationWindowSeconds();
            int downWindow = p.scaleDown().stabilizationWindowSeconds();
            int up = desired;
            int down = desired;
            Instant holdDownUntil = null;
            Instant holdUpUntil = null;
            for (Stamped r : recs) {
                double ago = seconds(r.at(), now);
                if (ago < upWindow && r.value() < up) {
                    up = r.value();
                }
                if (ago < upWindow && r.value() < desired) {
                    holdUpUntil = later(holdUpUntil, r.at().plusSeconds(upWindow));
                }
                if (ago < downWindow && r.value() > down) {
                    down = r.value();
                }
                if (ago < downWindow && r.value() > desired) {
                    holdDownUntil = later(holdDownUntil, r.at().plusSeconds(downWindow));
                }
            }
            int result = current;
            if (up > current) {
                result = up;
            }
            if (down < current) {
                result = down;
            }
            if (desired < current && result > desired) {
                reasons.add(Reason.of(Code.STABILISING_DOWN));
                story.add("scale-down window holds " + result + " for " + fmt(seconds(now, holdDownUntil)) + " s more");
            } else if (desired > current && result < desired) {
                reasons.add(Reason.of(Code.STABILISING_UP));
                story.add("scale-up window holds " + result + " for " + fmt(seconds(now, holdUpUntil)) + " s more");
            }
            if (result != desired) {
                terms.add(new Term("stabilised", result, "window holds " + result + " instead of " + desired));
            }
            return result;
        }

        private int limitRate(int desired) {
            if (desired > current) {
                if (p.scaleUp().select() == ScalingBehavior.SelectPolicy.DISABLED) {
                    reasons.add(Reason.of(Code.SCALE_UP_DISABLED));
                    story.add("scale-up disabled by policy");
                    return current;
                }
                int limit = scaleUpLimit();
                if (desired > limit) {
                    reasons.add(Reason.of(Code.RATE_LIMITED_UP));
                    story.add("scale-up rate limits this step to " + limit);
                    terms.add(new Term("rateLimited", limit, "scale-up policies allow " + limit));
                    return limit;
                }
            } else if (desired < current) {
                if (p.scaleDown().select() == ScalingBehavior.SelectPolicy.DISABLED) {
                    reasons.add(Reason.of(Code.SCALE_DOWN_DISABLED));
                    story.add("scale-down disabled by policy");
                    return current;
                }
                int limit = scaleDownLimit();
                if (desired < limit) {
                    reasons.add(Reason.of(Code.RATE_LIMITED_DOWN));
                    story.add("scale-down rate limits this step to " + limit);
                    terms.add(new Term("rateLimited", limit, "scale-down policies allow " + limit));
                    return limit;
                }
            }
            return desired;
        }

        /** HPA's calculateScaleUpLimitWithScalingRules: replicas at the period's start plus the policy. */
        private int scaleUpLimit() {
            boolean max = p.scaleUp().select() != ScalingBehavior.SelectPolicy.MIN;
            long result = max ? Long.MIN_VALUE : Long.MAX_VALUE;
            for (ScalingRule rule : p.scaleUp().rules()) {
                int start = current - changed(rule.periodSeconds(), true) + changed(rule.periodSeconds(), false);
                long proposed = rule.type() == ScalingRule.Type.PODS
                        ? (long) start + rule.value()
                        : (long) Math.ceil(start * (1 + rule.value() / 100.0));
                result = max ? Math.max(result, proposed) : Math.min(result, proposed);
            }
            return (int) Math.max(result, current);
        }

        /** HPA's calculateScaleDownLimitWithBehaviors. */
        private int scaleDownLimit() {
            boolean max = p.scaleDown().select() != ScalingBehavior.SelectPolicy.MIN;
            long result = max ? Long.MAX_VALUE : Long.MIN_VALUE;
            for (ScalingRule rule : p.scaleDown().rules()) {
                int start = current + changed(rule.periodSeconds(), false) - changed(rule.periodSeconds(), true);
                long proposed = rule.type() == ScalingRule.Type.PODS
                        ? (long) start - rule.value()
                        : (long) (start * (1 - rule.value() / 100.0));
                result = max ? Math.min(result, proposed) : Math.max(result, proposed);
            }
            return (int) Math.max(0, Math.min(result, current));
        }

        /** Replicas added (up) or removed (!up) within the last period seconds. */
        private int changed(int periodSeconds, boolean up) {
            int sum = 0;
            for (Stamped e : events) {
                if (seconds(e.at(), now) < periodSeconds) {
                    if (up && e.value() > 0) {
                        sum += e.value();
                    } else if (!up && e.value() < 0) {
                        sum -= e.value();
                    }
                }
            }
            return sum;
        }

        private Admission admission(double lambda, double s, double q, int desired, boolean stalled) {
            int k = p.slotsPerReplica();
            double objective = p.maxAgeSeconds() != null ? p.maxAgeSeconds() : p.drainTargetSeconds();
            double demand = lambda * s;
            double drainNow = drain(q, obs.readyReplicas() * (double) k - demand);
            double drainTarget = drain(q, desired * (double) k - demand);
            double sustainable = s > 0 ? desired * (double) k / s : Double.POSITIVE_INFINITY;
            if (stalled) {
                return new Admission(Admission.State.CLOSED, drainNow, drainTarget, sustainable,
                        "queue stalled: new work waits behind a stuck head");
            }
            if (drainNow <= objective) {
                return new Admission(Admission.State.OPEN, drainNow, drainTarget, sustainable,
                        "ready capacity drains the backlog in " + fmtDuration(drainNow));
            }
            if (drainTarget <= objective) {
                return new Admission(Admission.State.THROTTLE, drainNow, drainTarget, sustainable,
                        "throttle while capacity catches up: drain " + fmtDuration(drainTarget) + " at "
                                + desired + " replicas");
            }
            if (Double.isFinite(drainTarget)) {
                return new Admission(Admission.State.THROTTLE, drainNow, drainTarget, sustainable,
                        "drain takes " + fmtDuration(drainTarget) + " even at " + desired + " replicas (objective "
                                + fmt(objective) + " s)");
            }
            return new Admission(Admission.State.CLOSED, drainNow, drainTarget, sustainable,
                    "arrivals exceed what " + desired + " replicas can serve (" + fmt(sustainable) + "/s)");
        }

        private static double drain(double backlogSeconds, double spareSlots) {
            if (backlogSeconds <= 0) {
                return 0;
            }
            return spareSlots > 0 ? backlogSeconds / spareSlots : Double.POSITIVE_INFINITY;
        }

        private String explanation(int result) {
            String head = String.join("; ", story);
            if (result == current) {
                return head + "; hold " + current;
            }
            return head + "; " + current + " → " + result;
        }

        private boolean usable(String name) {
            return inputs.get(name).usable();
        }

        private double value(String name) {
            InputStatus in = inputs.get(name);
            return in.usable() ? in.value() : Double.NaN;
        }
    }

    static int ceil(double x) {
        if (!(x > 0)) {
            return 0;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.ceil(x - EPS));
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    private static Instant later(Instant a, Instant b) {
        return a == null || b.isAfter(a) ? b : a;
    }

    private static String plural(int n) {
        return n == 1 ? "" : "s";
    }

    /** Numbers as an operator reads them: 0.5, 8, 11.4, 0.0123; no trailing zeros. */
    public static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "?";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "∞" : "-∞";
        }
        double a = Math.abs(v);
        if (a >= 100 || v == Math.rint(v)) {
            return fixed(v, 0);
        }
        if (a >= 10) {
            return fixed(v, 1);
        }
        if (a >= 0.1) {
            return fixed(v, 2);
        }
        if (a < 1e-6) {
            return String.format(java.util.Locale.ROOT, "%.3g", v);
        }
        // Three significant figures below 0.1.
        return fixed(v, 2 - (int) Math.floor(Math.log10(a)));
    }

    /** {@code v} rounded to {@code decimals} places, trailing zeros dropped; no Formatter, no regex (hot path). */
    static String fixed(double v, int decimals) {
        long scale = 1;
        for (int i = 0; i < decimals; i++) {
            scale *= 10;
        }
        long r = Math.round(Math.abs(v) * scale);
        long whole = r / scale;
        long frac = r % scale;
        StringBuilder b = new StringBuilder(12);
        if (v < 0 && r != 0) {
            b.append('-');
        }
        b.append(whole);
        if (frac != 0) {
            String f = Long.toString(frac);
            b.append('.');
            for (int i = f.length(); i < decimals; i++) {
                b.append('0');
            }
            int end = f.length();
            while (f.charAt(end - 1) == '0') {
                end--;
            }
            b.append(f, 0, end);
        }
        return b.toString();
    }

    /** A number about to be rounded up, with enough digits that "11 → 12" never appears. */
    static String fmtBeforeCeil(double v) {
        String s = fmt(v);
        for (int digits = 2; digits <= 6 && ceil(Double.parseDouble(s)) != ceil(v); digits++) {
            s = String.format(java.util.Locale.ROOT, "%." + digits + "f", v);
        }
        return s;
    }

    static String fmtDuration(double seconds) {
        if (!Double.isFinite(seconds)) {
            return "never";
        }
        if (seconds < 120) {
            return fmt(seconds) + " s";
        }
        if (seconds < 7200) {
            return fmt(Math.round(seconds / 6) / 10.0) + " min";
        }
        return fmt(Math.round(seconds / 360) / 10.0) + " h";
    }
}
