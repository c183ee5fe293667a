package io.headroom.ui;

import io.headroom.session.Session;
import io.headroom.ui.shell.MainView;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/** The console's real window on a session, for UI tests that build their own session (real clusters, real Prometheus). */
public final class ConsoleWindow {
    private final Session session;
    private final MainView view;

    private ConsoleWindow(Session session, MainView view) {
        this.session = session;
        this.view = view;
    }

    /** Shows the session in the primary stage and starts its loop. */
    public static ConsoleWindow open(Session session) throws TimeoutException {
        FxToolkit.registerPrimaryStage();
        MainView[] shown = new MainView[1];
        FxToolkit.setupStage(s -> {
            // A window an earlier test class left open (What-if, Journal, a dialog) would lie over this
            // console and take its clicks: each class starts with the console alone, in front.
            for (javafx.stage.Window w : java.util.List.copyOf(javafx.stage.Window.getWindows())) {
                if (w instanceof javafx.stage.Stage other && other != s) {
                    other.close();
                }
            }
            shown[0] = HeadroomApp.show(s, session);
            s.toFront();
        });
        session.startAsync(Duration.ZERO);
        return new ConsoleWindow(session, shown[0]);
    }

    /**
     * Connects a session as the console does for {@code --config} (the classes' kubeconfig contexts from
     * the given files, an in-memory journal) and shows it.
     */
    public static ConsoleWindow connect(java.nio.file.Path workloads, java.nio.file.Path kubeconfig)
            throws Exception {
        Session s = Session.connect(io.headroom.config.WorkloadsFile.read(workloads),
                io.headroom.kube.Contexts.load(java.util.List.of(kubeconfig)), new io.headroom.journal.MemoryJournal());
        try {
            return open(s);
        } catch (TimeoutException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    public Session session() {
        return session;
    }

    public MainView view() {
        return view;
    }

    /** Hides the window and closes the session (informers, leases, journal). */
    public void close() throws TimeoutException {
        FxToolkit.setupStage(s -> {
            view.dispose();
            s.hide();
        });
        session.close();
    }

    /**
     * How long a read on the FX thread may wait for it: a deadline, not a wait. Inside a
     * {@code WaitForAsyncUtils.waitFor} condition a timeout here ends the test at once, whatever that
     * wait's own deadline, so it is as long as the longest of those; a loaded machine's FX thread can be
     * busy for more than 10 s with a cold console's first layout.
     */
    public static final long FX_DEADLINE_SECONDS = 60;

    /**
     * The visible node {@code query} finds (as TestFX's {@code clickOn(String)} picks it), looked up on
     * the FX thread: TestFX's {@code clickOn(String)} walks
     * the scene from the test's thread, and a scene changing meanwhile (a tick, a dialog) threw
     * IndexOutOfBoundsException in the walk.
     */
    public static javafx.scene.Node find(org.testfx.api.FxRobot robot, String query) throws Exception {
        return onFx(() -> robot.lookup(query).match(org.testfx.util.NodeQueryUtils.isVisible()).query());
    }

    /**
     * The console's overview; its rows are drawn, so what they show is read with
     * {@link io.headroom.ui.overview.OverviewView#drawn} and {@link io.headroom.ui.overview.OverviewView#shownClasses}.
     * FX thread.
     */
    public static io.headroom.ui.overview.OverviewView overview(org.testfx.api.FxRobot robot) {
        return robot.lookup("." + Styles.OVERVIEW).queryAs(io.headroom.ui.overview.OverviewView.class);
    }

    /** The drawn cell of {@code column} in the row of {@code className}, if that row shows. FX thread. */
    public static java.util.Optional<io.headroom.ui.overview.OverviewView.DrawnCell> drawnCell(
            org.testfx.api.FxRobot robot, String className, String column) {
        return overview(robot).drawn(className).stream().filter(c -> c.column().equals(column)).findFirst();
    }

    /** Whether {@code n} and every parent are visible (a list's sizing cell is visible inside a hidden parent). FX thread. */
    public static boolean shown(javafx.scene.Node n) {
        for (javafx.scene.Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return true;
    }

    /** Runs on the FX thread and waits for the answer (the scene graph is not safe to read from elsewhere). */
    public static <T> T onFx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(FX_DEADLINE_SECONDS, TimeUnit.SECONDS);
    }
}
