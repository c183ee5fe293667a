package io.headroom.ui.whatif;

import static io.headroom.ui.ConsoleWindow.onFx;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.testfx.api.FxRobot;

/** What the What-if window's UI tests share: a robot, the replays' background thread, and the window, closed after. */
abstract class WhatIfWindowFixture {
    final FxRobot robot = new FxRobot();
    final ExecutorService background = Executors.newSingleThreadExecutor();
    Stage stage;

    /** Opens {@code vm}'s window, as the console does, and keeps it to close after the test. */
    Stage open(WhatIfViewModel vm) throws Exception {
        stage = onFx(() -> WhatIfView.open(null, vm, Clock.systemUTC()));
        return stage;
    }

    @AfterEach
    void close() throws Exception {
        if (stage != null) {
            onFx(() -> {
                stage.close();
                return null;
            });
        }
        background.shutdownNow();
    }
}
