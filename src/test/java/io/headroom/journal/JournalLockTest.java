package io.headroom.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two consoles are two processes: the journal's lock must hold between JVMs, whatever this one
 * does with the journal meanwhile (replay, append). Each test runs a second JVM on the test classpath.
 */
class JournalLockTest {

    static Process probe(Path file, boolean hold) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                JournalLockProbe.class.getName(), file.toString(), hold ? "hold" : "once");
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        return pb.start();
    }

    /** The probe's first line: what happened when it tried. */
    static String firstLine(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        return line == null ? "(no answer)" : line;
    }

    static void finish(Process p) throws Exception {
        p.getOutputStream().close();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the probe ends");
    }

    @Test
    void aSecondProcessCannotOpenAJournalThisOneHasReplayed(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f)) {
            j.append(FileJournalTest.rec(1));
            j.replay(); // reading the journal back must not give the lock away
            j.history();
            Process p = probe(f, false);
            String answer = firstLine(p);
            finish(p);
            assertTrue(answer.startsWith("REFUSED") && answer.contains("in use"), answer);
            assertEquals(2, j.append(FileJournalTest.rec(2)).seq());
        }
    }

    @Test
    void whileAnotherProcessHoldsTheJournalThisOneIsRefusedThenGetsIt(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        Process p = probe(f, true);
        try {
            String answer = firstLine(p);
            assertEquals("OPENED 1", answer);
            IOException e = assertThrows(IOException.class, () -> FileJournal.open(f));
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
        } finally {
            finish(p);
        }
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
            Process p = probe(f, false);
            String answer = firstLine(p);
            finish(p);
            assertTrue(answer.startsWith("REFUSED"), "the refused open did not drop this process's lock: " + answer);
        }
    }
}
