package io.headroom.ui.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.supervise.SupervisionState;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The inbox's journal banner, from the supervision state (view model only, no toolkit). */
class JournalBannerTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    final SupervisionViewModel vm = new SupervisionViewModel(null, Clock.systemUTC(), Runnable::run);

    static SupervisionState state(List<String> warnings, String failure) {
        return new SupervisionState(T0, null, Map.of(), List.of(), warnings, failure);
    }

    @Test
    void aJournalThatCannotBeWrittenIsAnErrorThatSaysNothingActs() {
        vm.apply(state(List.of(), "could not write the journal: No space left on device"));
        assertTrue(vm.journalFailedProperty().get());
        assertTrue(vm.journalProblemProperty().get().contains("nothing is scaled"), vm.journalProblemProperty().get());
        assertTrue(vm.journalProblemProperty().get().contains("No space left on device"));
    }

    @Test
    void warningsOnReadingItBackAreShownUntilThereAreNone() {
        vm.apply(state(List.of("line 7: not valid UTF-8; set aside", "record 9 is missing"), null));
        assertFalse(vm.journalFailedProperty().get());
        assertTrue(vm.journalProblemProperty().get().contains("2 warnings: line 7"), vm.journalProblemProperty().get());
        assertEquals("line 7: not valid UTF-8; set aside\nrecord 9 is missing", vm.journalDetailProperty().get());
        vm.apply(state(List.of(), null));
        assertEquals("", vm.journalProblemProperty().get(), "nothing to say, no banner");
    }
}
