package io.headroom.decision;

import io.headroom.decision.Reason.Code;
import java.time.Instant;

/**
 * Steps 1 to 3 of design.md §3, the replica calculation: how many slots the work needs (incoming work
 * at the fast arrival estimate, plus the backlog drained before the age objective breaks), how many
 * replicas that is, and the age backstop, with stall detection. Pure; no bounds, ceilings or
 * behaviour here (as the HPA keeps {@code replica_calculator.go} apart from its normalisation).
 */
final class SlotEstimate {

    /** Completions per second below this count as "nothing completes" for stall detection. */
    static final double NO_COMPLETIONS = 1e-3;
    /** Guards ceil() against floating-point dust: 12.000000000001 slots is 12 slots. */
    static final double EPS = 1e-9;
    /** A queue must grow by more than this many standard deviations of Poisson noise to count as a burst. */
    static final double GROWTH_SIGMAS = 2;

    private SlotEstimate() {
    }

    /** Where the service time S came from. */
    enum ServiceSource { LIVE, LAST_KNOWN, PRIOR, UNKNOWN }

    /**
     * The estimate.
     *
     * @param s            the service time used, NaN when unknown
     * @param lambda       the configured (slow) arrival rate
     * @param lambdaUp     the arrival rate used: the larger of lambda and the net growth estimate
     * @param dEff         the drain target used for the backlog
     * @param startup      the pod start-up assumed in D_eff (measured, last measured, or the policy's)
     * @param slots        null when S is unknown and there is work (nothing to estimate with)
     * @param partial      λ (or S for the incoming term) is unknown: the slots are a lower bound
     * @param ageReplicas  the age term when the age breaches the objective, else null
     * @param ageApplied   the age term counts (it does not while stalled)
     * @param gap          the reaction gap: the step the replicas absorb, and the policy's reserve (0 without)
     */
    record Result(double s, ServiceSource sSource, double lambda, double lambdaUp, double q, double dEff,
                  double startup, double startupMeasured, double incoming, double backlog, Integer slots,
                  Integer slotReplicas, boolean partial, Integer ageReplicas, boolean ageApplied, boolean stalled,
                  Instant stallSince, java.util.List<String> stuckPods, ReactionGap.Result gap, boolean suspected,
                  Integer suspectedAt, java.util.List<ClassMemory.RateSample> samples) {
    }

    static Result estimate(Policy p, Inputs in, Observation obs, ClassMemory mem, Instant now, Trail t) {
        int current = obs.currentReplicas();
        boolean w = t.explains(); // words (formulas, the story) only when the decision is explained
        double l = in.value(Signals.QUEUE_LENGTH);
        double age = in.value(Signals.OLDEST_AGE);

        // λ and S over windows sized by events: the live sample pooled with past ticks' until it holds enough.
        java.util.List<ClassMemory.RateSample> past = EventWindow.remember(mem.samples(), null, now);
        ClassMemory.RateSample live = !in.complete(Signals.ARRIVAL_RATE) ? null : new ClassMemory.RateSample(now,
                in.value(Signals.ARRIVAL_RATE), in.complete(Signals.COMPLETION_RATE) ? in.value(Signals.COMPLETION_RATE)
                : Double.NaN, in.complete(Signals.MEAN_SERVICE) ? in.value(Signals.MEAN_SERVICE) : Double.NaN);
        EventWindow.Pooled pooled = live == null ? null : EventWindow.pool(past, live, p.pollIntervalSeconds());
        boolean pooledWider = pooled != null && pooled.samples() > 1;
        boolean lambdaPooled = pooledWider && pooled.lambdaPooled();
        java.util.List<ClassMemory.RateSample> samples = EventWindow.remember(past, live, now);

        // S: live (pooled by events), else the last known (its age shown), else the policy's prior.
        double s;
        ServiceSource source;
        if (in.usable(Signals.MEAN_SERVICE)) {
            s = in.value(Signals.MEAN_SERVICE);
            source = ServiceSource.LIVE;
            if (pooledWider && pooled.sPooled() && in.complete(Signals.MEAN_SERVICE) && Double.isFinite(pooled.s())) {
                s = pooled.s();
                t.term("S", s, !w ? "" : "mean service over ~" + Math.round(pooled.completions()) + " completions in "
                        + Figures.fmt(pooled.seconds()) + " s (live " + Figures.fmt(in.value(Signals.MEAN_SERVICE))
                        + " s: its window held too few)");
            }
        } else if (Double.isFinite(mem.lastMeanService())) {
            s = mem.lastMeanService();
            source = ServiceSource.LAST_KNOWN;
            double ago = mem.lastMeanServiceAt() == null ? Double.NaN : Behaviour.seconds(mem.lastMeanServiceAt(), now);
            t.term("S", s, !w ? "" : "last known mean service time, " + Figures.fmt(ago) + " s old ("
                    + Signals.MEAN_SERVICE + " " + in.get(Signals.MEAN_SERVICE).reason() + ")");
        } else if (p.expectedServiceSeconds() != null) {
            s = p.expectedServiceSeconds();
            source = ServiceSource.PRIOR;
            t.term("S", s, "the policy's expectedServiceSeconds (no completion seen yet)");
        } else {
            s = Double.NaN;
            source = ServiceSource.UNKNOWN;
        }

        // Stall: work waits, slots are idle, and nothing completes (or the head has not moved).
        double stallAfter = Math.max(2 * p.pollIntervalSeconds(), Double.isFinite(s) ? 2 * s : 0);
        Instant stallSince = stallSince(p, in, obs, mem, now, l, age);
        // Without an in-flight series the same evidence is weaker (busy slots cannot be told from idle ones): nothing
        // completing for max(3 × S, stuckAfterSeconds) with the age growing is a suspected stall, not a stall.
        boolean inFlightSeen = in.usable(Signals.IN_FLIGHT);
        double stallFor = stallSince == null ? 0 : Behaviour.seconds(stallSince, now);
        boolean stalled = inFlightSeen && stallSince != null && stallFor >= stallAfter - EPS;
        boolean suspected = !inFlightSeen && stallSince != null && stallFor >= stuckAfter(p, s) - EPS;
        Integer suspectedAt = !suspected ? null : mem.suspectedAt() != null ? mem.suspectedAt() : Integer.valueOf(current);

        // λ: the configured rate, or the net growth (completions + ΔL/Δt) when the queue grows beyond noise.
        double lambda = in.value(Signals.ARRIVAL_RATE);
        if (lambdaPooled) {
            lambda = pooled.lambda();
            t.term("λ", lambda, !w ? "" : "arrivals over ~" + Math.round(pooled.arrivals()) + " events in "
                    + Figures.fmt(pooled.seconds()) + " s (live " + Figures.fmt(in.value(Signals.ARRIVAL_RATE))
                    + "/s: its window held too few)");
        }
        double lambdaUp = lambda;
        if (Double.isFinite(l) && Double.isFinite(mem.lastQueueLength()) && mem.lastTickAt() != null
                && in.usable(Signals.COMPLETION_RATE) && Double.isFinite(lambda)) {
            double dt = Behaviour.seconds(mem.lastTickAt(), now);
            double dl = l - mem.lastQueueLength();
            if (dt > 0 && dt <= 3 * p.pollIntervalSeconds()
                    && dl > GROWTH_SIGMAS * Math.sqrt(Math.max(1, lambda * dt))) {
                double net = in.value(Signals.COMPLETION_RATE) + dl / dt;
                if (net > lambda) {
                    lambdaUp = net;
                    t.term("λ↑", net, !w ? "" : "net growth: completions " + Figures.fmt(in.value(Signals.COMPLETION_RATE))
                            + "/s + ΔL/Δt " + Figures.fmt(dl) + " / " + Figures.fmt(dt) + " s"
                            + " (configured λ " + Figures.fmt(lambda) + "/s)");
                }
            }
        }

        // Start-up: measured on this workload's pods, else the last measured, else the policy's.
        double measured = Double.isFinite(obs.startupSeconds()) ? obs.startupSeconds() : mem.startupSeconds();
        double startup = Double.isFinite(measured) ? measured : p.startupSeconds();

        // D_eff: drain before the objective breaks, leaving time for new pods to start.
        double d = p.drainTargetSeconds();
        double dEff = d;
        if (p.maxAgeSeconds() != null && Double.isFinite(age)) {
            double dMin = Math.min(p.minDrainSeconds(), d);
            dEff = Math.max(dMin, Math.min(d, p.maxAgeSeconds() - age - startup));
            if (dEff < d) {
                t.term("D_eff", dEff, !w ? "" : "clamp(" + Figures.fmt(p.maxAgeSeconds()) + " − " + Figures.fmt(age)
                        + " − " + Figures.fmt(startup) + " s start-up" + (Double.isFinite(measured) ? " (measured)" : "")
                        + ", " + Figures.fmt(dMin) + ", " + Figures.fmt(d) + ")");
            }
        }

        boolean qLive = in.usable(Signals.QUEUED_SERVICE);
        double q = qLive ? in.value(Signals.QUEUED_SERVICE) : l * s;
        Integer slots = null;
        Integer slotReplicas = null;
        double incoming = Double.NaN;
        double backlog = Double.NaN;
        boolean work = (Double.isFinite(l) && l > 0) || (Double.isFinite(lambda) && lambda > 0);
        // With λ unknown the incoming term is unknown too: the backlog alone is then a lower bound.
        boolean partial = !Double.isFinite(lambda) || !Double.isFinite(s) && lambda > 0;
        boolean estimable = Double.isFinite(l) && (Double.isFinite(s) || !work || qLive);
        ReactionGap.Result gap = ReactionGap.Result.NONE;
        if (estimable) {
            double sUsed = Double.isFinite(s) ? s : 0;
            incoming = Double.isFinite(lambdaUp) ? lambdaUp * sUsed : 0;
            q = qLive ? q : l * sUsed;
            if (suspected) {
                // Behind a suspected stall only the share of the work that completes moves: the backlog counts that much.
                double share = lambda > 0 ? Math.min(1, in.value(Signals.COMPLETION_RATE) / lambda) : 0;
                t.term("completingShare", share, !w ? "" : "completions " + Figures.fmt(in.value(Signals.COMPLETION_RATE))
                        + "/s of arrivals " + Figures.fmt(lambda) + "/s: the backlog counts this share");
                q *= share;
            }
            backlog = q / dEff;
            double raw = (incoming + backlog) / p.targetUtilization();
            slots = ceil(raw);
            slotReplicas = (int) Math.min(Integer.MAX_VALUE, ((long) slots + p.slotsPerReplica() - 1) / p.slotsPerReplica());
            t.term("incoming", incoming, !w ? "" : partial ? "unknown (λ or S missing): the estimate is a lower bound"
                    : "λ × S = " + Figures.fmt(lambdaUp) + "/s × " + Figures.fmt(sUsed) + " s");
            t.term("backlog", backlog, !w ? "" : "Q / " + (dEff < d ? "D_eff" : "D") + " = " + Figures.fmt(q) + " s / "
                    + Figures.fmt(dEff) + " s" + (qLive ? "" : " (Q = L × S)"));
            t.term("slots", slots, !w ? "" : "ceil((" + Figures.fmt(incoming) + " + " + Figures.fmt(backlog) + ") / "
                    + Figures.fmt(p.targetUtilization()) + ") = ceil(" + Figures.fmtBeforeCeil(raw) + ")");
            t.term("slotReplicas", slotReplicas, !w ? "" : "ceil(" + slots + " / " + p.slotsPerReplica() + ")");
            t.say(!w ? "" : (partial ? "at least " : "") + "(" + (partial ? "?" : Figures.fmt(lambdaUp) + "/s"
                    + (lambdaUp > lambda ? " net growth" : "")) + " × "
                    + Figures.fmt(sUsed) + " s" + (source == ServiceSource.LAST_KNOWN ? " last known"
                    : source == ServiceSource.PRIOR ? " expected" : "") + " + " + Figures.fmt(q) + " s / "
                    + Figures.fmt(dEff) + " s) / " + Figures.fmt(p.targetUtilization()) + " = "
                    + Figures.fmtBeforeCeil(raw) + " → " + slots + " slots → " + slotReplicas + " replica"
                    + Figures.plural(slotReplicas));
            if (!partial) {
                // The reaction gap: how large a step these replicas absorb, and the reserve the policy buys.
                gap = ReactionGap.evaluate(p, lambda, sUsed, startup, slotReplicas, t);
                if (gap.reserve() > slotReplicas) {
                    slotReplicas = gap.reserve();
                }
            }
        }

        // Stuck pods: ready, holding work, finishing nothing. They are replicas without capacity, so the
        // estimate asks for as many more, unless every ready pod is stuck (that is a stall of the class:
        // a poison head or a dead dependency, where more pods do not help).
        // A stalled class (poison head, dead dependency) explains its idle workers itself: no pod is singled out.
        java.util.List<String> stuck = stalled ? java.util.List.of() : stuckPods(p, obs, now, s);
        if (!stuck.isEmpty()) {
            t.reason(Code.STUCK_PODS, String.join(", ", stuck));
            boolean all = stuck.size() >= obs.readyReplicas();
            double after = stuckAfter(p, s);
            if (slotReplicas != null && !all) {
                slotReplicas = (int) Math.min(Integer.MAX_VALUE, (long) slotReplicas + stuck.size());
            }
            t.term("stuck", stuck.size(), stuck.size() + " of " + obs.readyReplicas() + " ready pod"
                    + Figures.plural(obs.readyReplicas()) + " hold work and finished nothing for ≥ "
                    + Figures.fmt(after) + " s (max(3 × S, " + Figures.fmt(p.stuckAfterSeconds()) + " s))"
                    + (slotReplicas != null && !all ? ": +" + stuck.size() + " → " + slotReplicas
                    + " replica" + Figures.plural(slotReplicas) : ": not added (every ready pod is stuck)"));
            t.say(stuck.size() + " pod" + Figures.plural(stuck.size()) + " STUCK (" + String.join(", ", stuck)
                    + "): capacity is lower than the replica count suggests; replace "
                    + (stuck.size() == 1 ? "it" : "them")
                    + " (a new pod first: a stuck pod's jobs never finish, so a drain would wait for ever)");
        }

        // Step 3: the age backstop needs no S; a stall withholds it.
        Integer ageReplicas = null;
        boolean ageApplied = false;
        if (p.maxAgeSeconds() != null && Double.isFinite(age) && age > p.maxAgeSeconds()) {
            long byRatio = (long) Math.ceil((double) current * age / p.maxAgeSeconds() - EPS);
            ageReplicas = (int) Math.min(Integer.MAX_VALUE, Math.max(current + 1L, byRatio));
            if (suspected && ageReplicas > suspectedAt + 1) {
                ageReplicas = suspectedAt + 1;
            }
            t.reason(Code.AGE_BREACH);
            t.term("ageReplicas", ageReplicas, !w ? "" : "max(current + 1, ceil(" + current + " × " + Figures.fmt(age)
                    + " / " + Figures.fmt(p.maxAgeSeconds()) + "))" + (stalled ? " — not applied: stalled"
                    : suspected ? " — at most one step above the " + suspectedAt + " of the suspected stall" : ""));
            if (!stalled) {
                ageApplied = true;
                t.say(!w ? "" : "age " + Figures.fmt(age) + " s > " + Figures.fmt(p.maxAgeSeconds())
                        + " s objective → " + ageReplicas + " replica" + Figures.plural(ageReplicas));
            }
        }
        if (suspected) {
            t.reason(Code.STALL_SUSPECTED);
            t.say(!w ? "" : "suspected stall: nothing completed for " + Figures.fmt(stallFor) + " s (≥ max(3 × S, "
                    + Figures.fmt(p.stuckAfterSeconds()) + " s)) while work waits and the oldest age grows, and no"
                    + " in-flight series to tell busy slots from idle ones; more replicas may not help, so the age term"
                    + " asks at most one step");
        }
        if (stalled) {
            t.reason(Code.STALLED);
            t.say(!w ? "" : "stalled: work waits " + Figures.fmt(Behaviour.seconds(stallSince, now))
                    + " s with idle slots and nothing completing; more replicas may not help"
                    + (ageReplicas != null ? ", age term not applied" : ""));
        }
        return new Result(s, source, lambda, lambdaUp, q, dEff, startup, measured, incoming, backlog, slots,
                slotReplicas, estimable && partial, ageReplicas, ageApplied, stalled, stallSince, stuck, gap, suspected,
                suspectedAt, samples);
    }

    /** How long without progress makes a pod STUCK: {@code max(3 × S, stuckAfterSeconds)}. */
    static double stuckAfter(Policy p, double s) {
        return Math.max(Double.isFinite(s) ? 3 * s : 0, p.stuckAfterSeconds());
    }

    /** The pods without progress for at least {@link #stuckAfter}, by name. */
    static java.util.List<String> stuckPods(Policy p, Observation obs, Instant now, double s) {
        double after = stuckAfter(p, s);
        java.util.List<String> out = new java.util.ArrayList<>();
        obs.podsWithoutProgress().forEach((pod, since) -> {
            if (Behaviour.seconds(since, now) >= after - EPS) {
                out.add(pod);
            }
        });
        java.util.Collections.sort(out);
        return out;
    }

    /**
     * Since when the class has shown a stall: work waits, a consumer is ready, slots are idle, and
     * nothing completes or the oldest job has not moved since the last tick. On first sight, a head
     * that has not moved dates the stall from the last tick; nothing completing dates it from the
     * head's arrival (the oldest age), so a one-shot plan still sees an hour-old stall.
     */
    static Instant stallSince(Policy p, Inputs in, Observation obs, ClassMemory mem, Instant now, double l,
                              double age) {
        int ready = obs.readyReplicas();
        boolean waits = Double.isFinite(l) && l > 0;
        // On complete answers only: a partial "nothing completes" may be the shard that did not answer.
        boolean idleSlots = in.complete(Signals.IN_FLIGHT)
                && in.value(Signals.IN_FLIGHT) < (double) ready * p.slotsPerReplica();
        if (!in.usable(Signals.IN_FLIGHT)) {
            // No in-flight series (a real exporter may give none): nothing completing while the oldest age grows.
            boolean nothing = in.complete(Signals.COMPLETION_RATE) && in.value(Signals.COMPLETION_RATE) < NO_COMPLETIONS;
            double dt0 = mem.lastTickAt() == null ? Double.NaN : Behaviour.seconds(mem.lastTickAt(), now);
            boolean grows = !Double.isFinite(mem.lastOldestAge()) || !(dt0 > 0)
                    || Double.isFinite(age) && age - mem.lastOldestAge() >= 0.9 * dt0;
            if (!(waits && ready > 0 && nothing && grows && Double.isFinite(age))) {
                return null;
            }
            return mem.stallSince() != null ? mem.stallSince() : now.minusMillis((long) (Math.min(age, 3.2e8) * 1000));
        }
        boolean nothingCompletes = in.complete(Signals.COMPLETION_RATE)
                && in.value(Signals.COMPLETION_RATE) < NO_COMPLETIONS;
        double dt = mem.lastTickAt() == null ? Double.NaN : Behaviour.seconds(mem.lastTickAt(), now);
        boolean headStuck = Double.isFinite(age) && Double.isFinite(mem.lastOldestAge()) && dt > 0
                && age - mem.lastOldestAge() >= 0.9 * dt;
        if (!(waits && ready > 0 && idleSlots && (nothingCompletes || headStuck))) {
            return null;
        }
        if (mem.stallSince() != null) {
            return mem.stallSince();
        }
        if (headStuck) {
            return mem.lastTickAt();
        }
        return Double.isFinite(age) ? now.minusMillis((long) (Math.min(age, 3.2e8) * 1000)) : now;
    }

    /** ceil, saturating at Integer.MAX_VALUE, with floating-point dust ignored; 0 for NaN or ≤ 0. */
    static int ceil(double x) {
        if (!(x > 0)) {
            return 0;
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.ceil(x - EPS));
    }
}
