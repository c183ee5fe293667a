package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.journal.MemoryJournal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The export port the session hands the journal view writes files only their owner reads (issue 31). */
class JournalExportPortTest {

    @Test
    void theSessionsJournalExportIsOnlyTheOwners(@TempDir Path dir) throws Exception {
        Session s = Session.sandbox(1, Instant.parse("2026-01-01T00:00:00Z"), Duration.ofMinutes(1), new MemoryJournal());
        try {
            Path file = dir.resolve("exports/journal.csv");
            s.journalExport().write(file, "seq,at\n".getBytes(StandardCharsets.UTF_8));
            assertEquals("seq,at\n", Files.readString(file));
            assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
            assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(file.getParent()));
        } finally {
            s.close();
        }
    }
}
