package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.PrometheusEndpoint;
import io.headroom.decision.Annotations;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Prometheus's own answers, as its documentation and its tests write them, read by the client over
 * HTTP. Each row names where its body comes from: the API documentation ({@code docs/querying/api.md}
 * of prometheus/prometheus), the server's JSON codec and response tests ({@code web/api/v1/json_codec_test.go},
 * {@code web/api/v1/api_test.go}) and the official Go client's response table
 * ({@code api/prometheus/v1/api_test.go} of prometheus/client_golang, {@code TestAPIClientDo}).
 * Where Headroom reads an answer differently from the Go client, the row says so (decision record 0016).
 */
class UpstreamAnswersTest {

    /** Later than every documented sample; the codec test's largest timestamp (year 393188) is beyond it. */
    static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);

    static StubPrometheus stub;
    static PrometheusClient client;
    static volatile Answer next;

    @BeforeAll
    static void start() throws Exception {
        stub = new StubPrometheus(s -> next);
        client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()).withTimeout(Duration.ofSeconds(3)),
                k -> null, CLOCK);
    }

    @AfterAll
    static void stop() {
        client.close();
        stub.close();
    }

    /** How the row's body is asked for. */
    enum Ask {
        /** One number ({@code query}). */
        QUERY,
        /** Every series by its {@code instance} or {@code __name__} label ({@code queryByLabel}). */
        BY_LABEL,
        /** A grouped instant query split by that label ({@code queryGrouped}). */
        GROUPED,
        /** One series over a range ({@code queryRange}). */
        RANGE,
        /** A grouped range query split by that label ({@code queryRangeGrouped}). */
        RANGE_GROUPED
    }

    /**
     * @param source   the upstream file and test (or section) the body comes from
     * @param http     the HTTP status the server answers with
     * @param ask      how the client asks
     * @param label    the label series are told apart by (BY_LABEL, GROUPED, RANGE_GROUPED)
     * @param body     the body, as upstream writes it
     * @param expected how Headroom reads it, as {@link #render} writes an outcome (a prefix of it)
     */
    record Row(String source, int http, Ask ask, String label, String body, String expected) {
        @Override
        public String toString() {
            return source + " → " + expected;
        }
    }

    static final String API_MD = "prometheus docs/querying/api.md";
    static final String CODEC = "prometheus web/api/v1/json_codec_test.go TestJsonCodec_Encode";
    static final String CLIENT = "client_golang api/prometheus/v1/api_test.go TestAPIClientDo";
    static final String API_TEST = "prometheus web/api/v1/api_test.go";

    /** The instant-query example of api.md, "Instant queries": {@code up} at 2015-07-01T20:10:51.781Z. */
    static final String DOC_INSTANT = """
            {
               "status" : "success",
               "data" : {
                  "resultType" : "vector",
                  "result" : [
                     {
                        "metric" : {
                           "__name__" : "up",
                           "job" : "prometheus",
                           "instance" : "localhost:9090"
                        },
                        "value": [ 1435781451.781, "1" ]
                     },
                     {
                        "metric" : {
                           "__name__" : "up",
                           "job" : "node",
                           "instance" : "localhost:9100"
                        },
                        "value" : [ 1435781451.781, "0" ]
                     }
                  ]
               }
            }""";

    /** The range-query example of api.md, "Range queries": {@code up} over 30 s at a 15 s step. */
    static final String DOC_RANGE = """
            {
               "status" : "success",
               "data" : {
                  "resultType" : "matrix",
                  "result" : [
                     {
                        "metric" : {
                           "__name__" : "up",
                           "job" : "prometheus",
                           "instance" : "localhost:9090"
                        },
                        "values" : [
                           [ 1435781430.781, "1" ],
                           [ 1435781445.781, "1" ],
                           [ 1435781460.781, "1" ]
                        ]
                     },
                     {
                        "metric" : {
                           "__name__" : "up",
                           "job" : "node",
                           "instance" : "localhost:9091"
                        },
                        "values" : [
                           [ 1435781430.781, "0" ],
                           [ 1435781445.781, "0" ],
                           [ 1435781460.781, "1" ]
                        ]
                     }
                  ]
               }
            }""";

    /** A histogram as the "Native histograms" section of api.md formats it (the codec test's buckets). */
    static final String HISTOGRAM = "{\"count\":\"10\",\"sum\":\"20\",\"buckets\":[[1,\"-1.6817928305074288\","
            + "\"-1.414213562373095\",\"1\"],[3,\"-0.001\",\"0.001\",\"12\"],[0,\"1.414213562373095\","
            + "\"1.6817928305074288\",\"1\"]]}";

    /** One instant-vector series of value 1 at the api.md example's time, in an envelope with more fields. */
    static String envelope(String more) {
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                + "\"value\":[1435781451.781,\"1\"]}]}," + more + "}";
    }

    /** A point as TestJsonCodec_Encode encodes it, as the result of a scalar query. */
    static String point(String encoded) {
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":" + encoded + "}}";
    }

    static List<Row> rows() {
        List<Row> r = new ArrayList<>();
        // ---- docs/querying/api.md
        r.add(new Row(API_MD + " \"Instant queries\" example", 200, Ask.QUERY, null, DOC_INSTANT,
                "MULTIPLE_SERIES: the query returned 2 series"));
        r.add(new Row(API_MD + " \"Instant queries\" example", 200, Ask.BY_LABEL, "instance", DOC_INSTANT,
                "samples {localhost:9090=1.0, localhost:9100=0.0}"));
        r.add(new Row(API_MD + " \"Instant queries\" example", 200, Ask.GROUPED, "job", DOC_INSTANT,
                "split {node=value 0.0 at 2015-07-01T20:10:51.781Z, prometheus=value 1.0 at 2015-07-01T20:10:51.781Z}"));
        r.add(new Row(API_MD + " \"Range queries\" example", 200, Ask.RANGE, null, DOC_RANGE,
                "range MULTIPLE_SERIES: the query returned 2 series"));
        r.add(new Row(API_MD + " \"Range queries\" example", 200, Ask.RANGE_GROUPED, "instance", DOC_RANGE,
                "ranges {localhost:9090=series [1.435781430781E9, 1.435781445781E9, 1.435781460781E9] [1.0, 1.0, 1.0],"
                        + " localhost:9091=series [1.435781430781E9, 1.435781445781E9, 1.435781460781E9] [0.0, 0.0, 1.0]}"));
        r.add(new Row(API_MD + " \"Scalars\": [ <unix_time>, \"<scalar_value>\" ]", 200, Ask.QUERY, null,
                point("[ 1435781451.781, \"3.5\" ]"), "value 3.5 at 2015-07-01T20:10:51.781Z"));
        r.add(new Row(API_MD + " \"Strings\": [ <unix_time>, \"<string_value>\" ]", 200, Ask.QUERY, null,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"string\",\"result\":[1435781451.781,\"hello\"]}}",
                "QUERY_ERROR: the query's result is a string, not a number"));
        r.add(new Row(API_MD + " envelope \"warnings\": errors that do not inhibit the request", 200, Ask.QUERY, null,
                envelope("\"warnings\":[\"remote store eu-1 did not answer\"]"),
                "value 1.0 at 2015-07-01T20:10:51.781Z partial[remote store eu-1 did not answer]"));
        r.add(new Row(API_MD + " envelope \"infos\": potential query issues (annotations.go PossibleNonCounterInfo)", 200,
                Ask.QUERY, null, envelope("\"infos\":[\"PromQL info: metric might not be a counter, name does not end"
                        + " in _total/_sum/_count/_bucket: \\\"hr_queue\\\"\"]"),
                "value 1.0 at 2015-07-01T20:10:51.781Z infos[PromQL info: metric might not be a counter"));
        r.add(new Row(API_MD + " envelope: warnings and infos together", 200, Ask.BY_LABEL, "instance",
                DOC_INSTANT.substring(0, DOC_INSTANT.lastIndexOf('}')) + ",\"warnings\":[\"w\"],\"infos\":[\"i\"]}",
                "samples {localhost:9090=1.0, localhost:9100=0.0} partial[w] infos[i]"));
        r.add(new Row(API_MD + " \"Format overview\": 400 when parameters are missing or incorrect", 400, Ask.QUERY, null,
                "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter \\\"query\\\": 1:4: parse"
                        + " error: unexpected end of input\"}",
                "QUERY_ERROR: bad data: invalid parameter \"query\": 1:4: parse error: unexpected end of input (HTTP 400)"));
        r.add(new Row(API_MD + " \"Format overview\": 422 when an expression can't be executed", 422, Ask.QUERY, null,
                "{\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"query processing would load too many samples"
                        + " into memory in query execution\"}",
                "QUERY_ERROR: execution error: query processing would load too many samples"));
        r.add(new Row(API_MD + " \"Format overview\": 503 when queries time out", 503, Ask.QUERY, null,
                "{\"status\":\"error\",\"errorType\":\"timeout\",\"error\":\"query timed out in expression evaluation\"}",
                "TIMEOUT: Prometheus's own query timeout: query timed out in expression evaluation (HTTP 503)"));
        r.add(new Row(API_MD + " \"Format overview\": other non-2xx before the API is reached", 502, Ask.QUERY, null,
                "<html><body>502 Bad Gateway</body></html>", "HTTP_ERROR: HTTP 502"));
        r.add(new Row(API_MD + " \"Instant vectors\": \"histogram\": [ <unix_time>, <histogram> ]", 200, Ask.QUERY, null,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{\"__name__\":\"rpc\"},"
                        + "\"histogram\":[1435781451.781," + HISTOGRAM + "]}]}}",
                "NATIVE_HISTOGRAM: a native histogram where a number is needed"));
        r.add(new Row(API_MD + " \"Instant vectors\": histograms by label", 200, Ask.GROUPED, "job",
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{\"job\":\"a\"},"
                        + "\"histogram\":[1435781451.781," + HISTOGRAM + "]},{\"metric\":{\"job\":\"b\"},"
                        + "\"value\":[1435781451.781,\"4\"]}]}}",
                "split {a=NATIVE_HISTOGRAM: a native histogram where a number is needed"));
        r.add(new Row(API_MD + " \"Instant vectors\": \"value\" or \"histogram\", but not both", 200, Ask.QUERY, null,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                        + "\"value\":[1435781451.781,\"1\"],\"histogram\":[1435781451.781," + HISTOGRAM + "]}]}}",
                "MALFORMED: the answer is not Prometheus's: resultType vector does not match the result"));
        r.add(new Row(API_MD + " \"Range vectors\": \"values\" and \"histograms\" in one series", 200, Ask.RANGE, null,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{},"
                        + "\"values\":[[1435781430.781,\"1\"]],\"histograms\":[[1435781445.781," + HISTOGRAM + "]]}]}}",
                "range NATIVE_HISTOGRAM: a native histogram where a number is needed"));
        r.add(new Row(API_MD + " \"Expression query result formats\": resultType one of four", 200, Ask.QUERY, null,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"histogram\",\"result\":[]}}",
                "MALFORMED: the answer is not Prometheus's: resultType \"histogram\" is none of"));

        // ---- web/api/v1/json_codec_test.go TestJsonCodec_Encode (a float point as a scalar result; then the codec's own bodies)
        String[][] points = {
            {"[0,\"0\"]", "value 0.0 at 1970-01-01T00:00:00Z"},
            {"[0.001,\"20\"]", "value 20.0 at 1970-01-01T00:00:00.001Z"},
            {"[0.010,\"20\"]", "value 20.0 at 1970-01-01T00:00:00.010Z"},
            {"[0.100,\"20\"]", "value 20.0 at 1970-01-01T00:00:00.100Z"},
            {"[1.001,\"20\"]", "value 20.0 at 1970-01-01T00:00:01.001Z"},
            {"[1.010,\"20\"]", "value 20.0 at 1970-01-01T00:00:01.010Z"},
            {"[1.100,\"20\"]", "value 20.0 at 1970-01-01T00:00:01.100Z"},
            // Year 393188: Prometheus encodes it; Headroom refuses a sample dated ahead of its clock (0016).
            {"[12345678123456.555,\"20\"]", "MALFORMED: the answer is not Prometheus's: a sample is dated"
                    + " +393188-12-19T02:17:36.55"},
            {"[-0.001,\"20\"]", "value 20.0 at 1969-12-31T23:59:59.999Z"},
            {"[0,\"NaN\"]", "NAN_OR_INF: value is NaN"},
            {"[0,\"+Inf\"]", "NAN_OR_INF: value is +Inf"},
            {"[0,\"-Inf\"]", "NAN_OR_INF: value is -Inf"},
            {"[0,\"1234567.8\"]", "value 1234567.8 at 1970-01-01T00:00:00Z"},
            {"[0,\"0.0000012345678\"]", "value 1.2345678E-6 at 1970-01-01T00:00:00Z"},
            {"[0,\"1.2345678e-67\"]", "value 1.2345678E-67 at 1970-01-01T00:00:00Z"}};
        for (String[] p : points) {
            r.add(new Row(CODEC + " FPoint " + p[0], 200, Ask.QUERY, null, point(p[0]), p[1]));
        }
        r.add(new Row(CODEC + " FPoint body as encoded: data is the bare point, no resultType", 200, Ask.QUERY, null,
                "{\"status\":\"success\",\"data\":[0.001,\"20\"]}",
                "MALFORMED: the answer is not Prometheus's: data is not an object"));
        r.add(new Row(CODEC + " vector foo/bar", 200, Ask.BY_LABEL, "__name__",
                "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{\"__name__\":\"foo\"},"
                        + "\"value\":[1,\"1\"]},{\"metric\":{\"__name__\":\"bar\"},\"value\":[2,\"2\"]}]}}",
                "samples {bar=2.0, foo=1.0}"));
        r.add(new Row(CODEC + " matrix foo/bar", 200, Ask.RANGE_GROUPED, "__name__",
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":\"foo\"},"
                        + "\"values\":[[1,\"1\"]]},{\"metric\":{\"__name__\":\"bar\"},\"values\":[[2,\"2\"]]}]}}",
                "ranges {bar=series [2.0] [2.0], foo=series [1.0] [1.0]}"));
        r.add(new Row(CODEC + " matrix foo", 200, Ask.RANGE, null,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":\"foo\"},"
                        + "\"values\":[[1,\"1\"]]}]}}",
                "series [1.0] [1.0]"));
        r.add(new Row(CODEC + " matrix of a native histogram", 200, Ask.RANGE, null,
                "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":{\"__name__\":\"foo\"},"
                        + "\"histograms\":[[1,{\"count\":\"10\",\"sum\":\"20\",\"buckets\":[[1,\"-1.6817928305074288\","
                        + "\"-1.414213562373095\",\"1\"],[1,\"-1.414213562373095\",\"-1.189207115002721\",\"2\"],[3,\"-0.001\","
                        + "\"0.001\",\"12\"],[0,\"1.414213562373095\",\"1.6817928305074288\",\"1\"],[0,\"1.6817928305074288\","
                        + "\"2\",\"2\"],[0,\"2.378414230005442\",\"2.82842712474619\",\"2\"],[0,\"2.82842712474619\","
                        + "\"3.3635856610148576\",\"1\"],[0,\"3.3635856610148576\",\"4\",\"1\"]]}]]}]}}",
                "range NATIVE_HISTOGRAM: a native histogram where a number is needed"));

        // ---- web/api/v1/api_test.go
        r.add(new Row(API_TEST + " TestRespondError (timeout, data \"test\")", 503, Ask.QUERY, null,
                "{\"status\": \"error\", \"data\": \"test\", \"errorType\": \"timeout\", \"error\": \"message\"}",
                "TIMEOUT: Prometheus's own query timeout: message (HTTP 503)"));
        r.add(new Row(API_TEST + " TestRespondSuccess_DefaultCodecCannotEncodeResponse", 406, Ask.QUERY, null,
                "{\"status\":\"error\",\"errorType\":\"not_acceptable\",\"error\":\"cannot encode response as"
                        + " application/default-format\"}",
                "QUERY_ERROR: not acceptable: cannot encode response as application/default-format (HTTP 406)"));
        // TestReturnAPIError's types, with the status getDefaultErrorCode gives each.
        String[][] types = {
            {"internal", "500", "QUERY_ERROR: internal error: storage error (HTTP 500)"},
            {"timeout", "503", "TIMEOUT: Prometheus's own query timeout: storage error (HTTP 503)"},
            {"canceled", "499", "QUERY_ERROR: query canceled: storage error (HTTP 499)"},
            {"execution", "422", "QUERY_ERROR: execution error: storage error (HTTP 422)"},
            {"bad_data", "400", "QUERY_ERROR: bad data: storage error (HTTP 400)"},
            {"not_found", "404", "QUERY_ERROR: not found: storage error (HTTP 404)"},
            {"unavailable", "503", "QUERY_ERROR: unavailable: storage error (HTTP 503)"}};
        for (String[] t : types) {
            r.add(new Row(API_TEST + " TestReturnAPIError / getDefaultErrorCode: " + t[0], Integer.parseInt(t[1]),
                    Ask.QUERY, null, "{\"status\":\"error\",\"errorType\":\"" + t[0] + "\",\"error\":\"storage error\"}",
                    t[2]));
        }

        // ---- client_golang api/prometheus/v1/api_test.go TestAPIClientDo, row by row
        r.add(new Row(CLIENT + " [0] 422 bad_data \"failed\"", 422, Ask.QUERY, null,
                "{\"status\":\"error\",\"data\":null,\"errorType\":\"bad_data\",\"error\":\"failed\"}",
                "QUERY_ERROR: bad data: failed (HTTP 422)"));
        r.add(new Row(CLIENT + " [1] 422 timeout \"timed out\"", 422, Ask.QUERY, null,
                "{\"status\":\"error\",\"data\":\"test\",\"errorType\":\"timeout\",\"error\":\"timed out\"}",
                "TIMEOUT: Prometheus's own query timeout: timed out (HTTP 422)"));
        r.add(new Row(CLIENT + " [2] 500 \"500 error details\" (Go: ErrServer)", 500, Ask.QUERY, null,
                "500 error details", "HTTP_ERROR: HTTP 500"));
        r.add(new Row(CLIENT + " [3] 404 \"404 error details\" (Go: ErrClient)", 404, Ask.QUERY, null,
                "404 error details", "HTTP_ERROR: HTTP 404"));
        r.add(new Row(CLIENT + " [4] 400 bad_data end before start", 400, Ask.QUERY, null,
                "{\"status\":\"error\",\"data\":null,\"errorType\":\"bad_data\",\"error\":\"end timestamp must not be"
                        + " before start time\"}",
                "QUERY_ERROR: bad data: end timestamp must not be before start time (HTTP 400)"));
        // Go: ErrBadResponse; Headroom: a non-2xx body that is not Prometheus JSON is an HTTP error (0016).
        r.add(new Row(CLIENT + " [5] 422 \"bad json\" (Go: ErrBadResponse)", 422, Ask.QUERY, null, "bad json",
                "HTTP_ERROR: HTTP 422"));
        r.add(new Row(CLIENT + " [6] 422 success with data \"test\" (Go: inconsistent body for response code)", 422,
                Ask.QUERY, null, "{\"status\":\"success\",\"data\":\"test\"}", "HTTP_ERROR: HTTP 422"));
        r.add(new Row(CLIENT + " [7] 422 success with an error type (Go: inconsistent body for response code)", 422,
                Ask.QUERY, null, envelope("\"errorType\":\"timeout\",\"error\":\"timed out\""),
                "MALFORMED: HTTP 422 with a success body: the two disagree"));
        r.add(new Row(CLIENT + " [8] 200 error timeout", 200, Ask.QUERY, null,
                "{\"status\":\"error\",\"data\":\"test\",\"errorType\":\"timeout\",\"error\":\"timed out\"}",
                "TIMEOUT: Prometheus's own query timeout: timed out"));
        r.add(new Row(CLIENT + " [9] 200 error timeout with warnings [a]", 200, Ask.QUERY, null,
                "{\"status\":\"error\",\"data\":\"test\",\"errorType\":\"timeout\",\"error\":\"timed out\",\"warnings\":[\"a\"]}",
                "TIMEOUT: Prometheus's own query timeout: timed out; the answer was partial (a) partial[a]"));
        r.add(new Row(CLIENT + " [10] 200 error timeout with infos [b]", 200, Ask.QUERY, null,
                "{\"status\":\"error\",\"data\":\"test\",\"errorType\":\"timeout\",\"error\":\"timed out\",\"infos\":[\"b\"]}",
                "TIMEOUT: Prometheus's own query timeout: timed out infos[b]"));
        r.add(new Row(CLIENT + " [11] 200 error timeout with warnings [a] and infos [b]", 200, Ask.QUERY, null,
                "{\"status\":\"error\",\"data\":\"test\",\"errorType\":\"timeout\",\"error\":\"timed out\","
                        + "\"warnings\":[\"a\"],\"infos\":[\"b\"]}",
                "TIMEOUT: Prometheus's own query timeout: timed out; the answer was partial (a) partial[a] infos[b]"));
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void headroomReadsUpstreamAnswersAsPrometheusMeansThem(Row row) {
        next = Answer.status(row.http(), row.body());
        Instant from = Instant.ofEpochSecond(0);
        Instant to = Instant.ofEpochSecond(60);
        Object outcome = switch (row.ask()) {
            case QUERY -> client.query("up");
            case BY_LABEL -> client.queryByLabel("up", row.label());
            case GROUPED -> client.queryGrouped("up", row.label());
            case RANGE -> client.queryRange("up", from, to, Duration.ofSeconds(15));
            case RANGE_GROUPED -> client.queryRangeGrouped("up", row.label(), from, to, Duration.ofSeconds(15));
        };
        String got = render(outcome);
        assertTrue(got.startsWith(row.expected()), row.source() + "\n  expected: " + row.expected() + "\n  got:      " + got);
    }

    /** An outcome in one line: what it is, its numbers, its annotations. */
    static String render(Object o) {
        if (o instanceof QueryOutcome.Value v) {
            return "value " + v.value() + " at " + v.sampledAt() + notes(v.annotations());
        }
        if (o instanceof QueryOutcome.NoData n) {
            return n.reason() + ": " + n.message() + notes(n.annotations());
        }
        if (o instanceof VectorOutcome.Samples s) {
            return "samples " + new TreeMap<>(s.byKey()) + notes(s.annotations());
        }
        if (o instanceof GroupedOutcome.Split s) {
            return "split " + sorted(s.byValue().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> render(e.getValue()))));
        }
        if (o instanceof RangeOutcome.Series s) {
            return "series " + Arrays.toString(s.times()) + " " + Arrays.toString(s.values()) + notes(s.annotations());
        }
        if (o instanceof RangeOutcome.NoData n) {
            return "range " + n.reason() + ": " + n.message();
        }
        if (o instanceof GroupedOutcome.Range g) {
            return g.failure() != null ? "ranges failed " + render(g.failure()) : "ranges " + sorted(g.byValue()
                    .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> render(e.getValue()))));
        }
        return String.valueOf(o);
    }

    private static String sorted(Map<String, String> m) {
        return new TreeMap<>(m).toString();
    }

    private static String notes(Annotations a) {
        return (a.warnings().isEmpty() ? "" : " partial" + a.warnings()) + (a.infos().isEmpty() ? "" : " infos" + a.infos());
    }
}
