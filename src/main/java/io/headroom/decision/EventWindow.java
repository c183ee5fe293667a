package io.headroom.decision;

import io.headroom.decision.ClassMemory.RateSample;
import java.time.Instant;
import java.util.List;

/**
 * Windows sized by events, not only by seconds (design.md §3.1, issue 29). A source's rate over a fixed
 * window (a PromQL {@code [1m]}) holds a handful of events at a low rate: 0.5 jobs/s gives ~30 arrivals, so λ
 * swings by ~20 % from tick to tick, S as much, and the scale-down window keeps the highest swing. Here the
 * live sample is pooled with the past ticks' samples, newest first, until the pool holds
 * {@link #MIN_EVENTS} arrivals and completions, or spans {@link #CAP_SECONDS}. λ is pooled only when the live
 * tick holds fewer than {@link #FEW_EVENTS} arrivals, S only when it holds fewer than that many completions: a
 * busy class keeps its live numbers.
 *
 * <p>A change is not averaged away: going back, a sample whose rate (or S) differs from the pool so far by
 * more than {@link #SIGMAS} standard deviations of Poisson counting noise ends the pool there, so a real
 * rise is planned for on the first tick that sees it. Each sample stands for the arrivals and completions of
 * its tick ({@code rate × Δt}); the source's window is longer than a tick, so the counts are conservative and
 * the pool is, if anything, longer than it needs to be. Pure arithmetic over the memory's samples.
 */
final class EventWindow {

    /** Events the pool wants: Poisson noise of 1/√300 ≈ 6 %. */
    static final double MIN_EVENTS = 300;
    /**
     * A live sample with at least this many arrivals is used as it is (noise ≤ 1/√30 ≈ 18 % per tick, less over the
     * source's window): the busier classes keep the reaction they were tuned with.
     */
    static final double FEW_EVENTS = 30;
    /** The longest pool, seconds: older samples are dropped from the memory. */
    static final double CAP_SECONDS = 900;
    /** How far an older sample may sit from the pool before it counts as another level. */
    static final double SIGMAS = 2.5;

    private EventWindow() {
    }

    /**
     * The pooled estimates.
     *
     * @param lambda      arrivals/s over the pool
     * @param s           completion-weighted mean service seconds over the pool, NaN when no sample had one
     * @param seconds     the time the pool spans
     * @param samples     the samples pooled (1 = the live one alone)
     * @param arrivals    arrivals the pool holds (rate × Δt summed)
     * @param completions completions the pool holds
     * @param lambdaPooled λ is the pool's (the live sample held fewer than {@link #FEW_EVENTS} arrivals)
     * @param sPooled      S is the pool's (the live sample held fewer than {@link #FEW_EVENTS} completions)
     */
    record Pooled(double lambda, double s, double seconds, int samples, double arrivals, double completions,
                  boolean lambdaPooled, boolean sPooled) {
    }

    /**
     * Pools {@code live} with {@code past} (oldest first, each older than live).
     *
     * @param tickSeconds the span a sample stands for when nothing precedes it (the poll interval)
     */
    static Pooled pool(List<RateSample> past, RateSample live, double tickSeconds) {
        double dt = past.isEmpty() ? tickSeconds : Math.min(tickSeconds * 3,
                Math.max(1e-3, Behaviour.seconds(past.get(past.size() - 1).at(), live.at())));
        Acc a = new Acc();
        a.add(live, dt);
        boolean fewArrivals = a.arrivals < FEW_EVENTS;
        boolean fewCompletions = a.completions < FEW_EVENTS && Double.isFinite(live.meanService());
        if (!fewArrivals && !fewCompletions) {
            return new Pooled(live.arrivalRate(), live.meanService(), dt, 1, a.arrivals, a.completions, false, false);
        }
        for (int i = past.size() - 1; i >= 0 && !a.full(); i--) {
            RateSample r = past.get(i);
            double span = i > 0 ? Behaviour.seconds(past.get(i - 1).at(), r.at()) : tickSeconds;
            span = Math.min(tickSeconds * 3, Math.max(1e-3, span));
            if (a.seconds + span > CAP_SECONDS + 1e-9 || a.differs(r, span)) {
                break;
            }
            a.add(r, span);
        }
        boolean wider = a.samples > 1;
        boolean sPooled = wider && fewCompletions && a.sWeight > 0;
        return new Pooled(wider && fewArrivals ? a.arrivals / a.seconds : live.arrivalRate(),
                sPooled ? a.sWork / a.sWeight : live.meanService(), a.seconds, a.samples, a.arrivals, a.completions,
                wider && fewArrivals, sPooled);
    }

    /**
     * The memory's samples after this tick: the past within {@link #CAP_SECONDS}, and the live one. An unmodifiable
     * list, which the next {@link ClassMemory} keeps without copying it again (a replay remembers 60 samples a tick,
     * 40,000 ticks a week); the past itself when nothing is dropped from it and nothing added.
     */
    static List<RateSample> remember(List<RateSample> past, RateSample live, Instant now) {
        Instant cutoff = now.minusMillis((long) (CAP_SECONDS * 1000));
        int size = past.size();
        RateSample[] kept = new RateSample[size + (live == null ? 0 : 1)];
        int n = 0;
        for (int i = 0; i < size; i++) {
            RateSample r = past.get(i);
            if (r.at().isAfter(cutoff) && r.at().isBefore(now)) {
                kept[n++] = r;
            }
        }
        if (live == null && n == size) {
            return List.copyOf(past); // the memory's own list: not copied
        }
        if (live != null) {
            kept[n++] = live;
        }
        return List.of(n == kept.length ? kept : java.util.Arrays.copyOf(kept, n));
    }

    private static final class Acc {
        double seconds;
        double arrivals;
        double completions;
        double sWork;
        double sWeight;
        int samples;

        void add(RateSample r, double span) {
            seconds += span;
            arrivals += r.arrivalRate() * span;
            double c = Double.isFinite(r.completionRate()) ? r.completionRate() * span : 0;
            completions += c;
            if (Double.isFinite(r.meanService()) && c > 0) {
                sWork += r.meanService() * c;
                sWeight += c;
            }
            samples++;
        }

        boolean full() {
            return arrivals >= MIN_EVENTS && (completions >= MIN_EVENTS || sWeight == 0);
        }

        /** The older sample sits on another level than the pool: a change, not noise. */
        boolean differs(RateSample r, double span) {
            double rate = arrivals / seconds;
            // No event at all where the other level expects three or more (P ≤ e⁻³): a change (e.g. the class
            // went idle), which the normal approximation misses at such counts.
            if (rate == 0 && r.arrivalRate() * seconds >= 3 || r.arrivalRate() == 0 && rate * span >= 3) {
                return true;
            }
            double hi = Math.max(Math.max(rate, r.arrivalRate()), 1e-9);
            double sd = Math.sqrt(hi / span + hi / seconds);
            if (Math.abs(r.arrivalRate() - rate) > SIGMAS * sd) {
                return true;
            }
            double c = Double.isFinite(r.completionRate()) ? r.completionRate() * span : 0;
            if (sWeight > 0 && Double.isFinite(r.meanService()) && c > 0) {
                double s = sWork / sWeight;
                // Service times as spread as an exponential's (cv 1): the mean of n has a relative error of 1/√n.
                double rel = Math.sqrt(1 / Math.max(1, c) + 1 / Math.max(1, sWeight));
                return Math.abs(r.meanService() - s) > SIGMAS * rel * Math.max(s, r.meanService());
            }
            return false;
        }
    }
}
