package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.journalfile.FileJournal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.supervise.Proposal;
import io.headroom.testing.ChildJvm;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 item 3: a console killed during "Replace it" (a JVM of its own, {@link ReplaceCrashProbe}, destroyed
 * while it waits for the replacement) leaves replicas at one more and the hung pod running. The next console,
 * started on the same journal file and the same mock API server, finds the unfinished replacement from the
 * journal and the cluster: it resumes it (the replacement ready → the hung pod evicted → replicas back), or,
 * past its deadline, ends it saying where replicas stand and that the hung pod still runs, and the proposal
 * that follows says why the extra replica is there.
 */
class ResumedReplacementTest {
    static final Duration WAIT = Duration.ofSeconds(20);
    static final Instant T0 = Instant.parse("2026-12-01T11:00:00Z");
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    Evictions evictions;
    Path journalFile;
    /** The next console's gateway. */
    KubeClusterGateway gateway;

    @BeforeEach
    void setUp() {
        cluster = api.cluster();
        evictions = ReplaceConsole.twoWorkers(cluster, false);
        journalFile = dir.resolve("journal.jsonl");
    }

    int replicas() {
        return cluster.replicas("payments", "worker");
    }

    /** The first console asks for a replacement of worker-a and is killed; when it asked, by its clock. */
    Instant crashMidReplacement() throws Exception {
        try (ChildJvm probe = ChildJvm.start(ReplaceCrashProbe.class, cluster.url(), dir.toString(),
                journalFile.toString(), T0.toString())) {
            String line = probe.readLine(); // blocks until the probe prints (or dies: null)
            assertTrue(line != null && line.startsWith("REPLACING "), String.valueOf(line));
            assertEquals(3, replicas(), "the replacement was asked for");
            probe.process().destroyForcibly();
            assertTrue(probe.process().waitFor(30, TimeUnit.SECONDS), "the probe is gone");
            return Instant.parse(line.substring("REPLACING ".length()));
        }
    }

    /** The next console on the same journal and server, its clock at {@code at}, the journal read back. */
    ReplaceConsole nextConsole(FileJournal journal, Instant at, HungWorkerMetrics metrics) throws Exception {
        gateway = cluster.openGateway(dir, ReplaceConsole.REF);
        ReplaceConsole next = ReplaceConsole.on(gateway, journal, new ManualClock(at), metrics, "ana");
        next.supervisor().restore(journal.replay());
        return next;
    }

    static Drain drain(ReplaceConsole c) {
        return c.supervisor().state().of("payments").drain();
    }

    static List<JournalRecord> recordsOf(FileJournal journal, String drainId) {
        return journal.history().records().stream().filter(r -> drainId.equals(r.proposalId())).toList();
    }

    @Test
    void aReplacementTheConsoleDiedInIsResumedByTheNextStart() throws Exception {
        Instant asked = crashMidReplacement();
        assertNotNull(cluster.admin.pods().inNamespace("payments").withName("worker-a").get(), "the hung pod runs");
        // The ReplicaSet's part while no console ran: the replacement, ready.
        cluster.newPod("payments", "worker-c").app("worker").onNode("node-2").created(asked.plusSeconds(5).toString())
                .create();

        try (FileJournal journal = FileJournal.open(journalFile)) {
            ReplaceConsole next = nextConsole(journal, asked.plusSeconds(40), new HungWorkerMetrics());
            MockCluster.await("the replacement in the watch cache", WAIT, () -> gateway.workload(ReplaceConsole.REF)
                    .orElseThrow().pods().stream().anyMatch(p -> p.name().equals("worker-c")));
            next.tick(Duration.ofSeconds(1));

            Drain d = drain(next);
            assertNotNull(d, "the unfinished replacement is the class's drain again");
            assertEquals(DrainPhase.COMPLETED, d.phase(), d.detail());
            assertEquals("replaced worker-a by worker-c: worker-a evicted (its 4 jobs in flight go back to the queue"
                    + " unfinished); replicas 3 → 2", d.detail());
            assertEquals(1, evictions.bodies.size(), "worker-a's eviction asked for once");
            assertEquals("worker-a", evictions.bodies.get(0).path("metadata").path("name").asText());
            assertEquals(2, replicas(), "back to the replicas before the replacement");

            List<JournalRecord> records = recordsOf(journal, d.id());
            assertEquals(List.of(Kind.DRAIN_STARTED, Kind.SCALING, Kind.APPLIED, Kind.DRAIN_RESUMED, Kind.POD_EVICTED,
                    Kind.SCALING, Kind.APPLIED, Kind.DRAIN_ENDED), records.stream().map(JournalRecord::kind).toList());
            JournalRecord resumed = records.get(3);
            assertEquals("ana", resumed.user());
            assertTrue(resumed.detail().startsWith("resumed after the console stopped: 3 replicas include the one"
                    + " asked for to replace worker-a (drain " + d.id() + "), which still runs"), resumed.detail());
            assertEquals(DrainPhase.COMPLETED.name(), records.get(records.size() - 1).reason());
        }
    }

    @Test
    void aReplacementPastItsDeadlineEndsNamingTheExtraReplicaAndTheHungPodAndTheProposalSaysWhy() throws Exception {
        Instant asked = crashMidReplacement();
        HungWorkerMetrics quiet = new HungWorkerMetrics();
        quiet.quiet = true; // the queue emptied meanwhile: 2 replicas are enough

        try (FileJournal journal = FileJournal.open(journalFile)) {
            ReplaceConsole next = nextConsole(journal, asked.plus(Duration.ofMinutes(11)), quiet);
            next.tick(Duration.ofSeconds(1));

            Drain d = drain(next);
            assertNotNull(d, "the unfinished replacement is shown as it ended");
            assertEquals(DrainPhase.TIMED_OUT, d.phase(), d.detail());
            String end = "the console stopped during the replacement of worker-a and its deadline passed before it"
                    + " started again; nothing evicted, worker-a left running; replicas stay 3 (the replacement asked"
                    + " for): the decision takes the extra one back";
            assertEquals(end, d.detail());
            List<JournalRecord> records = recordsOf(journal, d.id());
            JournalRecord ended = records.get(records.size() - 1);
            assertEquals(Kind.DRAIN_ENDED, ended.kind());
            assertEquals(DrainPhase.TIMED_OUT.name(), ended.reason());
            assertEquals(end, ended.detail());
            assertEquals(3, replicas(), "nothing lowered behind the operator's back");
            assertTrue(evictions.bodies.isEmpty(), "nothing evicted");

            Proposal p = null;
            for (int i = 0; i < 120 && p == null; i++) {
                next.tick(Duration.ofSeconds(15));
                p = next.supervisor().state().pending().stream().findFirst().orElse(null);
            }
            assertNotNull(p, "a scale-down proposal once the decision wants 2");
            assertEquals(3, p.from());
            assertEquals(2, p.to());
            String why = "3 replicas include the one asked for to replace worker-a (drain " + d.id()
                    + ", timed out), which still runs";
            assertTrue(p.explanation().contains(why), p.explanation());
            final String id = p.id();
            JournalRecord proposed = journal.history().records().stream()
                    .filter(r -> r.kind() == Kind.PROPOSED && id.equals(r.proposalId())).findFirst().orElseThrow();
            assertTrue(proposed.detail().contains(why), proposed.detail());
        }
    }
}
