package io.headroom.kube;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.function.BooleanSupplier;

/**
 * A fabric8 mock API server on loopback in mixed mode: expectations first (for what CRUD mode cannot
 * answer: SelfSubjectAccessReview, dry runs), CRUD for everything else. Plus fixtures and a
 * kubeconfig writer.
 */
final class MockCluster implements AutoCloseable {
    /** The mock server logs every request at INFO; keep test output readable. Held strongly so the level sticks. */
    static final java.util.logging.Logger MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    final KubernetesMockServer server;
    final KubernetesClient admin;

    MockCluster() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                new KubernetesMixedDispatcher(responses), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        admin = server.createClient();
    }

    String url() {
        return "http://127.0.0.1:" + server.getPort();
    }

    Deployment deployment(String ns, String name, int replicas) {
        return admin.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder()
                .withNewMetadata().withName(name).withNamespace(ns).endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("w").withImage("worker").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();
    }

    void pod(String ns, String app, String name, boolean ready, String node) {
        admin.pods().inNamespace(ns).resource(new PodBuilder()
                .withNewMetadata().withName(name).withNamespace(ns).addToLabels("app", app)
                .withCreationTimestamp("2026-12-01T10:00:00Z").endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("w").withImage("worker").endContainer().endSpec()
                .withNewStatus().withPhase(ready ? "Running" : "Pending")
                .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition()
                .endStatus().build()).create();
    }

    /** Writes a kubeconfig with one context per (name, cluster url) pair; each user authenticates with {@code token}. */
    static Path kubeconfig(Path dir, String file, String current, String token, String... ctxUrlNs) throws IOException {
        StringBuilder clusters = new StringBuilder();
        StringBuilder contexts = new StringBuilder();
        StringBuilder users = new StringBuilder();
        for (int i = 0; i < ctxUrlNs.length; i += 3) {
            String ctx = ctxUrlNs[i];
            clusters.append("- name: cl-").append(ctx).append("\n  cluster:\n    server: ").append(ctxUrlNs[i + 1]).append('\n');
            contexts.append("- name: ").append(ctx).append("\n  context:\n    cluster: cl-").append(ctx)
                    .append("\n    user: u-").append(ctx).append("\n    namespace: ").append(ctxUrlNs[i + 2]).append('\n');
            users.append("- name: u-").append(ctx).append("\n  user:\n    token: ").append(token).append('\n');
        }
        String yaml = "apiVersion: v1\nkind: Config\n" + (current == null ? "" : "current-context: " + current + "\n")
                + "clusters:\n" + clusters + "contexts:\n" + contexts + "users:\n" + users;
        Path p = dir.resolve(file);
        Files.writeString(p, yaml);
        return p;
    }

    /** Waits for a condition with a deadline (no fixed sleeps). */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000); // poll the condition, bounded by the deadline
        }
    }

    /** Opens a console's connection to this server through a generated kubeconfig (token auth). */
    KubeConnection connect(Path dir, String ctx) throws IOException {
        Path cfg = kubeconfig(dir, ctx + "-" + System.nanoTime() + ".yaml", ctx, "t0ken-" + ctx, ctx, url(), "default");
        return Contexts.load(java.util.List.of(cfg)).open(ctx);
    }

    @Override
    public void close() {
        admin.close();
        try {
            server.destroy();
        } catch (IllegalStateException e) {
            // The mock's Vert.x shutdown can outlast its 10 s wait on a loaded machine; the test's
            // assertions are done by then, and a fixture that is slow to stop is not a test failure.
            MOCK_LOG.warning("mock API server was slow to stop: " + e.getMessage());
        }
    }
}
