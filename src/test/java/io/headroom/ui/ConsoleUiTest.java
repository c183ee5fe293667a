package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.ui.chart.TimeChart;
import io.headroom.ui.detail.DetailView;
import io.headroom.ui.overview.ClassRow;
import io.headroom.ui.overview.OverviewView;
import io.headroom.ui.shell.MainView;
import io.headroom.ui.shell.MainViewModel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Starts the real application (HeadroomApp, as `./headroom` does) on the sandbox in a headless
 * window, and watches it work: every class appears, the charts redraw as ticks arrive, and a
 * click on another row shows that class's decision. Waits on conditions, never sleeps.
 */
class ConsoleUiTest {
    static Application app;
    static Stage stage;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void startTheApp() throws Exception {
        stage = FxToolkit.registerPrimaryStage();
        // 60× real time: a 5 s control tick every ~83 ms of wall time.
        app = FxToolkit.setupApplication(HeadroomApp.class, "--speed=60",
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(), // not a first run: no welcome
                "--journal=" + java.nio.file.Files.createTempDirectory("headroom-journal").resolve("journal.jsonl"));
        ((HeadroomApp) app).ready().get(60, TimeUnit.SECONDS); // the session opens off the FX thread
    }

    @AfterAll
    static void stopTheApp() throws Exception {
        FxToolkit.cleanupApplication(app);
    }

    /** A test that opened a window (What-if) closes it, so the next one clicks the console, not that window. */
    @org.junit.jupiter.api.AfterEach
    void closeOtherWindows() throws Exception {
        onFx(() -> {
            for (javafx.stage.Window w : List.copyOf(javafx.stage.Window.getWindows())) {
                if (w instanceof Stage s && s != stage) {
                    s.close();
                }
            }
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    static MainView view() {
        return (MainView) stage.getScene().getRoot();
    }

    @Test
    void whatIfReplaysTheRecentLoadUnderAnEditAndAppliesNothing() throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> view().detailViewModel().seriesProperty()
                .get() != null && view().detailViewModel().seriesProperty().get().points() > 100));
        String cls = onFx(() -> view().detailViewModel().classNameProperty().get());
        io.headroom.decision.Policy live = onFx(() -> view().detailViewModel().latest(cls).cls().policy());
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + io.headroom.ui.supervise.ClassControls.WHAT_IF_ID));
        javafx.scene.control.TableView<?> table = onFx(() -> robot.lookup(
                "#" + io.headroom.ui.whatif.WhatIfView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 7);
        List<io.headroom.ui.whatif.WhatIfViewModel.Row> same = onFx(() -> List.copyOf(
                (List<io.headroom.ui.whatif.WhatIfViewModel.Row>) table.getItems()));
        assertTrue(same.stream().allMatch(r -> r.change().equals("same")), "unedited: both runs alike " + same);

        // Cap the class at its minimum: the replay shows what that would have cost.
        String cap = Integer.toString(Math.max(1, live.minReplicas()));
        javafx.scene.control.TextField max = onFx(() -> robot.lookup(
                "#" + io.headroom.ui.whatif.WhatIfView.MAX_REPLICAS_ID).queryAs(javafx.scene.control.TextField.class));
        robot.clickOn(max).eraseText(6);
        Typing.write(robot, cap);
        Typing.keys(robot, javafx.scene.input.KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size() == 7
                && ((io.headroom.ui.whatif.WhatIfViewModel.Row) table.getItems().get(0)).edited().equals(cap)));
        io.headroom.ui.whatif.WhatIfViewModel.Row hours = onFx(() -> (io.headroom.ui.whatif.WhatIfViewModel.Row)
                table.getItems().get(4));
        assertEquals("Replica-hours", hours.what());
        assertTrue(hours.change().startsWith("−"), "fewer replicas cost fewer replica-hours: " + hours);
        assertTrue(onFx(() -> robot.lookup("#" + io.headroom.ui.whatif.WhatIfView.STATUS_ID).queryLabeled().getText())
                .contains("Nothing is applied"));
        assertEquals(live, onFx(() -> view().detailViewModel().latest(cls).cls().policy()), "the live policy is unchanged");
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + io.headroom.ui.whatif.WhatIfView.COPY_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup(
                "#" + io.headroom.ui.whatif.WhatIfView.STATUS_ID).queryLabeled().getText()).startsWith("Copied"));
        String copied = onFx(() -> javafx.scene.input.Clipboard.getSystemClipboard().getString());
        assertTrue(copied != null && copied.contains("maxReplicas: " + cap), "the clipboard holds the edit: " + copied);
    }

    @Test
    void alertsInTheModelAreChipsOnScreen() throws Exception {
        // Several sandbox classes run into a ceiling within the warm-up; each row says so: in the
        // Ceiling column ("kafka-partitions 8") while it shows, else with a CEILING chip.
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> view().overviewViewModel().rows().stream()
                .anyMatch(r -> r.alertsProperty().get().contains(ClassRow.Alert.CEILING))));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> {
            TableView<ClassRow> table = robot.lookup("#" + OverviewView.TABLE_ID).queryTableView();
            boolean column = table.getColumns().stream().anyMatch(c -> "Ceiling".equals(c.getText()) && c.isVisible());
            java.util.Set<String> ceilings = new java.util.HashSet<>();
            for (ClassRow r : table.getItems()) {
                if (r.alertsProperty().get().contains(ClassRow.Alert.CEILING)) {
                    ceilings.add(r.bindingCeilingProperty().get());
                }
            }
            OverviewView overview = ConsoleWindow.overview(robot);
            List<OverviewView.DrawnCell> drawn = overview.shownClasses().stream()
                    .flatMap(n -> overview.drawn(n).stream()).toList();
            boolean chip = drawn.stream().anyMatch(c -> c.chips().contains("CEILING"));
            boolean cell = drawn.stream().anyMatch(c -> "Ceiling".equals(c.column()) && ceilings.contains(c.text()));
            return column ? cell && !chip : chip; // never both: the chip gives way to the column
        }));
    }

    @Test
    void overviewListsEverySandboxClassAndTheChartsMoveOverTime() throws Exception {
        TableView<ClassRow> table = onFx(() -> robot.lookup("#" + OverviewView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> table.getItems().size() == 6);
        // The built-in sandbox: the five default classes and hourly-reports (issue 29's forecast proposes for it).
        List<String> file = List.of("payments-steady", "search-interactive", "ledger-replay", "enrichment", "nightly-batch",
                "hourly-reports");
        List<String> names = onFx(() -> table.getItems().stream().map(ClassRow::name).toList());
        assertEquals(new java.util.HashSet<>(file), new java.util.HashSet<>(names));
        // Worst first, ties in the file's order (the order may wait while the pointer is on the rows).
        List<ClassRow> rows = onFx(() -> List.copyOf(table.getItems()));
        assertEquals(rows.stream().sorted(java.util.Comparator.comparing((ClassRow r) -> r.orderedSeverity())
                .thenComparing(r -> file.indexOf(r.name()))).map(ClassRow::name).toList(), names);

        // The warm-up history is on the charts, and new points keep arriving while we watch.
        TimeChart age = onFx(() -> robot.lookup("#" + DetailView.AGE_CHART_ID).query());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS,
                () -> onFx(() -> view().detailViewModel().seriesProperty().get() != null
                        && view().detailViewModel().seriesProperty().get().points() > 100));
        int points = onFx(() -> view().detailViewModel().seriesProperty().get().points());
        long redraws = onFx(age::getRedrawCount);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS,
                () -> onFx(() -> view().detailViewModel().seriesProperty().get().points() >= points + 5
                        && age.getRedrawCount() > redraws));

        // The top bar says where we are and that data is flowing.
        Label context = onFx(() -> robot.lookup("#context").queryAs(Label.class));
        assertEquals("sandbox", onFx(context::getText));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> onFx(() -> view().viewModel().freshnessHealthProperty().get() == MainViewModel.Health.OK));
    }

    @Test
    void clickingARowShowsThatClassAndItsDecision() throws Exception {
        TableView<ClassRow> table = onFx(() -> robot.lookup("#" + OverviewView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> table.getItems().size() == 6);
        // The pointer on the rows holds their order (a reorder by severity waits), so the row found is
        // still the row under the click. Without this a tier change between lookup and click moves it.
        robot.moveTo(table);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> table.isHover()
                && view().overviewViewModel().holdOrderProperty().get()));
        WaitForAsyncUtils.waitForFxEvents();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> ConsoleWindow.drawnCell(robot, "ledger-replay",
                "Class").filter(c -> c.text().equals("ledger-replay")).isPresent()));
        robot.clickOn(onFx(() -> ConsoleWindow.drawnCell(robot, "ledger-replay", "Class").orElseThrow().screenCentre()));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> onFx(() -> "ledger-replay".equals(view().detailViewModel().classNameProperty().get())));
        Label headline = onFx(() -> robot.lookup("#" + DetailView.HEADLINE_ID).queryAs(Label.class));
        Label explanation = onFx(() -> robot.lookup("#" + DetailView.EXPLANATION_ID).queryAs(Label.class));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(explanation::getText).isEmpty());
        String text = onFx(explanation::getText);
        assertTrue(text.contains("slots") || text.contains("hold") || text.contains("stalled"), text);
        assertFalse(onFx(headline::getText).isEmpty());
        // The explanation is the decision's own, not re-derived by the view.
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> explanation.getText().equals(
                view().detailViewModel().latest("ledger-replay").decision().explanation())));
    }

    /** A deadline, not a wait: the 60×-speed console keeps a loaded machine's FX thread busy (ConsoleWindow.onFx). */
    static <T> T onFx(java.util.concurrent.Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
