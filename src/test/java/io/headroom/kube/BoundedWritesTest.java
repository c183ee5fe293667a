package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A 500 or 429 must not hold the console's single loop thread: one write is sent a bounded number of
 * times (fabric8 alone would send it 11 times over about 19 s), and a 429 with Retry-After keeps the
 * class from being written again before then, without a request and without waiting.
 */
class BoundedWritesTest {
    static final String SCALE = "/apis/apps/v1/namespaces/payments/deployments/worker/scale";
    static final String POD = "/api/v1/namespaces/payments/pods/worker-a";
    static final String BUSY = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":%d,"
            + "\"reason\":\"%s\",\"message\":\"%s\"}";
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    KubeClusterGateway gateway;
    final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.deployment("payments", "worker", 2);
        cluster.pod("payments", "worker", "worker-a", true, "node-1");
        cluster.answerAccessReviews(true, null);
        KubeConnection c = cluster.connect(dir, "dev");
        gateway = KubeClusterGateway.open(c, List.of(ref), clock,
                new LeaseKeeper(c.client(), "ana@desk-1/aaaa0001", clock, Duration.ofSeconds(15)));
        assertTrue(gateway.awaitSynced(Duration.ofSeconds(15)));
    }

    @AfterEach
    void tearDown() {
        gateway.close();
        gateway.connection().close();
    }

    @Test
    void aServerErrorIsReportedAfterABoundedNumberOfAttempts() throws Exception {
        cluster.server.expect().put().withPath(SCALE)
                .andReturn(500, BUSY.formatted(500, "InternalError", "etcdserver: request timed out")).always();
        cluster.takeRequests();

        ScaleResult r = gateway.scaling().scale(ref, 5, null);
        assertEquals(ScaleResult.Outcome.FAILED, r.outcome(), r.message());
        assertTrue(r.message().contains("HTTP 500"), r.message());
        long attempts = count(cluster.takeRequests(), "PUT", SCALE);
        assertTrue(attempts >= 1 && attempts <= 2, "one write, not fabric8's eleven: " + attempts + " attempts");
        assertEquals(2, replicas());
    }

    @Test
    void aTooManyRequestsWithRetryAfterHoldsTheClassWithoutWaiting() throws Exception {
        cluster.server.expect().put().withPath(SCALE)
                .andReturn(429, BUSY.formatted(429, "TooManyRequests", "the server has received too many requests"))
                .withHeader("Retry-After", "30").once();
        cluster.takeRequests();

        ScaleResult r = gateway.scaling().scale(ref, 5, null);
        assertEquals(ScaleResult.Outcome.FAILED, r.outcome(), r.message());
        assertTrue(r.message().contains("retry after 30 s"), r.message());
        assertEquals(1, count(cluster.takeRequests(), "PUT", SCALE), "no retry behind the loop's back");

        clock.advance(Duration.ofSeconds(10));
        ScaleResult again = gateway.scaling().scale(ref, 5, null);
        assertEquals(ScaleResult.Outcome.REFUSED, again.outcome(), again.message());
        assertTrue(again.message().contains("retry after 20 s"), again.message());
        PodMarks.Result marks = gateway.drainMarks().markForDrain(ref, List.of("worker-a"), "drain-1");
        assertEquals(List.of(), marks.done());
        assertTrue(marks.failed().get(0).contains("retry after 20 s"), marks.failed().get(0));
        PodMarks.Result unmarks = gateway.drainMarks().unmarkDrain(ref, List.of("worker-a"), "drain-0");
        assertTrue(unmarks.failed().get(0).contains("retry after 20 s"), "taking marks off waits too (a drain"
                + " retries it every tick): " + unmarks.failed());
        List<RecordedRequest> sent = cluster.takeRequests();
        assertEquals(0, count(sent, "PUT", SCALE), "not written again before the server's time");
        assertEquals(0, count(sent, "PATCH", POD));
        assertEquals(2, replicas());

        clock.advance(Duration.ofSeconds(21));
        ScaleResult later = gateway.scaling().scale(ref, 5, null);
        assertEquals(ScaleResult.Outcome.APPLIED, later.outcome(), later.message());
        assertEquals(5, replicas());
    }

    @Test
    void aTooManyRequestsOnAPodMarkIsBoundedToo() throws Exception {
        cluster.server.expect().patch().withPath(POD)
                .andReturn(429, BUSY.formatted(429, "TooManyRequests", "slow down")).withHeader("Retry-After", "1")
                .always();
        cluster.takeRequests();
        PodMarks.Result r = gateway.drainMarks().markForDrain(ref, List.of("worker-a"), "drain-2");
        assertEquals(List.of(), r.done());
        assertTrue(r.failed().get(0).contains("HTTP 429"), r.failed().get(0));
        long attempts = count(cluster.takeRequests(), "PATCH", POD);
        assertTrue(attempts >= 1 && attempts <= 2, attempts + " attempts");
    }

    private static long count(List<RecordedRequest> requests, String method, String path) {
        List<RecordedRequest> hits = new ArrayList<>();
        for (RecordedRequest q : requests) {
            String p = q.getPath();
            int query = p.indexOf('?');
            if (q.getMethod().equals(method) && (query < 0 ? p : p.substring(0, query)).equals(path)) {
                hits.add(q);
            }
        }
        return hits.size();
    }

    private int replicas() {
        return cluster.admin.apps().deployments().inNamespace("payments").withName("worker").get().getSpec()
                .getReplicas();
    }
}
