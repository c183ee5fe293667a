package io.headroom.prometheus;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ClassConfig;
import io.headroom.config.PrometheusEndpoint;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One tick against a stub: concurrent queries, a deadline, typed no-data, and a decision that holds on it. */
class PrometheusMetricsSourceTest {

    static final Map<String, String> GOOD = Map.of(
            "sum(q_len)", "30", "max(q_age)", "50", "sum(rate(q_in[1m]))", "0.5", "mean_s", "8");

    /** Per pod, read on demand by drains: every test's class has it, and no tick may send it. */
    static final String POD_IN_FLIGHT = "sum by (pod) (jobs_in_flight{queue=\"pay\"})";

    static ClassConfig payments() {
        Map<SignalName, String> q = new LinkedHashMap<>();
        q.put(Signals.QUEUE_LENGTH, "sum(q_len)");
        q.put(Signals.OLDEST_AGE, "max(q_age)");
        q.put(Signals.ARRIVAL_RATE, "sum(rate(q_in[1m]))");
        q.put(Signals.MEAN_SERVICE, "mean_s");
        return new ClassConfig("payments", new WorkloadRef("dev", "pay", "Deployment", "worker"), q,
                Policy.builder().slotsPerReplica(4).build(), POD_IN_FLIGHT);
    }

    /** The failure modes a stub can produce, each with the reason it must become. */
    enum Failure {
        EMPTY(NoDataReason.EMPTY_RESULT, Answer.json(PrometheusClientTest.EMPTY)),
        NAN(NoDataReason.NAN_OR_INF, Answer.vector("NaN")),
        TWO_SERIES(NoDataReason.MULTIPLE_SERIES, Answer.json(PrometheusClientTest.TWO)),
        BAD_QUERY(NoDataReason.QUERY_ERROR, Answer.status(400, PrometheusClientTest.BAD_DATA)),
        HTTP_500(NoDataReason.HTTP_ERROR, Answer.status(500, "oops")),
        HTTP_503(NoDataReason.HTTP_ERROR, Answer.status(503, "")),
        GARBAGE(NoDataReason.MALFORMED, Answer.json("not json")),
        SLOW(NoDataReason.TIMEOUT, Answer.hanging());

        final NoDataReason reason;
        final Answer answer;

        Failure(NoDataReason reason, Answer answer) {
            this.reason = reason;
            this.answer = answer;
        }
    }

    final ExecutorService pool = Executors.newFixedThreadPool(8);
    StubPrometheus stub;
    PrometheusMetricsSource source;

    @AfterEach
    void tearDown() {
        if (source != null) {
            source.close();
        }
        if (stub != null) {
            stub.close();
        }
        pool.shutdownNow();
    }

    PrometheusMetricsSource source(URI url, Duration timeout, Duration deadline) throws Exception {
        PrometheusClient client = PrometheusClient.connect(PrometheusEndpoint.of(url).withTimeout(timeout), k -> null,
                Clock.systemUTC());
        source = new PrometheusMetricsSource(client, List.of(payments()), pool, deadline, Clock.systemUTC());
        return source;
    }

    static Answer good(StubPrometheus.Seen s) {
        String v = GOOD.get(s.params().get("query"));
        return v == null ? Answer.json(PrometheusClientTest.EMPTY) : Answer.vector(v);
    }

    /** The decision with these signals, 5 replicas now, sampled "now" (the stub's sample time). */
    static Decision decide(Map<SignalName, Signal> signals) {
        Instant now = Instant.parse("2026-01-01T00:00:01Z");
        return DecisionEngine.decide("payments", payments().policy(), new Observation(5, 5, signals),
                ClassMemory.initial(), now);
    }

    @Test
    void allSignalsPresentGiveTheWorkedExample() throws Exception {
        stub = new StubPrometheus(PrometheusMetricsSourceTest::good);
        Map<SignalName, Signal> s = source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3))
                .read(List.of("payments"), Instant.now()).get("payments");
        assertEquals(30.0, s.get(Signals.QUEUE_LENGTH).value());
        Decision d = decide(s);
        // (0.5/s × 8 s + 30 × 8 s / 60 s) / 0.7 = 11.4 → 12 slots → 3 replicas of 4
        assertEquals(12, d.estimatedSlots());
        assertEquals(3, d.slotReplicas());
        assertFalse(d.has(Reason.Code.TELEMETRY_MISSING));
        assertEquals(5, stub.seen().size(), "four signals and one sample-time query");
        assertEquals(5, source.details().lastTick().queries());
    }

    /** The sample-time query's answer: selector index → epoch seconds of its newest sample. */
    static Answer sampleTimes(Map<String, Double> newest) {
        StringBuilder b = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[");
        String sep = "";
        for (Map.Entry<String, Double> e : newest.entrySet()) {
            b.append(sep).append("{\"metric\":{\"").append(SampleTimes.KEY).append("\":\"").append(e.getKey())
                    .append("\"},\"value\":[1767225600.5,\"").append(e.getValue()).append("\"]}");
            sep = ",";
        }
        return Answer.json(b.append("]}}").toString());
    }

    @Test
    void aSeriesPrometheusStillShowsButNoLongerUpdatesIsStale() throws Exception {
        // q_len's newest sample is a minute old (its sender stopped); q_age is fresh; the others say nothing.
        stub = new StubPrometheus(s -> s.params().get("query").contains("timestamp(")
                ? sampleTimes(Map.of("0", 1767225540.0, "1", 1767225600.25)) : good(s));
        Map<SignalName, Signal> s = source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3))
                .read(List.of("payments"), Instant.now()).get("payments");
        assertEquals(Instant.parse("2025-12-31T23:59:00Z"), s.get(Signals.QUEUE_LENGTH).sampledAt());
        assertEquals(Instant.parse("2026-01-01T00:00:00.250Z"), s.get(Signals.OLDEST_AGE).sampledAt());
        assertEquals(Instant.parse("2026-01-01T00:00:00.500Z"), s.get(Signals.ARRIVAL_RATE).sampledAt(),
                "no sample time for its selector: the evaluation time");
        String sent = stub.seen().stream().map(x -> x.params().get("query")).filter(q -> q.contains("timestamp("))
                .findFirst().orElseThrow();
        assertEquals("label_replace(max(timestamp(q_len)), \"headroom_selector\", \"0\", \"\", \"\")\n"
                + "or label_replace(max(timestamp(q_age)), \"headroom_selector\", \"1\", \"\", \"\")\n"
                + "or label_replace(max(timestamp(q_in)), \"headroom_selector\", \"2\", \"\", \"\")\n"
                + "or label_replace(max(timestamp(mean_s)), \"headroom_selector\", \"3\", \"\", \"\")", sent);

        Decision d = decide(s);
        assertEquals(5, d.desiredReplicas(), "a stale queue length holds replicas: " + d.explanation());
        assertTrue(d.has(Reason.Code.TELEMETRY_MISSING), d.reasons().toString());
        InputStatus q = d.inputs().stream().filter(i -> i.name().equals(Signals.QUEUE_LENGTH)).findFirst().orElseThrow();
        assertEquals(InputStatus.Status.STALE, q.status());
        assertEquals("sample 61 s old (limit 30 s)", q.reason());
        assertEquals(Instant.parse("2026-01-01T00:00:00.500Z"), source.details().lastTick().newestSample());
    }

    @Test
    void aFailedSampleTimeQueryLeavesTheValuesUsable() throws Exception {
        stub = new StubPrometheus(s -> s.params().get("query").contains("timestamp(")
                ? Answer.status(503, "") : good(s));
        Map<SignalName, Signal> s = source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3))
                .read(List.of("payments"), Instant.now()).get("payments");
        for (Signal sig : s.values()) {
            assertEquals(Instant.parse("2026-01-01T00:00:00.500Z"), sig.sampledAt());
        }
        assertFalse(decide(s).has(Reason.Code.TELEMETRY_MISSING));
        assertEquals(1, source.details().lastTick().sampleTimesFailed());
        assertEquals(0, source.details().lastTick().noData());
    }

    @ParameterizedTest
    @EnumSource(Failure.class)
    void eachFailureIsItsTypedNoDataAndTheDecisionHoldsReplicas(Failure failure) throws Exception {
        stub = new StubPrometheus(s -> "sum(q_len)".equals(s.params().get("query")) ? failure.answer : good(s));
        // Generous timeouts (a cold JVM's first request is slow) except where the timeout is the point.
        Duration timeout = failure == Failure.SLOW ? Duration.ofMillis(400) : Duration.ofSeconds(3);
        Map<SignalName, Signal> s = source(stub.url(), timeout, PrometheusMetricsSource.defaultDeadline(timeout))
                .read(List.of("payments"), Instant.now()).get("payments");
        Signal q = s.get(Signals.QUEUE_LENGTH);
        assertFalse(q.present());
        assertTrue(q.missingReason().startsWith(failure.reason.name() + ": "), q.missingReason());
        assertEquals(50.0, s.get(Signals.OLDEST_AGE).value(), "the other queries are unaffected");
        Decision d = decide(s);
        assertEquals(5, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Reason.Code.TELEMETRY_MISSING), d.reasons().toString());
        assertEquals(1, source.details().lastTick().noData());
    }

    @Test
    void prometheusDownMakesEverySignalUnreachableAndHolds() throws Exception {
        int port;
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = ss.getLocalPort();
        }
        Map<SignalName, Signal> s = source(URI.create("http://127.0.0.1:" + port), Duration.ofSeconds(1),
                Duration.ofSeconds(2)).read(List.of("payments"), Instant.now()).get("payments");
        assertEquals(4, s.size());
        for (Signal sig : s.values()) {
            assertTrue(sig.missingReason().startsWith("UNREACHABLE: "), sig.missingReason());
        }
        Decision d = decide(s);
        assertEquals(5, d.desiredReplicas());
        assertTrue(d.has(Reason.Code.TELEMETRY_MISSING));
        PrometheusMetricsSource.Health h = source.details();
        assertEquals(PrometheusHealth.State.FAILING, h.connection().state());
        assertEquals(5, h.connection().failures(), "four signals and the sample-time query");
        assertEquals(4, h.lastTick().noData());
    }

    @Test
    void aTickNeverOutlastsItsDeadline() throws Exception {
        stub = new StubPrometheus(s -> "max(q_age)".equals(s.params().get("query")) ? Answer.hanging() : good(s));
        // The request timeout is long; the tick deadline must cut the wait short anyway.
        source(stub.url(), Duration.ofSeconds(20), Duration.ofMillis(1500));
        long t0 = System.nanoTime();
        Map<SignalName, Signal> s = source.read(List.of("payments"), Instant.now()).get("payments");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 1400 && ms < 4000, "tick took " + ms + " ms");
        assertEquals("TIMEOUT: no answer within the tick deadline of 1.500 s", s.get(Signals.OLDEST_AGE).missingReason());
        assertEquals(30.0, s.get(Signals.QUEUE_LENGTH).value());
    }

    @Test
    void queriesOfOneTickRunConcurrently() throws Exception {
        // Each answer waits until all four requests have arrived: only concurrent queries finish in time.
        CountDownLatch all = new CountDownLatch(4);
        stub = new StubPrometheus(s -> {
            all.countDown();
            try {
                if (!all.await(3, TimeUnit.SECONDS)) {
                    return Answer.status(500, "requests arrived one at a time");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return good(s);
        });
        Map<SignalName, Signal> s = source(stub.url(), Duration.ofSeconds(5), Duration.ofSeconds(6))
                .read(List.of("payments"), Instant.now()).get("payments");
        for (Map.Entry<SignalName, Signal> e : s.entrySet()) {
            assertTrue(e.getValue().present(), e.getKey() + ": " + e.getValue().missingReason());
        }
    }

    @Test
    void anUnknownClassHasNoSignalsAndNoRequests() throws Exception {
        stub = new StubPrometheus(PrometheusMetricsSourceTest::good);
        Map<String, Map<SignalName, Signal>> r = source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3))
                .read(List.of("nope"), Instant.now());
        assertEquals(Map.of("nope", Map.of()), r);
        assertTrue(stub.seen().isEmpty());
    }

    /** An instant vector with one series per label set, e.g. {@code {"pod":"w-0"} → "2"}. */
    static Answer vectorOf(Map<String, String> labelsToValue) {
        StringBuilder b = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[");
        String sep = "";
        for (Map.Entry<String, String> e : labelsToValue.entrySet()) {
            b.append(sep).append("{\"metric\":").append(e.getKey()).append(",\"value\":[1767225600.5,\"")
                    .append(e.getValue()).append("\"]}");
            sep = ",";
        }
        return Answer.json(b.append("]}}").toString());
    }

    @Test
    void jobsInFlightPerPodAreReadOnDemandAndNeverInATick() throws Exception {
        Map<String, String> perPod = new LinkedHashMap<>();
        perPod.put("{\"pod\":\"worker-0\"}", "2");
        perPod.put("{\"pod\":\"worker-1\"}", "0");
        perPod.put("{\"pod\":\"worker-2\"}", "NaN");
        perPod.put("{\"pod\":\"worker-3\"}", "+Inf");
        perPod.put("{\"queue\":\"pay\"}", "7"); // no pod label: nobody's
        stub = new StubPrometheus(s -> POD_IN_FLIGHT.equals(s.params().get("query")) ? vectorOf(perPod) : good(s));
        source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3));

        Map<SignalName, Signal> tick = source.read(List.of("payments"), Instant.now()).get("payments");
        assertEquals(List.of(Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE, Signals.OLDEST_AGE, Signals.QUEUE_LENGTH),
                tick.keySet().stream().sorted().toList(), "the tick reports the four signals and nothing per pod");
        List<String> sent = stub.seen().stream().map(x -> x.params().get("query")).toList();
        assertEquals(5, sent.size(), "four signals and one sample-time query: " + sent);
        assertTrue(sent.stream().noneMatch(q -> q.contains("jobs_in_flight")),
                "neither the query nor its selector's sample time is asked in a tick: " + sent);
        assertEquals(5, source.details().lastTick().queries());

        assertEquals(Map.of("worker-0", 2.0, "worker-1", 0.0), source.inFlightByPod("payments"),
                "NaN, Inf and a series without a pod label are left out");
        List<StubPrometheus.Seen> after = stub.seen();
        assertEquals(6, after.size(), "one query, on demand");
        assertEquals(POD_IN_FLIGHT, after.get(5).params().get("query"), "the query exactly as configured");
        assertEquals("/api/v1/query", after.get(5).path());
    }

    @Test
    void noPodIsKnownWithoutTheQueryOrWhenItFails() throws Exception {
        stub = new StubPrometheus(s -> Answer.status(503, ""));
        PrometheusClient client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url())
                .withTimeout(Duration.ofSeconds(2)), k -> null, Clock.systemUTC());
        ClassConfig without = new ClassConfig("plain", new WorkloadRef("dev", "pay", "Deployment", "plain"),
                payments().queries(), Policy.defaults());
        source = new PrometheusMetricsSource(client, List.of(payments(), without), pool, Duration.ofSeconds(3),
                Clock.systemUTC());

        assertEquals(Map.of(), source.inFlightByPod("plain"));
        assertEquals(Map.of(), source.inFlightByPod("nope"));
        assertTrue(stub.seen().isEmpty(), "no query for a class without podInFlight, or an unknown one");

        assertEquals(Map.of(), source.inFlightByPod("payments"), "HTTP 503: no pods known, not every pod idle");
        assertEquals(1, stub.seen().size());
        assertEquals(1, source.details().connection().failures(), "the failure shows in the source's health");

        stub.respond(s -> Answer.status(400, PrometheusClientTest.BAD_DATA));
        assertEquals(Map.of(), source.inFlightByPod("payments"));
        stub.respond(s -> Answer.json(PrometheusClientTest.EMPTY));
        assertEquals(Map.of(), source.inFlightByPod("payments"), "no series: no pods known");
    }

    @Test
    void historyIsARegularGridWithNanGapsAtTheChosenStep() throws Exception {
        stub = new StubPrometheus(s -> Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
                + "\"result\":[{\"metric\":{},\"values\":[[1767225600,\"1\"],[1767225601,\"2\"],[1767225603,\"4\"]]}]}}"));
        source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3));
        Instant from = Instant.parse("2026-01-01T00:00:00Z");
        History h = source.historyAsync("payments", Signals.QUEUE_LENGTH, from, from.plusSeconds(4), 1000)
                .get(5, TimeUnit.SECONDS);
        assertTrue(h.present());
        assertEquals(Duration.ofSeconds(1), h.step());
        assertArrayEquals(new double[] {1767225600, 1767225601, 1767225602, 1767225603, 1767225604}, h.times());
        assertArrayEquals(new double[] {1, 2, Double.NaN, 4, Double.NaN}, h.values());
        Map<String, String> p = stub.seen().get(0).params();
        assertEquals("sum(q_len)", p.get("query"));
        assertEquals("1", p.get("step"));
        assertThrows(IllegalArgumentException.class, () -> source.history("payments", Signals.POD_MEMORY, from,
                from.plusSeconds(60), 100));
    }

    @Test
    void historyWithoutDataSaysWhy() throws Exception {
        stub = new StubPrometheus(s -> Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
                + "\"result\":[]}}"));
        source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3));
        Instant from = Instant.parse("2026-01-01T00:00:00Z");
        History h = source.history("payments", Signals.OLDEST_AGE, from, from.plus(Duration.ofHours(24)), 1000);
        assertFalse(h.present());
        assertEquals(NoDataReason.EMPTY_RESULT, h.noData().reason());
        assertEquals(Duration.ofSeconds(120), h.step());
        assertEquals(0, h.size());
        assertNotNull(source.details().connection().lastSuccessAt());
    }

    @Test
    void aChartsHistoryWithoutDataSaysWhyInWordsNotARecord() throws Exception {
        stub = new StubPrometheus(s -> Answer.status(400, PrometheusClientTest.BAD_DATA));
        source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3));
        Instant from = Instant.parse("2026-01-01T00:00:00Z");
        String why = source.historyFor("payments", Signals.OLDEST_AGE, from, from.plusSeconds(600), 100)
                .get(5, java.util.concurrent.TimeUnit.SECONDS).noData();
        assertEquals("QUERY_ERROR: bad data: 1:5: parse error: unexpected right parenthesis ')' (HTTP 400)", why);
    }

    @Test
    void aPartialAnswerMakesItsSignalsPartialAndIsCountedInTheTickAndHealth() throws Exception {
        String warning = "partial response: store eu-1 unavailable";
        stub = new StubPrometheus(s -> {
            Answer a = good(s);
            String q = s.params().get("query");
            if (q.contains(SampleTimes.KEY) || !q.equals(payments().query(Signals.QUEUE_LENGTH))) {
                return a;
            }
            return Answer.json(a.body().substring(0, a.body().length() - 1) + ",\"warnings\":[\"" + warning + "\"]}");
        });
        Map<SignalName, Signal> s = source(stub.url(), Duration.ofSeconds(2), Duration.ofSeconds(3))
                .read(List.of("payments"), Instant.now()).get("payments");
        assertTrue(s.get(Signals.QUEUE_LENGTH).partial(), s.toString());
        assertEquals(List.of(warning), s.get(Signals.QUEUE_LENGTH).annotations().warnings());
        assertFalse(s.get(Signals.ARRIVAL_RATE).partial());
        assertEquals(1, source.details().lastTick().partial());
        assertTrue(source.health().detail().contains("1 partial (last warning: " + warning + ")"),
                source.health().detail());
        assertEquals(io.headroom.metrics.MetricsHealth.State.OK, source.health().state());

        // A partial sample-time answer: each value's age may be a shard's, so the values are partial too.
        stub.respond(q -> q.params().get("query").contains(SampleTimes.KEY)
                ? Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]},"
                + "\"warnings\":[\"" + warning + "\"]}") : good(q));
        s = source.read(List.of("payments"), Instant.now()).get("payments");
        assertTrue(s.get(Signals.ARRIVAL_RATE).partial(), s.toString());
    }
}
