package io.headroom.ui.overview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.time.ManualClock;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The overview's order holds for the operator's keyboard as for the pointer (a touch holds it for
 * {@link OverviewViewModel#QUIET} on the attention clock), and the selection opens on the worst class.
 */
class OverviewAttentionTest {

    @Test
    void aTouchHoldsTheOrderForAFewSecondsThenTheNewOrderComesOnce() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            ManualClock wall = new ManualClock(SandboxConsole.NOW);
            c.overview.setAttentionClock(wall);
            c.run(Duration.ofMinutes(3));
            List<String> before = names(c.overview);
            String last = before.get(before.size() - 1);
            assertTrue(row(c, last).severityProperty().get().compareTo(Severity.NO_DATA) > 0);

            c.overview.touch(); // a key pressed in the rows
            ClassSnapshot ok = c.lastTick().classes().stream().filter(s -> s.name().equals(last)).findFirst().orElseThrow();
            c.overview.apply(new TickResult(ok.at(), List.of(new ClassSnapshot(ok.cls(), ok.at(), ok.observation(), null,
                    null, null, "workload not found")), "sandbox", "sandbox"));
            assertEquals(Severity.NO_DATA, row(c, last).severityProperty().get(), "the row shows it at once");
            assertEquals(before, names(c.overview), "but does not move under the keys");
            assertTrue(c.overview.orderWaitingProperty().get());

            wall.advance(OverviewViewModel.QUIET.minusSeconds(1));
            c.overview.releaseIfQuiet();
            assertEquals(before, names(c.overview), "still within the quiet time");
            c.overview.holdOrderProperty().set(true);
            wall.advance(Duration.ofSeconds(2));
            c.overview.releaseIfQuiet();
            assertEquals(before, names(c.overview), "the pointer holds it on its own");
            c.overview.holdOrderProperty().set(false);
            assertFalse(c.overview.orderWaitingProperty().get(), "nothing holds it: the new order came");
            assertTrue(names(c.overview).indexOf(last) < before.indexOf(last), names(c.overview).toString());
        }
    }

    @Test
    void theSelectionFollowsTheWorstRowAtStartUntilTheOperatorChooses() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            ManualClock wall = new ManualClock(SandboxConsole.NOW);
            c.overview.setAttentionClock(wall);
            c.tick(1);
            String first = c.overview.selectedProperty().get().name();
            // The first ticks: rates not known yet. Once known, the worst row is selected, whatever came first.
            assertTrue(c.runUntil(() -> !c.overview.rows().get(0).name().equals(first), Duration.ofMinutes(5)),
                    "seed 7 puts another class first once its rates are known (else this proves nothing)");
            assertEquals(c.overview.rows().get(0), c.overview.selectedProperty().get(), "the worst class is shown");
            assertEquals(c.overview.rows().get(0).name(), c.detail.classNameProperty().get());

            ClassRow chosen = c.overview.rows().get(c.overview.rows().size() - 1);
            c.overview.choose(chosen);
            c.run(Duration.ofMinutes(5));
            assertEquals(chosen, c.overview.selectedProperty().get(), "the operator's choice stays");
        }
    }

    @Test
    void theSelectionStopsFollowingOnceTheConsoleIsNoLongerYoung() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            ManualClock wall = new ManualClock(SandboxConsole.NOW);
            c.overview.setAttentionClock(wall);
            c.tick(1);
            ClassRow first = c.overview.selectedProperty().get();
            wall.advance(OverviewViewModel.FOLLOW_WORST.plusSeconds(1));
            c.run(Duration.ofMinutes(5));
            assertNotEquals(first, c.overview.rows().get(0), "another class is worst by now (else this proves nothing)");
            assertEquals(first, c.overview.selectedProperty().get(), "the detail does not switch under the operator");
        }
    }

    @Test
    void workInTheDetailStopsTheSelectionFollowingTheWorstRow() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            ManualClock wall = new ManualClock(SandboxConsole.NOW);
            c.overview.setAttentionClock(wall);
            c.tick(1);
            ClassRow first = c.overview.selectedProperty().get();
            c.overview.attendSelected(); // the focus went into the detail (a pod's Drain…), while the console is young
            c.run(Duration.ofMinutes(5));
            assertNotEquals(first, c.overview.rows().get(0), "another class is worst by now (else this proves nothing)");
            assertEquals(first, c.overview.selectedProperty().get(), "the detail stays on the class being worked on");
        }
    }

    private static ClassRow row(SandboxConsole c, String name) {
        return c.overview.rows().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<String> names(OverviewViewModel vm) {
        return vm.rows().stream().map(ClassRow::name).toList();
    }
}
