package io.headroom.ui.whatif;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.whatif.Replay;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The week's what-if on the sandbox (issue 29): once the console has backfilled the sandbox's week, the What-if
 * window of a class replays the week from it, with the predictive run's forecasts made from that week.
 */
class WhatIfWeekSandboxUiTest {
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void theSandboxsWeekIsReplayedWithThePredictiveRun() throws Exception {
        console = WeekConsoles.open();
        Session s = console.session();
        String cls = s.loop().classes().get(0).name();
        WhatIfViewModel vm = onFx(() -> console.view().openWhatIf(cls));
        onFx(() -> {
            vm.windowMinutesProperty().set(WhatIfViewModel.WEEK_MINUTES);
            return null;
        });
        WaitForAsyncUtils.waitFor(400, TimeUnit.SECONDS, () -> onFx(() -> !vm.runningProperty().get()
                && vm.comparisonProperty().get() != null && vm.comparisonProperty().get().seconds() > 86_400 * 1.5));
        Replay.Comparison c = onFx(() -> vm.comparisonProperty().get());
        String said = onFx(() -> vm.predictiveProperty().get());
        String status = onFx(() -> vm.statusProperty().get());
        System.out.println("sandbox week what-if of " + cls + ": " + status + "\n" + said + "\n"
                + onFx(() -> vm.rows().toString()));
        assertTrue(c.seconds() > 6 * 86_400, "the sandbox's week, not the day: " + status);
        // The week's history trails the day's by a minute or two: still the whole week, said as such.
        assertTrue(status.startsWith("Replayed week of " + cls + "'s load") && !status.contains("holds only"), status);
        assertTrue(c.predictive() != null && c.predictiveSummary().forecastsGiven() > 0,
                "forecasts from the sandbox's week: " + said);
        assertTrue(said.startsWith("With predictive: "), said);
        assertTrue(onFx(() -> vm.rows().stream().allMatch(r -> !r.predictive().isEmpty())));
    }
}
