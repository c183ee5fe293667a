package io.headroom.ui.whatif;

import io.headroom.history.WeekBackfill;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.testfx.util.WaitForAsyncUtils;

/** The sandbox's console with its week of history filled, for the week what-if's UI tests. */
final class WeekConsoles {
    private WeekConsoles() {
    }

    /** The sandbox (seed 5, two minutes warmed) in its console, once the week's history is filled. */
    static ConsoleWindow open() throws Exception {
        Session s = Session.sandbox(5, Instant.now(), Duration.ofMinutes(2), new MemoryJournal());
        s.warmUp(Duration.ofMinutes(2));
        ConsoleWindow console = ConsoleWindow.open(s);
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> s.weekProgress().state() == WeekBackfill.State.DONE);
        return console;
    }
}
