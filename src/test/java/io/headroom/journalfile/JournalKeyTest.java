package io.headroom.journalfile;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.node.ObjectNode;
import io.headroom.journal.JournalRecord.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keyed journal chain (issue 27): each record carries an HMAC under a key kept beside the journal
 * (0600), so a record forged with a correctly recomputed checksum (which anyone can compute) is named
 * on replay and never acted on; journals written before keys are read as they were.
 */
class JournalKeyTest {
    static final Instant T0 = FileJournalTest.T0;

    static JournalRecord frozen(int i) {
        return JournalRecord.of(T0.plusSeconds(i), Kind.FROZEN, "ana", "prod", "orders").reason("incident")
                .until(T0.plusSeconds(86_400));
    }

    /** A line as a forger writes it: the next number, chained to the last line, its checksum recomputed. */
    static String forged(Path f, JournalRecord r, String mac) throws IOException {
        List<String> lines = Files.readAllLines(f);
        ObjectNode last = (ObjectNode) Codec.JSON.readTree(lines.get(lines.size() - 1));
        ObjectNode body = Codec.toJson(r.withSeq(last.path("seq").asLong(0L) + 1));
        if (mac != null) {
            body.put("mac", mac);
        }
        String prev = last.path("sum").asString("");
        String sum = Codec.checksum(prev, body);
        body.put("prev", prev);
        body.put("sum", sum);
        return body + "\n";
    }

    @Test
    void aForgedRecordWithARecomputedChecksumIsNamedAndNotReplayed(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournalTest.open(f)) {
            j.append(frozen(1));
        }
        // "The freeze was lifted": the line a forger appends to end an incident's freeze behind the team's back.
        JournalRecord lift = JournalRecord.of(T0.plusSeconds(2), Kind.UNFROZEN, "ana", "prod", "orders")
                .reason("over");
        Files.writeString(f, forged(f, lift, null), StandardOpenOption.APPEND);
        Files.writeString(f, forged(f, lift, "0123456789abcdef0123456789abcdef"), StandardOpenOption.APPEND);
        try (FileJournal j = FileJournalTest.open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(List.of(Kind.FROZEN), r.records().stream().map(JournalRecord::kind).toList(),
                    "the forged lift is never acted on: the freeze stands");
            assertTrue(r.warnings().contains("line 2: record 2 (UNFROZEN orders) does not carry this journal's key"
                    + " (no MAC): forged or written by another program; not replayed"), r.warnings().toString());
            assertTrue(r.warnings().contains("line 3: record 3 (UNFROZEN orders) does not carry this journal's key"
                    + " (its MAC does not verify): forged or altered; not replayed"), r.warnings().toString());
            assertEquals(4, j.append(frozen(4)).seq(), "numbering goes on past what was seen");
        }
        try (FileJournal j = FileJournalTest.open(f)) {
            assertEquals(List.of(1L, 4L), j.history().records().stream().map(JournalRecord::seq).toList());
        }
    }

    @Test
    void theKeyIsBesideTheJournalOnlyTheUsersAndEveryRecordCarriesAMac(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournalTest.open(f)) {
            j.append(frozen(1));
            j.append(frozen(2));
        }
        Path key = dir.resolve("journal.jsonl.key");
        assertTrue(Files.isRegularFile(key));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(key));
        for (String line : Files.readAllLines(f)) {
            assertTrue(line.matches(".*\"mac\":\"[0-9a-f]{64}\".*"), line);
        }
        try (FileJournal j = FileJournalTest.open(f)) {
            assertEquals(List.of(), j.replay().warnings());
            assertEquals(2, j.replay().records().size());
        }
    }

    @Test
    void aJournalFromBeforeKeysIsReadAsItWasAndKeyedFromItsNextRecordOn(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        // Two records as a console before keys wrote them: a chain of checksums, no MAC, no key file.
        String prev = Codec.GENESIS;
        StringBuilder old = new StringBuilder();
        for (int i = 1; i <= 2; i++) {
            Codec.Encoded e = Codec.encode(frozen(i).withSeq(i), prev, null);
            old.append(new String(e.line(), StandardCharsets.UTF_8));
            prev = e.sum();
        }
        Files.writeString(f, old);
        try (Checkpoint c = Checkpoint.open(dir.resolve("journal.jsonl.checkpoint"))) {
            c.write(2, prev); // as that console kept it
        }
        try (FileJournal j = FileJournalTest.open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(2, r.records().size());
            assertEquals(List.of(), r.warnings(), "its records are kept as they were, without a warning");
            j.append(frozen(3));
        }
        Files.writeString(f, forged(f, frozen(9), null), StandardOpenOption.APPEND); // unkeyed, after keys began
        try (FileJournal j = FileJournalTest.open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(List.of(1L, 2L, 3L), r.records().stream().map(JournalRecord::seq).toList());
            assertEquals(1, r.warnings().size(), r.warnings().toString());
            assertTrue(r.warnings().get(0).startsWith("line 4: record 4 (FROZEN orders) does not carry this journal's"
                    + " key"), r.warnings().toString());
        }
    }

    @Test
    void aLostKeyIsSaidOnceAndTheRecordsItKeyedAreCheckedByTheirChainOnly(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournalTest.open(f)) {
            j.append(frozen(1));
            j.append(frozen(2));
        }
        Files.delete(dir.resolve("journal.jsonl.key"));
        try (FileJournal j = FileJournalTest.open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(2, r.records().size(), "nothing is dropped for a lost key");
            assertEquals(List.of("the journal's key (journal.jsonl.key) was missing: records 1–2 can no longer be"
                    + " told from forgeries (their checksums still chain); a new key keys every record from 3 on"),
                    r.warnings());
            j.append(frozen(3));
        }
        try (FileJournal j = FileJournalTest.open(f)) {
            assertEquals(List.of(), j.replay().warnings(), "said once, when it was found");
            assertEquals(3, j.replay().records().size());
        }
    }

    @Test
    void aSnapshotWithAForgedRecordIsNotTrustedAndStateIsReadFromTheSegments(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        FileJournal.Options small = FileJournalTest.options().maxSegmentBytes(600).build();
        try (FileJournal j = FileJournal.open(f, small)) {
            for (int i = 1; i <= 6; i++) {
                j.append(frozen(i));
            }
        }
        Path snapshot = dir.resolve("journal.jsonl.snapshot");
        assertTrue(Files.exists(snapshot), "a segment was sealed with its snapshot");
        // The forger rewrites the snapshot: a lift added, its checksum and the header's check recomputed.
        byte[] all = Files.readAllBytes(snapshot);
        Snapshot.Read read;
        try {
            read = Snapshot.read(all);
        } catch (Snapshot.Damaged e) {
            throw new AssertionError(e);
        }
        JournalRecord lift = JournalRecord.of(T0.plusSeconds(1), Kind.UNFROZEN, "ana", "prod", "orders").reason("x");
        ObjectNode body = Codec.toJson(lift.withSeq(read.through()));
        List<Line> lines = new java.util.ArrayList<>(read.lines());
        String prev = "0".repeat(32);
        String sum = Codec.checksum(prev, body);
        body.put("prev", prev);
        body.put("sum", sum);
        lines.add(new Line(lift.withSeq(read.through()), body.toString().getBytes(StandardCharsets.UTF_8)));
        Files.write(snapshot, Snapshot.encode(read.through(), read.sum(), lines));
        try (FileJournal j = FileJournal.open(f, small)) {
            Journal.Replay r = j.replay();
            assertTrue(r.warnings().stream().anyMatch(w -> w.contains("snapshot") && w.contains("damaged")),
                    r.warnings().toString());
            assertFalse(r.records().stream().anyMatch(x -> x.kind() == Kind.UNFROZEN), "the forged lift is not state");
        }
    }
}
