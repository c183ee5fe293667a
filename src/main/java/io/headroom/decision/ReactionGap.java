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
        // Every step of the bisection is the same ramp from n replicas (the rate policy's replicas do not depend on
        // the arrivals): simulated once, read for each step.
        Ramp ramp = Ramp.of(p, n, k(p), s, startup);
        if (ramp.peakAge(ceiling * lambda) <= maxAge) {
            return Double.POSITIVE_INFINITY;
        }
        double lo = 1;
        double hi = ceiling;
        if (ramp.peakAge(lo * lambda) > maxAge) {
            return lo;
        }
        while (hi - lo > STEP_RESOLUTION / 100) {
            double mid = (lo + hi) / 2;
            if (ramp.peakAge(mid * lambda) <= maxAge) {
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
        return Ramp.of(p, n, k, s, startup).peakAge(arrivals);
    }

    /**
     * The scale-up from {@code n} ready replicas after a step: each later tick asks the rate policy for as many
     * replicas as it allows (exactly as {@link Behaviour} counts them), each change ready {@code startup} seconds after
     * its tick, the ready replicas serving {@code k / S} jobs/s each. None of it depends on the arrivals, which only
     * say at which pods-ready moment capacity has caught up: the moments (time, ready replicas, jobs served since the
     * step) are simulated once, as far as an answer needs, and read for any arrival rate. The figures are those of
     * the tick-by-tick simulation this replaced, to the bit (the same operations in the same order).
     */
    static final class Ramp {
        /**
         * The ramps this thread read last. A replay decides 40,000 ticks a week for a class whose replicas, S and
         * start-up repeat: its reaction gap reads the same few ramps again and again (about ten a decision). Per
         * thread (a ramp is simulated on as far as asked, so it is not shared); a table of {@link #CACHED} places
         * by the figures' hash, a newer ramp taking an older one's place; looked up without allocating.
         */
        private static final int CACHED = 256;
        private static final ThreadLocal<Ramp[]> RECENT = ThreadLocal.withInitial(() -> new Ramp[CACHED]);

        /** The ramp for these figures, read before on this thread or simulated now. */
        static Ramp of(Policy p, int n, int k, double s, double startup) {
            ScalingBehavior up = p.scaleUp();
            int max = p.maxReplicas();
            double poll = p.pollIntervalSeconds();
            long h = n * 31L + k;
            h = h * 31 + max;
            h = h * 31 + Double.doubleToLongBits(s);
            h = h * 31 + Double.doubleToLongBits(startup);
            h = h * 31 + Double.doubleToLongBits(poll);
            h ^= h >>> 29;
            h *= 0x9E3779B97F4A7C15L;
            int place = (int) (h >>> 56) & (CACHED - 1);
            Ramp[] recent = RECENT.get();
            Ramp ramp = recent[place];
            if (ramp == null || !ramp.isFor(up, max, poll, n, k, s, startup)) {
                ramp = new Ramp(p, n, k, s, startup);
                recent[place] = ramp;
            }
            return ramp;
        }

        /** What a ramp depends on: the scale-up policy, maxReplicas and the poll, then the class's own figures. */
        private boolean isFor(ScalingBehavior up, int max, double poll, int n, int k, double s, double startup) {
            return this.n == n && this.k == k && this.maxReplicas == max && same(this.s, s) && same(this.startup, startup)
                    && same(this.poll, poll) && (this.up == up || this.up.equals(up));
        }

        private static boolean same(double a, double b) {
            return Double.doubleToLongBits(a) == Double.doubleToLongBits(b);
        }

        private final ScalingBehavior up;
        private final int maxReplicas;
        private final double poll;
        private final int horizon;
        private final int n;
        private final int k;
        private final double s;
        private final double perReplica;
        private final double startup;
        private final boolean disabled;
        /** The pods-ready moments simulated so far: time, ready replicas after it, jobs served by then. */
        private double[] readyAt = new double[8];
        private int[] readyCount = new int[8];
        private double[] servedBy = new double[8];
        private int moments;
        /** True once the simulation has ended: maxReplicas reached with nothing pending, or MAX_TICKS. */
        private boolean ended;
        // The simulation's state, to go on from where the last answer stopped.
        private final List<Stamped> events = new ArrayList<>();
        private final java.util.ArrayDeque<double[]> pending = new java.util.ArrayDeque<>();
        private int replicas;
        private int ready;
        private double t;
        private double served;
        private int tick = 1;

        Ramp(Policy p, int n, int k, double s, double startup) {
            this.up = p.scaleUp();
            this.maxReplicas = p.maxReplicas();
            this.poll = p.pollIntervalSeconds();
            this.horizon = horizon(up);
            this.n = n;
            this.k = k;
            this.s = s;
            this.perReplica = k / s;
            this.startup = startup;
            this.disabled = up.select() == ScalingBehavior.SelectPolicy.DISABLED;
            this.replicas = n;
            this.ready = n;
        }

        /** {@link ReactionGap#peakAge} for these replicas at {@code arrivals} jobs/s. */
        double peakAge(double arrivals) {
            if (n * perReplica >= arrivals) {
                return 0;
            }
            if (disabled) {
                return Double.POSITIVE_INFINITY;
            }
            for (int i = 0; ; i++) {
                if (i == moments && !next()) {
                    return Double.POSITIVE_INFINITY;
                }
                if (readyCount[i] * perReplica >= arrivals) {
                    return readyAt[i] - servedBy[i] / arrivals;
                }
            }
        }

        /** Simulates on to the next pods-ready moment and records it; false when there is none (∞). */
        private boolean next() {
            if (ended) {
                return false;
            }
            while (tick <= MAX_TICKS) {
                double nextTick = tick * poll;
                double[] head = pending.peekFirst();
                double nextReady = head == null ? Double.POSITIVE_INFINITY : head[0];
                if (replicas >= maxReplicas && head == null) {
                    ended = true;
                    return false;
                }
                if (nextReady <= nextTick) {
                    served += ready * perReplica * (nextReady - t);
                    t = nextReady;
                    ready = (int) pending.removeFirst()[1];
                    record(t, ready, served);
                    return true;
                }
                served += ready * perReplica * (nextTick - t);
                t = nextTick;
                if (replicas < maxReplicas) {
                    Instant now = T0.plusMillis(Math.round(t * 1000));
                    int limit = Math.min(maxReplicas, Behaviour.scaleUpLimit(up, replicas,
                            ClassMemory.keepSince(events, now, java.time.Duration.ofSeconds(horizon)), now));
                    if (limit > replicas) {
                        events.add(new Stamped(now, limit - replicas));
                        replicas = limit;
                        pending.addLast(new double[] {t + startup, replicas});
                    }
                }
                tick++;
            }
            ended = true;
            return false;
        }

        private void record(double at, int count, double by) {
            if (moments == readyAt.length) {
                readyAt = java.util.Arrays.copyOf(readyAt, moments * 2);
                readyCount = java.util.Arrays.copyOf(readyCount, moments * 2);
                servedBy = java.util.Arrays.copyOf(servedBy, moments * 2);
            }
            readyAt[moments] = at;
            readyCount[moments] = count;
            servedBy[moments] = by;
            moments++;
        }
    }

    private static int horizon(ScalingBehavior up) {
        int h = 0;
        for (ScalingRule r : up.rules()) {
            h = Math.max(h, r.periodSeconds());
        }
        return h;
    }
}
