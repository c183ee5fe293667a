package io.headroom.ui.whatif;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.whatif.WarmUp;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The console's what-if warm-up (issue 29): asked for, it replays once after the first frame; opening a What-if
 * window cancels it. Off unless asked: the console the tests open never asks.
 */
class WhatIfWarmUpUiTest {
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void itRunsOnceAfterTheFirstFrame() throws Exception {
        Session s = Session.sandbox(2, Instant.now(), Duration.ofMinutes(2), new MemoryJournal());
        console = ConsoleWindow.open(s);
        WarmUp w = onFx(() -> console.view().warmUpWhatIf(Duration.ZERO));
        assertTrue(w.done().get(120, TimeUnit.SECONDS), "the warm-up replayed its slice");
        assertSame(w, onFx(() -> console.view().warmUpWhatIf(Duration.ZERO)));
        assertFalse(w.start(Duration.ZERO, Runnable::run), "started already: a second start does nothing");
        assertEquals(1, w.replaysStarted());
    }

    @Test
    void openingWhatIfCancelsIt() throws Exception {
        Session s = Session.sandbox(2, Instant.now(), Duration.ofMinutes(2), new MemoryJournal());
        console = ConsoleWindow.open(s);
        WarmUp w = onFx(() -> console.view().warmUpWhatIf(Duration.ofHours(1)));
        String cls = s.loop().classes().get(0).name();
        onFx(() -> console.view().openWhatIf(cls));
        assertTrue(w.isCancelled());
        assertFalse(w.done().get(10, TimeUnit.SECONDS), "cancelled, not replayed");
        assertEquals(0, w.replaysStarted());
    }
}
