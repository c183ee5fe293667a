package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.ui.detail.DetailView;
import io.headroom.ui.shell.MainView;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Fast start (issue 28, decision 0031): the console's first frame is the real console (the top bar, the overview's
 * table, the inbox) without the detail, which joins the window right after it; the application is ready, and the
 * session goes live (its rows come with its first ticks), only once the detail is in and laid out.
 */
class DetailAfterFirstFrameUiTest {
    @TempDir
    Path dir;
    Application app;

    /** The console as its first laid-out frame held it. */
    record Frame(int details, boolean table, boolean inbox, boolean ready, boolean topBar) {
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            FxToolkit.cleanupApplication(app);
        }
        FxToolkit.setupStage(Stage::hide);
    }

    @Test
    void theFirstFrameHoldsTheRowsAndTheDetailJoinsTheNext() throws Exception {
        Stage stage = FxToolkit.registerPrimaryStage();
        AtomicReference<Frame> first = new AtomicReference<>();
        AtomicReference<HeadroomApp> started = new AtomicReference<>();
        // After each layout pulse of the window's scene: the first one whose root is the console is recorded.
        javafx.beans.value.ChangeListener<Scene> watch = (o, old, scene) -> {
            if (scene == null) {
                return;
            }
            Runnable[] pulse = new Runnable[1];
            pulse[0] = () -> {
                if (scene.getRoot() instanceof MainView view && first.get() == null) {
                    HeadroomApp a = started.get();
                    first.set(new Frame(count(view, DetailView.class), view.lookup("#overview-table") != null,
                            view.lookup(".inbox") != null, a != null && a.ready().isDone(), view.lookup(".top-bar") != null));
                    scene.removePostLayoutPulseListener(pulse[0]);
                }
            };
            scene.addPostLayoutPulseListener(pulse[0]);
        };
        FxToolkit.setupFixture(() -> {
            stage.setScene(null);
            stage.sceneProperty().addListener(watch);
        });
        HeadroomApp headroom = (HeadroomApp) FxToolkit.setupApplication(HeadroomApp.class, "--speed=1",
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir),
                "--journal=" + dir.resolve("journal.jsonl"));
        app = headroom;
        started.set(headroom);
        headroom.ready().get(60, TimeUnit.SECONDS);
        FxToolkit.setupFixture(() -> stage.sceneProperty().removeListener(watch));

        Frame f = first.get();
        assertNotNull(f, "the console's first frame was seen");
        assertEquals(0, f.details(), "the first frame styles and lays out no detail: " + f);
        assertTrue(f.topBar(), "the top bar is in the first frame: " + f);
        assertTrue(f.table() && f.inbox(), "the overview's table and the inbox are in the first frame: " + f);
        assertFalse(f.ready(), "not ready before the detail is in: " + f);

        // Ready: the detail is in the window and laid out, in the split's lower pane.
        WaitForAsyncUtils.asyncFx(() -> {
            MainView view = (MainView) stage.getScene().getRoot();
            List<DetailView> details = all(view, DetailView.class);
            assertEquals(1, details.size(), "one detail once ready");
            DetailView d = details.get(0);
            assertTrue(d.getHeight() > 200 && d.getWidth() > 600, "laid out: " + d.getWidth() + "×" + d.getHeight());
            assertTrue(view.detailShown().isDone());
        }).get(10, TimeUnit.SECONDS);
    }

    static int count(Node n, Class<?> type) {
        return all(n, type).size();
    }

    static <T> List<T> all(Node n, Class<T> type) {
        List<T> found = new java.util.ArrayList<>();
        collect(n, type, found);
        return found;
    }

    private static <T> void collect(Node n, Class<T> type, List<T> found) {
        if (type.isInstance(n)) {
            found.add(type.cast(n));
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                collect(c, type, found);
            }
        }
    }
}
