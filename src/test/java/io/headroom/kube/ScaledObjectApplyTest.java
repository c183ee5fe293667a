package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.headroom.kube.ScaledObjectApply.Outcome;
import io.headroom.kube.ScaledObjectApply.Plan;
import io.headroom.cli.Cli;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Export → apply against fabric8's CRUD mock server, with a dispatcher that honours
 * {@code dryRun=All} the way the API server does (answers, stores nothing; a stale
 * {@code resourceVersion} is a 409): a dry run changes nothing, the difference names the fields,
 * foreign annotations survive, and a live object changed after review is not overwritten.
 */
class ScaledObjectApplyTest {
    private static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    private KubernetesClient client;
    /** The dry runs the server answered (MockCluster answers them as the API server does and stores nothing). */
    private List<String> dryRuns;

    @BeforeEach
    void start() {
        client = api.cluster().admin;
        dryRuns = api.cluster().dryRuns;
    }

    private static Map<String, Object> exported() {
        return ScaledObjectExport.of("invoices", ScaledObjectExportTest.TARGET, ScaledObjectExportTest.policy(),
                ScaledObjectExportTest.QUERIES, "http://prometheus.monitoring:9090").object();
    }

    private GenericKubernetesResource live() {
        return client.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace("billing")
                .withName("invoices").get();
    }

    private void putLive(int minReplicas, Map<String, String> annotations) {
        Map<String, Object> spec = new HashMap<>(castMap(exported().get("spec")));
        spec.put("minReplicaCount", minReplicas);
        client.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace("billing").resource(
                new GenericKubernetesResourceBuilder().withApiVersion("keda.sh/v1alpha1").withKind("ScaledObject")
                        .withNewMetadata().withName("invoices").withNamespace("billing").withAnnotations(annotations)
                        .endMetadata().addToAdditionalProperties("spec", spec).build()).create();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    @Test
    void aNewObjectIsDryRunFirstAndCreatedOnlyWhenApplied() {
        Plan plan = ScaledObjectApply.plan(client, exported());
        assertTrue(plan.creates());
        assertEquals(1, dryRuns.size(), "the server was asked for a dry run");
        assertNull(live(), "a dry run stores nothing");
        assertTrue(plan.diff().contains("+ spec.maxReplicaCount: " + ScaledObjectExportTest.policy().maxReplicas()),
                plan.diff());
        assertTrue(plan.diff().startsWith("creates ScaledObject billing/invoices"), plan.diff());

        Outcome o = ScaledObjectApply.apply(client, plan, "alice@laptop", NOW);
        Outcome.Applied applied = assertInstanceOf(Outcome.Applied.class, o);
        assertNull(applied.event(), "the Event was posted");
        assertNotNull(live());
        assertEquals(ScaledObjectExportTest.policy().minReplicas(),
                ((Number) castMap(live().getAdditionalProperties().get("spec")).get("minReplicaCount")).intValue());
        var events = client.v1().events().inNamespace("billing").list().getItems();
        assertEquals(1, events.size());
        assertEquals("HeadroomAppliedScaledObject", events.get(0).getReason());
        assertEquals("ScaledObject", events.get(0).getInvolvedObject().getKind());
        assertTrue(events.get(0).getMessage().startsWith("alice@laptop created"), events.get(0).getMessage());
    }

    @Test
    void theDifferenceNamesTheChangedFieldsAndForeignAnnotationsSurvive() {
        putLive(1, Map.of("autoscaling.keda.sh/paused-replicas", "3"));
        String before = live().getMetadata().getResourceVersion();

        Plan plan = ScaledObjectApply.plan(client, exported());
        assertFalse(plan.creates());
        int min = ScaledObjectExportTest.policy().minReplicas();
        assertTrue(plan.changes().stream().anyMatch(c -> c.line().equals("~ spec.minReplicaCount: 1 → " + min)),
                plan.diff());
        assertTrue(plan.changes().stream().noneMatch(c -> c.path().contains("paused-replicas")),
                "a pause someone set is not part of the change: " + plan.diff());
        assertEquals(before, live().getMetadata().getResourceVersion(), "the dry run changed nothing");

        assertInstanceOf(Outcome.Applied.class, ScaledObjectApply.apply(client, plan, "alice", NOW));
        GenericKubernetesResource after = live();
        assertEquals(min, ((Number) castMap(after.getAdditionalProperties().get("spec")).get("minReplicaCount")).intValue());
        assertEquals("3", after.getMetadata().getAnnotations().get("autoscaling.keda.sh/paused-replicas"));

        assertTrue(ScaledObjectApply.plan(client, exported()).unchanged(), "applied once, nothing left to change");
    }

    @Test
    void anObjectAGitOpsToolOwnsIsAppliedWithAWarning() {
        putLive(1, Map.of("argocd.argoproj.io/tracking-id", "billing:keda.sh/ScaledObject:billing/invoices"));
        Plan plan = ScaledObjectApply.plan(client, exported());
        assertEquals(1, plan.warnings().size(), plan.diff());
        assertTrue(plan.diff().contains("warning: tracked by Argo CD"), plan.diff());
    }

    @Test
    void anObjectChangedAfterReviewIsNotOverwritten() {
        putLive(1, Map.of());
        Plan plan = ScaledObjectApply.plan(client, exported());

        // Someone else edits it between the review and the apply.
        GenericKubernetesResource theirs = live();
        castMap(theirs.getAdditionalProperties().get("spec")).put("maxReplicaCount", 99);
        client.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace("billing").resource(theirs).update();

        Outcome o = ScaledObjectApply.apply(client, plan, "alice", NOW);
        Outcome.Changed changed = assertInstanceOf(Outcome.Changed.class, o);
        assertTrue(changed.message().contains("review it again"), changed.message());
        assertEquals(99, ((Number) castMap(live().getAdditionalProperties().get("spec")).get("maxReplicaCount")).intValue(),
                "their edit stands");
    }

    @Test
    void anObjectCreatedBySomeoneElseAfterReviewIsNotReplaced() {
        Plan plan = ScaledObjectApply.plan(client, exported());
        putLive(7, Map.of());
        Outcome.Changed changed = assertInstanceOf(Outcome.Changed.class, ScaledObjectApply.apply(client, plan, "a", NOW));
        assertTrue(changed.message().contains("created by someone else"), changed.message());
        assertEquals(7, ((Number) castMap(live().getAdditionalProperties().get("spec")).get("minReplicaCount")).intValue());
    }

    @Test
    void theCommandLineShowsTheDifferenceAsksAndAppliesOnlyOnYes(@TempDir Path dir) throws Exception {
        putLive(1, Map.of());
        Path kubeconfig = MockCluster.kubeconfig(dir, "kubeconfig", "prod", "tok", "prod",
                client.getMasterUrl().toString(), "billing");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: http://127.0.0.1:9090}
                classes:
                  - name: invoices
                    context: prod
                    namespace: billing
                    target: {kind: Deployment, name: invoice-worker}
                    signals:
                      queueLength: sum(queue_length{queue="invoices"})
                      arrivalRate: sum(rate(jobs_total{queue="invoices"}[1m]))
                      meanService: avg(job_seconds{queue="invoices"})
                      oldestAge: max(oldest_age_seconds{queue="invoices"})
                    policy: {slotsPerReplica: 4, minReplicas: 3, maxReplicas: 12}
                """);
        String[] args = {"export-keda", "--config", workloads.toString(), "--class", "invoices", "--apply",
            "--kubeconfig", kubeconfig.toString()};

        Run no = cli(args, "n\n");
        assertEquals(1, no.code(), no.err());
        assertTrue(no.out().contains("~ spec.minReplicaCount: 1 → 3"), no.out());
        assertTrue(no.out().contains("Apply this to prod? [y/N]") && no.out().contains("nothing applied"), no.out());
        assertEquals(1, ((Number) castMap(live().getAdditionalProperties().get("spec")).get("minReplicaCount")).intValue(),
                "answered no: nothing written");

        Run yes = cli(args, "y\n");
        assertEquals(0, yes.code(), yes.err());
        assertTrue(yes.out().contains("applied billing/invoices in prod"), yes.out());
        assertEquals(3, ((Number) castMap(live().getAdditionalProperties().get("spec")).get("minReplicaCount")).intValue());

        Run again = cli(args, "");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("already matches"), again.out());

        Run both = cli(new String[] {"export-keda", "--config", workloads.toString(), "--class", "invoices", "--apply",
            "--out", dir.resolve("x.yaml").toString()}, "");
        assertEquals(2, both.code());
    }

    record Run(int code, String out, String err) {
    }

    private static Run cli(String[] args, String stdin) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
