package io.headroom.ui.overview;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A placed class's overview row says when a pool cannot get nodes (issue 30): a POOL UNAVAILABLE chip in the
 * alerts column, its tooltip naming the pool, why and where the share went, and no column wider for it.
 */
class PoolChipUiTest {
    OverviewWindow window;
    Stage stage;
    OverviewViewModel vm;
    OverviewView view;
    TickResult tick;

    @BeforeEach
    void open() throws Exception {
        tick = OverviewWindow.sandboxTick();
        vm = OverviewWindow.applied(tick);
        window = OverviewWindow.show(vm, 1280, 400, 5);
        stage = window.stage;
        view = window.view;
    }

    @AfterEach
    void close() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    /** The same tick with {@code name} placed across spot and on-demand, spot's new pods unschedulable for 75 s. */
    private TickResult placed(String name) {
        List<ClassSnapshot> classes = new ArrayList<>();
        for (ClassSnapshot s : tick.classes()) {
            if (s.name().equals(name)) {
                Placement.Result r = Placement.place(List.of(new Placement.PoolSpec("spot", 20, null, 1, null),
                        new Placement.PoolSpec("on-demand", 20, null, 3, null)), 10,
                        Map.of("spot", new Placement.PoolObservation("spot", 6, 4, 2, s.at().minusSeconds(75))),
                        Placement.Memory.EMPTY, s.at(), Placement.Timing.DEFAULT);
                s = new ClassSnapshot(s.cls(), s.at(), s.observation(), s.workload(), s.decision(), s.actuation(),
                        s.problem(), s.signals(), s.podWork(), r);
            }
            classes.add(s);
        }
        return new TickResult(tick.at(), classes, tick.context(), tick.metricsSource());
    }

    private OverviewView.DrawnCell alerts(String name) throws Exception {
        return onFx(() -> view.drawn(name).stream().filter(c -> c.column().equals("Alerts")).findFirst().orElseThrow());
    }

    @SuppressWarnings("unchecked")
    private List<Double> widths() throws Exception {
        return onFx(() -> ((TableView<ClassRow>) view.lookup("#" + OverviewView.TABLE_ID)).getColumns().stream()
                .map(TableColumn::getWidth).toList());
    }

    @Test
    void aPlacedClassWhosePoolCannotGetNodesSaysSoInItsRowWithoutWideningTheTable() throws Exception {
        String name = onFx(() -> view.shownClasses().get(1));
        List<Double> before = widths();
        assertFalse(alerts(name).whole().contains("POOL"), "no chip before placement says anything");
        onFx(() -> {
            vm.apply(placed(name));
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> alerts(name).whole().contains("POOL UNAVAILABLE"));
        OverviewView.DrawnCell cell = alerts(name);
        assertTrue(cell.tip().contains("pool spot unavailable: 2 pods unschedulable for 75 s (deadline 60 s); keeps 4"
                + " replicas"), cell.tip());
        assertTrue(cell.tip().contains("available pools take: on-demand 6 replicas"), cell.tip());
        assertEquals(before, widths(), "no column widened for the chip");
        assertTrue(cell.sceneCorner().getX() + cell.width() <= 1280.5, "the cell inside the window: " + cell);
        ClassRow row = onFx(() -> vm.rows().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow());
        assertTrue(onFx(() -> row.badgesProperty().get().states().stream()
                .anyMatch(c -> c.state() == ClassRow.State.POOL_UNAVAILABLE)));

        onFx(() -> {
            vm.apply(tick); // the pool's capacity is back as far as the snapshot says: no placement, no chip
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !alerts(name).whole().contains("POOL"));
    }
}
