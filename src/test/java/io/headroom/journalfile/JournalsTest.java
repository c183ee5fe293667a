package io.headroom.journalfile;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.MemoryJournal;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A console whose journal cannot be opened: the sandbox goes on in memory, a real cluster observes only. */
class JournalsTest {

    @Test
    void aRealClusterWithoutItsJournalObservesOnlyAndSaysSo(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        Files.createDirectory(f); // something that cannot be opened as the journal
        Journals.Opened o = Journals.open(f, Journals.Fallback.OBSERVE_ONLY);
        assertFalse(o.journal() instanceof MemoryJournal, "never a silent in-memory journal against a cluster");
        assertThrows(JournalException.class, () -> o.journal().append(FileJournalTest.rec(1)));
        assertTrue(o.journal().failure().isPresent(), "the reason is there from the start");
        assertTrue(o.warning().contains("observe only"), o.warning());
        assertPlain(o.warning());
        assertPlain(o.journal().failure().orElseThrow());
    }

    /** The journal's reasons reach the top bar and the journal view: words, never a Java class name (issue 26). */
    static void assertPlain(String reason) {
        assertFalse(reason.matches("(?s).*[A-Z][a-z]+Exception.*") || reason.contains("java."), reason);
    }

    @Test
    void theSandboxFallsBackToMemoryWithAWarning(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        Files.createDirectory(f);
        Journals.Opened o = Journals.open(f, Journals.Fallback.MEMORY);
        assertTrue(o.journal() instanceof MemoryJournal);
        assertTrue(o.warning().contains("in memory only"), o.warning());
        assertPlain(o.warning());
        o.journal().append(FileJournalTest.rec(1));
    }

    @Test
    void aJournalWithABadLineStillOpensAsAFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f)) {
            j.append(FileJournalTest.rec(1));
        }
        Files.write(f, new byte[] {(byte) 0xC3, (byte) 0x28, '\n'}, java.nio.file.StandardOpenOption.APPEND);
        Journals.Opened o = Journals.open(f, Journals.Fallback.OBSERVE_ONLY);
        try (Journal j = o.journal()) {
            assertTrue(j instanceof FileJournal, "one bad byte does not cost the journal: " + o.warning());
            assertTrue(j.replay().warnings().stream().anyMatch(w -> w.contains("UTF-8")));
        }
    }
}
