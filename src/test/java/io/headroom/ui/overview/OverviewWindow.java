package io.headroom.ui.overview;

import static io.headroom.ui.ConsoleWindow.onFx;

import io.headroom.loop.TickResult;
import io.headroom.ui.SandboxConsole;
import io.headroom.ui.Styles;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** An overview in a window of its own, dark theme, for the overview's UI tests; closing it hides the window. */
final class OverviewWindow implements AutoCloseable {
    final Stage stage;
    final OverviewView view;

    private OverviewWindow(Stage stage, OverviewView view) {
        this.stage = stage;
        this.view = view;
    }

    /** The sandbox (seed 7) after ten minutes: five classes, with history behind them. */
    static TickResult sandboxTick() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.run(Duration.ofMinutes(10));
            return c.lastTick();
        }
    }

    /** A view model that has applied {@code tick}, made on the FX thread. */
    static OverviewViewModel applied(TickResult tick) throws Exception {
        FxToolkit.registerPrimaryStage();
        return onFx(() -> {
            OverviewViewModel vm = new OverviewViewModel();
            vm.apply(tick);
            return vm;
        });
    }

    /** Shows {@code vm}'s overview at {@code width}×{@code height}, once it draws {@code rows} rows. */
    static OverviewWindow show(OverviewViewModel vm, double width, double height, int rows) throws Exception {
        FxToolkit.registerPrimaryStage();
        OverviewWindow w = onFx(() -> {
            OverviewView view = new OverviewView(vm);
            view.getStyleClass().add(Styles.THEME_DARK);
            Scene scene = new Scene(view, width, height);
            Styles.install(scene);
            Stage stage = new Stage();
            stage.setScene(scene);
            stage.show();
            return new OverviewWindow(stage, view);
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> w.view.shownClasses().size() >= rows));
        return w;
    }

    @Override
    public void close() throws Exception {
        onFx(() -> {
            stage.hide();
            return null;
        });
    }
}
