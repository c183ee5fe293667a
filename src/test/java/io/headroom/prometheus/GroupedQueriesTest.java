package io.headroom.prometheus;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ClassConfig;
import io.headroom.config.GroupedQuery;
import io.headroom.config.PrometheusEndpoint;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.history.Backfill;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.History;
import io.headroom.metrics.SignalHistory;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Grouped queries against a stub: sent once for every class that shares them, split by label, absent is no data. */
class GroupedQueriesTest {

    static final String LEN = "sum by (queue) (q_len)";
    static final String AGE = "max by (queue) (q_age)";
    static final String IN = "sum by (queue) (rate(q_in[1m]))";

    static ClassConfig cls(String name, String value) {
        Map<SignalName, GroupedQuery> g = new LinkedHashMap<>();
        g.put(Signals.QUEUE_LENGTH, new GroupedQuery(LEN, "queue", value));
        g.put(Signals.OLDEST_AGE, new GroupedQuery(AGE, "queue", value));
        g.put(Signals.ARRIVAL_RATE, new GroupedQuery(IN, "queue", value));
        Map<SignalName, String> own = new LinkedHashMap<>();
        own.put(Signals.MEAN_SERVICE, "vector(8)");
        return new ClassConfig(name, new WorkloadRef("dev", "ns", "Deployment", name), own,
                Policy.builder().slotsPerReplica(4).build(), null, null, g);
    }

    /** A vector answer: one series per entry, {label: key} → value (a null key: a series without the label). */
    static Answer vector(String label, Object... keyValue) {
        StringBuilder b = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[");
        for (int i = 0; i < keyValue.length; i += 2) {
            b.append(i == 0 ? "" : ",").append("{\"metric\":{")
                    .append(keyValue[i] == null ? "" : "\"" + label + "\":\"" + keyValue[i] + "\"")
                    .append("},\"value\":[1767225600.5,\"").append(keyValue[i + 1]).append("\"]}");
        }
        return Answer.json(b.append("]}}").toString());
    }

    /** A matrix answer: per key, points at t0, t0+step, … with the given values. */
    static Answer matrix(String label, long t0, long step, Map<String, double[]> byKey) {
        StringBuilder b = new StringBuilder("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[");
        String sep = "";
        for (Map.Entry<String, double[]> e : byKey.entrySet()) {
            b.append(sep).append("{\"metric\":{\"").append(label).append("\":\"").append(e.getKey())
                    .append("\"},\"values\":[");
            for (int i = 0; i < e.getValue().length; i++) {
                b.append(i == 0 ? "" : ",").append('[').append(t0 + i * step).append(",\"").append(e.getValue()[i])
                        .append("\"]");
            }
            b.append("]}");
            sep = ",";
        }
        return Answer.json(b.append("]}}").toString());
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

    PrometheusMetricsSource source(List<ClassConfig> classes) throws Exception {
        PrometheusClient client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()), k -> null,
                Clock.systemUTC());
        source = new PrometheusMetricsSource(client, classes, pool, Duration.ofSeconds(3), Clock.systemUTC());
        return source;
    }

    /** Grouped answers: queues a and b, a queue no class reads, and a series without the label. */
    static Answer answer(StubPrometheus.Seen s) {
        String q = s.params().get("query");
        return switch (q) {
            case LEN -> vector("queue", "a", "30", "b", "12", "other", "5", null, "99");
            case AGE -> vector("queue", "a", "50", "b", "7");
            case IN -> vector("queue", "a", "0.5", "b", "NaN");
            case "vector(8)" -> Answer.vector("8");
            default -> q.contains("timestamp(")
                    // q_len of a stopped a minute ago; q_age's series carry no queue label (one time for all)
                    ? vector(SampleTimes.KEY, "0/a", "1767225540", "0/b", "1767225600.25", "1/", "1767225600")
                    : Answer.json(PrometheusClientTest.EMPTY);
        };
    }

    @Test
    void oneRequestPerDistinctQuerySplitByLabelAndAnAbsentValueIsNoData() throws Exception {
        stub = new StubPrometheus(GroupedQueriesTest::answer);
        List<ClassConfig> classes = List.of(cls("a", "a"), cls("b", "b"), cls("gone", "gone"));
        Map<String, Map<SignalName, Signal>> r = source(classes).read(List.of("a", "b", "gone"), Instant.now());

        Map<String, Long> sent = stub.seen().stream().collect(Collectors.groupingBy(
                x -> x.params().get("query"), LinkedHashMap::new, Collectors.counting()));
        assertEquals(5, stub.seen().size(), "three grouped queries, the shared vector(8), one sample-time query: " + sent);
        assertTrue(sent.values().stream().allMatch(n -> n == 1), "each sent once: " + sent);
        assertEquals(5, source.details().lastTick().queries());
        assertEquals("label_replace(max by (queue) (timestamp(q_len)), \"headroom_selector\", \"0/$1\", \"queue\", \"(.*)\")\n"
                + "or label_replace(max by (queue) (timestamp(q_age)), \"headroom_selector\", \"1/$1\", \"queue\", \"(.*)\")\n"
                + "or label_replace(max by (queue) (timestamp(q_in)), \"headroom_selector\", \"2/$1\", \"queue\", \"(.*)\")",
                sent.keySet().stream().filter(q -> q.contains("timestamp(")).findFirst().orElseThrow());

        assertEquals(30.0, r.get("a").get(Signals.QUEUE_LENGTH).value());
        assertEquals(50.0, r.get("a").get(Signals.OLDEST_AGE).value());
        assertEquals(0.5, r.get("a").get(Signals.ARRIVAL_RATE).value());
        assertEquals(8.0, r.get("a").get(Signals.MEAN_SERVICE).value());
        assertEquals(12.0, r.get("b").get(Signals.QUEUE_LENGTH).value());
        assertEquals("NAN_OR_INF: value is NaN", r.get("b").get(Signals.ARRIVAL_RATE).missingReason());

        Map<SignalName, Signal> gone = r.get("gone");
        for (SignalName signal : List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE)) {
            assertFalse(gone.get(signal).present(), signal + " of a queue the answer lacks is no data, never 0");
        }
        assertEquals("EMPTY_RESULT: no series with queue=\"gone\" in the grouped answer (4 series)",
                gone.get(Signals.QUEUE_LENGTH).missingReason());
        Decision d = DecisionEngine.decide("gone", classes.get(2).policy(), new Observation(5, 5, gone),
                ClassMemory.initial(), Instant.parse("2026-01-01T00:00:01Z"));
        assertEquals(5, d.desiredReplicas(), "holds: " + d.explanation());
        assertTrue(d.has(Reason.Code.TELEMETRY_MISSING));
        assertEquals(4, source.details().lastTick().noData(), "b's NaN and gone's three");
    }

    @Test
    void sampleTimesAreBatchedPerLabelValue() throws Exception {
        stub = new StubPrometheus(GroupedQueriesTest::answer);
        Map<String, Map<SignalName, Signal>> r = source(List.of(cls("a", "a"), cls("b", "b")))
                .read(List.of("a", "b"), Instant.now());
        assertEquals(Instant.parse("2025-12-31T23:59:00Z"), r.get("a").get(Signals.QUEUE_LENGTH).sampledAt(),
                "a's own newest sample, a minute old");
        assertEquals(Instant.parse("2026-01-01T00:00:00.250Z"), r.get("b").get(Signals.QUEUE_LENGTH).sampledAt());
        assertEquals(Instant.parse("2026-01-01T00:00:00Z"), r.get("b").get(Signals.OLDEST_AGE).sampledAt(),
                "a selector without the label: its one time counts for every class");
        assertEquals(Instant.parse("2026-01-01T00:00:00.500Z"), r.get("a").get(Signals.ARRIVAL_RATE).sampledAt(),
                "no sample time for its selector: the evaluation time");
        assertEquals(0, source.details().lastTick().sampleTimesFailed());
    }

    @Test
    void aValueOnSeveralSeriesIsMultipleSeriesForThatClassOnly() throws Exception {
        stub = new StubPrometheus(s -> LEN.equals(s.params().get("query"))
                ? vector("queue", "a", "30", "b", "1", "b", "2") : answer(s));
        Map<String, Map<SignalName, Signal>> r = source(List.of(cls("a", "a"), cls("b", "b")))
                .read(List.of("a", "b"), Instant.now());
        assertEquals(30.0, r.get("a").get(Signals.QUEUE_LENGTH).value());
        assertEquals("MULTIPLE_SERIES: 2 series have queue=\"b\"; aggregate the grouped query by (queue)",
                r.get("b").get(Signals.QUEUE_LENGTH).missingReason());
    }

    @Test
    void aFailedGroupedQueryIsNoDataForEveryClassThatSharesIt() throws Exception {
        stub = new StubPrometheus(s -> switch (s.params().get("query")) {
            case LEN -> Answer.status(503, "");
            case AGE -> Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}");
            default -> answer(s);
        });
        Map<String, Map<SignalName, Signal>> r = source(List.of(cls("a", "a"), cls("b", "b")))
                .read(List.of("a", "b"), Instant.now());
        for (String c : List.of("a", "b")) {
            assertTrue(r.get(c).get(Signals.QUEUE_LENGTH).missingReason().startsWith("HTTP_ERROR: HTTP 503"),
                    r.get(c).toString());
            assertTrue(r.get(c).get(Signals.OLDEST_AGE).missingReason().startsWith("QUERY_ERROR: the query returns a range"),
                    r.get(c).toString());
            assertTrue(r.get(c).get(Signals.ARRIVAL_RATE).present() || c.equals("b"), "other queries are unaffected");
            assertEquals(8.0, r.get(c).get(Signals.MEAN_SERVICE).value());
        }
    }

    @Test
    void aClassOwnQueryStillWorksBesideGroupedOnes() throws Exception {
        Map<SignalName, String> own = new LinkedHashMap<>();
        own.put(Signals.QUEUE_LENGTH, "sum(q_len{queue=\"solo\"})");
        own.put(Signals.OLDEST_AGE, "max(q_age{queue=\"solo\"})");
        own.put(Signals.ARRIVAL_RATE, "sum(rate(q_in{queue=\"solo\"}[1m]))");
        own.put(Signals.MEAN_SERVICE, "vector(8)");
        ClassConfig solo = new ClassConfig("solo", new WorkloadRef("dev", "ns", "Deployment", "solo"), own,
                Policy.defaults());
        stub = new StubPrometheus(s -> s.params().get("query").startsWith("sum(q_len{") ? Answer.vector("3")
                : answer(s));
        Map<String, Map<SignalName, Signal>> r = source(List.of(cls("a", "a"), solo)).read(List.of("a", "solo"),
                Instant.now());
        assertEquals(3.0, r.get("solo").get(Signals.QUEUE_LENGTH).value());
        assertEquals(30.0, r.get("a").get(Signals.QUEUE_LENGTH).value());
        // a: 3 grouped; solo: 3 own; vector(8) once; solo's own sample-time query; the grouped one.
        assertEquals(9, stub.seen().size());
    }

    @Test
    void backfillSendsEachGroupedQueryOncePerChunkForAllClasses() throws Exception {
        long step = 15;
        Instant now = Instant.ofEpochSecond(1_767_225_600L);
        Map<String, double[]> len = new LinkedHashMap<>();
        len.put("a", new double[] {1, 2, 3});
        len.put("b", new double[] {4, Double.NaN, 6});
        stub = new StubPrometheus(s -> {
            if (!s.path().endsWith("query_range")) {
                return Answer.json(PrometheusClientTest.EMPTY);
            }
            return LEN.equals(s.params().get("query")) ? matrix("queue", now.getEpochSecond() - 30, step, len)
                    : Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}");
        });
        List<ClassConfig> classes = List.of(cls("a", "a"), cls("b", "b"), cls("gone", "gone"));
        Map<String, SignalHistory> h = source(classes).rangeAll(List.of("a", "b", "gone"), Signals.QUEUE_LENGTH,
                now.minusSeconds(60), now, Duration.ofSeconds(step));
        assertEquals(1, stub.seen().size(), "one query_range for three classes");
        assertEquals(List.of("a", "b", "gone"), List.copyOf(h.keySet()));
        int n = h.get("a").size();
        assertEquals(5, n, "60 s at 15 s, both ends");
        assertEquals(3.0, h.get("a").values()[n - 1]);
        assertEquals(6.0, h.get("b").values()[n - 1]);
        assertTrue(Double.isNaN(h.get("b").values()[n - 2]));
        assertTrue(Double.isNaN(h.get("a").values()[0]), "before the series: a gap");
        assertEquals(0, h.get("gone").size());
        assertEquals("EMPTY_RESULT: no series with queue=\"gone\" in the grouped answer (2 series) in the range",
                h.get("gone").noData());

        // A whole backfill: one request per distinct query (three grouped, vector(8) once), not per class.
        stub.respond(s -> LEN.equals(s.params().get("query")) ? matrix("queue", now.getEpochSecond() - 30, step, len)
                : Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"));
        int before = stub.seen().size();
        History history = new History(Duration.ofSeconds(step));
        List<Backfill.Result> results = Backfill.fillAll(history, source, List.of("a", "b", "gone"), now,
                Duration.ofMinutes(1));
        assertEquals(4, stub.seen().size() - before);
        assertEquals(3.0, history.of("a").value(Series.QUEUE_LENGTH, history.of("a").size() - 1));
        assertEquals(6.0, history.of("b").value(Series.QUEUE_LENGTH, history.of("b").size() - 1));
        assertTrue(results.get(2).missing().stream().anyMatch(m -> m.startsWith("queueLength (EMPTY_RESULT: no series")),
                results.get(2).missing().toString());
    }
}
