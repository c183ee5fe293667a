package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cli.Cli;
import io.headroom.journal.MemoryJournal;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who is acting: --operator names the person written into every record and event. */
class OperatorTest {

    @Test
    void theOperatorGivenActsInTheSandbox() {
        try (Session s = Session.sandbox(1, Instant.parse("2026-12-01T10:00:00Z"), Duration.ofMinutes(1),
                new MemoryJournal(), "ana")) {
            assertEquals("ana", s.supervisor().user());
        }
        assertEquals("ana", Launcher.Options.of(Map.of("operator", "  ana ")).operator(), "trimmed");
        assertNull(Launcher.Options.of(Map.of()).operator(), "none given: the kubeconfig or OS user");
    }

    @Test
    void aNameThatCannotBeWrittenIntoARecordIsRefusedBeforeAnyWindow() {
        for (String bad : new String[] {"", "   ", "a\nb", "x".repeat(65), "tab\there"}) {
            assertThrows(IllegalArgumentException.class, () -> Session.operatorName(bad), bad);
            String problem = Cli.consoleUsageError(new String[] {"--operator=" + bad});
            assertNotNull(problem, bad);
            assertTrue(problem.contains("--operator"), problem);
        }
        assertNull(Cli.consoleUsageError(new String[] {"--operator=ana@oncall"}));
    }
}
