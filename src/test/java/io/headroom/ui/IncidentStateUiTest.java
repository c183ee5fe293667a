package io.headroom.ui;

import io.headroom.ui.fx.Tips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.supervise.Mode;
import io.headroom.ui.overview.ClassRow;
import io.headroom.ui.overview.OverviewView;
import io.headroom.ui.shell.EventListViewModel;
import io.headroom.ui.shell.EventStrip;
import io.headroom.ui.shell.Incident;
import io.headroom.ui.shell.IncidentBanner;
import io.headroom.ui.shell.MainView;
import io.headroom.ui.shell.Toast;
import io.headroom.ui.shell.TopBar;
import io.headroom.ui.supervise.ClassControls;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * State you cannot miss, in the real console on the sandbox at 1280×800 (the smallest screen we
 * support): the incident banner and its buttons whole, several incidents readable, the state
 * chips in the alerts column, the expiry notification, the event list, and the layout (ceiling
 * and alerts columns, five classes, the class controls) all in view.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IncidentStateUiTest {
    static ConsoleWindow window;
    static final List<String> notified = new CopyOnWriteArrayList<>();
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void open() throws Exception {
        Session s = Session.sandbox(7, Instant.parse("2026-12-01T13:00:00Z"), Duration.ofMinutes(5),
                new MemoryJournal());
        window = ConsoleWindow.open(s);
        FxToolkit.setupStage(stage -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        ConsoleWindow.onFx(() -> {
            view().setNotifier((title, body) -> notified.add(body));
            return null;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() ->
                view().overviewViewModel().rows().size() == 5 && view().supervisionViewModel().stateProperty().get() != null));
    }

    @AfterAll
    static void close() throws Exception {
        window.close();
    }

    static MainView view() {
        return window.view();
    }

    static <T> T fx(java.util.concurrent.Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }

    static void waitUntil(java.util.concurrent.Callable<Boolean> c) throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(c));
    }

    /** Shown, inside the window, and (a label or button) not cut to "…". */
    static void assertWhole(Node n) {
        Scene scene = n.getScene();
        assertNotNull(scene, n + " is in the window");
        for (Node p = n; p != null; p = p.getParent()) {
            assertTrue(p.isVisible(), n + " is shown (" + p + " is hidden)");
        }
        Bounds b = n.localToScene(n.getLayoutBounds()); // without shadows
        assertTrue(b.getMinX() >= -0.5 && b.getMinY() >= -0.5 && b.getMaxX() <= scene.getWidth() + 0.5
                && b.getMaxY() <= scene.getHeight() + 0.5, n + " lies inside the " + scene.getWidth() + "×"
                + scene.getHeight() + " window: " + b);
        if (n instanceof Labeled l && l.isWrapText()) {
            assertTrue(l.getHeight() + 0.5 >= l.prefHeight(l.getWidth()), "'" + l.getText() + "' wraps whole");
        } else if (n instanceof Labeled l) {
            assertTrue(l.getWidth() + 0.5 >= l.prefWidth(-1), "'" + l.getText() + "' is not cut: " + l.getWidth()
                    + " of " + l.prefWidth(-1));
        }
    }

    @Test
    @Order(1)
    void theWindowIs1280x800AndShowsFiveClassesTheTriageColumnsWholeAndTheClassControls() throws Exception {
        assertEquals(1280.0, fx(() -> view().getScene().getWindow().getWidth()));
        TableView<?> table = fx(() -> robot.lookup("#" + OverviewView.TABLE_ID).queryTableView());
        waitUntil(() -> {
            table.layout();
            return overview().shownClasses().size() == 5;
        });
        fx(() -> {
            for (Node row : robot.lookup("#" + OverviewView.TABLE_ID + " .table-row-cell").queryAll()) {
                if (((javafx.scene.control.TableRow<?>) row).getItem() != null) {
                    assertWhole(row);
                }
            }
            double right = table.localToScene(table.getBoundsInLocal()).getMaxX();
            // At 1280×800 arrivals, service, slots and mode give way (they are in the detail); the class,
            // its figures, trend, work, binding ceiling and alerts stay, under short headers.
            assertEquals(List.of("Class", "Queue", OverviewView.AGE, OverviewView.TREND_15, "Replicas", "Work",
                    "Ceiling", "Alerts"),
                    table.getColumns().stream().filter(TableColumn::isVisible).map(TableColumn::getText).toList());
            // Nothing in those columns is cut to "…": no header, no cell text, no drawn cell wider than its cell.
            for (Node h : table.lookupAll(".column-header")) {
                if (h instanceof javafx.scene.control.skin.TableColumnHeader header && header.getTableColumn() != null
                        && header.getTableColumn().isVisible()) {
                    Labeled title = (Labeled) header.lookup(".label");
                    assertEquals(header.getTableColumn().getText(), shown(title), "the header whole");
                }
            }
            int texts = 0;
            javafx.scene.image.Image shot = table.getScene().snapshot(null);
            for (String cls : overview().shownClasses()) {
                for (OverviewView.DrawnCell cell : overview().drawn(cls)) {
                    String column = cell.column();
                    if ("Alerts".equals(column)) {
                        continue; // alerts: whole chips, then "+N"
                    }
                    if (!cell.whole().isEmpty()) {
                        assertEquals(cell.whole(), cell.text(), column + " whole");
                        texts++;
                    }
                    io.headroom.ui.overview.Ink ink = io.headroom.ui.overview.Ink.of(shot, cell);
                    assertTrue(!ink.found() || ink.left() >= 0 && ink.right() <= cell.width() - 0.5,
                            column + " drawn inside its cell: " + ink + " in " + cell.width());
                }
            }
            // class, queue, age, replicas, and the ceiling where one binds (its format: OverviewViewModelTest)
            assertTrue(texts >= 5 * 4, "the five rows' texts were checked: " + texts);
            for (TableColumn<?, ?> c : table.getColumns().filtered(TableColumn::isVisible)) {
                assertTrue(c.getWidth() > 0, c.getText());
                // Every column inside the table's width: nothing scrolled off to the right.
                double sum = table.getColumns().stream().filter(TableColumn::isVisible).takeWhile(x -> x != c)
                        .mapToDouble(TableColumn::getWidth).sum();
                assertTrue(sum + c.getWidth() <= table.getWidth() + 0.5, c.getText() + " ends at " + (sum + c.getWidth())
                        + " in a table " + table.getWidth() + " wide (" + right + ")");
            }
            for (String id : List.of(ClassControls.MODE_ID, ClassControls.FREEZE_ID, ClassControls.OVERRIDE_ID,
                    ClassControls.DRAIN_ID, ClassControls.WHAT_IF_ID)) {
                assertWhole(robot.lookup("#" + id).query());
            }
            assertWhole(robot.lookup("#" + EventStrip.TOGGLE_ID).query());
            return null;
        });
    }

    /** The text a labeled shows: its whole text, or what is left of it with "…". */
    static String shown(Labeled l) {
        Node text = l.lookup(".text");
        return text instanceof javafx.scene.text.Text t ? t.getText() : l.getText();
    }

    @Test
    @Order(1)
    void theTopBarIsWholeAt1280WithRoomForOneMoreChip() throws Exception {
        TopBar bar = fx(() -> robot.lookup("." + Styles.TOP_BAR).queryAs(TopBar.class));
        fx(() -> {
            bar.getScene().getRoot().applyCss();
            bar.getScene().getRoot().layout();
            assertEquals(1280.0, bar.getWidth(), 1.0);
            int checked = 0;
            for (Node group : bar.getChildrenUnmodifiable()) {
                Bounds room = group.localToScene(group.getLayoutBounds()); // the status group clips what overflows
                for (Labeled l : labeleds(group)) {
                    Bounds b = l.localToScene(l.getLayoutBounds());
                    String what = "'" + l.getText() + "'";
                    assertEquals(l.getText(), shown(l), what + " is not cut to …");
                    assertTrue(b.getMinX() >= room.getMinX() - 0.5 && b.getMaxX() <= room.getMaxX() + 0.5
                            && b.getMaxX() <= 1280.5, what + " lies whole in its group " + room + ": " + b);
                    checked++;
                }
            }
            assertTrue(checked >= 10, "the top bar's labels and buttons were checked: " + checked);
            for (String id : List.of(TopBar.FRESHNESS_ID, TopBar.FREEZE_ALL_ID, TopBar.JOURNAL_ID, TopBar.SETTINGS_ID)) {
                assertWhole(bar.lookup("#" + id));
            }
            // Room for one more chip of about 150 px (the nodes left cordoned), beside what shows now.
            double need = bar.snappedLeftInset() + bar.snappedRightInset() + bar.getSpacing()
                    * (bar.getChildrenUnmodifiable().size() - 1);
            for (Node group : bar.getChildrenUnmodifiable()) {
                need += group.prefWidth(-1);
            }
            assertTrue(bar.getWidth() - need >= 150, "room left in the top bar: " + (bar.getWidth() - need));
            return null;
        });
    }

    /** Every shown labeled (label, button) under {@code n} with text. */
    static List<Labeled> labeleds(Node n) {
        List<Labeled> out = new ArrayList<>();
        if (!n.isVisible()) {
            return out;
        }
        if (n instanceof Labeled l && l.getText() != null && !l.getText().isEmpty()) {
            out.add(l);
        }
        if (n instanceof javafx.scene.Parent p && !(n instanceof Labeled)) {
            for (Node c : p.getChildrenUnmodifiable()) {
                out.addAll(labeleds(c));
            }
        }
        return out;
    }

    @Test
    @Order(2)
    void severalIncidentsShowTheWorstWithACountAndEveryLineWithItsButtonsWhole() throws Exception {
        var sv = view().supervisionViewModel();
        sv.freezeAll(Duration.ofMinutes(30), "incident 4711: ledger DB failover").get(20, TimeUnit.SECONDS);
        sv.freeze("ledger-replay", Duration.ofMinutes(20), "replaying a partition").get(20, TimeUnit.SECONDS);
        sv.setOverride("enrichment", 6, Duration.ofMinutes(45), "db-connections ceiling during failover")
                .get(20, TimeUnit.SECONDS);
        sv.setMode("search-interactive", Mode.AUTO).get(20, TimeUnit.SECONDS);
        waitUntil(() -> view().incidentsViewModel().incidents().size() == 4);

        Node banner = fx(() -> robot.lookup("#" + IncidentBanner.ID).query());
        fx(() -> {
            banner.getScene().getRoot().applyCss();
            banner.getScene().getRoot().layout();
            assertWhole(banner);
            Bounds b = banner.localToScene(banner.getBoundsInLocal());
            assertEquals(1280.0, b.getWidth(), 1.0, "full width");
            List<Label> lines = lines();
            assertEquals(1, lines.size(), "collapsed: the worst only");
            assertTrue(lines.get(0).getText().startsWith("FROZEN every class · no scaling anywhere · “incident 4711"),
                    lines.get(0).getText());
            assertTrue(lines.get(0).getText().contains(" left)"), "with its countdown: " + lines.get(0).getText());
            assertEquals(lines.get(0).getText(), Tips.text(lines.get(0)), "the whole line in the tooltip");
            for (Node lift : robot.lookup("." + IncidentBanner.LIFT).queryAll()) {
                assertWhole(lift);
            }
            Button more = robot.lookup("#" + IncidentBanner.MORE_ID).queryButton();
            assertEquals("+3 more", more.getText());
            assertWhole(more);
            assertWhole(robot.lookup("#" + IncidentBanner.UNDO_ID).query());
            return null;
        });

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + IncidentBanner.MORE_ID));
        waitUntil(() -> lines().size() == 4);
        fx(() -> {
            banner.getScene().getRoot().applyCss();
            banner.getScene().getRoot().layout();
            List<String> texts = lines().stream().map(Label::getText).toList();
            assertTrue(texts.get(1).startsWith("FROZEN ledger-replay"), texts.toString());
            assertTrue(texts.get(2).startsWith("PINNED enrichment · pinned to 6 · “db-connections ceiling"), texts.toString());
            assertTrue(texts.get(3).startsWith("AUTO search-interactive"), texts.toString());
            List<String> lifts = new ArrayList<>();
            for (Node lift : robot.lookup("." + IncidentBanner.LIFT).queryAll()) {
                assertWhole(lift);
                lifts.add(((Button) lift).getText());
            }
            assertEquals(List.of("Unfreeze all", "Unfreeze", "Clear override", "Back to supervised"), lifts);
            // The banner never hides the class controls, the classes or the event list.
            for (String id : List.of(ClassControls.FREEZE_ID, ClassControls.OVERRIDE_ID, ClassControls.WHAT_IF_ID,
                    EventStrip.TOGGLE_ID)) {
                assertWhole(robot.lookup("#" + id).query());
            }
            return null;
        });
    }

    @Test
    @Order(3)
    void theAlertsColumnCarriesFrozenPinnedAndAutoChips() throws Exception {
        waitUntil(() -> chips("enrichment").containsAll(List.of("FROZEN", "PINNED 6"))
                && chips("search-interactive").containsAll(List.of("FROZEN", "AUTO"))
                && chips("ledger-replay").contains("FROZEN"));
        fx(() -> {
            view().getScene().getRoot().applyCss();
            view().getScene().getRoot().layout();
            javafx.scene.image.Image shot = view().getScene().snapshot(null);
            int checked = 0;
            for (OverviewView.DrawnCell cell : alertCells()) {
                if (!cell.chips().isEmpty() || cell.hidden() > 0) {
                    // Drawn, not left unsized: the chips' ink spans most of what they need.
                    io.headroom.ui.overview.Ink ink = io.headroom.ui.overview.Ink.of(shot, cell);
                    assertTrue(ink.found() && ink.bottom() - ink.top() > 10 && ink.right() - ink.left() > 10 * cell.chips().size(),
                            "the chips are drawn: " + cell + " " + ink);
                }
                assertTrue(cell.tip().contains("FROZEN"), "the cell's tooltip names every chip: " + cell.tip());
                checked++;
            }
            assertEquals(5, checked, "every row's alerts");
            return null;
        });
    }

    @Test
    @Order(4)
    void liftingFromTheBannerEndsTheStateAndTheEventListSaysSoWithNothingStale() throws Exception {
        robot.clickOn(fx(() -> robot.lookup("." + IncidentBanner.LIFT).queryAll().stream()
                .filter(b -> ((Button) b).getText().equals("Clear override")).findFirst().orElseThrow()));
        waitUntil(() -> view().incidentsViewModel().incidents().stream().noneMatch(i -> i.kind() == Incident.Kind.OVERRIDE));
        waitUntil(() -> texts().stream().anyMatch(t -> t.contains("enrichment override cleared")));
        List<String> events = fx(IncidentStateUiTest::texts);
        assertTrue(events.stream().noneMatch(t -> t.startsWith("enrichment pinned to") || t.startsWith("PINNED enrichment")),
                "nothing says enrichment is pinned any more: " + events);

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + EventStrip.TOGGLE_ID));
        waitUntil(() -> robot.lookup("#" + EventStrip.LIST_ID).query().isVisible());
        fx(() -> {
            view().getScene().getRoot().applyCss();
            view().getScene().getRoot().layout();
            var list = robot.lookup("#" + EventStrip.LIST_ID).queryListView();
            assertEquals(view().eventsViewModel().events(), list.getItems(), "newest first, as the model keeps them");
            assertWhole(list);
            assertWhole(robot.lookup("#" + ClassControls.FREEZE_ID).query());
            return null;
        });
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + EventStrip.TOGGLE_ID));
    }

    @Test
    @Order(5)
    void aFreezeThatRunsOutIsANotificationAndAnEvent() throws Exception {
        var sv = view().supervisionViewModel();
        fx(() -> {
            view().setAttention(new javafx.beans.property.SimpleBooleanProperty(false)); // the operator looks away
            return null;
        });
        sv.unfreezeAll("test").get(20, TimeUnit.SECONDS);
        window.session().setSpeed(60);
        sv.freeze("nightly-batch", Duration.ofSeconds(30), "short test freeze").get(20, TimeUnit.SECONDS);
        String said = "The freeze of nightly-batch expired: it acts by its mode again";
        waitUntil(() -> texts().contains(said));
        fx(() -> {
            Label toast = robot.lookup("#" + Toast.ID).queryAs(Label.class);
            assertTrue(toast.isVisible(), "a transient notice shows");
            assertEquals(said, toast.getText());
            assertWhole(toast);
            return null;
        });
        assertTrue(notified.contains(said), "and the desktop is told, the operator being away: " + notified);
        assertTrue(fx(() -> view().incidentsViewModel().incidents().stream().noneMatch(
                i -> "nightly-batch".equals(i.className()))));
    }

    @Test
    @Order(6)
    void everyOverviewCellCarriesItsWholeTextAsATooltip() throws Exception {
        fx(() -> {
            int checked = 0;
            for (String cls : overview().shownClasses()) {
                for (OverviewView.DrawnCell cell : overview().drawn(cls)) {
                    if (List.of(OverviewView.TREND_15, "Work", "Alerts").contains(cell.column())) {
                        if (!cell.tip().isEmpty()) { // sparkline, work bar, chips: their words on hover
                            assertFalse(cell.tip().isBlank(), "words on " + cell);
                            checked++;
                        }
                    } else if (!cell.whole().isEmpty()) {
                        // The whole text first (the age cell adds its objective after it).
                        assertTrue(cell.tip().startsWith(cell.whole()), cell.whole() + " / " + cell.tip());
                        checked++;
                    }
                }
            }
            assertTrue(checked >= 5 * 6, "every row's cells: " + checked);
            return null;
        });
        // The pointer on a cell: the row's tooltip is that cell's.
        String first = fx(() -> overview().shownClasses().get(0));
        OverviewView.DrawnCell age = fx(() -> io.headroom.ui.ConsoleWindow.drawnCell(robot, first, OverviewView.AGE)
                .orElseThrow());
        robot.moveTo(age.screenCentre());
        waitUntil(() -> robot.lookup("#" + OverviewView.TABLE_ID + " .table-row-cell").queryAll().stream()
                .map(n -> (javafx.scene.control.TableRow<?>) n)
                .anyMatch(r -> r.getItem() instanceof ClassRow c && c.name().equals(first) && r.getTooltip() != null
                        && r.getTooltip().getText().startsWith(Format.duration(c.oldestAgeProperty().get()))));
    }

    /**
     * The banner's lines as the next pulse shows them. The banner joins the window only when the first
     * incident shows (fast start), and its scroll pane holds its lines only once it has a skin, which the
     * pulse's CSS pass makes: style it first, as that pulse would, so a read in the same turn sees them.
     */
    static List<Label> lines() {
        robot().lookup("#" + IncidentBanner.ID).tryQuery().ifPresent(javafx.scene.Node::applyCss);
        return robot().lookup("." + IncidentBanner.LINE).queryAll().stream().map(Label.class::cast).toList();
    }

    static FxRobot robot() {
        return new FxRobot();
    }

    static List<String> texts() {
        return view().eventsViewModel().events().stream().map(EventListViewModel.ConsoleEvent::text).toList();
    }

    static OverviewView overview() {
        return io.headroom.ui.ConsoleWindow.overview(robot());
    }

    /** The alerts cell of every row shown. */
    static List<OverviewView.DrawnCell> alertCells() {
        List<OverviewView.DrawnCell> out = new ArrayList<>();
        for (String cls : overview().shownClasses()) {
            overview().drawn(cls).stream().filter(c -> "Alerts".equals(c.column())).forEach(out::add);
        }
        return out;
    }

    /** The chip texts in the alerts cell of a class's row. */
    static List<String> chips(String className) {
        return io.headroom.ui.ConsoleWindow.drawnCell(robot(), className, "Alerts")
                .map(OverviewView.DrawnCell::chips).orElse(List.of());
    }
}
