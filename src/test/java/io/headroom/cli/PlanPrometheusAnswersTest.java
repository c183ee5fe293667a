package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import io.headroom.prometheus.StubPrometheus;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom plan --once --json} against answers a real Prometheus 2.42 does not give but the stores
 * in front of it do: a partial answer (warnings, as Thanos, Mimir and VictoriaMetrics send when a store
 * did not answer) is used, typed PARTIAL with its warning, and never scales down; an ambiguous body
 * (two status keys, no resultType) is bad data and holds replicas.
 */
class PlanPrometheusAnswersTest {

    static final String WARNING = "partial response: store eu-1 (10.0.3.7:10901) unavailable";

    StubPrometheus stub;

    @AfterEach
    void stop() {
        if (stub != null) {
            stub.close();
        }
    }

    static String now() {
        return StubPrometheus.nowSeconds();
    }

    /** A one-series vector stamped now, with more envelope fields (e.g. warnings). */
    static String vector(String value, String more) {
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":["
                + now() + ",\"" + value + "\"]}]}" + more + "}";
    }

    /** Answers each PromQL text by the function; the sample-time queries with no series (values keep their own time). */
    void serve(Function<String, String> byQuery) throws Exception {
        stub = new StubPrometheus(StubPrometheus.byQuery(q -> Answer.json(byQuery.apply(q))));
    }

    Path workloads(Path dir, String ceilings) throws Exception {
        Path f = dir.resolve("workloads.yaml");
        Files.writeString(f, """
                prometheus: {url: "%s", timeoutSeconds: 3}
                classes:
                  - name: orders
                    context: prod
                    target: {name: orders-worker}
                    signals:
                      queueLength: sum(orders_queue_length)
                      oldestAge: max(orders_oldest_age_seconds)
                      arrivalRate: sum(rate(orders_received_total[1m]))
                      meanService: sum(rate(orders_seconds_sum[1m])) / sum(rate(orders_seconds_count[1m]))
                    policy:
                      slotsPerReplica: 1
                      targetUtilization: 1
                %s
                """.formatted(stub.url(), ceilings));
        return f;
    }

    static JsonNode plan(Path file, int replicas) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PlanCommand.run(List.of("--config", file.toString(), "--once", "--json", "--replicas",
                "orders=" + replicas), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), k -> null, d -> { }, 1);
        PlanCommandTest.Run r = new PlanCommandTest.Run(code, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8));
        assertEquals(0, r.code(), r.err() + r.out());
        assertFalse(r.err().contains("Exception"), r.err());
        return r.lines().get(0);
    }

    static final Map<String, String> BUSY = Map.of("orders_queue_length", "600", "orders_oldest_age_seconds", "20",
            "orders_received_total", "2", "orders_seconds_sum", "8");

    /** The value a query reads in the busy case: the first metric name it mentions. */
    static String busy(String q) {
        return BUSY.entrySet().stream().filter(e -> q.contains(e.getKey())).map(Map.Entry::getValue).findFirst()
                .orElse("1");
    }

    @Test
    void aPartialAnswerIsShownWithItsWarningTypedPartialAndMayScaleUp(@TempDir Path dir) throws Exception {
        String warned = ",\"warnings\":[\"" + WARNING + "\"],\"infos\":[\"PromQL info: metric might not be a counter\"]";
        serve(q -> vector(busy(q), q.contains("orders_queue_length") ? warned : ""));
        JsonNode p = plan(workloads(dir, ""), 4);
        JsonNode q = p.get("inputs").get("queueLength");
        assertEquals("PARTIAL", q.get("status").asString(""), q.toString());
        assertEquals(600.0, q.get("value").asDouble(0.0));
        assertEquals("partial answer: " + WARNING, q.get("reason").asString(""));
        assertEquals(WARNING, q.get("warnings").get(0).asString(""));
        assertEquals("PromQL info: metric might not be a counter", q.get("infos").get(0).asString(""));
        assertEquals("OK", p.get("inputs").get("arrivalRate").get("status").asString(""));
        assertTrue(p.get("reasons").toString().contains("PARTIAL_DATA:queueLength"), p.get("reasons").toString());
        assertTrue(p.get("explanation").asString("").contains(WARNING), p.get("explanation").asString(""));
        assertTrue(p.get("desiredReplicas").asInt(0) > 4, "a partial backlog of 600 may still scale up: " + p);
    }

    @Test
    void aPartialAnswerNeverScalesDown(@TempDir Path dir) throws Exception {
        String warned = ",\"warnings\":[\"" + WARNING + "\"]";
        // What came back says the queue is empty: the store that did not answer may hold the work.
        serve(q -> vector(q.contains("orders_queue_length") || q.contains("orders_received_total") ? "0" : busy(q),
                q.contains("orders_queue_length") || q.contains("orders_received_total") ? warned : ""));
        JsonNode p = plan(workloads(dir, ""), 9);
        assertEquals("PARTIAL", p.get("inputs").get("queueLength").get("status").asString(""));
        assertEquals(9, p.get("desiredReplicas").asInt(0), "held: " + p.get("explanation").asString(""));
        assertTrue(p.get("explanation").asString("").contains("no scale-down on a partial answer"), p.toString());
    }

    @Test
    void twoStatusKeysAreBadDataAndNothingScalesDown(@TempDir Path dir) throws Exception {
        // The first status says error, the last success: a lenient reader took the last and read 0 everywhere.
        serve(q -> "{\"status\":\"error\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},\"value\":["
                + now() + ",\"0\"]}]},\"status\":\"success\"}");
        // Even with a conservative value below current: every required input is bad data, so replicas are held.
        JsonNode p = plan(workloads(dir, "      ceilings:\n        - {name: db, budgetQuery: db_connection_budget,"
                + " perReplica: 10, conservativeReplicas: 4}"), 9);
        for (String input : List.of("queueLength", "arrivalRate", "ceiling:db:budget")) {
            JsonNode in = p.get("inputs").get(input);
            assertEquals("MISSING", in.get("status").asString(""), input + ": " + in);
            assertTrue(in.get("reason").asString("").startsWith("MALFORMED: "), in.toString());
            assertTrue(in.get("reason").asString("").contains("duplicate key \"status\""), in.toString());
            assertTrue(in.get("value").isNull(), "bad data is no number: " + in);
        }
        assertEquals(9, p.get("desiredReplicas").asInt(0), "no scale-down on bad data: " + p);
        assertTrue(p.get("reasons").toString().contains("TELEMETRY_MISSING"), p.get("reasons").toString());
    }

    @Test
    void aBudgetWithoutResultTypeIsBadDataNotACeilingOfZero(@TempDir Path dir) throws Exception {
        // The queue asks for 12 replicas; the budget's answer has no resultType (it was read as a scalar 0 before,
        // a ceiling of 0 replicas).
        serve(q -> q.contains("db_connection_budget")
                ? "{\"status\":\"success\",\"data\":{\"result\":[" + now() + ",\"0\"]}}"
                : vector(Map.of("orders_queue_length", "0", "orders_oldest_age_seconds", "1", "orders_received_total",
                        "12", "orders_seconds_sum", "1").entrySet().stream().filter(e -> q.contains(e.getKey()))
                        .map(Map.Entry::getValue).findFirst().orElse("1"), ""));
        JsonNode p = plan(workloads(dir, "      ceilings:\n        - {name: db, budgetQuery: db_connection_budget,"
                + " perReplica: 10, conservativeReplicas: 10}"), 9);
        JsonNode budget = p.get("inputs").get("ceiling:db:budget");
        assertEquals("MISSING", budget.get("status").asString(""), budget.toString());
        assertTrue(budget.get("reason").asString("").contains("resultType"), budget.toString());
        assertEquals(12, p.get("slotReplicas").asInt(0), p.toString());
        assertEquals(10, p.get("ceilings").get("db").asInt(0), "the configured conservative value, never 0: " + p);
        assertEquals(10, p.get("desiredReplicas").asInt(0), "up to the conservative ceiling, never down to 0: " + p);
        assertTrue(p.get("reasons").toString().contains("CEILING_FALLBACK:db"), p.get("reasons").toString());
    }
}
