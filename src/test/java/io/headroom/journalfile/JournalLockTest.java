package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import io.headroom.testing.ChildJvm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two consoles are two processes: the journal's lock must hold between JVMs, whatever this one
 * does with the journal meanwhile (replay, append). The other console is one second JVM on the test
 * classpath for the whole class ({@link JournalLockProbe}), told what to open and close; each test
 * leaves it holding nothing.
 */
class JournalLockTest {
    static ChildJvm other;

    @BeforeAll
    static void startTheOtherConsole() throws IOException {
        other = ChildJvm.start(JournalLockProbe.class);
    }

    @AfterAll
    static void stopTheOtherConsole() throws Exception {
        try {
            assertEquals(0, other.finish(60), "the other console ends cleanly");
        } finally {
            other.close();
        }
    }

    @AfterEach
    void theOtherConsoleLetsGo() throws IOException {
        assertEquals("CLOSED", other.ask("close"));
    }

    @Test
    void aSecondProcessCannotOpenAJournalThisOneHasReplayed(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f)) {
            j.append(FileJournalTest.rec(1));
            j.replay(); // reading the journal back must not give the lock away
            j.history();
            String answer = other.ask("open " + f);
            assertTrue(answer.startsWith("REFUSED") && answer.contains("in use"), answer);
            assertEquals(2, j.append(FileJournalTest.rec(2)).seq());
        }
    }

    @Test
    void whileAnotherProcessHoldsTheJournalThisOneIsRefusedThenGetsIt(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        assertEquals("OPENED 1", other.ask("open " + f));
        IOException e = assertThrows(IOException.class, () -> FileJournal.open(f));
        assertTrue(e.getMessage().contains("in use"), e.getMessage());
        assertEquals("CLOSED", other.ask("close"));
        try (FileJournal j = FileJournal.open(f)) {
            List<JournalRecord> records = j.replay().records();
            assertEquals(1, records.size());
            assertEquals(2, j.append(FileJournalTest.rec(2)).seq());
            Set<Long> seqs = new HashSet<>();
            assertTrue(j.replay().records().stream().allMatch(r -> seqs.add(r.seq())), "no sequence number twice");
        }
    }

    @Test
    void aSecondOpenInThisProcessIsRefusedAndDoesNotReleaseTheFirst(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f)) {
            IOException e = assertThrows(IOException.class, () -> FileJournal.open(f));
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
            String answer = other.ask("open " + f);
            assertTrue(answer.startsWith("REFUSED"), "the refused open did not drop this process's lock: " + answer);
        }
    }
}
