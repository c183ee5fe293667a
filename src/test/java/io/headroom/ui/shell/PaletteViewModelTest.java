package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.ui.shell.Commands.Command;
import io.headroom.ui.shell.Commands.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The palette without a window: what a query finds, in what order, and what Enter does. */
class PaletteViewModelTest {
    final List<String> ran = new ArrayList<>();
    final AtomicBoolean frozen = new AtomicBoolean();

    PaletteViewModel palette() {
        Commands c = new Commands()
                .add(new Command("Open the journal", Section.CONSOLE, null, null, () -> ran.add("journal")))
                .add(new Command("Freeze or unfreeze every class", Section.CONSOLE, null, null, () -> ran.add("all")))
                .add(new Command("Approve the proposal", Section.PROPOSAL, null,
                        () -> "no proposal waits for payments", () -> ran.add("approve")))
                .addGenerated(() -> List.of(new Command(frozen.get() ? "Unfreeze payments" : "Freeze payments…",
                        Section.CLASS, null, null, () -> ran.add("freeze payments"))));
        return new PaletteViewModel(c::all);
    }

    static List<String> titles(PaletteViewModel vm) {
        return vm.items().stream().map(PaletteViewModel.Item::title).toList();
    }

    @Test
    void opensWithEveryCommandAsItStandsNow() {
        PaletteViewModel vm = palette();
        vm.open();
        assertEquals(List.of("Open the journal", "Freeze or unfreeze every class", "Approve the proposal",
                "Freeze payments…"), titles(vm));
        frozen.set(true);
        vm.open(); // generated titles are read again on each opening
        assertTrue(titles(vm).contains("Unfreeze payments"), titles(vm).toString());
        assertTrue(vm.showingProperty().get());
    }

    @Test
    void aWordStartBeatsAMatchInsideAWordWhichBeatsLettersInOrder() {
        PaletteViewModel vm = palette();
        vm.open();
        vm.queryProperty().set("freeze");
        assertEquals(List.of("Freeze or unfreeze every class", "Freeze payments…"), titles(vm));
        vm.queryProperty().set("jrnl");
        assertEquals(List.of("Open the journal"), titles(vm), "the letters in order, fuzzily");
        vm.queryProperty().set("frz pay");
        assertEquals(List.of("Freeze payments…"), titles(vm));
        vm.queryProperty().set("nothing like it");
        assertTrue(vm.items().isEmpty());
        assertEquals(-1, vm.selectedProperty().get());
    }

    @Test
    void enterRunsTheHighlightedCommandAndClosesThePalette() {
        PaletteViewModel vm = palette();
        vm.open();
        vm.queryProperty().set("freeze");
        vm.move(1);
        assertTrue(vm.runSelected());
        assertEquals(List.of("freeze payments"), ran);
        assertFalse(vm.showingProperty().get());
    }

    @Test
    void aCommandThatCannotRunIsShownWithWhyAndEnterSaysItInsteadOfRunning() {
        PaletteViewModel vm = palette();
        vm.open();
        vm.queryProperty().set("approve");
        assertEquals(1, vm.items().size());
        PaletteViewModel.Item approve = vm.items().get(0);
        assertFalse(approve.enabled());
        assertEquals("no proposal waits for payments", approve.why());
        assertFalse(vm.runSelected());
        assertTrue(ran.isEmpty());
        assertTrue(vm.showingProperty().get(), "still open: the operator reads why");
        assertEquals("Approve the proposal: no proposal waits for payments", vm.messageProperty().get());
    }

    @Test
    void theFirstHighlightIsACommandThatCanRunAndArrowsWrapAround() {
        PaletteViewModel vm = palette();
        vm.open();
        vm.queryProperty().set("p"); // Approve (disabled) comes before Freeze payments in registry order
        assertTrue(vm.items().get(vm.selectedProperty().get()).enabled());
        vm.queryProperty().set("");
        vm.move(-1);
        assertEquals(vm.items().size() - 1, vm.selectedProperty().get());
        vm.move(1);
        assertEquals(0, vm.selectedProperty().get());
    }

    static PaletteViewModel of(Command... commands) {
        Commands c = new Commands();
        for (Command x : commands) {
            c.add(x);
        }
        PaletteViewModel vm = new PaletteViewModel(c::all);
        vm.open();
        return vm;
    }

    static Command named(String title) {
        return new Command(title, Section.CLASS, null, null, () -> { });
    }

    @Test
    void anExactPrefixBeatsWordInitialFuzzyWhichBeatsLettersInOrderWhateverTheRegistryOrder() {
        PaletteViewModel vm = of(named("Replace pod ledger-7 of ledger…"), // d, r in order: subsequence only
                named("Cancel the drain of ledger"),                          // a word starts "dr"
                named("Open the journal"),                                    // no d
                named("Drain payments-steady…"));                             // the title starts "dr"
        vm.queryProperty().set("dr");
        assertEquals(List.of("Drain payments-steady…", "Cancel the drain of ledger", "Replace pod ledger-7 of ledger…"),
                titles(vm));
        assertEquals(PaletteViewModel.PREFIX, PaletteViewModel.score("dr", vm.items().get(0)));
        assertTrue(PaletteViewModel.score("dr", vm.items().get(1)) >= PaletteViewModel.WORD_INITIAL
                && PaletteViewModel.score("dr", vm.items().get(1)) < PaletteViewModel.SUBSEQUENCE);
        assertTrue(PaletteViewModel.score("dr", vm.items().get(2)) >= PaletteViewModel.SUBSEQUENCE);
    }

    @Test
    void everyWordStartsAWordOfTheTitleAnyClassByNameAndAWholeWordBeatsAFuzzyOne() {
        PaletteViewModel vm = of(named("Freeze search-interactive…"), named("Freeze payments-steady…"),
                named("Override ledger-replay…"), named("Override payments-steady…"),
                named("Drain pod payments-steady-7c9f-x2 of payments-steady…"));
        vm.queryProperty().set("frz pay"); // the README's example
        assertEquals(List.of("Freeze payments-steady…"), titles(vm));
        vm.queryProperty().set("override led");
        assertEquals(List.of("Override ledger-replay…"), titles(vm));
        vm.queryProperty().set("pay freeze"); // words in any order
        assertEquals(List.of("Freeze payments-steady…"), titles(vm));
        vm.queryProperty().set("ovr pay");
        assertEquals("Override payments-steady…", titles(vm).get(0));
        vm.queryProperty().set("pod pay");
        assertEquals(List.of("Drain pod payments-steady-7c9f-x2 of payments-steady…"), titles(vm));
    }

    @Test
    void otherWordsForACommandFindItAfterTheTitlesOwnWords() {
        PaletteViewModel vm = of(named("Override ledger-replay…").alias("pin replicas"),
                named("Pinned classes at a glance"), named("Open the journal"));
        vm.queryProperty().set("pin");
        assertEquals(List.of("Pinned classes at a glance", "Override ledger-replay…"), titles(vm),
                "the title's own word first, then the synonym");
        vm.queryProperty().set("pin led");
        assertEquals(List.of("Override ledger-replay…"), titles(vm));
    }

    @Test
    void eachRowShowsItsKeyWhereItHasOne() {
        Commands.Key r = Commands.Key.pressed(new javafx.scene.input.KeyCodeCombination(javafx.scene.input.KeyCode.R));
        PaletteViewModel vm = of(named("Reject payments-steady 6 → 3 (with a reason)…").withKey(r),
                named("Reject ledger-replay 2 → 4 (with a reason)…"));
        vm.queryProperty().set("reject");
        assertEquals("R", vm.items().get(0).key());
        assertEquals("", vm.items().get(1).key());
    }
}
