package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ClassConfig;
import io.headroom.config.PrometheusEndpoint;
import io.headroom.decision.Policy;
import io.headroom.metrics.PodProgress;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, item 3: per-pod completions from Prometheus. A class's {@code podCompleted} (a counter, one
 * series per pod by the {@code pod} label) joins {@code podInFlight} in {@code podProgress}, read once a
 * tick for STUCK and the pod panel. No data stays no data: a pod one query does not name, a NaN, or a
 * failed query is NaN there, never 0.
 */
class PodProgressQueriesTest {
    static final String IN_FLIGHT = PrometheusMetricsSourceTest.POD_IN_FLIGHT;
    static final String COMPLETED = "sum by (pod) (jobs_completed_total{queue=\"pay\"})";
    final ExecutorService pool = Executors.newFixedThreadPool(2);
    StubPrometheus stub;

    @AfterEach
    void tearDown() throws Exception {
        if (stub != null) {
            stub.close();
        }
        pool.shutdownNow();
    }

    PrometheusMetricsSource source(ClassConfig... classes) throws Exception {
        PrometheusClient client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url())
                .withTimeout(Duration.ofSeconds(2)), k -> null, Clock.systemUTC());
        return new PrometheusMetricsSource(client, List.of(classes), pool, Duration.ofSeconds(3), Clock.systemUTC());
    }

    static ClassConfig payments(String inFlight, String completed) {
        ClassConfig base = PrometheusMetricsSourceTest.payments();
        return new ClassConfig(base.name(), base.target(), base.queries(), base.policy(), inFlight, null, Map.of(),
                completed);
    }

    @Test
    void inFlightAndCompletionsPerPodAndNoDataStaysNoData() throws Exception {
        Map<String, String> inFlight = new LinkedHashMap<>();
        inFlight.put("{\"pod\":\"worker-0\"}", "2");
        inFlight.put("{\"pod\":\"worker-1\"}", "0");
        Map<String, String> completed = new LinkedHashMap<>();
        completed.put("{\"pod\":\"worker-0\"}", "1041");
        completed.put("{\"pod\":\"worker-2\"}", "17"); // not in the in-flight answer
        completed.put("{\"pod\":\"worker-3\"}", "NaN");
        completed.put("{\"queue\":\"pay\"}", "9"); // no pod label: nobody's
        AtomicBoolean completedFails = new AtomicBoolean();
        stub = new StubPrometheus(s -> {
            String q = s.params().get("query");
            if (IN_FLIGHT.equals(q)) {
                return PrometheusMetricsSourceTest.vectorOf(inFlight);
            }
            if (COMPLETED.equals(q)) {
                return completedFails.get() ? Answer.status(503, "") : PrometheusMetricsSourceTest.vectorOf(completed);
            }
            return Answer.status(400, PrometheusClientTest.BAD_DATA);
        });
        PrometheusMetricsSource source = source(payments(IN_FLIGHT, COMPLETED));

        Map<String, PodProgress> p = source.podProgress("payments");
        assertEquals(List.of("worker-0", "worker-1", "worker-2"), p.keySet().stream().sorted().toList(),
                "a pod with nothing but a NaN is not known at all");
        assertEquals(new PodProgress(2, 1041), p.get("worker-0"));
        assertEquals(0, p.get("worker-1").inFlight());
        assertTrue(Double.isNaN(p.get("worker-1").completed()), "missing from the counter's answer: no data, not 0");
        assertTrue(Double.isNaN(p.get("worker-2").inFlight()), "missing from the in-flight answer: no data");
        assertEquals(17, p.get("worker-2").completed());
        assertEquals(List.of(IN_FLIGHT, COMPLETED), stub.seen().stream().map(s -> s.params().get("query")).toList(),
                "two instant queries, exactly as configured");

        completedFails.set(true);
        p = source.podProgress("payments");
        assertEquals(List.of("worker-0", "worker-1"), p.keySet().stream().sorted().toList());
        assertTrue(p.values().stream().allMatch(x -> Double.isNaN(x.completed())),
                "a failed counter query: no completions known for any pod");
        assertEquals(2, p.get("worker-0").inFlight());
    }

    @Test
    void aClassWithoutTheCounterAsksNothingATick() throws Exception {
        stub = new StubPrometheus(s -> Answer.status(503, ""));
        PrometheusMetricsSource source = source(payments(IN_FLIGHT, null), onlyCompleted());
        assertEquals(Map.of(), source.podProgress("payments"));
        assertTrue(stub.seen().isEmpty(), "podInFlight alone stays the drains' (never read in a tick)");
        assertEquals(Map.of(), source.podProgress("counted"), "the one query failed: no pod known");
        assertEquals(List.of(COMPLETED), stub.seen().stream().map(s -> s.params().get("query")).toList());
    }

    static ClassConfig onlyCompleted() {
        ClassConfig base = PrometheusMetricsSourceTest.payments();
        return new ClassConfig("counted", new WorkloadRef("dev", "pay", "Deployment", "counted"), base.queries(),
                Policy.defaults(), null, null, Map.of(), COMPLETED);
    }
}
