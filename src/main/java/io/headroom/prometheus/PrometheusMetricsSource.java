package io.headroom.prometheus;

import io.headroom.decision.SignalName;
import io.headroom.config.ClassConfig;
import io.headroom.config.GroupedQuery;
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
    private final GroupedSampleTimes groupedSampleTimes;
    private final Executor executor;
    private final Duration deadline;
    private final Clock clock;
    private volatile TickStats lastTick;

    /**
     * What the last tick did, for the top bar's freshness and for benchmarks.
     *
     * @param queries           HTTP queries sent: one per distinct query (own PromQL text, or grouped query
     *                          and label), one per distinct set of own selectors for sample times, and one
     *                          for the grouped queries' sample times
     * @param noData            signals without a usable value
     * @param newestSample      the newest sample time among the values, null when there was none
     * @param sampleTimesFailed classes with a failed sample-time query (their signals keep the evaluation time)
     * @param partial           values from answers Prometheus warned may be incomplete
     */
    public record TickStats(Instant at, Duration took, int queries, int noData, Instant newestSample,
                            int sampleTimesFailed, int partial) {
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
        List<GroupedQuery.Key> grouped = new ArrayList<>();
        for (ClassConfig c : classes) {
            this.classes.put(c.name(), c);
            Map<SignalName, String> ownQueries = new LinkedHashMap<>(c.queries());
            ownQueries.keySet().removeAll(c.grouped().keySet());
            this.sampleTimes.put(c.name(), SampleTimes.of(ownQueries));
            c.grouped().values().forEach(g -> grouped.add(g.key()));
        }
        this.groupedSampleTimes = GroupedSampleTimes.of(grouped);
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
                + (h.partialAnswers() == 0 ? "" : ", " + h.partialAnswers() + " partial (last warning: "
                + h.lastWarning() + ")")
                + (h.lastFailureReason() == null ? "" : " · last failure: " + h.lastFailureReason()
                + (h.lastFailure() == null ? "" : " (" + h.lastFailure() + ")"));
        return new io.headroom.metrics.MetricsHealth(state, detail, h.insecure(), client.credentialsInClearText());
    }

    /**
     * One tick: every distinct query of the requested classes once, all at once, waiting at most the
     * deadline. A class's own PromQL is sent once however many classes share the same text; a grouped
     * query ({@link GroupedQuery}) once for all the classes that use it, its answer split by its
     * label. Sample times come the same way: one query per distinct set of a class's own selectors
     * ({@link SampleTimes}) and one for every grouped query ({@link GroupedSampleTimes}). A value's
     * sample time is its series' newest sample, so a series that stopped being updated reads as stale
     * even while Prometheus still shows it.
     */
    @Override
    public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
        long started = System.nanoTime();
        AtomicBoolean expired = new AtomicBoolean();
        Map<String, CompletableFuture<QueryOutcome>> own = new LinkedHashMap<>();
        Map<GroupedQuery.Key, CompletableFuture<GroupedOutcome>> groups = new LinkedHashMap<>();
        Map<String, CompletableFuture<VectorOutcome>> times = new LinkedHashMap<>();
        CompletableFuture<VectorOutcome> groupedTimes = null;
        List<ClassConfig> asked = new ArrayList<>();
        Map<String, Map<SignalName, Signal>> out = new LinkedHashMap<>();
        for (String name : classNames) {
            ClassConfig c = classes.get(name);
            out.put(name, new LinkedHashMap<>());
            if (c == null) {
                continue; // absent signals read as "not collected"
            }
            asked.add(c);
            for (Map.Entry<SignalName, String> q : c.queries().entrySet()) {
                GroupedQuery g = c.groupedQuery(q.getKey());
                if (g != null) {
                    groups.computeIfAbsent(g.key(),
                            k -> send(expired, () -> client.queryGrouped(k.promql(), k.by()), n -> n));
                } else {
                    own.computeIfAbsent(q.getValue(), promql -> send(expired, () -> client.query(promql), n -> n));
                }
            }
            SampleTimes st = sampleTimes.get(name);
            if (st.needed()) {
                times.computeIfAbsent(st.query(),
                        query -> send(expired, () -> client.queryByLabel(query, SampleTimes.KEY), n -> n));
            }
            if (groupedTimes == null && !c.grouped().isEmpty() && groupedSampleTimes.needed()) {
                groupedTimes = send(expired, () -> client.queryByLabel(groupedSampleTimes.query(), SampleTimes.KEY,
                        groupedSampleTimes.maxKeyLength()), n -> n);
            }
        }
        long deadlineNanos = started + deadline.toNanos();
        List<CompletableFuture<?>> all = new ArrayList<>(times.values());
        all.addAll(own.values());
        all.addAll(groups.values());
        if (groupedTimes != null) {
            all.add(groupedTimes);
        }
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
        int timesFailed = 0;
        Instant newest = null;
        QueryOutcome.NoData late = new QueryOutcome.NoData(NoDataReason.TIMEOUT,
                "no answer within the tick deadline of " + PrometheusClient.seconds(deadline) + " s");
        int partial = 0;
        // A value's sample time from a partial answer may be a shard's, not the newest: the value is then partial too.
        VectorOutcome.Samples groupedSamples = groupedTimes != null
                && groupedTimes.getNow(null) instanceof VectorOutcome.Samples gs ? gs : null;
        Map<String, Double> groupedNewest = groupedSamples == null ? null : groupedSamples.byKey();
        for (ClassConfig c : asked) {
            SampleTimes st = sampleTimes.get(c.name());
            VectorOutcome.Samples ownSamples = st.needed()
                    && times.get(st.query()).getNow(null) instanceof VectorOutcome.Samples s ? s : null;
            Map<String, Double> ownNewest = ownSamples == null ? null : ownSamples.byKey();
            boolean ownNeeded = st.needed();
            boolean groupedNeeded = !c.grouped().isEmpty() && groupedSampleTimes.needed();
            if (ownNeeded && ownNewest == null || groupedNeeded && groupedNewest == null) {
                timesFailed++;
            }
            for (Map.Entry<SignalName, String> q : c.queries().entrySet()) {
                SignalName signal = q.getKey();
                GroupedQuery g = c.groupedQuery(signal);
                QueryOutcome o;
                if (g != null) {
                    GroupedOutcome go = groups.get(g.key()).getNow(null);
                    o = go == null ? late : go instanceof GroupedOutcome.Split split ? split.forValue(g.value())
                            : (QueryOutcome.NoData) go;
                    if (o instanceof QueryOutcome.Value v && groupedNewest != null) {
                        o = v.at(groupedSampleTimes.sampledAt(g.key(), g.value(), groupedNewest, v.sampledAt()),
                                groupedSamples.annotations());
                    }
                } else {
                    o = own.get(q.getValue()).getNow(null);
                    if (o == null) {
                        o = late;
                    }
                    if (o instanceof QueryOutcome.Value v && ownNewest != null) {
                        o = v.at(st.sampledAt(signal, ownNewest, v.sampledAt()), ownSamples.annotations());
                    }
                }
                if (o instanceof QueryOutcome.Value v) {
                    newest = newest == null || v.sampledAt().isAfter(newest) ? v.sampledAt() : newest;
                    partial += v.partial() ? 1 : 0;
                } else {
                    noData++;
                }
                out.get(c.name()).put(signal, o.toSignal());
            }
        }
        lastTick = new TickStats(clock.instant(), Duration.ofNanos(System.nanoTime() - started),
                own.size() + groups.size() + times.size() + (groupedTimes == null ? 0 : 1), noData, newest,
                timesFailed, partial);
        Map<String, Map<SignalName, Signal>> result = new LinkedHashMap<>();
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

    /**
     * Per pod: jobs in flight ({@code podInFlight}) and jobs finished so far ({@code podCompleted}, a
     * counter), each one instant query told apart by the {@code pod} label, sent on the loop's thread once
     * a tick (for the STUCK check and the pod panel). No data stays no data: a pod missing from one query,
     * or a NaN/±Inf value, has NaN there; a query that fails gives NaN for every pod it would have named;
     * a pod neither query names is absent. Empty for a class without {@code podCompleted} (so {@code
     * podInFlight} alone is still only read when a drain asks). Blocks for up to the client's timeout per query.
     */
    @Override
    public Map<String, io.headroom.metrics.PodProgress> podProgress(String className) {
        ClassConfig c = classes.get(className);
        if (c == null || c.podCompletedQuery() == null) {
            return Map.of(); // without the counter nothing here could be told (podInFlight stays the drains')
        }
        Map<String, Double> inFlight = c.podInFlightQuery() == null ? Map.of() : inFlightByPod(className);
        Map<String, Double> completed = c.podCompletedQuery() == null ? Map.of() : byPod(c.podCompletedQuery());
        Map<String, io.headroom.metrics.PodProgress> out = new LinkedHashMap<>();
        java.util.Set<String> pods = new java.util.TreeSet<>(inFlight.keySet());
        pods.addAll(completed.keySet());
        for (String pod : pods) {
            out.put(pod, new io.headroom.metrics.PodProgress(inFlight.getOrDefault(pod, Double.NaN),
                    completed.getOrDefault(pod, Double.NaN)));
        }
        return Map.copyOf(out);
    }

    /** One per-pod query: pod → finite value; empty when it fails. */
    private Map<String, Double> byPod(String promql) {
        VectorOutcome o = client.queryByLabel(promql, POD_LABEL);
        if (!(o instanceof VectorOutcome.Samples s)) {
            return Map.of();
        }
        Map<String, Double> byPod = new LinkedHashMap<>();
        s.byKey().forEach((pod, v) -> {
            if (Double.isFinite(v)) {
                byPod.put(pod, v);
            }
        });
        return byPod;
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
    public History history(String className, SignalName signal, Instant from, Instant to, int pixelWidth) {
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
     * timeout per chunk. A grouped signal is asked in its one-class form; {@link #rangeAll} asks it
     * once for many classes.
     */
    @Override
    public io.headroom.metrics.SignalHistory range(String className, SignalName signal, Instant from, Instant to,
                                                   Duration step) {
        ClassConfig c = classes.get(className);
        String promql = c == null ? null : c.query(signal);
        if (promql == null) {
            return io.headroom.metrics.SignalHistory.none(className, signal,
                    c == null ? "unknown class" : "no query for " + signal);
        }
        return chunked(List.of(className), signal, from, to, step,
                (start, end, stepSize) -> {
                    RangeOutcome r = client.queryRange(promql, start, end, stepSize);
                    return value -> r;
                }).get(className);
    }

    /**
     * A signal's past for many classes at once (history backfill at start): each grouped query once
     * for all the classes that use it, in the same chunks as {@link #range}, split by its label; the
     * same own PromQL once however many classes share it. A class whose value is absent from every
     * chunk has no history, with the reason.
     */
    @Override
    public Map<String, io.headroom.metrics.SignalHistory> rangeAll(Collection<String> classNames, SignalName signal,
                                                                   Instant from, Instant to, Duration step) {
        Map<String, io.headroom.metrics.SignalHistory> out = new LinkedHashMap<>();
        Map<GroupedQuery.Key, List<String>> byGroup = new LinkedHashMap<>();
        Map<String, io.headroom.metrics.SignalHistory> byOwnQuery = new java.util.HashMap<>();
        for (String name : classNames) {
            ClassConfig c = classes.get(name);
            GroupedQuery g = c == null ? null : c.groupedQuery(signal);
            if (g != null) {
                byGroup.computeIfAbsent(g.key(), k -> new ArrayList<>()).add(name);
                out.put(name, null); // keeps the order; filled below
                continue;
            }
            String promql = c == null ? null : c.query(signal);
            io.headroom.metrics.SignalHistory same = promql == null ? null : byOwnQuery.get(promql);
            io.headroom.metrics.SignalHistory h = same != null
                    ? new io.headroom.metrics.SignalHistory(name, signal, same.times(), same.values(), same.noData())
                    : range(name, signal, from, to, step);
            if (promql != null) {
                byOwnQuery.putIfAbsent(promql, h);
            }
            out.put(name, h);
        }
        byGroup.forEach((key, names) -> {
            Map<String, String> valueOf = new LinkedHashMap<>();
            names.forEach(n -> valueOf.put(n, classes.get(n).groupedQuery(signal).value()));
            out.putAll(chunked(names, signal, from, to, step, (start, end, stepSize) -> {
                GroupedOutcome.Range r = client.queryRangeGrouped(key.promql(), key.by(), start, end, stepSize);
                return name -> r.forValue(valueOf.get(name));
            }));
        });
        return out;
    }

    /** One chunk's request: returns, per class name, that class's part of the answer. */
    private interface ChunkQuery {
        java.util.function.Function<String, RangeOutcome> ask(Instant start, Instant end, Duration step);
    }

    /**
     * The chunk loop of {@link #range} and {@link #rangeAll}: one grid of {@code step} from
     * {@code from} (rounded down to a step) to {@code to}, one request per chunk of at most
     * {@link PrometheusClient#MAX_POINTS} points, each class's points put on the grid.
     */
    private Map<String, io.headroom.metrics.SignalHistory> chunked(List<String> names, SignalName signal, Instant from,
                                                                   Instant to, Duration step, ChunkQuery query) {
        long stepSec = Math.max(1, step.toSeconds());
        long startSec = Math.floorDiv(from.getEpochSecond(), stepSec) * stepSec;
        long endSec = to.getEpochSecond();
        if (endSec < startSec) {
            throw new IllegalArgumentException("range: 'to' is before 'from'");
        }
        int n = (int) HistoryStep.points(endSec - startSec, stepSec);
        double[] times = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = startSec + (double) i * stepSec;
        }
        int k = names.size();
        double[][] values = new double[k][n];
        String[] firstProblem = new String[k];
        boolean[] failed = new boolean[k];
        boolean[] any = new boolean[k];
        for (double[] v : values) {
            java.util.Arrays.fill(v, Double.NaN);
        }
        for (int chunk = 0; chunk < n; chunk += PrometheusClient.MAX_POINTS) {
            int last = Math.min(n, chunk + PrometheusClient.MAX_POINTS) - 1;
            java.util.function.Function<String, RangeOutcome> answer = query.ask(
                    Instant.ofEpochSecond((long) times[chunk]), Instant.ofEpochSecond((long) times[last]),
                    Duration.ofSeconds(stepSec));
            for (int c = 0; c < k; c++) {
                RangeOutcome r = answer.apply(names.get(c));
                if (r instanceof RangeOutcome.NoData nd) {
                    // A failure says more than an empty chunk (a day back, Prometheus may simply be younger).
                    if (firstProblem[c] == null || !failed[c] && nd.reason() != NoDataReason.EMPTY_RESULT) {
                        firstProblem[c] = nd.reason() + ": " + nd.message();
                        failed[c] = nd.reason() != NoDataReason.EMPTY_RESULT;
                    }
                    continue;
                }
                RangeOutcome.Series s = (RangeOutcome.Series) r;
                for (int i = 0; i < s.size(); i++) {
                    long at = Math.round((s.times()[i] - startSec) / stepSec);
                    if (at >= chunk && at <= last) {
                        values[c][(int) at] = s.values()[i];
                        any[c] = true;
                    }
                }
            }
        }
        Map<String, io.headroom.metrics.SignalHistory> out = new LinkedHashMap<>();
        for (int c = 0; c < k; c++) {
            out.put(names.get(c), any[c]
                    ? new io.headroom.metrics.SignalHistory(names.get(c), signal, times, values[c], null)
                    : io.headroom.metrics.SignalHistory.none(names.get(c), signal, firstProblem[c]));
        }
        return out;
    }

    /** {@link #history} on the query executor; complete it on the FX thread with Platform::runLater. */
    public CompletableFuture<History> historyAsync(String className, SignalName signal, Instant from, Instant to,
                                                   int pixelWidth) {
        return CompletableFuture.supplyAsync(() -> history(className, signal, from, to, pixelWidth), executor);
    }

    @Override
    public CompletableFuture<io.headroom.metrics.SignalHistory> historyFor(String className, SignalName signal, Instant from,
                                                                       Instant to, int pixelWidth) {
        return historyAsync(className, signal, from, to, pixelWidth).thenApply(h -> new io.headroom.metrics.SignalHistory(
                className, signal, h.times(), h.values(), h.noData() == null ? null : h.noData().toSignal().missingReason()));
    }

    /** Closes the client; the executor belongs to the caller. */
    @Override
    public void close() {
        client.close();
    }
}
