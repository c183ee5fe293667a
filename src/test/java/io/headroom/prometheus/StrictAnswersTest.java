package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.PrometheusEndpoint;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The defects issue 26 found in how answers were read, each held here: an answer that is ambiguous or
 * malformed is bad data with its reason, never believed.
 */
class StrictAnswersTest {

    /** The stub's sample time (2026-01-01T00:00:00.5Z); the clock below is an hour later. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T01:00:00Z"), ZoneOffset.UTC);

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

    QueryOutcome query(String body) throws Exception {
        return query(200, body);
    }

    QueryOutcome query(int status, String body) throws Exception {
        tearDown();
        stub = new StubPrometheus(s -> Answer.status(status, body));
        client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()).withTimeout(Duration.ofSeconds(2)),
                k -> null, CLOCK);
        return client.query("up");
    }

    QueryOutcome.NoData noData(String body) throws Exception {
        return assertInstanceOf(QueryOutcome.NoData.class, query(body));
    }

    static String vector(String value) {
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[1767225600.5,\""
                + value + "\"]}]}}";
    }

    @Test
    void twoStatusKeysAreBadDataNotTheLastOneBelieved() throws Exception {
        QueryOutcome.NoData n = noData("{\"status\":\"error\",\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
                + "\"result\":[{\"metric\":{},\"value\":[1767225600.5,\"0\"]}]}}");
        assertEquals(NoDataReason.MALFORMED, n.reason());
        assertTrue(n.message().contains("duplicate") && n.message().contains("status"), n.message());
    }

    @Test
    void duplicateKeysAtAnyLevelAreBadData() throws Exception {
        for (String body : new String[] {
            // in data
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"resultType\":\"scalar\",\"result\":"
                    + "[{\"metric\":{},\"value\":[1767225600.5,\"1\"]}]}}",
            // in a series
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                    + "\"value\":[1767225600.5,\"1\"],\"value\":[1767225600.5,\"0\"]}]}}",
            // in a label set, even one nobody reads
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{\"pod\":\"a\","
                    + "\"pod\":\"b\"},\"value\":[1767225600.5,\"1\"]}]}}",
            // in a second series, which a one-number query only counts
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":"
                    + "[1767225600.5,\"1\"]},{\"metric\":{\"a\":\"1\",\"a\":\"2\"},\"value\":[1767225600.5,\"1\"]}]}}"}) {
            QueryOutcome.NoData n = noData(body);
            assertEquals(NoDataReason.MALFORMED, n.reason(), body);
            assertTrue(n.message().contains("duplicate"), n.message());
        }
    }

    @Test
    void aSuccessWithoutResultTypeIsBadData() throws Exception {
        QueryOutcome.NoData n = noData("{\"status\":\"success\",\"data\":{\"result\":[1767225600.5,\"0\"]}}");
        assertEquals(NoDataReason.MALFORMED, n.reason());
        assertTrue(n.message().contains("resultType"), n.message());
        assertEquals(NoDataReason.MALFORMED, noData("{\"status\":\"success\"}").reason(), "no data at all");
        assertEquals(NoDataReason.MALFORMED, noData("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\"}}")
                .reason(), "no result");
        assertEquals(NoDataReason.MALFORMED, noData("{\"status\":\"maybe\",\"data\":{\"resultType\":\"scalar\","
                + "\"result\":[1767225600.5,\"1\"]}}").reason(), "a status that is neither success nor error");
    }

    @Test
    void aResultTypeThatDoesNotMatchTheResultIsBadData() throws Exception {
        for (String body : new String[] {
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[1767225600.5,\"1\"]}}",
            "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[{\"metric\":{},"
                    + "\"value\":[1767225600.5,\"1\"]}]}}",
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                    + "\"values\":[[1767225600.5,\"1\"]]}]}}",
            "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},"
                    + "\"value\":[1767225600.5,\"1\"]}]}}",
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{}}]}}",
            "{\"status\":\"success\",\"data\":{\"resultType\":\"histogram\",\"result\":[]}}",
            "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[]}}"}) {
            assertEquals(NoDataReason.MALFORMED, noData(body).reason(), body);
        }
    }

    @Test
    void bytesAfterTheAnswerAreBadData() throws Exception {
        for (String tail : new String[] {"garbage", "{}", "{\"status\":\"success\"}", "]", "0"}) {
            QueryOutcome.NoData n = noData(vector("0") + tail);
            assertEquals(NoDataReason.MALFORMED, n.reason(), tail);
        }
        assertInstanceOf(QueryOutcome.Value.class, query(vector("3") + " \n\t "), "trailing white space is fine");
    }

    @Test
    void aSampleValueThatIsNotAStringIsBadData() throws Exception {
        QueryOutcome.NoData n = noData("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                + "[{\"metric\":{},\"value\":[1767225600.5,0]}]}}");
        assertEquals(NoDataReason.MALFORMED, n.reason());
        assertFalse(n.message().contains("VALUE_NUMBER"), "plain words: " + n.message());
    }

    @Test
    void aSampleFromAYearAheadIsBadDataNotFresh() throws Exception {
        Instant yearAhead = CLOCK.instant().plus(Duration.ofDays(365));
        QueryOutcome.NoData n = noData("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                + "[{\"metric\":{},\"value\":[" + yearAhead.getEpochSecond() + ",\"5\"]}]}}");
        assertEquals(NoDataReason.MALFORMED, n.reason());
        assertTrue(n.message().contains("ahead of this machine's clock"), n.message());
        // Within the tolerance a sample ahead of the clock is ordinary skew between two hosts.
        Instant slightly = CLOCK.instant().plusSeconds(5);
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, query("{\"status\":\"success\",\"data\":"
                + "{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":[" + slightly.getEpochSecond()
                + ",\"5\"]}]}}"));
        assertEquals(slightly, v.sampledAt());
        // The range path too.
        tearDown();
        stub = new StubPrometheus(s -> Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\","
                + "\"result\":[{\"metric\":{},\"values\":[[100,\"1\"],[" + yearAhead.getEpochSecond() + ",\"2\"]]}]}}"));
        client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()), k -> null, CLOCK);
        RangeOutcome r = client.queryRange("x", Instant.ofEpochSecond(100), Instant.ofEpochSecond(130),
                Duration.ofSeconds(10));
        assertEquals(NoDataReason.MALFORMED, assertInstanceOf(RangeOutcome.NoData.class, r).reason());
    }

    @Test
    void aNativeHistogramIsSaidSoNotCalledMalformed() throws Exception {
        QueryOutcome.NoData n = noData("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":"
                + "[{\"metric\":{\"__name__\":\"rpc_seconds\"},\"histogram\":[1767225600.5,{\"count\":\"10\",\"sum\":\"20\","
                + "\"buckets\":[[0,\"1.414213562373095\",\"1.6817928305074288\",\"1\"]]}]}]}}");
        assertEquals("NATIVE_HISTOGRAM", n.reason().name());
        assertEquals("a native histogram where a number is needed: wrap it in histogram_count, histogram_sum"
                + " or histogram_quantile", n.message());
    }

    @Test
    void errorTypeTimeoutIsATimeout() throws Exception {
        QueryOutcome o = query(503, "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out in"
                + " expression evaluation\"}");
        QueryOutcome.NoData n = assertInstanceOf(QueryOutcome.NoData.class, o);
        assertEquals(NoDataReason.TIMEOUT, n.reason());
        assertTrue(n.message().contains("query timed out in expression evaluation"), n.message());
    }

    @Test
    void aBodyShorterThanItsContentLengthIsBadData() throws Exception {
        String body = vector("7");
        try (LyingServer server = new LyingServer(body, body.getBytes(StandardCharsets.UTF_8).length + 40)) {
            client = PrometheusClient.connect(PrometheusEndpoint.of(server.url()).withTimeout(Duration.ofSeconds(5)),
                    k -> null, CLOCK);
            QueryOutcome.NoData n = assertInstanceOf(QueryOutcome.NoData.class, client.query("up"));
            assertEquals(NoDataReason.MALFORMED, n.reason());
            assertTrue(n.message().contains("shorter than"), n.message());
        }
    }

    static String withAnnotations(String value, String warnings, String infos) {
        String v = vector(value);
        return v.substring(0, v.length() - 1) + (warnings == null ? "" : ",\"warnings\":" + warnings)
                + (infos == null ? "" : ",\"infos\":" + infos) + "}";
    }

    @Test
    void warningsAreKeptAndMakeTheValuePartial() throws Exception {
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, query(withAnnotations("12",
                "[\"partial response: store eu-1 unavailable\"]", "[\"metric might not be a counter\"]")));
        assertEquals(12.0, v.value());
        assertTrue(v.partial());
        assertEquals(java.util.List.of("partial response: store eu-1 unavailable"), v.annotations().warnings());
        assertEquals(java.util.List.of("metric might not be a counter"), v.annotations().infos());
        io.headroom.decision.Signal s = v.toSignal();
        assertTrue(s.present() && s.partial(), "the decision sees a present, partial signal: " + s);
        assertEquals(1, client.health().partialAnswers());
        assertEquals("partial response: store eu-1 unavailable", client.health().lastWarning());
        assertEquals(PrometheusHealth.State.OK, client.health().state(), "a partial answer is an answer");
    }

    @Test
    void infosAloneDoNotMakeAnAnswerPartial() throws Exception {
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, query(withAnnotations("12", "[]",
                "[\"metric might not be a counter, name does not end in _total\"]")));
        assertFalse(v.partial());
        assertFalse(v.toSignal().partial());
        assertEquals(1, v.annotations().infos().size());
        assertFalse(assertInstanceOf(QueryOutcome.Value.class, query(withAnnotations("1", "null", "null"))).partial());
    }

    @Test
    void warningsAreBoundedAndMadeSafe() throws Exception {
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < 20; i++) {
            many.append(i == 0 ? "" : ",").append("\"store ").append(i).append(" down \\u001b[2J").append("x".repeat(500))
                    .append("\"");
        }
        many.append(",\"store 0 down \\u001b[2J").append("x".repeat(500)).append("\"]"); // the same one again
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, query(withAnnotations("1", many.toString(), null)));
        java.util.List<String> w = v.annotations().warnings();
        assertEquals(ResponseDecoder.MAX_ANNOTATIONS + 1, w.size(), w.toString());
        assertEquals("and 15 more warnings", w.get(w.size() - 1));
        for (String one : w) {
            assertTrue(one.length() <= ResponseDecoder.MAX_ANNOTATION_LENGTH + 1, one.length() + ": " + one);
            UntrustedPrometheusTest.assertPlain(one);
        }
        assertEquals(NoDataReason.MALFORMED, noData(withAnnotations("1", "[1, 2]", null)).reason(),
                "warnings that are not strings");
        assertEquals(NoDataReason.MALFORMED, noData(withAnnotations("1", "\"store down\"", null)).reason(),
                "warnings that are not a list");
    }

    @Test
    void anEmptyOrErrorAnswerKeepsItsWarningsInWhatItSays() throws Exception {
        QueryOutcome.NoData empty = noData("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]},"
                + "\"warnings\":[\"store eu-1 unavailable\"]}");
        assertEquals(NoDataReason.EMPTY_RESULT, empty.reason());
        assertTrue(empty.message().contains("the answer was partial (store eu-1 unavailable)"), empty.message());
        assertTrue(empty.toSignal().annotations().partial());
        QueryOutcome.NoData error = noData("{\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"too many"
                + " samples\",\"warnings\":[\"store eu-1 unavailable\"]}");
        assertEquals(NoDataReason.QUERY_ERROR, error.reason());
        assertEquals("execution error: too many samples; the answer was partial (store eu-1 unavailable)",
                error.message());
    }

    @Test
    void aPartialGroupedAnswerMakesEveryClassPartialAndAnAbsentClassSaysWhy() throws Exception {
        tearDown();
        stub = new StubPrometheus(s -> Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
                + "\"result\":[{\"metric\":{\"queue\":\"a\"},\"value\":[1767225600.5,\"3\"]}]},"
                + "\"warnings\":[\"shard 2 of 3 did not answer\"]}"));
        client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()), k -> null, CLOCK);
        GroupedOutcome.Split split = assertInstanceOf(GroupedOutcome.Split.class, client.queryGrouped("q", "queue"));
        assertTrue(assertInstanceOf(QueryOutcome.Value.class, split.forValue("a")).partial());
        QueryOutcome.NoData b = assertInstanceOf(QueryOutcome.NoData.class, split.forValue("b"));
        assertEquals(NoDataReason.EMPTY_RESULT, b.reason());
        assertTrue(b.message().endsWith("the answer was partial (shard 2 of 3 did not answer)"), b.message());
    }

    @Test
    void failuresAreSaidInWordsWithoutJavaClassNames() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        client = PrometheusClient.connect(PrometheusEndpoint.of(URI.create("http://127.0.0.1:" + port)), k -> null, CLOCK);
        QueryOutcome.NoData refused = assertInstanceOf(QueryOutcome.NoData.class, client.query("up"));
        assertEquals(NoDataReason.UNREACHABLE, refused.reason());
        assertTrue(refused.message().startsWith("connection refused"), refused.message());
        for (String m : new String[] {refused.message(), client.health().lastFailure(),
            PlainFailure.words(new javax.net.ssl.SSLHandshakeException("PKIX path building failed: "
                    + "sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path")),
            PlainFailure.words(new java.net.SocketException("java.net.SocketException: Connection reset"))}) {
            assertFalse(m.matches("(?s).*\\b[A-Za-z.]*(Exception|Error)\\b.*"), "a class name in: " + m);
        }
    }

    /**
     * A one-request HTTP server on a real socket that sends the whole body but announces a longer one,
     * then closes the connection: what a proxy cut off mid-answer looks like.
     */
    static final class LyingServer implements AutoCloseable {
        private final ServerSocket socket;
        private final ExecutorService pool = Executors.newSingleThreadExecutor();

        LyingServer(String body, int announcedLength) throws IOException {
            socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            pool.submit(() -> {
                try (Socket s = socket.accept()) {
                    InputStream in = s.getInputStream();
                    readHeaders(in);
                    OutputStream out = s.getOutputStream();
                    out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + announcedLength
                            + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
                return null;
            });
        }

        private static void readHeaders(InputStream in) throws IOException {
            int matched = 0;
            byte[] end = {'\r', '\n', '\r', '\n'};
            for (int b = in.read(); b >= 0; b = in.read()) {
                matched = b == end[matched] ? matched + 1 : b == '\r' ? 1 : 0;
                if (matched == end.length) {
                    return;
                }
            }
        }

        URI url() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        @Override
        public void close() throws IOException {
            socket.close();
            pool.shutdownNow();
        }
    }
}
