package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.journalfile.FileJournal;
import io.headroom.journal.JournalRecord;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Supervised actions against a (mock) cluster whose kubeconfig context authenticates with a
 * token: the journal names the context, never the credential, even when an operator pastes it.
 */
class JournalHoldsNoSecretsTest {
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJvcGVyYXRvciJ9.c2lnbmF0dXJlLXNlY3JldA";

    @Test
    void actionsOnATokenContextLeaveNoSecretInTheJournal(@TempDir Path dir) throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("payments", "worker", 2);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", TOKEN, "prod", cluster.url(),
                "payments");
        Contexts contexts = Contexts.load(List.of(kubeconfig));
        WorkloadRef worker = new WorkloadRef("prod", "payments", "Deployment", "worker");
        Path journalFile = dir.resolve("journal.jsonl");
        try (KubeConnection conn = contexts.open("prod");
             KubeClusterGateway g = KubeClusterGateway.open(conn, List.of(worker), Clock.systemUTC(), null);
             FileJournal journal = FileJournal.open(journalFile)) {
            assertTrue(g.awaitSynced(Duration.ofSeconds(10)));
            WorkloadClass cls = new WorkloadClass("payments", worker, Policy.builder().build());
            Supervisor s = new Supervisor(List.of(cls), g.ports(), journal, Clock.systemUTC(), Runnable::run, "ana",
                    Duration.ofMinutes(5));

            // A decision that wants 5 replicas becomes a proposal; approving it scales the workload.
            Instant now = Instant.now();
            Observation obs = new Observation(2, 2, Map.of(Signals.QUEUE_LENGTH, Signal.of(0, now),
                    Signals.ARRIVAL_RATE, Signal.of(3.5, now), Signals.MEAN_SERVICE, Signal.of(1, now),
                    Signals.IN_FLIGHT, Signal.of(2, now)));
            Decision d = DecisionEngine.decide("payments", cls.policy(), obs, ClassMemory.initial(), now);
            s.handle(cls, d, g.workload(worker).orElseThrow());
            String id = s.state().pending().get(0).id();
            Outcome approved = s.approve(id).get(10, TimeUnit.SECONDS);
            assertTrue(approved.ok(), approved.message());
            MockCluster.await("scaled", Duration.ofSeconds(10),
                    () -> g.workload(worker).map(w -> w.specReplicas() == 5).orElse(false));

            s.freeze("payments", Duration.ofMinutes(10), "pasted: Authorization: Bearer " + TOKEN).get();
            s.unfreeze("payments", "token=" + TOKEN).get();
            s.setOverride("payments", 3, Instant.now().plusSeconds(600), "pin").get();
            s.setMode("payments", Mode.OBSERVE).get();
        }
        String text = Files.readString(journalFile);
        List<JournalRecord> records;
        try (FileJournal reread = FileJournal.open(journalFile)) {
            records = reread.replay().records();
        }
        assertTrue(records.size() >= 7, "the actions were journaled: " + records.size());
        assertTrue(records.stream().allMatch(r -> "prod".equals(r.context())), "the context is named");
        assertFalse(text.contains(TOKEN), "no token in the journal");
        assertFalse(text.contains(TOKEN.substring(TOKEN.lastIndexOf('.') + 1)), "not even its signature part");
        assertFalse(text.contains(cluster.url()), "not the server address either");
    }
}
