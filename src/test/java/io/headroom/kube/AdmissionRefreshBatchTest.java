package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30: each tick refreshed every publishing class's admission with its own PATCH of the namespace's
 * ConfigMap (20 classes, 20 PATCHes a tick). Now a tick's refresh is one fenced merge patch per namespace carrying
 * every class's key, each workload's Lease still checked (read) before it. The requests are counted as the mock API
 * server received them; the classes' load comes from the sandbox's world, their workloads are on the server.
 */
class AdmissionRefreshBatchTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final int CLASSES = 20;
    static final String CONFIG_MAP = "/api/v1/namespaces/payments/configmaps/" + AdmissionEntry.CONFIG_MAP;
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    final ManualClock clock = new ManualClock(T0);
    final MemoryJournal journal = new MemoryJournal();
    KubeClusterGateway gateway;

    @AfterEach
    void tearDown() {
        if (gateway != null) {
            gateway.close();
            gateway.connection().close();
        }
    }

    static long count(List<RecordedRequest> sent, String method, String pathPart) {
        return sent.stream().filter(r -> method.equals(r.getMethod()) && r.getPath().contains(pathPart)).count();
    }

    @Test
    void twentyClassesInOneNamespaceAreRefreshedWithOnePatchATick() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        List<SandboxClassSpec> specs = new ArrayList<>();
        List<WorkloadClass> classes = new ArrayList<>();
        List<WorkloadRef> refs = new ArrayList<>();
        Map<String, AdmissionPolicy> admission = new HashMap<>();
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(2).maxReplicas(2).pollIntervalSeconds(15)
                .startupSeconds(90).maxAgeSeconds(30.0).expectedServiceSeconds(1.0).build();
        for (int i = 0; i < CLASSES; i++) {
            String name = "c" + i;
            cluster.deployment("payments", "worker-" + i, 2);
            WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker-" + i);
            refs.add(ref);
            specs.add(SandboxClassSpec.builder(name).baseRate(1).service(SandboxClassSpec.ServiceTime.constant(1))
                    .concurrency(2).startupSeconds(90).initialReplicas(2).build());
            classes.add(new WorkloadClass(name, ref, policy));
            admission.put(name, AdmissionPolicy.onMissing(true, "conservative"));
        }
        KubeConnection c = cluster.connect(dir, "dev");
        gateway = KubeClusterGateway.open(c, refs, clock, new LeaseKeeper(c.client(), "ana@desk-1/aaaa0001", clock,
                Duration.ofSeconds(60)));
        assertTrue(gateway.awaitSynced(Duration.ofSeconds(15)));
        SandboxWorld world = new SandboxWorld(specs, 3, T0);
        Supervisor supervisor = new Supervisor(classes, gateway.ports(), journal, clock, Runnable::run, "ana",
                Duration.ofMinutes(5));
        supervisor.setAdmissionPolicies(admission);
        for (WorkloadClass cls : classes) {
            assertTrue(supervisor.setMode(cls.name(), Mode.AUTO).get().ok());
        }
        ControlLoop loop = new ControlLoop(classes, gateway.ports(), new SandboxMetrics(world, clock), supervisor, clock);
        for (int t = 0; t <= 60; t += 15) { // the first verdicts published, then steady
            clock.set(T0.plusSeconds(t));
            loop.tick();
        }
        long published = journal.replay().records().stream().filter(r -> r.kind() == Kind.ADMISSION_PUBLISHED).count();
        assertTrue(published >= CLASSES, "every class published: " + published);
        cluster.takeRequests();

        clock.set(T0.plusSeconds(75));
        loop.tick();
        List<RecordedRequest> sent = cluster.takeRequests();

        assertEquals(published, journal.replay().records().stream().filter(r -> r.kind() == Kind.ADMISSION_PUBLISHED)
                .count(), "a steady tick changes nothing for producers: it only refreshes");
        assertEquals(1, count(sent, "PATCH", CONFIG_MAP), "one refresh write for the namespace's 20 classes");
        assertTrue(count(sent, "GET", "/leases/") <= CLASSES, "each workload's Lease read at most once before it: "
                + count(sent, "GET", "/leases/"));
        for (int i = 0; i < CLASSES; i++) {
            AdmissionEntry e = gateway.ports().admissions().published(refs.get(i), "c" + i).orElseThrow();
            assertEquals(T0.plusSeconds(75), e.decidedAt(), "c" + i + " refreshed by that write");
            assertEquals(T0.plusSeconds(75 + 60), e.expiresAt());
            assertEquals(e, supervisor.admission("c" + i).published(), "the console shows what producers read");
        }
    }
}
