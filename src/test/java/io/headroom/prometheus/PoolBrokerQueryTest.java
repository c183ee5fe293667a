package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ClassConfig;
import io.headroom.config.ConfigTree;
import io.headroom.config.PrometheusEndpoint;
import io.headroom.config.WorkloadsFile;
import io.headroom.decision.Signal;
import io.headroom.decision.SignalName;
import io.headroom.decision.Signals;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pool's {@code failedAcquisitions:} query (decision 0029, stop 38) is sent in the class's tick like any of its
 * signals and comes back under the pool's own signal name; a failed answer is no figure, never 0.
 */
class PoolBrokerQueryTest {

    static final String BROKER = "sum(rate(broker_acquire_failures_total{pool=\"spot\"}[1m]))";
    static final String FILE = """
            prometheus: {url: http://h}
            classes:
              - name: render
                context: dev
                namespace: render
                signals: {queueLength: 'sum(q_len)', oldestAge: 'max(q_age)', arrivalRate: 'sum(rate(q_in[1m]))',
                          meanService: 'mean_s'}
                pools:
                  - name: spot
                    target: {name: render-spot}
                    maxReplicas: 8
                    failedAcquisitions: 'sum(rate(broker_acquire_failures_total{pool="spot"}[1m]))'
                  - {name: on-demand, target: {name: render-on-demand}, maxReplicas: 8}
            """;

    final ExecutorService pool = Executors.newFixedThreadPool(4);
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

    Map<SignalName, Signal> tick(Answer broker) throws Exception {
        stub = new StubPrometheus(s -> BROKER.equals(s.params().get("query")) ? broker
                : s.params().get("query").contains("timestamp(") ? Answer.json(PrometheusClientTest.EMPTY)
                : Answer.vector("1"));
        ClassConfig render = WorkloadsFile.read("w.yaml", FILE, ConfigTree.Format.YAML, null).classConfig("render")
                .orElseThrow();
        PrometheusClient client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url())
                .withTimeout(Duration.ofSeconds(2)), k -> null, Clock.systemUTC());
        source = new PrometheusMetricsSource(client, List.of(render), pool, Duration.ofSeconds(3), Clock.systemUTC());
        return source.read(List.of("render"), Instant.now()).get("render");
    }

    @Test
    void theBrokerFigureIsReadInTheClassesTickUnderThePoolsSignal() throws Exception {
        Map<SignalName, Signal> s = tick(Answer.vector("3.2"));
        Signal figure = s.get(Signals.failedAcquisitions("spot"));
        assertTrue(figure.present(), String.valueOf(figure));
        assertEquals(3.2, figure.value(), 1e-9);
        assertTrue(stub.seen().stream().anyMatch(x -> BROKER.equals(x.params().get("query"))), "sent in the tick");
        assertFalse(s.containsKey(Signals.failedAcquisitions("on-demand")), "on-demand has no query");
    }

    @Test
    void aFailedAnswerIsNoFigureNeverZero() throws Exception {
        Signal figure = tick(Answer.status(503, "")).get(Signals.failedAcquisitions("spot"));
        assertFalse(figure.present(), String.valueOf(figure));
    }
}
