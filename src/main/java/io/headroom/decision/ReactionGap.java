package io.headroom.decision;

import io.headroom.decision.ClassMemory.Stamped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The reaction gap of a class with an age objective (decision 0009): from a step in the arrivals until
 * the first pods added for it are ready takes up to {@code R = pollInterval + startup}. When
 * {@code R ≥ maxAge − S} new pods come too late for the first jobs of a surge: the replicas present hold
 * it alone, then the scale-up rate policy decides how fast capacity catches up.
 *
 * <p>A fluid model says how large a step the class absorbs: arrivals jump from λ to {@code G × λ} just
 * after a tick (the worst timing), the queue is empty, each later tick asks the rate policy for as many
 * replicas as it allows (exactly as {@link Behaviour} counts them), each change is ready {@code startup}
 * seconds after its tick, and the ready replicas serve {@code k / S} jobs per second each. The oldest age
 * grows while capacity is below the arrivals and peaks when it catches up; the class absorbs the step
 * when that peak stays within {@code maxAgeSeconds}. {@code absorbs} is the largest such G for the
 * replicas the estimate asks for.
 *
 * <p>The reserve. A class whose pods are ready within its objective ({@code R ≤ maxAge − S}) absorbs some
 * step G* with the estimate's replicas; the same class with late pods absorbs less. By default a tight
 * class buys that loss back with warm replicas: the fewest that absorb G* with the real gap, and never
 * more than one scale-up step of the rate policy (the reserve stands in for the first reaction, which
 * comes too late). A loose class holds nothing. The policy's {@code absorbStep} replaces G* with the
 * operator's own target (without the one-step bound; {@code 1} turns the reserve off). A target not even
 * maxReplicas absorb is not bought. Pure arithmetic, no randomness: queue noise is not in the model.
 */
final class ReactionGap {

    /** Steps are reported to a tenth. */
    static final double STEP_RESOLUTION = 0.1;
    private static final Instant T0 = Instant.EPOCH;
    /** A rate policy that has not caught up after this many ticks never will, as far as the model cares. */
    private static final int MAX_TICKS = 10_000;

    private ReactionGap() {
    }

    /**
     * What the stage found.
     *
     * @param gap      R = poll + startup, seconds
     * @param tight    R ≥ maxAge − S: the replicas present hold a surge alone
     * @param absorbs  the largest step factor the estimate's replicas absorb within the objective
     *                 (∞ when even a step to maxReplicas' capacity is absorbed), NaN when not computed
     * @param reserve  the replicas the reserve asks for, 0 for none
     */
    record Result(double gap, boolean tight, double absorbs, int reserve) {
        static final Result NONE = new Result(Double.NaN, false, Double.NaN, 0);
    }

    /**
     * The stage, recording its terms: nothing for a class without an age objective, a known S and a
     * positive λ; the terms {@code reactionGap} and {@code absorbs} for a tight class (or one with
     * {@code absorbStep}); {@code reserve} when the reserve asks for more replicas than the estimate.
     */
    static Result evaluate(Policy p, double lambda, double s, double startup, int replicas, Trail t) {
        if (p.maxAgeSeconds() == null || !(lambda > 0) || !(s > 0) || !Double.isFinite(lambda)
                || !Double.isFinite(s)) {
            return Result.NONE;
        }
        double maxAge = p.maxAgeSeconds();
        double gap = p.pollIntervalSeconds() + startup;
        boolean tight = gap >= maxAge - s;
        Double target = p.absorbStep();
        if (!tight && target == null) {
            return new Result(gap, false, Double.NaN, 0);
        }
        int n = Math.max(1, replicas);
        double absorbs = largestStep(p, n, lambda, s, startup);
        String rate = p.scaleUp().rules().isEmpty() ? "no scale-up" : "the scale-up policy";
        boolean w = t.explains(); // words only when the decision is explained
        if (tight) {
            t.term("reactionGap", gap, !w ? "" : "poll " + Figures.fmt(p.pollIntervalSeconds()) + " s + start-up "
                    + Figures.fmt(startup) + " s ≥ objective " + Figures.fmt(maxAge) + " − S "
                    + Figures.fmt(s) + " s: new pods come too late for a surge's first jobs");
        }
        t.term("absorbs", absorbs, !w ? "" : n + " replica" + Figures.plural(n) + " absorb "
                + (Double.isInfinite(absorbs) ? "any step up to maxReplicas' capacity" : "a " + stepText(absorbs) + " step")
                + " of arrivals (" + Figures.fmt(lambda) + "/s) within "
                + Figures.fmt(maxAge) + " s, pods ready " + Figures.fmt(gap) + " s after it at worst, "
                + rate + " after that");
        double timely = maxAge - s;
        int cap = p.maxReplicas();
        String why;
        if (target == null && tight && timely > 0) {
            // By default: the step these replicas would absorb if their pods were ready within the objective
            // (maxAge − S after the step), bought back with warm replicas, never more than one scale-up step:
            // the reserve stands in for the first reaction, which comes too late.
            double timelyStep = largestStep(p, n, lambda, s, timely - p.pollIntervalSeconds());
            cap = Math.min(cap, Behaviour.scaleUpLimit(p.scaleUp(), n, List.of(), T0));
            target = Double.isInfinite(timelyStep) ? null : timelyStep;
            why = !w ? "" : "pods ready within " + Figures.fmt(timely) + " s would absorb " + stepText(timelyStep)
                    + "; the fewest replicas that absorb it " + Figures.fmt(gap) + " s late, at most one scale-up step ("
                    + cap + ")";
        } else {
            why = !w ? "" : "absorbStep " + (target == null ? "" : Figures.fmt(target)) + ": the fewest replicas that absorb it";
        }
        int reserve = 0;
        if (target != null && absorbs < target) {
            int needed = replicasFor(p, target, n, lambda, s, startup);
            if (needed > 0) {
                reserve = Math.min(needed, cap);
                t.term("reserve", reserve, why);
                if (w) {
                    t.say("reserve for a " + Figures.fmt(target) + "× step → " + reserve + " replica"
                            + Figures.plural(reserve) + " (" + n + " absorb " + stepText(absorbs) + ")");
                }
            } else {
                // Replicas that would not reach the target are not bought: the step is beyond maxReplicas.
                t.term("reserve", 0, !w ? "" : "absorbStep " + Figures.fmt(target) + ": not even maxReplicas "
                        + p.maxReplicas() + " absorb a " + Figures.fmt(target) + "× step of " + Figures.fmt(lambda)
                        + "/s; no reserve");
            }
        }
        return new Result(gap, tight, absorbs, reserve);
    }

    static String stepText(double g) {
        return Double.isInfinite(g) ? "any" : Figures.fmt(g) + "×";
    }

    private static int k(Policy p) {
        return p.slotsPerReplica();
    }

    /** The largest step G (to {@link #STEP_RESOLUTION}, at least 1) that {@code n} replicas absorb. */
    static double largestStep(Policy p, int n, double lambda, double s, double startup) {
        double maxAge = p.maxAgeSeconds();
        double ceiling = (double) p.maxReplicas() * k(p) / s / lambda;
        if (peakAge(p, n, k(p), s, ceiling * lambda, startup) <= maxAge) {
            return Double.POSITIVE_INFINITY;
        }
        double lo = 1;
        double hi = ceiling;
        if (peakAge(p, n, k(p), s, lo * lambda, startup) > maxAge) {
            return lo;
        }
        while (hi - lo > STEP_RESOLUTION / 100) {
            double mid = (lo + hi) / 2;
            if (peakAge(p, n, k(p), s, mid * lambda, startup) <= maxAge) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.floor(lo / STEP_RESOLUTION + 1e-9) * STEP_RESOLUTION;
    }

    /** The fewest replicas from {@code from} that absorb a {@code step}× step; 0 when not even maxReplicas do. */
    static int replicasFor(Policy p, double step, int from, double lambda, double s, double startup) {
        int lo = Math.max(1, from);
        int hi = p.maxReplicas();
        if (lo > hi || peakAge(p, hi, k(p), s, step * lambda, startup) > p.maxAgeSeconds()) {
            return 0;
        }
        // More replicas never peak higher: bisect for the fewest.
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (peakAge(p, mid, k(p), s, step * lambda, startup) <= p.maxAgeSeconds()) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * The fluid model's peak oldest age, in seconds, when arrivals jump to {@code arrivals} jobs/s just
     * after a tick with {@code n} ready replicas and an empty queue: ∞ when maxReplicas never catch up.
     */
    static double peakAge(Policy p, int n, int k, double s, double arrivals, double startup) {
        double perReplica = k / s;
        if (n * perReplica >= arrivals) {
            return 0;
        }
        if (p.scaleUp().select() == ScalingBehavior.SelectPolicy.DISABLED) {
            return Double.POSITIVE_INFINITY;
        }
        double poll = p.pollIntervalSeconds();
        List<Stamped> events = new ArrayList<>();
        int replicas = n;
        int ready = n;
        // Ready times of the changes asked at each tick: tick j (at j × poll) is ready at j × poll + startup.
        List<double[]> pending = new ArrayList<>();
        double t = 0;
        double served = 0;
        int tick = 1;
        while (tick <= MAX_TICKS) {
            double nextTick = tick * poll;
            double nextReady = pending.isEmpty() ? Double.POSITIVE_INFINITY : pending.get(0)[0];
            if (replicas >= p.maxReplicas() && pending.isEmpty()) {
                return Double.POSITIVE_INFINITY;
            }
            if (nextReady <= nextTick) {
                served += ready * perReplica * (nextReady - t);
                t = nextReady;
                ready = (int) pending.remove(0)[1];
                if (ready * perReplica >= arrivals) {
                    return t - served / arrivals;
                }
            } else {
                served += ready * perReplica * (nextTick - t);
                t = nextTick;
                if (replicas < p.maxReplicas()) {
                    Instant now = T0.plusMillis(Math.round(t * 1000));
                    int limit = Math.min(p.maxReplicas(), Behaviour.scaleUpLimit(p.scaleUp(), replicas,
                            ClassMemory.keepSince(events, now, java.time.Duration.ofSeconds(horizon(p.scaleUp()))), now));
                    if (limit > replicas) {
                        events.add(new Stamped(now, limit - replicas));
                        replicas = limit;
                        pending.add(new double[] {t + startup, replicas});
                    }
                }
                tick++;
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    private static int horizon(ScalingBehavior up) {
        int h = 0;
        for (ScalingRule r : up.rules()) {
            h = Math.max(h, r.periodSeconds());
        }
        return h;
    }
}
