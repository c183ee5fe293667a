package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.PrometheusEndpoint;
import io.headroom.config.SecretRef;
import io.headroom.decision.Signal;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The client against a stub server: every failure is its typed no-data, never a 0 or an exception. */
class PrometheusClientTest {

    static final String EMPTY = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}";
    static final String TWO = "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
            + "{\"metric\":{\"pod\":\"a\"},\"value\":[1767225600,\"1\"]},"
            + "{\"metric\":{\"pod\":\"b\"},\"value\":[1767225600,\"2\"]}]}}";
    static final String BAD_DATA = "{\"status\":\"error\",\"errorType\":\"bad_data\","
            + "\"error\":\"1:5: parse error: unexpected right parenthesis ')'\"}";

    StubPrometheus stub;
    PrometheusClient client;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (stub != null) {
            stub.close();
        }
    }

    PrometheusClient connect(Answer answer, Duration timeout) throws Exception {
        stub = new StubPrometheus(s -> answer);
        client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()).withTimeout(timeout), k -> null,
                Clock.systemUTC());
        return client;
    }

    QueryOutcome.NoData noData(Answer answer) throws Exception {
        return assertInstanceOf(QueryOutcome.NoData.class, connect(answer, Duration.ofSeconds(2)).query("up"));
    }

    @Test
    void aOneSeriesVectorIsItsValueWithTheSampleTime() throws Exception {
        QueryOutcome o = connect(Answer.vector("42.5"), Duration.ofSeconds(2)).query("sum(q)");
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, o);
        assertEquals(42.5, v.value());
        assertEquals(Instant.parse("2026-01-01T00:00:00.500Z"), v.sampledAt());
        assertEquals(Signal.of(42.5, v.sampledAt()), o.toSignal());
        StubPrometheus.Seen s = stub.seen().get(0);
        assertEquals("GET", s.method());
        assertEquals("/api/v1/query", s.path());
        assertEquals(Map.of("query", "sum(q)"), s.params());
        assertNull(s.authorization());
    }

    @Test
    void aScalarResultIsAValue() throws Exception {
        QueryOutcome o = connect(Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\","
                + "\"result\":[1767225600,\"3\"]}}"), Duration.ofSeconds(2)).query("scalar(x)");
        assertEquals(3.0, assertInstanceOf(QueryOutcome.Value.class, o).value());
    }

    @Test
    void aQueryByLabelKeepsEverySeriesByItsLabel() throws Exception {
        VectorOutcome o = connect(Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                + "{\"metric\":{\"k\":\"0\",\"other\":\"x\"},\"value\":[1767225600,\"1767225590.25\"]},"
                + "{\"metric\":{\"other\":\"no key\"},\"value\":[1767225600,\"5\"]},"
                + "{\"metric\":{\"k\":\"1\"},\"value\":[1767225600,\"NaN\"]}]}}"), Duration.ofSeconds(2))
                .queryByLabel("q", "k");
        VectorOutcome.Samples s = assertInstanceOf(VectorOutcome.Samples.class, o);
        assertEquals(2, s.byKey().size(), "the series without the label is left out: " + s.byKey());
        assertEquals(1767225590.25, s.byKey().get("0"));
        assertTrue(Double.isNaN(s.byKey().get("1")));
        tearDown();
        assertEquals(Map.of(), assertInstanceOf(VectorOutcome.Samples.class,
                connect(Answer.json(EMPTY), Duration.ofSeconds(2)).queryByLabel("q", "k")).byKey());
        tearDown();
        QueryOutcome.NoData scalar = assertInstanceOf(QueryOutcome.NoData.class, connect(Answer.json(
                "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[1767225600,\"3\"]}}"),
                Duration.ofSeconds(2)).queryByLabel("q", "k"));
        assertEquals(NoDataReason.MALFORMED, scalar.reason());
        tearDown();
        assertEquals(NoDataReason.HTTP_ERROR, assertInstanceOf(QueryOutcome.NoData.class,
                connect(Answer.status(503, ""), Duration.ofSeconds(2)).queryByLabel("q", "k")).reason());
        tearDown();
        QueryOutcome.NoData twice = assertInstanceOf(QueryOutcome.NoData.class, connect(Answer.json(
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                        + "{\"metric\":{\"pod\":\"w-0\",\"c\":\"a\"},\"value\":[1767225600,\"0\"]},"
                        + "{\"metric\":{\"pod\":\"w-0\",\"c\":\"b\"},\"value\":[1767225600,\"3\"]}]}}"),
                Duration.ofSeconds(2)).queryByLabel("q", "pod"));
        assertEquals(NoDataReason.MULTIPLE_SERIES, twice.reason(), "a pod at 0 on one series and 3 on another");
        assertTrue(twice.message().contains("aggregate with sum by (pod)"), twice.message());
    }

    @Test
    void emptyVectorIsEmptyResult() throws Exception {
        QueryOutcome.NoData n = noData(Answer.json(EMPTY));
        assertEquals(NoDataReason.EMPTY_RESULT, n.reason());
        assertEquals("EMPTY_RESULT: the query matched no series", n.toSignal().missingReason());
    }

    @Test
    void nanAndInfinityAreNanOrInf() throws Exception {
        assertEquals(NoDataReason.NAN_OR_INF, noData(Answer.vector("NaN")).reason());
        tearDown();
        QueryOutcome.NoData inf = noData(Answer.vector("+Inf"));
        assertEquals(NoDataReason.NAN_OR_INF, inf.reason());
        assertEquals("value is +Inf", inf.message());
    }

    @Test
    void severalSeriesAreMultipleSeries() throws Exception {
        QueryOutcome.NoData n = noData(Answer.json(TWO));
        assertEquals(NoDataReason.MULTIPLE_SERIES, n.reason());
        assertTrue(n.message().startsWith("the query returned 2 series"), n.message());
    }

    @Test
    void statusErrorIsQueryErrorWithItsTypeAndMessage() throws Exception {
        QueryOutcome.NoData n = noData(Answer.status(400, BAD_DATA));
        assertEquals(NoDataReason.QUERY_ERROR, n.reason());
        assertEquals("bad data: 1:5: parse error: unexpected right parenthesis ')' (HTTP 400)", n.message());
    }

    @Test
    void http500And503AreHttpErrors() throws Exception {
        QueryOutcome.NoData n500 = noData(Answer.status(500, "internal error"));
        assertEquals(NoDataReason.HTTP_ERROR, n500.reason());
        assertTrue(n500.message().startsWith("HTTP 500"), n500.message());
        tearDown();
        QueryOutcome.NoData n503 = noData(Answer.status(503, ""));
        assertEquals(NoDataReason.HTTP_ERROR, n503.reason());
        assertTrue(n503.message().startsWith("HTTP 503"), n503.message());
    }

    @Test
    void invalidJsonIsMalformed() throws Exception {
        assertEquals(NoDataReason.MALFORMED, noData(Answer.json("{\"status\":\"success\",\"data\":{")).reason());
        tearDown();
        assertEquals(NoDataReason.MALFORMED, noData(Answer.json("<html>proxy login</html>")).reason());
        tearDown();
        assertEquals(NoDataReason.MALFORMED, noData(Answer.vector("twelve")).reason());
    }

    @Test
    void aSlowServerIsTimeoutWithinTheTimeout() throws Exception {
        connect(Answer.hanging(), Duration.ofMillis(300));
        long t0 = System.nanoTime();
        QueryOutcome.NoData n = assertInstanceOf(QueryOutcome.NoData.class, client.query("up"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(NoDataReason.TIMEOUT, n.reason());
        assertTrue(ms < 3000, "took " + ms + " ms");
    }

    @Test
    void aClosedPortIsUnreachable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        client = PrometheusClient.connect(PrometheusEndpoint.of(URI.create("http://127.0.0.1:" + port)),
                k -> null, Clock.systemUTC());
        QueryOutcome.NoData n = assertInstanceOf(QueryOutcome.NoData.class, client.query("up"));
        assertEquals(NoDataReason.UNREACHABLE, n.reason());
        PrometheusHealth h = client.health();
        assertEquals(PrometheusHealth.State.FAILING, h.state());
        assertEquals(NoDataReason.UNREACHABLE, h.lastFailureReason());
        assertEquals(1, h.requests());
        assertEquals(1, h.failures());
    }

    @Test
    void longQueriesArePostedAsAFormWithTheirParameters() throws Exception {
        connect(Answer.vector("1"), Duration.ofSeconds(2));
        String longQuery = "sum(x{a=\"" + "y".repeat(PrometheusClient.POST_THRESHOLD) + "\"})";
        Instant at = Instant.parse("2026-01-01T00:00:00.250Z");
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, client.query(longQuery, at, true));
        assertEquals(1.0, v.value());
        StubPrometheus.Seen s = stub.seen().get(0);
        assertEquals("POST", s.method());
        assertEquals(Map.of("query", longQuery, "time", "1767225600.250", "stats", "all"), s.params());
    }

    @Test
    void statsAreDecodedWhenAskedFor() throws Exception {
        connect(Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                + "\"value\":[1767225600,\"7\"]}],\"stats\":{\"timings\":{\"execTotalTime\":0.0012},"
                + "\"samples\":{\"totalQueryableSamples\":120,\"peakSamples\":12}}}}"), Duration.ofSeconds(2));
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, client.query("x", null, true));
        assertEquals(new QueryOutcome.QueryStats(0.0012, 120, 12), v.stats());
        assertEquals("all", stub.seen().get(0).params().get("stats"));
    }

    @Test
    void bearerAndBasicAuthAreSentAndNeverShown() throws Exception {
        stub = new StubPrometheus(s -> Answer.vector("1"));
        Map<String, String> env = Map.of("TOKEN", "tok-123", "PW", "pw-456");
        client = PrometheusClient.connect(new PrometheusEndpoint(stub.url(), SecretRef.env("TOKEN"), null, null,
                false, Duration.ofSeconds(2)), env::get, Clock.systemUTC());
        client.query("up");
        assertEquals("Bearer tok-123", stub.seen().get(0).authorization());
        assertFalse(client.toString().contains("tok-123"));
        assertFalse(client.health().toString().contains("tok-123"));
        client.close();

        client = PrometheusClient.connect(new PrometheusEndpoint(stub.url(), null,
                new PrometheusEndpoint.BasicAuth("ops", SecretRef.env("PW")), null, false, Duration.ofSeconds(2)),
                env::get, Clock.systemUTC());
        client.query("up");
        // "ops:pw-456" in base64
        assertEquals("Basic b3BzOnB3LTQ1Ng==", stub.seen().get(1).authorization());
    }

    @Test
    void aMissingSecretFailsSetupWithoutAnyRequest() throws Exception {
        stub = new StubPrometheus(s -> Answer.vector("1"));
        PrometheusSetupException e = org.junit.jupiter.api.Assertions.assertThrows(PrometheusSetupException.class,
                () -> PrometheusClient.connect(new PrometheusEndpoint(stub.url(), SecretRef.env("NOPE"), null, null,
                        false, null), k -> null, Clock.systemUTC()));
        assertEquals("prometheus credentials: environment variable NOPE is not set", e.getMessage());
        assertTrue(stub.seen().isEmpty());
    }

    @Test
    void healthCountsRequestsAndTellsDataProblemsFromConnectionProblems() throws Exception {
        connect(Answer.json(EMPTY), Duration.ofSeconds(2));
        assertEquals(PrometheusHealth.State.UNKNOWN, client.health().state());
        client.query("a");
        client.query("b");
        PrometheusHealth h = client.health();
        assertEquals(2, h.requests());
        assertEquals(0, h.failures(), "an empty result is an answer, not a connection failure");
        assertEquals(PrometheusHealth.State.OK, h.state());
        stub.respond(s -> Answer.status(503, "down"));
        client.query("c");
        h = client.health();
        assertEquals(3, h.requests());
        assertEquals(1, h.failures());
        assertEquals(PrometheusHealth.State.FAILING, h.state());
        assertEquals(NoDataReason.HTTP_ERROR, h.lastFailureReason());
        assertEquals(stub.url().toString() + "/", h.url());
        assertFalse(h.insecure());
    }

    @Test
    void rangeQueriesDecodeToPrimitiveArraysWithNanForNonFinite() throws Exception {
        connect(Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},"
                + "\"values\":[[100,\"1\"],[110,\"NaN\"],[120,\"+Inf\"],[130,\"4.5\"]]}]}}"), Duration.ofSeconds(2));
        RangeOutcome r = client.queryRange("x", Instant.ofEpochSecond(100), Instant.ofEpochSecond(130),
                Duration.ofSeconds(10));
        RangeOutcome.Series s = assertInstanceOf(RangeOutcome.Series.class, r);
        assertArrayEquals(new double[] {100, 110, 120, 130}, s.times());
        assertArrayEquals(new double[] {1, Double.NaN, Double.NaN, 4.5}, s.values());
        assertEquals(Map.of("query", "x", "start", "100.000", "end", "130.000", "step", "10"),
                stub.seen().get(0).params());
        assertEquals("/api/v1/query_range", stub.seen().get(0).path());
    }

    @Test
    void rangeQueriesReportTheSameTypedNoData() throws Exception {
        connect(Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
                + "{\"metric\":{\"a\":\"1\"},\"values\":[[100,\"1\"]]},{\"metric\":{\"a\":\"2\"},\"values\":[[100,\"1\"]]}]}}"),
                Duration.ofSeconds(2));
        RangeOutcome r = client.queryRange("x", Instant.ofEpochSecond(100), Instant.ofEpochSecond(130),
                Duration.ofSeconds(10));
        assertEquals(NoDataReason.MULTIPLE_SERIES, assertInstanceOf(RangeOutcome.NoData.class, r).reason());
        stub.respond(s -> Answer.status(400, BAD_DATA));
        r = client.queryRange("x", Instant.ofEpochSecond(100), Instant.ofEpochSecond(130), Duration.ofSeconds(10));
        assertEquals(NoDataReason.QUERY_ERROR, assertInstanceOf(RangeOutcome.NoData.class, r).reason());
    }
}
