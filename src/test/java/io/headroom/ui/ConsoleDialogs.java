package io.headroom.ui;

import io.headroom.ui.shell.MainView;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** What the console's UI tests do around a dialog: bring a class into view, find a dialog's field, close the rest. */
public final class ConsoleDialogs {
    private ConsoleDialogs() {
    }

    /** Brings {@code cls} into view, as a click on its row does, until the detail shows it. */
    public static void show(MainView view, String cls) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> {
            if (cls.equals(view.detailViewModel().classNameProperty().get())) {
                return true;
            }
            view.overviewViewModel().select(cls);
            return false;
        }));
    }

    /** A text field of a dialog (another window than the console's), once focused; the robot aims at its window. */
    public static TextField field(FxRobot robot, MainView view, String id) throws Exception {
        Window console = view.getScene().getWindow();
        AtomicReference<Node> found = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> {
            found.set(ConsoleWindow.onFx(() -> robot.lookup("#" + id).queryAll().stream()
                    .filter(n -> n.getScene() != null && n.getScene().getWindow() != console
                            && n.getScene().getWindow().isShowing()).findFirst().orElse(null)));
            return found.get() != null;
        });
        TextField f = (TextField) found.get();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(f::isFocused));
        robot.targetWindow(ConsoleWindow.onFx(() -> f.getScene().getWindow()));
        return f;
    }

    /** Closes every window but the console's: a dialog a failed test left open would take the next test's keys. */
    public static void closeOthers(MainView view) throws Exception {
        ConsoleWindow.onFx(() -> {
            for (Window w : List.copyOf(Window.getWindows())) {
                if (w != view.getScene().getWindow() && w instanceof Stage s) {
                    s.close();
                }
            }
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }
}
