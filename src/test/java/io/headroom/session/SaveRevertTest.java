package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.supervise.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A what-if edit saved into the workloads file can be taken back (issue 28): the file's bytes as they were,
 * journaled as its own kind, only while the file holds what the save wrote; and a reload keeps the load
 * history of the classes that still exist and the offer to revert.
 */
class SaveRevertTest {
    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    @TempDir
    Path dir;

    Path workloads(String name, int maxReplicas) throws Exception {
        Path file = dir.resolve("workloads.yaml");
        Files.writeString(file, """
                prometheus: {url: "http://127.0.0.1:9090"}
                classes:
                  - name: %s
                    context: dev
                    namespace: ns
                    target: {kind: Deployment, name: w}
                    signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}
                    policy:
                      maxReplicas: %d   # the team's cap
                """.formatted(name, maxReplicas));
        return file;
    }

    @Test
    void aSaveRevertedPutsTheFilesBytesBackAndIsJournaledAsItsOwnKind() throws Exception {
        MemoryJournal journal = new MemoryJournal();
        try (Session s = Session.sandbox(3, NOW, Duration.ofMinutes(1), journal)) {
            String name = s.loop().classes().get(0).name();
            Policy live = PolicyEditsTest.cls(s, name).policy();
            Path file = workloads(name, live.maxReplicas());
            byte[] before = Files.readAllBytes(file);
            assertFalse(s.policyEdits().revertSave("nothing saved").ok(), "nothing saved yet, nothing to revert");

            Outcome saved = s.policyEdits().save(name, live.toBuilder().maxReplicas(live.maxReplicas() + 5).build(),
                    "more room for the sale", file);
            assertTrue(saved.ok(), saved.message());
            SavedFile offer = s.policyEdits().lastSave().orElseThrow();
            assertEquals(name, offer.className());
            assertEquals("workloads.yaml", offer.fileName());

            Outcome back = s.policyEdits().revertSave("the sale is over");
            assertTrue(back.ok(), back.message());
            assertArrayEquals(before, Files.readAllBytes(file), "the file's bytes as they were before the save");
            assertTrue(back.message().contains(name), "names the class: " + back.message());
            assertTrue(back.message().contains("maxReplicas " + (live.maxReplicas() + 5) + " → " + live.maxReplicas()),
                    back.message());
            JournalRecord r = journal.replay().records().stream()
                    .filter(x -> x.kind() == JournalRecord.Kind.POLICY_SAVE_REVERTED).findFirst().orElseThrow();
            assertEquals(name, r.className());
            assertEquals("the sale is over", r.reason());
            assertTrue(r.detail().startsWith("reverting workloads.yaml"), r.detail());
            assertTrue(s.policyEdits().lastSave().isEmpty(), "taken back: no second revert");
            assertFalse(s.policyEdits().revertSave("again").ok());
        }
    }

    @Test
    void aFileEditedSinceTheSaveIsLeftAsItIs() throws Exception {
        MemoryJournal journal = new MemoryJournal();
        try (Session s = Session.sandbox(3, NOW, Duration.ofMinutes(1), journal)) {
            String name = s.loop().classes().get(0).name();
            Policy live = PolicyEditsTest.cls(s, name).policy();
            Path file = workloads(name, live.maxReplicas());
            assertTrue(s.policyEdits().save(name, live.toBuilder().maxReplicas(live.maxReplicas() + 1).build(),
                    "one more", file).ok());
            String byHand = Files.readString(file) + "# edited by hand\n";
            Files.writeString(file, byHand);
            Outcome back = s.policyEdits().revertSave("undo");
            assertFalse(back.ok());
            assertTrue(back.message().contains("the file changed since the save"), back.message());
            assertTrue(back instanceof Outcome.Refused r && r.why() == Outcome.Why.MOVED, "edited since: " + back);
            assertEquals(byHand, Files.readString(file), "the hand's edit is kept");
            assertTrue(journal.replay().records().stream().anyMatch(x -> x.kind()
                    == JournalRecord.Kind.POLICY_SAVE_REVERTED && x.detail().startsWith("not reverted")));
        }
    }

    @Test
    void aReloadKeepsTheHistoryOfTheClassesThatStillExistAndTheOfferToRevert() throws Exception {
        try (Session old = Session.sandbox(3, NOW, Duration.ofMinutes(5), new MemoryJournal());
             Session next = Session.sandbox(3, NOW.plusSeconds(60), Duration.ofMinutes(5), new MemoryJournal())) {
            old.warmUp(Duration.ofMinutes(5));
            String name = old.loop().classes().get(0).name();
            ClassHistory before = old.history().find(name);
            assertTrue(before.size() > 10, "the old session recorded points: " + before.size());
            Policy live = PolicyEditsTest.cls(old, name).policy();
            assertTrue(old.policyEdits().save(name, live.toBuilder().maxReplicas(live.maxReplicas() + 2).build(),
                    "room", workloads(name, live.maxReplicas())).ok());

            Launcher.carryOver(old, next);
            ClassHistory kept = next.history().find(name);
            assertSame(before, kept, "the same points, at once: the charts do not start empty");
            assertEquals(old.history().classNames(), next.history().classNames());
            assertEquals(old.policyEdits().lastSave(), next.policyEdits().lastSave(), "the revert is still offered");
        }
    }

    @Test
    void onlyClassesThatStillExistAreKeptAndADifferentCapacityIsCopied() {
        io.headroom.history.History old = new io.headroom.history.History(Duration.ofSeconds(15), 100);
        double[] row = new double[ClassHistory.SERIES];
        for (int i = 0; i < 50; i++) {
            row[0] = i;
            old.of("kept").append(1000 + 15 * i, row.clone());
            old.of("gone").append(1000 + 15 * i, row.clone());
        }
        io.headroom.history.History next = new io.headroom.history.History(Duration.ofSeconds(15), 20);
        assertEquals(List.of("kept"), next.adopt(old, List.of("kept", "new")));
        assertEquals(List.of("kept"), next.classNames(), "a class the file no longer has is not kept");
        ClassHistory kept = next.find("kept");
        assertEquals(20, kept.size(), "the newest points that fit");
        assertEquals(1000 + 15 * 49, kept.lastTime());
        assertEquals(49, kept.value(ClassHistory.Series.values()[0], 19));
        assertEquals(List.of(), new io.headroom.history.History(Duration.ofSeconds(5), 20).adopt(old, List.of("kept")),
                "another tick: the points' spacing differs, nothing is taken");
    }
}
