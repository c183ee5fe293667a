package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A live journal view asks only for what was appended since its last page, never the whole file again. */
class JournalTailTest {

    static List<Long> seqs(Optional<List<JournalRecord>> rs) {
        return rs.orElseThrow().stream().map(JournalRecord::seq).toList();
    }

    @Test
    void aFileJournalHandsOverWhatWasAppendedAfterASequenceNumber(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournalTest.open(f)) {
            for (int i = 1; i <= 5; i++) {
                j.append(FileJournalTest.rec(i));
            }
            assertEquals(List.of(4L, 5L), seqs(j.appendedAfter(3)));
            assertEquals(List.of(), seqs(j.appendedAfter(5)), "nothing new");
            assertEquals(j.history().records().subList(3, 5), j.appendedAfter(3).orElseThrow(),
                    "the same records the files hold");
        }
        try (FileJournal j = FileJournalTest.open(f)) {
            assertTrue(j.appendedAfter(2).isEmpty(), "records from before this opening: read the history instead");
            assertEquals(List.of(), seqs(j.appendedAfter(5)));
            j.append(FileJournalTest.rec(6));
            assertEquals(List.of(6L), seqs(j.appendedAfter(5)));
            assertTrue(j.appendedAfter(4).isEmpty(), "record 5 is not at hand");
        }
    }

    @Test
    void onlyTheNewestAppendsAreKeptAtHand(@TempDir Path dir) throws Exception {
        // The window a console keeps is 4,096 records; 4,106 appends, each forced to disk, took 3.5 s of
        // this test. The same window of 16 behaves the same with 26.
        int kept = 16;
        try (FileJournal j = FileJournal.open(dir.resolve("journal.jsonl"), FileJournalTest.options().tail(kept).build())) {
            for (int i = 1; i <= kept + 10; i++) {
                j.append(FileJournalTest.rec(1));
            }
            assertTrue(j.appendedAfter(5).isEmpty(), "record 6 is no longer at hand");
            assertTrue(j.appendedAfter(9).isEmpty(), "record 10 is no longer at hand");
            assertEquals(kept, seqs(j.appendedAfter(10)).size());
            assertEquals(List.of((long) kept + 10), seqs(j.appendedAfter(kept + 9)));
        }
        assertEquals(4096, FileJournal.Options.defaults().tail(), "a console keeps 4,096 at hand");
    }

    @Test
    void aMemoryJournalHasEverythingAtHand() {
        MemoryJournal j = new MemoryJournal();
        for (int i = 1; i <= 3; i++) {
            j.append(FileJournalTest.rec(i));
        }
        assertEquals(List.of(2L, 3L), seqs(j.appendedAfter(1)));
        assertEquals(List.of(1L, 2L, 3L), seqs(j.appendedAfter(0)));
        assertEquals(List.of(), seqs(j.appendedAfter(3)));
    }
}
