package io.headroom.journalfile;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk: a 64 KiB tmpfs (mounting needs root; elsewhere the injected channel of
 * FileJournalTest stands in). The journal fills it, the failed write leaves no half line, and once
 * space is freed the next record is written and every record reads back.
 */
class JournalDiskFullTest {

    static boolean run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    @Test
    void aFullFilesystemStopsTheJournalCleanlyAndFreedSpaceResumesIt(@TempDir Path dir) throws Exception {
        Path mnt = dir.resolve("tiny");
        Files.createDirectory(mnt);
        Assumptions.assumeTrue(run("mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", mnt.toString()),
                "mounting a tmpfs needs root");
        try {
            Path f = mnt.resolve("journal.jsonl");
            Path filler = mnt.resolve("filler");
            Files.write(filler, new byte[32 * 1024]); // someone else's file takes half the disk
            int written = 0;
            JournalException full = null;
            try (FileJournal j = FileJournal.open(f)) {
                while (full == null && written < 10_000) {
                    try {
                        j.append(FileJournalTest.rec(written + 1));
                        written++;
                    } catch (JournalException e) {
                        full = e;
                    }
                }
                assertNotNull(full, "the disk filled up");
                assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
                assertTrue(j.failure().isPresent());
                assertEquals(List.of(), j.replay().warnings(), "no half record left behind");
                assertEquals(written, j.replay().records().size());

                Files.delete(filler); // space freed
                assertEquals(written + 1, j.append(FileJournalTest.rec(written + 1)).seq());
                assertTrue(j.failure().isEmpty());
            }
            try (FileJournal j = FileJournal.open(f)) {
                Journal.Replay r = j.history();
                assertEquals(List.of(), r.warnings());
                assertEquals(written + 1, r.records().size(), "every record that was reported written");
            }
        } finally {
            run("umount", mnt.toString());
        }
    }
}
