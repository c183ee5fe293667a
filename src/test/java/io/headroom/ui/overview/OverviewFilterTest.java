package io.headroom.ui.overview;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.ui.SandboxConsole;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The `/` filter of the overview, on the sandbox's five classes, without a toolkit. */
class OverviewFilterTest {

    static List<String> names(OverviewViewModel vm) {
        return vm.rows().stream().map(ClassRow::name).toList();
    }

    @Test
    void theFilterKeepsRowsWhoseClassContextOrModeContainsItAnyCaseAndTheSelectionFollows() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(2);
            OverviewViewModel vm = c.overview;
            List<String> every = names(vm);
            assertEquals(5, every.size(), every.toString());

            vm.filterProperty().set("LEDG");
            assertEquals(List.of("ledger-replay"), names(vm));
            assertEquals("ledger-replay", vm.selectedProperty().get().name(), "the selection moves to what is shown");

            vm.filterProperty().set("-B");
            assertEquals(List.of("nightly-batch"), names(vm), "part of a name, any case");

            vm.filterProperty().set("no such class");
            assertEquals(List.of(), names(vm));

            vm.filterProperty().set("  ");
            assertEquals(every, names(vm), "blank shows everything, in the same order");
            vm.filterProperty().set("sandbox");
            assertEquals(every, names(vm), "the context matches too: every sandbox class");
        }
    }
}
