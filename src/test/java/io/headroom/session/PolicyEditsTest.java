package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A what-if edit committed to the running console: live from the next tick, journaled, revertible. */
class PolicyEditsTest {
    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    static WorkloadClass cls(Session s, String name) {
        return s.loop().classes().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    static ClassSnapshot tick(Session s, String name) {
        TickResult r = s.loop().tick();
        return r.classes().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void anEditDecidesFromTheNextTickIsJournaledAndRevertsToTheFilesPolicy() {
        MemoryJournal journal = new MemoryJournal();
        try (Session s = Session.sandbox(3, NOW, Duration.ofMinutes(5), journal)) {
            s.warmUp(Duration.ofMinutes(5));
            String name = s.loop().classes().get(0).name();
            Policy file = cls(s, name).policy();
            Policy capped = file.toBuilder().minReplicas(1).maxReplicas(1).build();

            Outcome o = s.policyEdits().apply(name, capped, "cap during the db migration");
            assertTrue(o.ok(), o.message());
            assertTrue(o.message().contains("maxReplicas " + file.maxReplicas() + " → 1"), o.message());
            assertEquals(capped, cls(s, name).policy(), "the loop's class carries the edit");
            // The estimate is bounded at once; the scale-down window then brings replicas down as it always does.
            assertEquals(1, tick(s, name).decision().recommendedReplicas(), "the next decision is bounded by it");
            PolicyEdits.Edit e = s.policyEdits().of(name).orElseThrow();
            assertEquals(file, e.original());
            assertEquals("cap during the db migration", e.reason());

            JournalRecord edited = journal.replay().records().stream()
                    .filter(r -> r.kind() == JournalRecord.Kind.POLICY_EDITED).findFirst().orElseThrow();
            assertEquals(name, edited.className());
            assertEquals("cap during the db migration", edited.reason());
            assertTrue(edited.detail().contains("maxReplicas " + file.maxReplicas() + " → 1"), edited.detail());

            Outcome back = s.policyEdits().revert(name, "migration done");
            assertTrue(back.ok(), back.message());
            assertEquals(file, cls(s, name).policy());
            assertTrue(s.policyEdits().of(name).isEmpty());
            assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.POLICY_REVERTED
                    && "migration done".equals(r.reason())));
            assertFalse(s.policyEdits().revert(name, "again").ok(), "nothing left to revert");
        }
    }

    @Test
    void asecondEditKeepsTheFilesPolicyAsTheOriginalAndEditingBackClearsTheChip() {
        try (Session s = Session.sandbox(3, NOW, Duration.ofMinutes(1), new MemoryJournal())) {
            String name = s.loop().classes().get(0).name();
            Policy file = cls(s, name).policy();
            assertTrue(s.policyEdits().apply(name, file.toBuilder().maxReplicas(9).build(), "one").ok());
            assertTrue(s.policyEdits().apply(name, file.toBuilder().maxReplicas(7).build(), "two").ok());
            PolicyEdits.Edit e = s.policyEdits().of(name).orElseThrow();
            assertEquals(file, e.original());
            assertEquals(List.of("maxReplicas " + file.maxReplicas() + " → 7"), e.changes());
            assertTrue(s.policyEdits().apply(name, file, "back by hand").ok());
            assertTrue(s.policyEdits().of(name).isEmpty(), "the live policy is the file's again");
        }
    }

    @Test
    void refusedWithoutAReasonWithoutAChangeOrWithoutTheJournalAndNothingChanges() {
        MemoryJournal memory = new MemoryJournal();
        Journal broken = new Journal() {
            @Override
            public JournalRecord append(JournalRecord record) {
                throw new JournalException("disk full");
            }

            @Override
            public Replay replay() {
                return memory.replay();
            }

            @Override
            public Replay history() {
                return memory.history();
            }

            @Override
            public Replay history(Instant since) {
                return memory.history(since);
            }

            @Override
            public java.util.Optional<String> failure() {
                return java.util.Optional.of("disk full");
            }

            @Override
            public void close() {
            }
        };
        try (Session s = Session.sandbox(3, NOW, Duration.ofMinutes(1), broken)) {
            String name = s.loop().classes().get(0).name();
            Policy file = cls(s, name).policy();
            Policy edit = file.toBuilder().maxReplicas(file.maxReplicas() + 1).build();
            assertFalse(s.policyEdits().apply(name, edit, " ").ok(), "a reason is required");
            assertFalse(s.policyEdits().apply(name, file, "same").ok(), "nothing to apply");
            Outcome o = s.policyEdits().apply(name, edit, "why");
            assertFalse(o.ok());
            assertTrue(o.message().contains("journal"), o.message());
            assertEquals(file, cls(s, name).policy(), "not journaled, not applied");
            assertFalse(s.policyEdits().apply("no-such-class", edit, "why").ok());
            // Each refusal says of what kind it is, so a caller can tell "try again" from "ask the operator".
            assertEquals(Outcome.Why.INVALID, why(s.policyEdits().apply(name, edit, " ")));
            assertEquals(Outcome.Why.NOT_FOUND, why(s.policyEdits().apply(name, file, "same")));
            assertEquals(Outcome.Why.UNJOURNALED, why(o));
            assertEquals(Outcome.Why.NOT_FOUND, why(s.policyEdits().apply("no-such-class", edit, "why")));
        }
    }

    private static Outcome.Why why(Outcome o) {
        return o instanceof Outcome.Refused r ? r.why() : null;
    }

    @Test
    void theDiffNamesEachChangedFieldAndCeilingInTheFilesWords() {
        Policy a = Policy.builder().maxReplicas(20).targetUtilization(0.7)
                .ceilings(List.of(io.headroom.decision.CeilingSpec.replicas("db", 12))).build();
        Policy b = a.toBuilder().maxReplicas(8).targetUtilization(0.8)
                .ceilings(List.of(io.headroom.decision.CeilingSpec.replicas("db", 6))).build();
        List<String> d = PolicyEdits.diff(a, b);
        assertTrue(d.contains("maxReplicas 20 → 8"), d.toString());
        assertTrue(d.contains("targetUtilization 0.7 → 0.8"), d.toString());
        assertTrue(d.stream().anyMatch(x -> x.startsWith("ceilings.db.") && x.contains("12") && x.contains("6")),
                d.toString());
        assertEquals(List.of(), PolicyEdits.diff(a, a));
    }

    @Test
    void savingWritesOnlyTheChangesIntoTheFileAndJournalsIt(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        MemoryJournal journal = new MemoryJournal();
        try (Session s = Session.sandbox(3, NOW, Duration.ofMinutes(1), journal)) {
            String name = s.loop().classes().get(0).name();
            Policy live = cls(s, name).policy();
            java.nio.file.Path file = dir.resolve("workloads.yaml");
            String text = """
                    prometheus: {url: "http://127.0.0.1:9090"}
                    classes:
                      - name: %s
                        context: dev
                        namespace: ns
                        target: {kind: Deployment, name: w}
                        signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}
                        policy:
                          maxReplicas: %d   # the team's cap
                    """.formatted(name, live.maxReplicas());
            java.nio.file.Files.writeString(file, text);
            Policy edited = live.toBuilder().maxReplicas(live.maxReplicas() + 5).build();
            assertFalse(s.policyEdits().save(name, edited, "", file).ok(), "a reason is required");
            Outcome o = s.policyEdits().save(name, edited, "more room for the sale", file);
            assertTrue(o.ok(), o.message());
            assertEquals(text.replace("maxReplicas: " + live.maxReplicas() + " ", "maxReplicas: "
                    + (live.maxReplicas() + 5) + " "), java.nio.file.Files.readString(file));
            assertEquals(text, java.nio.file.Files.readString(dir.resolve("workloads.yaml.bak")));
            assertEquals(live, cls(s, name).policy(), "the running session runs the file once it is read again");
            assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.POLICY_SAVED
                    && "more room for the sale".equals(r.reason()) && r.detail().startsWith("saving into workloads.yaml")));
            assertFalse(s.policyEdits().save(name, edited, "why", null).ok(), "no file, nothing to save into");
            // A file the edit cannot be written into: refused, the file unchanged, and the journal says so.
            java.nio.file.Path other = dir.resolve("other.yaml");
            java.nio.file.Files.writeString(other, "prometheus: {url: \"http://127.0.0.1:9090\"}\nclasses: []\n");
            assertFalse(s.policyEdits().save(name, edited, "why", other).ok());
            assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.POLICY_SAVED
                    && r.detail().startsWith("not saved into other.yaml")));
        }
    }

    @Test
    void savingThroughALinkWritesTheLinkedFileAndSaysWhichFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        MemoryJournal journal = new MemoryJournal();
        try (Session s = Session.sandbox(3, NOW, Duration.ofMinutes(1), journal)) {
            String name = s.loop().classes().get(0).name();
            Policy live = cls(s, name).policy();
            java.nio.file.Path real = java.nio.file.Files.createDirectories(dir.resolve("repo")).resolve("team.yaml");
            java.nio.file.Files.writeString(real, """
                    prometheus: {url: "http://127.0.0.1:9090"}
                    classes:
                      - name: %s
                        context: dev
                        namespace: ns
                        target: {kind: Deployment, name: w}
                        signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}
                        policy: {maxReplicas: %d}
                    """.formatted(name, live.maxReplicas()));
            java.nio.file.Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("workloads.yaml"), real);
            Outcome o = s.policyEdits().save(name, live.toBuilder().maxReplicas(live.maxReplicas() + 1).build(),
                    "one more", link);
            assertTrue(o.ok(), o.message());
            assertTrue(java.nio.file.Files.isSymbolicLink(link));
            assertTrue(java.nio.file.Files.readString(real).contains("maxReplicas: " + (live.maxReplicas() + 1)));
            assertTrue(o.message().startsWith("Saved into workloads.yaml (the link to " + real.toRealPath()
                    + "), team.yaml.bak beside it: maxReplicas"), o.message());
        }
    }
}
