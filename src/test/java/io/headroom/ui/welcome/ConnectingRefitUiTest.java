package io.headroom.ui.welcome;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.session.Endpoints;
import io.headroom.ui.fx.DialogFit;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.value.ChangeListener;
import javafx.geometry.Rectangle2D;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: under a real window system (GTK) a window's new size lands late: after the dialog set its height,
 * its scene still had the old one for a while, and each refit in that while (a line more, a reason, the
 * choices) added the difference again, so the Connecting dialog grew far past what it showed, to the screen's
 * edge and beyond. Headless windows resize at once, so here the scene's height is held back as GTK reports it
 * late, while the dialog refits several times in a row: it is never taller than what it shows, and stays
 * inside the console's 1280×800 window.
 */
class ConnectingRefitUiTest {
    Stage console;
    ConnectionProgressView view;

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupFixture(() -> {
            if (view != null) {
                view.close();
            }
            if (console != null) {
                console.close();
            }
        });
    }

    @Test
    void refitsInARowWhileTheWindowSystemReportsTheSizeLateNeverGrowTheDialogPastWhatItShows() throws Exception {
        FxToolkit.registerPrimaryStage();
        // Endpoints that fail one after the other, each with its reason: a line more each time (the poll reads them).
        List<Endpoints.Endpoint> endpoints = new java.util.concurrent.CopyOnWriteArrayList<>();
        endpoints.add(new Endpoints.Endpoint("Kubernetes API", "https://127.0.0.1:6443", Endpoints.State.CONNECTING,
                null));
        ConnectionProgressViewModel vm = new ConnectionProgressViewModel(() -> List.copyOf(endpoints));
        FxToolkit.setupFixture(() -> {
            console = new Stage();
            console.setScene(new Scene(new StackPane(), 1280, 800));
            console.setX(0);
            console.setY(0);
            console.show();
            view = new ConnectionProgressView(console, vm, () -> { }, () -> { }, () -> { });
            view.show();
        });
        WaitForAsyncUtils.waitForFxEvents(4);
        Stage dialog = view.stage();
        double frame = onFx(() -> dialog.getHeight() - dialog.getScene().getHeight());

        // From here the scene's height lags the window's: it keeps the height it had before each resize.
        Method setSceneHeight = Scene.class.getDeclaredMethod("setHeight", double.class);
        setSceneHeight.setAccessible(true);
        boolean[] holding = {false};
        ChangeListener<Number> late = (o, was, now) -> {
            if (!holding[0]) {
                holding[0] = true;
                try {
                    setSceneHeight.invoke(dialog.getScene(), was.doubleValue());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                } finally {
                    holding[0] = false;
                }
            }
        };
        onFx(() -> {
            dialog.getScene().heightProperty().addListener(late);
            return null;
        });
        List<String> seen = new ArrayList<>();
        for (int i = 1; i <= 8; i++) {
            int n = i;
            endpoints.add(new Endpoints.Endpoint("Prometheus " + n, "http://127.0.0.1:" + (9000 + n),
                    Endpoints.State.FAILED, "connection refused: nothing listens on port " + (9000 + n)));
            WaitForAsyncUtils.waitFor(10, java.util.concurrent.TimeUnit.SECONDS,
                    () -> onFx(() -> vm.lines.size()) == n + 1);
            WaitForAsyncUtils.waitForFxEvents(4);
            double[] got = onFx(() -> {
                var root = (javafx.scene.layout.BorderPane) dialog.getScene().getRoot();
                root.applyCss();
                double w = dialog.getScene().getWidth();
                double shows = ((javafx.scene.control.ScrollPane) root.getCenter()).getContent().prefHeight(w)
                        + root.getBottom().prefHeight(w); // what it says, and the buttons under it
                assertTrue(dialog.isShowing(), "the dialog still shows");
                return new double[] {dialog.getHeight(), shows, dialog.getY()};
            });
            seen.add("refit " + n + ": window " + got[0] + " for " + got[1] + " shown at y " + got[2]);
            assertTrue(got[0] <= frame + got[1] + 1, "never taller than what it shows: " + seen);
            Rectangle2D inside = onFx(() -> DialogFit.area(dialog));
            assertTrue(got[2] >= inside.getMinY() - 0.5 && got[2] + got[0] <= inside.getMaxY() + 0.5,
                    "inside the console's window " + inside + ": " + seen);
        }
        // The window system catches up: the next refit shows all it says (as far as the console's window allows).
        onFx(() -> {
            dialog.getScene().heightProperty().removeListener(late);
            return null;
        });
        endpoints.add(new Endpoints.Endpoint("Prometheus 9", "http://127.0.0.1:9009", Endpoints.State.FAILED,
                "connection refused"));
        WaitForAsyncUtils.waitFor(10, java.util.concurrent.TimeUnit.SECONDS, () -> onFx(() -> vm.lines.size()) == 10);
        WaitForAsyncUtils.waitForFxEvents(6);
        double[] last = onFx(() -> {
            var root = (javafx.scene.layout.BorderPane) dialog.getScene().getRoot();
            root.applyCss();
            double w = dialog.getScene().getWidth();
            return new double[] {dialog.getHeight(), ((javafx.scene.control.ScrollPane) root.getCenter()).getContent()
                    .prefHeight(w) + root.getBottom().prefHeight(w), DialogFit.area(dialog).getHeight()};
        });
        assertTrue(Math.abs(last[0] - Math.min(last[2], frame + last[1])) <= 1, "once the size lands the dialog is as"
                + " tall as what it shows, within the console's window: window " + last[0] + " for " + last[1]
                + " in " + last[2]);
    }
}
