package io.headroom.ui.whatif;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The what-if window the console opens copies the edited policy as YAML: the view model writes no
 * YAML itself (issue 31), so this holds the port the main view wires (the session's PolicyEdits.yaml).
 */
class WhatIfCopyUiTest {
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void theConsolesWhatIfCopiesTheEditedPolicyAsYaml() throws Exception {
        Session s = Session.sandbox(2, Instant.now(), Duration.ofMinutes(1), new MemoryJournal());
        s.warmUp(Duration.ofMinutes(1));
        console = ConsoleWindow.open(s);
        String cls = s.loop().classes().get(0).name();
        WhatIfViewModel vm = onFx(() -> console.view().openWhatIf(cls));
        assertNotNull(vm, "the window opened for " + cls);
        String yaml = onFx(() -> {
            vm.maxReplicasProperty().set("7");
            return vm.editedYaml();
        });
        // (The status line is not read: the replay the window starts on opening may land after the copy.)
        assertNotNull(yaml, "copied");
        assertTrue(yaml.contains("maxReplicas: 7"), yaml);
        assertEquals(io.headroom.config.PolicyWriter.toYaml(onFx(vm::edited)), yaml, "the config writer's block");
    }
}
