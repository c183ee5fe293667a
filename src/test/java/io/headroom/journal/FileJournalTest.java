package io.headroom.journal;

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
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileJournalTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static JournalRecord rec(int i) {
        return JournalRecord.of(T0.plusSeconds(i), Kind.PROPOSED, "alice", "prod", "orders").change(3, 3 + i)
                .proposal("orders-" + i).until(T0.plusSeconds(300 + i)).detail("(1/s × 2 s) / 0.7 → slots")
                .reason("burst \"quoted\" ✓");
    }

    @Test
    void recordsRoundTrip(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f)) {
            for (int i = 1; i <= 3; i++) {
                assertEquals(i, j.append(rec(i)).seq());
            }
        }
        try (FileJournal j = FileJournal.open(f)) {
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
        try (FileJournal j = FileJournal.open(f)) {
            j.append(rec(1));
            j.append(rec(2));
        }
        // A crash mid-write: half of a third line, no newline.
        String third = FileJournal.toJson(rec(3).withSeq(3)).toString();
        Files.writeString(f, third.substring(0, third.length() / 2), StandardOpenOption.APPEND);
        try (FileJournal j = FileJournal.open(f)) {
            Journal.Replay r = j.replay();
            assertEquals(2, r.records().size());
            assertTrue(r.warnings().get(0).contains("torn"), r.warnings().toString());
            j.append(rec(3));
        }
        try (FileJournal j = FileJournal.open(f)) {
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
        try (FileJournal j = FileJournal.open(f)) {
            for (int i = 1; i <= 3; i++) {
                j.append(rec(i));
            }
        }
        List<String> lines = Files.readAllLines(f);
        lines.set(1, lines.get(1).replace("\"after\":5", "\"after\":50"));
        Files.write(f, lines, StandardCharsets.UTF_8);
        try (FileJournal j = FileJournal.open(f)) {
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
        try (FileJournal j = FileJournal.open(f)) {
            for (int i = 1; i <= 3; i++) {
                j.append(rec(i));
            }
        }
        List<String> lines = Files.readAllLines(f);
        lines.remove(1);
        Files.write(f, lines, StandardCharsets.UTF_8);
        try (FileJournal j = FileJournal.open(f)) {
            Journal.Replay r = j.replay();
            assertTrue(r.warnings().stream().anyMatch(w -> w.contains("chain broken")), r.warnings().toString());
        }
    }

    @Test
    void twoConsolesCannotWriteOneJournal(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f)) {
            IOException e = assertThrows(IOException.class, () -> FileJournal.open(f));
            assertTrue(e.getMessage().contains("in use"));
        }
    }

    @Test
    void secretsInFreeTextAreRedacted(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        String jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlc2lnbmF0dXJl";
        try (FileJournal j = FileJournal.open(f)) {
            j.append(rec(1).reason("pasted by mistake: Authorization: Bearer " + jwt)
                    .detail("token=s3cr3t-value password: hunter2"));
        }
        String text = Files.readString(f);
        assertFalse(text.contains(jwt));
        assertFalse(text.contains("s3cr3t-value"));
        assertFalse(text.contains("hunter2"));
        assertTrue(text.contains(Redactor.MASK));
    }
}
