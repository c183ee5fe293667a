package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.loop.TickResult;
import io.headroom.ui.Styles;
import io.headroom.ui.Uncut;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 30's per-pool breakdown in a real window: a class whose first pool (spot) lost its nodes shows spot
 * unavailable with the reason, its share moved to on-demand, and THE WORK strip's "waiting for a pool";
 * whole at 1280×800 and 1920×1080, in the dark and the light theme. A class with one pool shows no POOLS.
 */
@ExtendWith(ApplicationExtension.class)
class PoolBreakdownUiTest {
    private DetailViewModel vm;
    private DetailView view;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        vm = new DetailViewModel(Clock.fixed(PlacedSnapshots.T0, ZoneOffset.UTC), Runnable::run);
        vm.setPoolFacts(name -> name.equals("render") ? PlacedSnapshots.facts() : PoolBreakdown.Facts.NONE);
        view = new DetailView(vm, Clock.fixed(PlacedSnapshots.T0, ZoneOffset.UTC));
        Scene scene = new Scene(view, 1280, 800);
        Styles.install(scene);
        Styles.paintDark(scene);
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void theFirstPoolUnavailableShowsItsReasonTheMovedShareAndWhatWaitsForAPool() throws Exception {
        fx(() -> {
            vm.apply(List.of(new TickResult(PlacedSnapshots.T0, List.of(
                    PlacedSnapshots.placed("render", 20, PlacedSnapshots.spotGonePlacement(20)),
                    DetailWorkStripTest.snapshot("plain", 3, 3, 0)), "dev", "test")));
            vm.select("render");
            return null;
        });
        for (boolean dark : List.of(true, false)) {
            for (int[] size : List.of(new int[] {1280, 800}, new int[] {1920, 1080})) {
                fx(() -> {
                    view.getScene().getRoot().getStyleClass().removeAll(Styles.THEME_DARK, Styles.THEME_LIGHT);
                    view.getScene().getRoot().getStyleClass().add(dark ? Styles.THEME_DARK : Styles.THEME_LIGHT);
                    view.setDarkTheme(dark);
                    stage.setWidth(size[0]);
                    stage.setHeight(size[1]);
                    return null;
                });
                String where = (dark ? "dark" : "light") + " at " + size[0] + "×" + size[1];
                WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> Math.abs(view.getScene().getWidth()
                        - size[0]) < 1));
                fx(() -> {
                    view.applyCss();
                    view.layout();
                    Node pools = view.lookup("#" + DetailView.POOLS_ID);
                    assertTrue(pools.isVisible() && pools.isManaged(), "the POOLS section shows: " + where);
                    Label spotState = (Label) view.lookup("#pool-state-spot");
                    assertTrue(spotState.getText().startsWith("unavailable: 3 pods unschedulable for 75 s"),
                            spotState.getText());
                    assertTrue(spotState.getStyleClass().contains(Styles.BAD), "said as a problem, not only in colour");
                    assertEquals("available", ((Label) view.lookup("#pool-state-on-demand")).getText());
                    assertTrue(((Label) view.lookup("#pool-why-on-demand")).getText()
                            .contains("takes the 12 the pools before it could not"), "the share moved on");
                    assertTrue(texts(pools).containsAll(List.of("5 repl. +1 probe", "12 repl.", "8 / 5")),
                            texts(pools).toString());
                    assertEquals("bound ceiling 12 (max 20) · cost ×3",
                            ((Label) view.lookup("#pool-bound-on-demand")).getText());
                    Label waiting = (Label) view.lookup("#" + DetailView.WORK_POOL_ID);
                    assertTrue(waiting.isVisible());
                    assertEquals("6 replicas waiting for a pool: 3 replicas fit no available pool; 3 pods pending"
                            + " in spot with no node for them (unavailable)", waiting.getText());
                    // Whole: nothing cut, nothing past the edge, no sideways scroll in the decision panel.
                    assertEquals(List.of(), Uncut.cut((javafx.scene.Parent) pools), where);
                    assertEquals(List.of(), Uncut.cut(view).stream().filter(c -> c.startsWith("rows scroll")
                            || c.contains("pool") || c.contains("repl.")).toList(), where);
                    assertTrue(pools.localToScene(pools.getLayoutBounds()).getMaxX() <= size[0] + 0.5, where);
                    return null;
                });
            }
        }
        fx(() -> {
            vm.select("plain");
            view.applyCss();
            view.layout();
            Node pools = view.lookup("#" + DetailView.POOLS_ID);
            assertFalse(pools.isVisible() || pools.isManaged(), "a class with one pool: no POOLS section");
            assertFalse(view.lookup("#" + DetailView.WORK_POOL_ID).isVisible());
            return null;
        });
    }

    private static List<String> texts(Node n) {
        return n.lookupAll(".label").stream().map(l -> ((Label) l).getText()).toList();
    }

    private static <T> T fx(Callable<T> action) throws Exception {
        return WaitForAsyncUtils.asyncFx(action).get(10, TimeUnit.SECONDS);
    }
}
