package io.headroom.journalfile;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalException;
import io.headroom.journal.Redactor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileJournalTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static JournalRecord rec(int i) {
        return JournalRecord.of(T0.plusSeconds(i), Kind.PROPOSED, "alice", "prod", "orders").change(3, 3 + i)
                .proposal("orders-" + i).until(T0.plusSeconds(300 + i)).detail("(1/s × 2 s) / 0.7 → slots")
                .reason("burst \"quoted\" ✓");
    }

    /** The records' own day: the daily seal stays out of these tests (JournalRotationTest has it). */
    static FileJournal.Options.Builder options() {
        return FileJournal.Options.builder().clock(java.time.Clock.fixed(T0.plusSeconds(3600), java.time.ZoneOffset.UTC));
    }

    static FileJournal open(Path f) throws IOException {
        return FileJournal.open(f, options().build());
    }

    @Test
    void recordsRoundTrip(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            for (int i = 1; i <= 3; i++) {
                assertEquals(i, j.append(rec(i)).seq());
            }
        }
        try (FileJournal j = open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(List.of(), r.warnings());
            assertEquals(List.of(rec(1).withSeq(1), rec(2).withSeq(2), rec(3).withSeq(3)), r.records());
            assertEquals(4, j.append(rec(4)).seq(), "numbering continues after a restart");
        }
        assertEquals(4, Files.readAllLines(f).size(), "one record per line");
    }

    @Test
    void aTornLastLineLosesOnlyThatRecord(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            j.append(rec(1));
            j.append(rec(2));
        }
        // A crash mid-write: half of a third line, no newline.
        String third = FileJournal.toJson(rec(3).withSeq(3)).toString();
        Files.writeString(f, third.substring(0, third.length() / 2), StandardOpenOption.APPEND);
        try (FileJournal j = open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(2, r.records().size());
            assertTrue(r.warnings().get(0).contains("torn"), r.warnings().toString());
            j.append(rec(3));
        }
        try (FileJournal j = open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(3, r.records().size(), "appends after the repair are clean");
            assertEquals(List.of(), r.warnings());
        }
        try (var files = Files.list(dir)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().contains(".torn-")), "torn bytes kept aside");
        }
    }

    @Test
    void aTamperedLineIsReportedAndNotReplayed(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            for (int i = 1; i <= 3; i++) {
                j.append(rec(i));
            }
        }
        List<String> lines = Files.readAllLines(f);
        lines.set(1, lines.get(1).replace("\"after\":5", "\"after\":50"));
        Files.write(f, lines, StandardCharsets.UTF_8);
        try (FileJournal j = open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(2, r.records().size());
            assertTrue(r.warnings().stream().anyMatch(w -> w.startsWith("line 2: checksum mismatch")), r.warnings()
                    .toString());
            assertTrue(r.records().stream().noneMatch(x -> x.after() == 50));
        }
    }

    @Test
    void aRemovedLineBreaksTheChain(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            for (int i = 1; i <= 3; i++) {
                j.append(rec(i));
            }
        }
        List<String> lines = Files.readAllLines(f);
        lines.remove(1);
        Files.write(f, lines, StandardCharsets.UTF_8);
        try (FileJournal j = open(f)) {
            Journal.Replay r = j.replay();
            assertTrue(r.warnings().stream().anyMatch(w -> w.contains("chain broken")), r.warnings().toString());
        }
    }

    @Test
    void twoConsolesCannotWriteOneJournal(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            IOException e = assertThrows(IOException.class, () -> open(f));
            assertTrue(e.getMessage().contains("in use"));
        }
    }

    @Test
    void secretsInFreeTextAreRedacted(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        String jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlc2lnbmF0dXJl";
        try (FileJournal j = open(f)) {
            j.append(rec(1).reason("pasted by mistake: Authorization: Bearer " + jwt)
                    .detail("token=s3cr3t-value password: hunter2"));
        }
        String text = Files.readString(f);
        assertFalse(text.contains(jwt));
        assertFalse(text.contains("s3cr3t-value"));
        assertFalse(text.contains("hunter2"));
        assertTrue(text.contains(Redactor.MASK));
    }

    @Test
    void aFailedWriteIsTruncatedBackSoTheNextRecordIsKept(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        FullDiskChannels disk = new FullDiskChannels();
        try (FileJournal j = FileJournal.open(f, options().channels(disk).build())) {
            j.append(rec(1));
            disk.room(25); // the disk fills up in the middle of the next record
            JournalException e = assertThrows(JournalException.class, () -> j.append(rec(2)));
            assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
            assertTrue(j.failure().orElse("").contains("No space left on device"), j.failure().toString());
            disk.unlimited(); // space freed
            assertEquals(2, j.append(rec(3)).seq(), "the failed record never happened: its number is reused");
            assertTrue(j.failure().isEmpty(), "a write that succeeds clears the failure");
        }
        try (FileJournal j = open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(List.of(), r.warnings(), "no half record left in the file");
            assertEquals(List.of(rec(1).withSeq(1), rec(3).withSeq(2)), r.records());
        }
    }

    @Test
    void aLineWithInvalidUtf8IsSetAsideAndTheOthersReplay(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            for (int i = 1; i <= 3; i++) {
                j.append(rec(i));
            }
        }
        byte[] bytes = Files.readAllBytes(f);
        int line2 = indexOf(bytes, (byte) '\n', 0) + 1;
        int at = indexOf(bytes, (byte) 'a', line2 + 10); // somewhere inside line 2
        bytes[at] = (byte) 0xFF; // never valid in UTF-8
        int line3 = indexOf(bytes, (byte) '\n', line2) + 1;
        byte[] badLine = Arrays.copyOfRange(bytes, line2, line3 - 1);
        Files.write(f, bytes);
        try (FileJournal j = open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(List.of(1L, 3L), r.records().stream().map(JournalRecord::seq).toList());
            assertTrue(r.warnings().stream().anyMatch(w -> w.contains("line 2") && w.contains("UTF-8")),
                    r.warnings().toString());
            Path aside = f.resolveSibling("journal.jsonl.bad");
            assertTrue(Files.exists(aside), "the bad line is kept for a human to read");
            byte[] kept = Files.readAllBytes(aside);
            assertTrue(indexOf(kept, badLine) >= 0, "the bad bytes are kept as they were");
            assertEquals(4, j.append(rec(4)).seq(), "the journal goes on after the bad line");
        }
    }

    @Test
    void removingTheLastRecordsIsDetected(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            j.append(rec(1));
            j.append(JournalRecord.of(T0.plusSeconds(2), Kind.FROZEN, "alice", "prod", "orders").reason("incident")
                    .until(T0.plusSeconds(3600)));
            j.append(JournalRecord.of(T0.plusSeconds(3), Kind.UNFROZEN, "alice", "prod", "orders").reason("over"));
        }
        List<String> lines = Files.readAllLines(f);
        Files.write(f, lines.subList(0, 2), StandardCharsets.UTF_8); // the UNFROZEN record deleted
        try (FileJournal j = open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(2, r.records().size());
            assertTrue(r.warnings().stream().anyMatch(w -> w.contains("record 3") && w.contains("missing")),
                    r.warnings().toString());
            JournalRecord next = j.append(rec(4));
            assertEquals(4, next.seq(), "numbering goes on after the missing record, so the gap stays visible");
        }
        try (FileJournal j = open(f)) {
            assertTrue(j.replay().warnings().stream().anyMatch(w -> w.contains("record 3") && w.contains("missing")),
                    "the gap is reported on every open");
        }
    }

    @Test
    void anEmptiedJournalIsDetected(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            j.append(rec(1));
            j.append(rec(2));
        }
        Files.write(f, new byte[0]);
        try (FileJournal j = open(f)) {
            assertTrue(j.replay().warnings().stream().anyMatch(w -> w.contains("missing")),
                    j.replay().warnings().toString());
        }
    }

    @Test
    void freeTextIsCappedSoOneErrorCannotBloatTheJournal(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        String huge = "prometheus said: " + "x".repeat(5_000_000);
        try (FileJournal j = open(f)) {
            j.append(rec(1).detail(huge).reason(huge));
        }
        assertTrue(Files.size(f) < 20_000, "one record stays small: " + Files.size(f) + " bytes");
        try (FileJournal j = open(f)) {
            JournalRecord r = j.replay().records().get(0);
            assertTrue(r.detail().startsWith("prometheus said: xxx"), r.detail().substring(0, 40));
            assertTrue(r.detail().contains("characters cut"), "the cut is said, not hidden");
        }
    }

    @Test
    void terminalEscapesAreStrippedFromFreeText(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            j.append(rec(1).reason("\u001B]0;pwned\u0007\u001B[2J\u001B[31mred\u001B[0m alert\rover\u0000\u009b1m\u202Egnp.exe"));
        }
        try (FileJournal j = open(f)) {
            assertEquals("red alert overgnp.exe", j.replay().records().get(0).reason());
        }
    }

    static final Set<PosixFilePermission> OWNER_RW = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> OWNER_RWX = PosixFilePermissions.fromString("rwx------");

    @Test
    void theJournalAndEverythingBesideItAreOnlyTheUsers(@TempDir Path dir) throws IOException {
        Path home = dir.resolve("state/headroom");
        Path f = home.resolve("journal.jsonl");
        try (FileJournal j = open(f)) {
            j.append(rec(1));
        }
        String third = FileJournal.toJson(rec(2).withSeq(2)).toString();
        Files.writeString(f, third.substring(0, 20), StandardOpenOption.APPEND); // a torn line
        try (FileJournal j = open(f)) {
            j.append(rec(2));
        }
        assertEquals(OWNER_RWX, Files.getPosixFilePermissions(home));
        assertEquals(OWNER_RWX, Files.getPosixFilePermissions(dir.resolve("state")), "every directory it created");
        try (var files = Files.list(home)) {
            List<Path> all = files.toList();
            assertTrue(all.stream().anyMatch(p -> p.getFileName().toString().contains(".torn-")), all.toString());
            for (Path p : all) {
                assertEquals(OWNER_RW, Files.getPosixFilePermissions(p), p.toString());
            }
        }
    }

    @Test
    void aJournalLeftReadableByOthersIsMadePrivate(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        Files.writeString(f, "");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        try (FileJournal j = open(f)) {
            j.append(rec(1));
        }
        assertEquals(OWNER_RW, Files.getPosixFilePermissions(f));
    }

    static int indexOf(byte[] a, byte b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    static int indexOf(byte[] a, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= a.length; i++) {
            for (int k = 0; k < part.length; k++) {
                if (a[i + k] != part[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
