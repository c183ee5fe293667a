package io.headroom.whatif;

import io.headroom.cluster.WorkloadRef;
import io.headroom.baseline.Baselines;
import io.headroom.decision.Decider;
import io.headroom.decision.Policy;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxClassSpec.RateSegment;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioClass;
import io.headroom.sim.Simulator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What-if (DESIGN §6): replays a class's recent load through the same decision code and a queue
 * simulation, once with the current policy and once with the edited one, side by side. Both runs
 * see the same arrivals (one seed), so the difference is the policy's. Pure; tens to a few hundred
 * milliseconds ({@code WhatIfReplayBenchmark}), so call it off the FX thread.
 *
 * <p>The simulated workers keep the current policy's slots per replica: that is how many jobs a
 * pod really takes, and an edited {@code slotsPerReplica} is a belief to test, not a new pod.
 */
public final class Replay {

    /** Arrival rates are averaged over buckets of this many seconds (fewer rate segments, same load). */
    static final double BUCKET_SECONDS = 30;
    /** How long a new pod takes to become ready in the replay (the console does not know the real one). */
    public static final double STARTUP_SECONDS = 30;

    private Replay() {
    }

    /** One policy's run. */
    public record Run(Simulator.ClassSummary summary, List<Simulator.TickLine> ticks) {
        /** The replicas the decision wanted at the last tick. */
        public int finalDesired() {
            return ticks.isEmpty() ? 0 : ticks.get(ticks.size() - 1).desiredReplicas();
        }

        public double replicaHours() {
            return summary.replicaSeconds() / 3600;
        }
    }

    /**
     * Both runs.
     *
     * @param start    epoch seconds of the window's start: a tick line's {@code t} counts from it
     * @param caveats  what the replay could not model as live, in sentences (a dependency guard, a
     *                 signal-fed ceiling)
     */
    public record Comparison(Run current, Run edited, double seconds, double start, List<String> caveats,
                             Run baseline, String baselineLabel) {
        public Comparison {
            caveats = List.copyOf(caveats);
        }
    }

    /**
     * @throws IllegalArgumentException when the history is too short or holds no service time to simulate
     */
    public static Comparison compare(LoadHistory h, Policy current, Policy edited, long seed) {
        return compare(h, current, edited, seed, null);
    }

    /**
     * The live and the edited policy, and a third run under {@code baseline} (KEDA's rule, say) with
     * the live policy's min/max and behaviour: "what KEDA's rule would have done" on the same load.
     *
     * @param baseline null for two runs
     * @throws IllegalArgumentException when the history is too short or holds no service time to simulate
     */
    public static Comparison compare(LoadHistory h, Policy current, Policy edited, long seed,
                                     Baselines.Named baseline) {
        return compare(h, current, edited, seed, baseline, Progress.NONE);
    }

    /**
     * Told how far a replay has got, and asked whether to go on: a day's replay takes long enough to
     * show progress and to be cancelled (by the operator, or by an edit that overtook it).
     */
    public interface Progress {
        Progress NONE = new Progress() {
            @Override
            public void done(double fraction) {
            }

            @Override
            public boolean cancelled() {
                return false;
            }
        };

        /** The share of the work done, 0 to 1; called from the replaying thread. */
        void done(double fraction);

        /** True to stop: the replay then throws {@link java.util.concurrent.CancellationException}. */
        boolean cancelled();
    }

    /**
     * As {@link #compare(LoadHistory, Policy, Policy, long, Baselines.Named)}, reporting progress and
     * stopping when asked.
     *
     * @throws java.util.concurrent.CancellationException when {@code progress} says it is cancelled
     */
    public static Comparison compare(LoadHistory h, Policy current, Policy edited, long seed,
                                     Baselines.Named baseline, Progress progress) {
        if (h.seconds() < 4 * current.pollIntervalSeconds()) {
            throw new IllegalArgumentException("not enough history to replay: " + Math.round(h.seconds())
                    + " s; the history needs a few minutes first");
        }
        double service = h.typicalServiceSeconds();
        if (!Double.isFinite(service)) {
            throw new IllegalArgumentException("no service time is known in the window, so the queue cannot be simulated");
        }
        SandboxClassSpec spec = spec(h, service, current.slotsPerReplica());
        double tick = Math.min(current.pollIntervalSeconds(), edited.pollIntervalSeconds());
        List<String> caveats = new ArrayList<>();
        if (current.dependencyGuard() != null || edited.dependencyGuard() != null) {
            // The replay has no dependency signal: a guard would read it as unknown and block every scale-up.
            caveats.add("the dependency guard is left out (the replay has no dependency signal)");
            current = current.toBuilder().dependencyGuard(null).build();
            edited = edited.toBuilder().dependencyGuard(null).build();
        }
        for (io.headroom.decision.CeilingSpec c : edited.ceilings()) {
            if (c.dynamic()) {
                caveats.add("ceiling " + c.name() + " reads a signal the replay does not have: it uses its"
                        + " conservative " + c.conservativeReplicas() + " replicas");
            }
        }
        int runs = baseline == null ? 2 : 3;
        Run live = run(spec, current, h, tick, seed, Decider.HEADROOM, progress, 0, runs);
        Run edit = run(spec, edited, h, tick, seed, Decider.HEADROOM, progress, 1, runs);
        Run base = baseline == null ? null : run(spec, current, h, tick, seed, baseline.decider(), progress, 2, runs);
        progress.done(1);
        return new Comparison(live, edit, h.seconds(), h.times()[0], caveats, base,
                baseline == null ? null : baseline.label());
    }

    static SandboxClassSpec spec(LoadHistory h, double service, int concurrency) {
        double t0 = h.times()[0];
        List<RateSegment> segments = new ArrayList<>();
        double last = 0;
        int i = 0; // the points are in time order: one pass over them for all buckets (a day is 17,000+ points)
        double[] times = h.times();
        double[] rates = h.arrivalRate();
        for (double from = 0; from < h.seconds(); from += BUCKET_SECONDS) {
            double to = Math.min(h.seconds(), from + BUCKET_SECONDS);
            double sum = 0;
            int n = 0;
            while (i < times.length && times[i] - t0 < from) {
                i++;
            }
            for (int j = i; j < times.length && times[j] - t0 < to; j++) {
                if (Double.isFinite(rates[j]) && rates[j] >= 0) {
                    sum += rates[j];
                    n++;
                }
            }
            last = n > 0 ? sum / n : last; // a gap in the data keeps the last known rate
            if (to > from) {
                segments.add(RateSegment.constant(from, to, last));
            }
        }
        return SandboxClassSpec.builder("what-if").baseRate(0).segments(segments)
                .service(SandboxClassSpec.ServiceTime.lognormal(service, SandboxClassSpec.ServiceTime.DEFAULT_CV))
                .concurrency(concurrency).startupSeconds(STARTUP_SECONDS)
                .initialReplicas(h.replicasAtStart())
                .initialBacklog((int) Math.max(0, Math.round(Double.isFinite(h.queueAtStart()) ? h.queueAtStart() : 0)))
                .target(new WorkloadRef("what-if", "what-if", "Deployment", "what-if"))
                .build();
    }

    private static Run run(SandboxClassSpec spec, Policy p, LoadHistory h, double tick, long seed, Decider rule,
                           Progress progress, int index, int runs) {
        Scenario s = new Scenario("what-if", h.seconds(), tick, seed, Instant.ofEpochSecond((long) h.times()[0]),
                List.of(new ScenarioClass(spec, p)));
        List<Simulator.TickLine> ticks = new ArrayList<>();
        int every = Math.max(1, (int) (h.seconds() / tick / 50)); // about 50 reports a run
        List<Simulator.ClassSummary> summary = Simulator.run(s, rule, line -> {
            ticks.add(line);
            if (ticks.size() % every == 0) {
                if (progress.cancelled()) {
                    throw new java.util.concurrent.CancellationException("the replay was cancelled");
                }
                progress.done((index + line.t() / h.seconds()) / runs);
            }
        });
        return new Run(summary.get(0), ticks);
    }
}
