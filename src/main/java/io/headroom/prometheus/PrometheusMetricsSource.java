package io.headroom.prometheus;

import io.headroom.config.ClassConfig;
import io.headroom.decision.Signal;
import io.headroom.metrics.MetricsSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@link MetricsSource} for a real Prometheus: each class's signals are PromQL queries from
 * the workloads file. One tick sends every query of every requested class at once on a bounded
 * executor and waits at most the tick deadline; a query without an answer by then is
 * {@code TIMEOUT}. It blocks the calling thread (the loop's) for at most the deadline and touches
 * no UI.
 *
 * <p>For the console: {@link #health()} for the top bar, {@link #history} / {@link #historyAsync}
 * to backfill charts, {@link #insecure()} to warn when TLS verification is off.
 */
public final class PrometheusMetricsSource implements MetricsSource {

    private final PrometheusClient client;
    private final Map<String, ClassConfig> classes = new LinkedHashMap<>();
    private final Map<String, SampleTimes> sampleTimes = new LinkedHashMap<>();
    private final Executor executor;
    private final Duration deadline;
    private final Clock clock;
    private volatile TickStats lastTick;

    /**
     * What the last tick did, for the top bar's freshness and for benchmarks.
     *
     * @param queries           HTTP queries sent: one per signal, plus one per class for sample times
     * @param noData            signals without a usable value
     * @param newestSample      the newest sample time among the values, null when there was none
     * @param sampleTimesFailed classes whose sample-time query failed (their signals keep the evaluation time)
     */
    public record TickStats(Instant at, Duration took, int queries, int noData, Instant newestSample,
                            int sampleTimesFailed) {
    }

    /**
     * The source's health: the connection's, plus the last tick's.
     *
     * @param lastTick null before the first tick
     */
    public record Health(PrometheusHealth connection, TickStats lastTick) {
    }

    /**
     * @param client   the client; closed with this source
     * @param classes  the classes and their queries
     * @param executor runs the queries (bounded, e.g. 8 threads); owned by the caller
     * @param deadline how long one tick may take; see {@link #defaultDeadline}
     */
    public PrometheusMetricsSource(PrometheusClient client, Collection<ClassConfig> classes, Executor executor,
                                   Duration deadline, Clock clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.clock = Objects.requireNonNull(clock, "clock");
        for (ClassConfig c : classes) {
            this.classes.put(c.name(), c);
            this.sampleTimes.put(c.name(), SampleTimes.of(c.queries()));
        }
    }

    /** Timeout × 1.5: room for a queue of queries to drain after one slow answer. */
    public static Duration defaultDeadline(Duration timeout) {
        return Duration.ofMillis(timeout.toMillis() * 3 / 2);
    }

    @Override
    public String name() {
        return client.url();
    }

    public PrometheusClient client() {
        return client;
    }

    /** True when TLS verification is off: the UI should warn. */
    public boolean insecure() {
        return client.insecure();
    }

    public Health details() {
        return new Health(client.health(), lastTick);
    }

    @Override
    public io.headroom.metrics.MetricsHealth health() {
        PrometheusHealth h = client.health();
        io.headroom.metrics.MetricsHealth.State state = switch (h.state()) {
            case OK -> io.headroom.metrics.MetricsHealth.State.OK;
            case FAILING -> io.headroom.metrics.MetricsHealth.State.FAILING;
            case UNKNOWN -> io.headroom.metrics.MetricsHealth.State.UNKNOWN;
        };
        String detail = h.url() + (client.credentialsInClearText()
                ? " · credentials sent in clear text (allowInsecureCredentials)" : "")
                + " · " + h.requests() + " requests, " + h.failures() + " failed"
                + (h.lastFailureReason() == null ? "" : " · last failure: " + h.lastFailureReason()
                + (h.lastFailure() == null ? "" : " (" + h.lastFailure() + ")"));
        return new io.headroom.metrics.MetricsHealth(state, detail, h.insecure(), client.credentialsInClearText());
    }

    /**
     * One tick: every signal's query and one sample-time query per class (see {@link SampleTimes}),
     * all at once, waiting at most the deadline. A value's sample time is its series' newest sample,
     * so a series that stopped being updated reads as stale even while Prometheus still shows it.
     */
    @Override
    public Map<String, Map<String, Signal>> read(Collection<String> classNames, Instant now) {
        long started = System.nanoTime();
        AtomicBoolean expired = new AtomicBoolean();
        record Pending(String cls, String signal, CompletableFuture<QueryOutcome> future) {
        }
        List<Pending> pending = new ArrayList<>();
        Map<String, CompletableFuture<VectorOutcome>> times = new LinkedHashMap<>();
        Map<String, Map<String, Signal>> out = new LinkedHashMap<>();
        for (String name : classNames) {
            ClassConfig c = classes.get(name);
            out.put(name, new LinkedHashMap<>());
            if (c == null) {
                continue; // absent signals read as "not collected"
            }
            for (Map.Entry<String, String> q : c.queries().entrySet()) {
                String promql = q.getValue();
                pending.add(new Pending(name, q.getKey(), send(expired, () -> client.query(promql), n -> n)));
            }
            SampleTimes st = sampleTimes.get(name);
            if (st.needed()) {
                times.put(name, send(expired, () -> client.queryByLabel(st.query(), SampleTimes.KEY), n -> n));
            }
        }
        long deadlineNanos = started + deadline.toNanos();
        List<CompletableFuture<?>> all = new ArrayList<>(times.values());
        pending.forEach(p -> all.add(p.future()));
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                    .get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // each unanswered query becomes TIMEOUT below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        expired.set(true);
        int noData = 0;
        Instant newest = null;
        String late = "no answer within the tick deadline of " + PrometheusClient.seconds(deadline) + " s";
        Map<String, Map<String, Double>> newestByClass = new LinkedHashMap<>();
        times.forEach((cls, f) -> {
            if (f.getNow(null) instanceof VectorOutcome.Samples s) {
                newestByClass.put(cls, s.byKey());
            }
        });
        for (Pending p : pending) {
            QueryOutcome o = p.future().getNow(null);
            if (o == null) {
                o = new QueryOutcome.NoData(NoDataReason.TIMEOUT, late);
            }
            if (o instanceof QueryOutcome.Value v) {
                Map<String, Double> sampled = newestByClass.get(p.cls());
                if (sampled != null) {
                    o = new QueryOutcome.Value(v.value(),
                            sampleTimes.get(p.cls()).sampledAt(p.signal(), sampled, v.sampledAt()), v.stats());
                }
                Instant at = ((QueryOutcome.Value) o).sampledAt();
                newest = newest == null || at.isAfter(newest) ? at : newest;
            } else {
                noData++;
            }
            out.get(p.cls()).put(p.signal(), o.toSignal());
        }
        lastTick = new TickStats(clock.instant(), Duration.ofNanos(System.nanoTime() - started),
                pending.size() + times.size(), noData, newest, times.size() - newestByClass.size());
        Map<String, Map<String, Signal>> result = new LinkedHashMap<>();
        out.forEach((k, v) -> result.put(k, Map.copyOf(v)));
        return result;
    }

    /**
     * Jobs in flight per pod: the class's {@code podInFlight} query, sent now (not part of any tick)
     * and told apart by each series' {@code pod} label. Series without that label and NaN/±Inf values
     * are left out: a pod without a number is a pod the source knows nothing of. Empty for a class
     * without the query, and when the query fails (the failure counts in {@link #health()}). Blocks
     * for up to the client's timeout.
     */
    @Override
    public Map<String, Double> inFlightByPod(String className) {
        ClassConfig c = classes.get(className);
        if (c == null || c.podInFlightQuery() == null) {
            return Map.of();
        }
        VectorOutcome o = client.queryByLabel(c.podInFlightQuery(), POD_LABEL);
        if (!(o instanceof VectorOutcome.Samples s)) {
            return Map.of();
        }
        Map<String, Double> byPod = new LinkedHashMap<>();
        s.byKey().forEach((pod, jobs) -> {
            if (Double.isFinite(jobs)) {
                byPod.put(pod, jobs);
            }
        });
        return Map.copyOf(byPod);
    }

    /** The label that names a pod in {@code podInFlight}'s series. */
    static final String POD_LABEL = "pod";

    /** Sends one query on the executor, unless the tick's deadline has passed before it starts. */
    private <T> CompletableFuture<T> send(AtomicBoolean expired, Supplier<T> query,
                                          Function<QueryOutcome.NoData, T> noData) {
        T late = noData.apply(new QueryOutcome.NoData(NoDataReason.TIMEOUT, "not sent before the tick deadline"));
        try {
            return CompletableFuture.supplyAsync(() -> expired.get() ? late : query.get(), executor);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(noData.apply(
                    new QueryOutcome.NoData(NoDataReason.TIMEOUT, "not sent: the query executor refused it")));
        }
    }

    /**
     * A signal's history for a chart {@code pixelWidth} columns wide: a range query at the step
     * {@link HistoryStep#choose} picks, on a regular grid with NaN for gaps. Blocks for up to the
     * timeout: call it off the FX thread, or use {@link #historyAsync}.
     *
     * @throws IllegalArgumentException for an unknown class or a signal the class does not query
     */
    public History history(String className, String signal, Instant from, Instant to, int pixelWidth) {
        ClassConfig c = classes.get(className);
        if (c == null) {
            throw new IllegalArgumentException("unknown class '" + className + "'");
        }
        String promql = c.query(signal);
        if (promql == null) {
            throw new IllegalArgumentException("class '" + className + "' has no query for signal '" + signal + "'");
        }
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("history: 'to' is before 'from'");
        }
        Duration step = HistoryStep.choose(Duration.between(from, to), pixelWidth);
        long stepSec = step.toSeconds();
        long startSec = Math.floorDiv(from.getEpochSecond(), stepSec) * stepSec; // aligned: stable across redraws
        long endSec = to.getEpochSecond();
        while (HistoryStep.points(endSec - startSec, stepSec) > PrometheusClient.MAX_POINTS) {
            startSec += stepSec;
        }
        Instant start = Instant.ofEpochSecond(startSec);
        Instant end = Instant.ofEpochSecond(endSec);
        RangeOutcome r = client.queryRange(promql, start, end, step);
        if (r instanceof RangeOutcome.NoData n) {
            return new History(className, signal, step, new double[0], new double[0],
                    new QueryOutcome.NoData(n.reason(), n.message()));
        }
        RangeOutcome.Series s = (RangeOutcome.Series) r;
        int n = (int) HistoryStep.points(endSec - startSec, stepSec);
        double[] times = new double[n];
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = startSec + (double) i * stepSec;
            values[i] = Double.NaN;
        }
        for (int i = 0; i < s.size(); i++) {
            long k = Math.round((s.times()[i] - startSec) / stepSec);
            if (k >= 0 && k < n) {
                values[(int) k] = s.values()[i];
            }
        }
        return new History(className, signal, step, times, values, null);
    }

    /**
     * A signal's past on a grid of {@code step} (history backfill), in as many {@code query_range}
     * requests as it takes to keep each under {@link PrometheusClient#MAX_POINTS} points per series
     * (Prometheus refuses more): a day at 5 s is two requests, at 15 s one. A chunk without data
     * leaves its steps NaN; the history is "none" only when no chunk had any. Blocks for up to one
     * timeout per chunk.
     */
    @Override
    public io.headroom.metrics.SignalHistory range(String className, String signal, Instant from, Instant to,
                                                   Duration step) {
        ClassConfig c = classes.get(className);
        String promql = c == null ? null : c.query(signal);
        if (promql == null) {
            return io.headroom.metrics.SignalHistory.none(className, signal,
                    c == null ? "unknown class" : "no query for " + signal);
        }
        long stepSec = Math.max(1, step.toSeconds());
        long startSec = Math.floorDiv(from.getEpochSecond(), stepSec) * stepSec;
        long endSec = to.getEpochSecond();
        if (endSec < startSec) {
            throw new IllegalArgumentException("range: 'to' is before 'from'");
        }
        int n = (int) HistoryStep.points(endSec - startSec, stepSec);
        double[] times = new double[n];
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = startSec + (double) i * stepSec;
            values[i] = Double.NaN;
        }
        String firstProblem = null;
        boolean failed = false;
        boolean any = false;
        for (int chunk = 0; chunk < n; chunk += PrometheusClient.MAX_POINTS) {
            int last = Math.min(n, chunk + PrometheusClient.MAX_POINTS) - 1;
            RangeOutcome r = client.queryRange(promql, Instant.ofEpochSecond((long) times[chunk]),
                    Instant.ofEpochSecond((long) times[last]), Duration.ofSeconds(stepSec));
            if (r instanceof RangeOutcome.NoData nd) {
                // A failure says more than an empty chunk (a day back, Prometheus may simply be younger).
                if (firstProblem == null || !failed && nd.reason() != NoDataReason.EMPTY_RESULT) {
                    firstProblem = nd.reason() + ": " + nd.message();
                    failed = nd.reason() != NoDataReason.EMPTY_RESULT;
                }
                continue;
            }
            RangeOutcome.Series s = (RangeOutcome.Series) r;
            for (int i = 0; i < s.size(); i++) {
                long k = Math.round((s.times()[i] - startSec) / stepSec);
                if (k >= chunk && k <= last) {
                    values[(int) k] = s.values()[i];
                    any = true;
                }
            }
        }
        if (!any) {
            return io.headroom.metrics.SignalHistory.none(className, signal, firstProblem);
        }
        return new io.headroom.metrics.SignalHistory(className, signal, times, values, null);
    }

    /** {@link #history} on the query executor; complete it on the FX thread with Platform::runLater. */
    public CompletableFuture<History> historyAsync(String className, String signal, Instant from, Instant to,
                                                   int pixelWidth) {
        return CompletableFuture.supplyAsync(() -> history(className, signal, from, to, pixelWidth), executor);
    }

    @Override
    public CompletableFuture<io.headroom.metrics.SignalHistory> historyFor(String className, String signal, Instant from,
                                                                       Instant to, int pixelWidth) {
        return historyAsync(className, signal, from, to, pixelWidth).thenApply(h -> new io.headroom.metrics.SignalHistory(
                className, signal, h.times(), h.values(), h.noData() == null ? null : h.noData().toString()));
    }

    /** Closes the client; the executor belongs to the caller. */
    @Override
    public void close() {
        client.close();
    }
}
