package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ClassMemory.Stamped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The reaction gap's ramp (simulated once per replicas and read for every arrival rate) gives the figures of the
 * tick-by-tick simulation it replaced, to the bit: {@link #referencePeakAge} is that simulation as it was (commit
 * b29fa73), and the bisections below are the old ones over it. Random policies (rules in pods and percent, max and
 * min selection, disabled, periods longer than the poll, fractional polls and start-ups) and classes.
 */
class ReactionGapRampTest {

    @Test
    void peakAgeLargestStepAndReplicasForAreTheTickByTickFiguresToTheBit() {
        SplittableRandom r = new SplittableRandom(29);
        int compared = 0;
        int finite = 0;
        for (int c = 0; c < 150; c++) {
            Policy p = randomPolicy(r);
            int k = p.slotsPerReplica();
            double s = 0.2 + r.nextDouble() * 20;
            double startup = r.nextInt(4) == 0 ? r.nextInt(1, 200) : r.nextDouble() * 200;
            double lambda = 0.05 + r.nextDouble() * 50;
            for (int n = 1; n <= Math.min(p.maxReplicas(), 12); n++) {
                ReactionGap.Ramp ramp = new ReactionGap.Ramp(p, n, k, s, startup);
                for (int a = 0; a < 12; a++) {
                    // Around what n replicas serve (0.9× to 7×): some absorbed, most caught up after a few ticks, some never.
                    double arrivals = n * k / s * (0.9 + r.nextDouble() * 6);
                    double want = referencePeakAge(p, n, k, s, arrivals, startup);
                    String what = p.scaleUp() + " max " + p.maxReplicas() + " poll " + p.pollIntervalSeconds() + " n "
                            + n + " k " + k + " S " + s + " start-up " + startup + " arrivals " + arrivals;
                    assertEquals(Double.doubleToLongBits(want), Double.doubleToLongBits(ramp.peakAge(arrivals)), what);
                    assertEquals(Double.doubleToLongBits(want),
                            Double.doubleToLongBits(ReactionGap.peakAge(p, n, k, s, arrivals, startup)), what);
                    compared++;
                    if (Double.isFinite(want) && want > 0) {
                        finite++;
                    }
                }
                assertEquals(Double.doubleToLongBits(referenceLargestStep(p, n, lambda, s, startup)),
                        Double.doubleToLongBits(ReactionGap.largestStep(p, n, lambda, s, startup)));
            }
            double step = 1 + r.nextDouble() * 10;
            int from = 1 + r.nextInt(5);
            assertEquals(referenceReplicasFor(p, step, from, lambda, s, startup),
                    ReactionGap.replicasFor(p, step, from, lambda, s, startup));
        }
        // The grid reaches the interesting cases: catch-ups after several ticks, not only 0 and ∞.
        assertTrue(finite > compared / 3, finite + " finite peaks of " + compared);
    }

    private static Policy randomPolicy(SplittableRandom r) {
        List<ScalingRule> rules = new ArrayList<>();
        int count = 1 + r.nextInt(2);
        for (int i = 0; i < count; i++) {
            int period = new int[] {15, 30, 60, 45, 120}[r.nextInt(5)];
            rules.add(r.nextBoolean() ? ScalingRule.pods(1 + r.nextInt(6), period)
                    : ScalingRule.percent(10 + r.nextInt(200), period));
        }
        ScalingBehavior.SelectPolicy select = r.nextInt(10) == 0 ? ScalingBehavior.SelectPolicy.DISABLED
                : r.nextBoolean() ? ScalingBehavior.SelectPolicy.MAX : ScalingBehavior.SelectPolicy.MIN;
        double poll = r.nextInt(3) == 0 ? 5 + r.nextDouble() * 40 : new double[] {5, 15, 30}[r.nextInt(3)];
        return Policy.builder().slotsPerReplica(1 + r.nextInt(8)).maxAgeSeconds(5 + r.nextDouble() * 200)
                .minReplicas(1).maxReplicas(2 + r.nextInt(150)).pollIntervalSeconds(poll)
                .scaleUp(new ScalingBehavior(0, rules, select)).build();
    }

    // ---- The code as it was (b29fa73), the reference. ----

    private static final Instant T0 = Instant.EPOCH;

    static double referencePeakAge(Policy p, int n, int k, double s, double arrivals, double startup) {
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
        List<double[]> pending = new ArrayList<>();
        double t = 0;
        double served = 0;
        int tick = 1;
        while (tick <= 10_000) {
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
                    int h = 0;
                    for (ScalingRule rule : p.scaleUp().rules()) {
                        h = Math.max(h, rule.periodSeconds());
                    }
                    int limit = Math.min(p.maxReplicas(), Behaviour.scaleUpLimit(p.scaleUp(), replicas,
                            ClassMemory.keepSince(events, now, java.time.Duration.ofSeconds(h)), now));
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

    static double referenceLargestStep(Policy p, int n, double lambda, double s, double startup) {
        int k = p.slotsPerReplica();
        double maxAge = p.maxAgeSeconds();
        double ceiling = (double) p.maxReplicas() * k / s / lambda;
        if (referencePeakAge(p, n, k, s, ceiling * lambda, startup) <= maxAge) {
            return Double.POSITIVE_INFINITY;
        }
        double lo = 1;
        double hi = ceiling;
        if (referencePeakAge(p, n, k, s, lo * lambda, startup) > maxAge) {
            return lo;
        }
        while (hi - lo > ReactionGap.STEP_RESOLUTION / 100) {
            double mid = (lo + hi) / 2;
            if (referencePeakAge(p, n, k, s, mid * lambda, startup) <= maxAge) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.floor(lo / ReactionGap.STEP_RESOLUTION + 1e-9) * ReactionGap.STEP_RESOLUTION;
    }

    static int referenceReplicasFor(Policy p, double step, int from, double lambda, double s, double startup) {
        int k = p.slotsPerReplica();
        int lo = Math.max(1, from);
        int hi = p.maxReplicas();
        if (lo > hi || referencePeakAge(p, hi, k, s, step * lambda, startup) > p.maxAgeSeconds()) {
            return 0;
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (referencePeakAge(p, mid, k, s, step * lambda, startup) <= p.maxAgeSeconds()) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
