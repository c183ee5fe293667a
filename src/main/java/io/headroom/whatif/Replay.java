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
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;

/**
 * What-if (design.md §6): replays a class's recent load through the same decision code and a queue
 * simulation, once with the current policy and once with the edited one, side by side. Both runs
 * see the same arrivals (one seed), so the difference is the policy's. Pure. Windows up to an hour are
 * replayed job by job (the sandbox's world: tens to a few hundred milliseconds), longer ones as a
 * fluid queue ({@link Model#FLUID}: a day in tens of milliseconds; {@code WhatIfReplayBenchmark},
 * {@code HistoryBenchmark}); the runs can go side by side on an executor. Call it off the FX thread.
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
                             Run baseline, String baselineLabel, Run predictive, Predictive.Summary predictiveSummary) {
        public Comparison {
            caveats = List.copyOf(caveats);
        }

        /** Without a predictive run. */
        public Comparison(Run current, Run edited, double seconds, double start, List<String> caveats, Run baseline,
                          String baselineLabel) {
            this(current, edited, seconds, start, caveats, baseline, baselineLabel, null, null);
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

        /** The share of the work done, 0 to 1; called from a replaying thread (runs side by side: one call at a time). */
        void done(double fraction);

        /** True to stop: the replay then throws {@link java.util.concurrent.CancellationException}; asked from every run's thread. */
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
        return compare(h, current, edited, seed, baseline, progress, Runnable::run);
    }

    /**
     * As {@link #compare(LoadHistory, Policy, Policy, long, Baselines.Named, Progress)}, the runs
     * (live, edited, baseline) side by side: all but the first are offered to {@code runs}, and the
     * calling thread runs whatever no other thread has started, so a busy or single-threaded
     * executor only makes it slower, never stuck. The model is {@link Model#forWindow}'s.
     */
    public static Comparison compare(LoadHistory h, Policy current, Policy edited, long seed,
                                     Baselines.Named baseline, Progress progress, Executor runs) {
        return compare(h, current, edited, seed, baseline, progress, Model.forWindow(h.seconds()), runs);
    }

    /** How a replay simulates the queue. */
    public enum Model {
        /**
         * Every job: Poisson arrivals from the seed, lognormal service times, pods taking jobs one by
         * one (the sandbox's world). Its cost grows with the jobs in the window.
         */
        PER_JOB,
        /**
         * The queue as a fluid ({@link FluidQueue}) fed by a Poisson count of arrivals every second
         * (from the seed), work draining at the typical service time in closed form between changes:
         * its cost grows with the window's seconds and ticks, not its jobs. No randomness within a
         * second or in service times, so it shows a little less waiting than the per-job world.
         */
        FLUID;

        /** Per job up to {@link #PER_JOB_UP_TO_SECONDS} (exact and fast enough), fluid beyond. */
        public static Model forWindow(double seconds) {
            return seconds <= PER_JOB_UP_TO_SECONDS ? PER_JOB : FLUID;
        }
    }

    /** The longest window replayed job by job by default; a longer one is replayed as a fluid. */
    public static final double PER_JOB_UP_TO_SECONDS = 3600;

    /**
     * Both runs (and the baseline's) under the {@code model} given.
     *
     * @throws java.util.concurrent.CancellationException when {@code progress} says it is cancelled
     */
    public static Comparison compare(LoadHistory h, Policy current, Policy edited, long seed,
                                     Baselines.Named baseline, Progress progress, Model model, Executor runs) {
        return compare(h, current, edited, seed, baseline, null, progress, model, runs);
    }

    /**
     * As {@link #compare(LoadHistory, Policy, Policy, long, Baselines.Named, Progress, Model, Executor)}, with a
     * fourth run when {@code predictive} is given: the live policy with the floors auto mode would have held, each
     * from forecasts made only from the history before its tick ({@link Predictive}).
     *
     * @param predictive null for no predictive run
     */
    public static Comparison compare(LoadHistory h, Policy current, Policy edited, long seed,
                                     Baselines.Named baseline, Predictive predictive, Progress progress, Model model,
                                     Executor runs) {
        if (h.seconds() < 4 * current.pollIntervalSeconds()) {
            throw new IllegalArgumentException("not enough history to replay: " + Math.round(h.seconds())
                    + " s; the history needs a few minutes first");
        }
        double service = h.typicalServiceSeconds();
        if (!Double.isFinite(service)) {
            throw new IllegalArgumentException("no service time is known in the window, so the queue cannot be simulated");
        }
        double[] rates = bucketRates(h);
        int concurrency = current.slotsPerReplica();
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
        // An edit that changes nothing (the window as it opens) is the live run: it is replayed once.
        boolean sameAsLive = edited.equals(current);
        int count = 1 + (sameAsLive ? 0 : 1) + (baseline == null ? 0 : 1) + (predictive == null ? 0 : 1);
        Shares shares = new Shares(progress, count);
        Policy live = current;
        Policy edit = edited;
        // One world for every run: the fluid's drawn arrivals are made once and only read after.
        double[] load = model == Model.FLUID ? FluidRun.arrivals(rates, h.seconds(), seed) : rates;
        List<Callable<Run>> jobs = new ArrayList<>();
        // Headroom's runs decide without words (DecisionEngine.decideNumbers, the same numbers): the what-if
        // reads a tick's replicas and age, never its explanation, and the words were half a decision's cost.
        jobs.add(() -> run(model, load, h, service, concurrency, live, tick, seed, Decider.HEADROOM_NUMBERS, shares, 0));
        int editIndex = 0;
        if (!sameAsLive) {
            editIndex = jobs.size();
            int i = editIndex;
            jobs.add(() -> run(model, load, h, service, concurrency, edit, tick, seed, Decider.HEADROOM_NUMBERS, shares, i));
        }
        int kedaIndex = -1;
        if (baseline != null) {
            kedaIndex = jobs.size();
            int i = kedaIndex;
            jobs.add(() -> run(model, load, h, service, concurrency, live, tick, seed, baseline.decider(), shares, i));
        }
        Predictive.FloorDecider floors = predictive == null ? null : predictive.decider(Decider.HEADROOM_NUMBERS);
        int predictiveIndex = -1;
        if (floors != null) {
            predictiveIndex = jobs.size();
            int i = predictiveIndex;
            jobs.add(() -> run(model, load, h, service, concurrency, live, tick, seed, floors, shares, i));
        }
        List<Run> done = sideBySide(jobs, runs);
        progress.done(1);
        return new Comparison(done.get(0), done.get(editIndex), h.seconds(), h.times()[0], caveats,
                baseline == null ? null : done.get(kedaIndex), baseline == null ? null : baseline.label(),
                floors == null ? null : done.get(predictiveIndex), floors == null ? null : floors.summary());
    }

    /**
     * Runs every job, the first on this thread and the others offered to {@code executor}; then this
     * thread runs any that has not started (a {@link FutureTask} runs once), and waits for the rest.
     */
    static <T> List<T> sideBySide(List<Callable<T>> jobs, Executor executor) {
        List<FutureTask<T>> tasks = new ArrayList<>();
        for (Callable<T> j : jobs) {
            tasks.add(new FutureTask<>(j));
        }
        for (int i = 1; i < tasks.size(); i++) {
            try {
                executor.execute(tasks.get(i));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                break; // this thread runs them below
            }
        }
        List<T> out = new ArrayList<>();
        try {
            for (FutureTask<T> t : tasks) {
                t.run(); // no-op when another thread has started it
            }
            for (FutureTask<T> t : tasks) {
                out.add(t.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while replaying");
        } catch (ExecutionException e) {
            for (FutureTask<T> t : tasks) {
                t.cancel(false);
            }
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
        return out;
    }

    /** Each run's share of the progress, added up; told from several threads, reported one at a time. */
    private static final class Shares {
        private final Progress progress;
        private final double[] fraction;

        Shares(Progress progress, int runs) {
            this.progress = progress;
            this.fraction = new double[runs];
        }

        synchronized void done(int run, double f) {
            fraction[run] = f;
            double sum = 0;
            for (double v : fraction) {
                sum += v;
            }
            progress.done(sum / fraction.length);
        }

        boolean cancelled() {
            return progress.cancelled();
        }
    }

    /** The arrival rate of each {@link #BUCKET_SECONDS} bucket of the window, from its start. */
    static double[] bucketRates(LoadHistory h) {
        double t0 = h.times()[0];
        int buckets = (int) Math.ceil(h.seconds() / BUCKET_SECONDS - 1e-9);
        double[] out = new double[Math.max(0, buckets)];
        double last = 0;
        int i = 0; // the points are in time order: one pass over them for all buckets (a day is 17,000+ points)
        double[] times = h.times();
        double[] rates = h.arrivalRate();
        for (int b = 0; b < out.length; b++) {
            double from = b * BUCKET_SECONDS;
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
            out[b] = last;
        }
        return out;
    }

    static SandboxClassSpec spec(LoadHistory h, double service, int concurrency) {
        return spec(h, bucketRates(h), service, concurrency);
    }

    static SandboxClassSpec spec(LoadHistory h, double[] rates, double service, int concurrency) {
        List<RateSegment> segments = new ArrayList<>(rates.length);
        for (int b = 0; b < rates.length; b++) {
            double from = b * BUCKET_SECONDS;
            double to = Math.min(h.seconds(), from + BUCKET_SECONDS);
            if (to > from) {
                segments.add(RateSegment.constant(from, to, rates[b]));
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

    /** @param load the fluid's drawn arrivals per second, or the buckets' rates for the per-job world */
    private static Run run(Model model, double[] load, LoadHistory h, double service, int concurrency, Policy p,
                           double tick, long seed, Decider rule, Shares shares, int index) {
        int every = Math.max(1, (int) (h.seconds() / tick / 50)); // about 50 reports a run
        int[] seen = {0};
        java.util.function.DoubleConsumer onTick = t -> {
            if (++seen[0] % every == 0) {
                if (shares.cancelled()) {
                    throw new CancellationException("the replay was cancelled");
                }
                shares.done(index, t / h.seconds());
            }
        };
        if (model == Model.FLUID) {
            return FluidRun.run(load, h, service, concurrency, p, tick, rule, onTick);
        }
        return run(spec(h, load, service, concurrency), p, h, tick, seed, rule, onTick);
    }

    private static Run run(SandboxClassSpec spec, Policy p, LoadHistory h, double tick, long seed, Decider rule,
                           java.util.function.DoubleConsumer onTick) {
        Scenario s = new Scenario("what-if", h.seconds(), tick, seed, Instant.ofEpochSecond((long) h.times()[0]),
                List.of(new ScenarioClass(spec, p)));
        List<Simulator.TickLine> ticks = new ArrayList<>();
        List<Simulator.ClassSummary> summary = Simulator.run(s, rule, line -> {
            ticks.add(line);
            onTick.accept(line.t());
        });
        return new Run(summary.get(0), ticks);
    }
}
