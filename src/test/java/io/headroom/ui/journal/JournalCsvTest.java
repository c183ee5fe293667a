package io.headroom.ui.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The CSV export: no cell a spreadsheet would run as a formula; a file only its owner reads. */
class JournalCsvTest {

    static Stream<String> formulas() {
        return Stream.of("=1+1", "+1", "-1+2", "@SUM(A1:A9)", "\t=cmd|' /C calc'!A0", "\r=HYPERLINK(\"x\")",
                "\n=2", "=cmd,with,commas");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formulas")
    void aLeadingFormulaCharacterIsNeutralised(String text) {
        String cell = JournalViewModel.cell(text);
        String unquoted = cell.startsWith("\"") ? cell.substring(1, cell.length() - 1).replace("\"\"", "\"") : cell;
        assertTrue(unquoted.startsWith("'"), "[" + cell + "]");
        assertEquals(text, unquoted.substring(1), "the text itself is kept");
    }

    @Test
    void ordinaryCellsAreUnchanged() {
        assertEquals("orders", JournalViewModel.cell("orders"));
        assertEquals("\"a, b\"", JournalViewModel.cell("a, b"));
        assertEquals("\"say \"\"hi\"\"\"", JournalViewModel.cell("say \"hi\""));
    }

    @Test
    void theExportIsOnlyTheOwners(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("exports/headroom-journal.csv");
        JournalRecord r = JournalRecord.of(Instant.parse("2026-01-01T00:00:00Z"), JournalRecord.Kind.FROZEN, "alice",
                "prod", "orders").reason("=incident");
        JournalViewModel.writeCsv(io.headroom.journalfile.PrivateFiles::write, file, List.of(r.withSeq(1)));
        assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(file));
        assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(file.getParent()));
        assertTrue(Files.readString(file).contains(",'=incident,"));
    }

    @Test
    void aSecretTheConsoleHoldsIsNotExportedEvenFromARecordKeptBeforeItWasLoaded() {
        // Journaled by an earlier console that had not loaded this token (issue 27 item 6).
        JournalRecord r = JournalRecord.of(Instant.parse("2026-01-01T00:00:00Z"), JournalRecord.Kind.FAILED, "alice",
                "prod", "orders").detail("HTTP 403: the credential qq-OldToken-77aa81 may not update deployments/scale");
        io.headroom.LoadedSecrets.add("qq-OldToken-77aa81");
        String csv = JournalViewModel.toCsv(List.of(r.withSeq(1)));
        assertTrue(csv.contains("HTTP 403: the credential [redacted] may not update"), csv);
        assertTrue(!csv.contains("qq-OldToken-77aa81"), csv);
    }
}
