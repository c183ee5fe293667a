package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What CRUD mode cannot answer (SelfSubjectAccessReview, dryRun=All) is answered by expectations;
 * the tests assert the requests Headroom sends and what it makes of the answers.
 */
class PermissionsAndDryRunTest {
    static final String SSAR = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    KubeClusterGateway gateway;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.deployment("payments", "worker", 2);
        gateway = cluster.openGateway(dir, ref);
    }

    @Test
    void aForbiddenActionIsReportedDisabledWithTheReason() throws Exception {
        cluster.server.expect().post().withPath(SSAR).andReturn(201, """
                {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview",
                 "status":{"allowed":false,"reason":"no RBAC policy matched"}}""").always();

        ActionCheck check = gateway.scaling().canScale(ref);
        assertFalse(check.allowed());
        assertTrue(check.reason().contains("get deployments.apps/scale in payments"), check.reason());
        assertTrue(check.reason().contains("no RBAC policy matched"), check.reason());

        String body = requests().stream().filter(r -> r.getPath().equals(SSAR)).findFirst().orElseThrow().getUtf8Body();
        for (String field : List.of("\"verb\":\"get\"", "\"group\":\"apps\"", "\"resource\":\"deployments\"",
                "\"subresource\":\"scale\"", "\"namespace\":\"payments\"")) {
            assertTrue(body.contains(field), field + " in " + body);
        }
        long before = gateway.health().requests();
        assertFalse(gateway.scaling().canScale(ref).allowed());
        assertEquals(before, gateway.health().requests(), "answers are cached, not asked per tick");
    }

    @Test
    void anAllowedUserMayScale() {
        cluster.server.expect().post().withPath(SSAR).andReturn(201, """
                {"apiVersion":"authorization.k8s.io/v1","kind":"SelfSubjectAccessReview","status":{"allowed":true}}""")
                .always();
        Permission p = gateway.permissions().can("update", "deployments.apps/scale", "payments");
        assertTrue(p.allowed());
        assertTrue(gateway.scaling().canScale(ref).allowed());
    }

    @Test
    void aDryRunAsksTheServerWithDryRunAllAndChangesNothing() throws Exception {
        String path = "/apis/apps/v1/namespaces/payments/deployments/worker/scale?dryRun=All";
        cluster.server.expect().put().withPath(path).andReturn(200, """
                {"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"worker","namespace":"payments"},
                 "spec":{"replicas":9}}""").once();

        ScaleResult r = gateway.scaling().dryRunScale(ref, 9);
        assertEquals(ScaleResult.Outcome.APPLIED, r.outcome(), r.message());
        assertTrue(r.message().contains("would scale 2 → 9"), r.message());
        RecordedRequest sent = requests().stream().filter(q -> q.getPath().equals(path)).findFirst().orElseThrow();
        assertEquals("PUT", sent.getMethod());
        assertTrue(sent.getUtf8Body().contains("\"replicas\":9"), sent.getUtf8Body());
        assertTrue(sent.getHeader("Authorization").startsWith("Bearer "), "the dry run goes through the authenticated client");
        assertEquals(2, cluster.admin.apps().deployments().inNamespace("payments").withName("worker").get().getSpec().getReplicas());
    }

    @Test
    void aRejectedDryRunSaysSo() {
        cluster.server.expect().put().withPath("/apis/apps/v1/namespaces/payments/deployments/worker/scale?dryRun=All")
                .andReturn(403, "{\"kind\":\"Status\",\"code\":403}").once();
        ScaleResult r = gateway.scaling().dryRunScale(ref, 9);
        assertEquals(ScaleResult.Outcome.REFUSED, r.outcome());
        assertTrue(r.message().contains("HTTP 403"), r.message());
    }

    private List<RecordedRequest> requests() throws InterruptedException {
        List<RecordedRequest> out = new ArrayList<>();
        RecordedRequest r;
        while ((r = cluster.server.takeRequest(100, TimeUnit.MILLISECONDS)) != null) {
            out.add(r);
        }
        return out;
    }
}
