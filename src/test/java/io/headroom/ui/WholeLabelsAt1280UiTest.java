package io.headroom.ui;

import io.headroom.ui.fx.Tips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ActionCheck;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.journal.JournalView;
import io.headroom.ui.shell.MainView;
import io.headroom.ui.shell.TopBar;
import io.headroom.ui.supervise.ClassControls;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28 at 1280×800 (also what 2560×1600 at 2× gives): every class control keeps its label while a
 * pin's status line shows, the top bar's chips shorten honestly (the whole text in their tooltips)
 * instead of being cut, and the journal's columns are sized to their content.
 */
class WholeLabelsAt1280UiTest {
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void open() throws Exception {
        Session s = Session.sandbox(7, Instant.now(), Duration.ofMinutes(5), new MemoryJournal());
        s.warmUp(Duration.ofMinutes(5));
        window = ConsoleWindow.open(s);
        FxToolkit.setupStage(stage -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() ->
                view().overviewViewModel().rows().size() == 5 && view().supervisionViewModel().stateProperty().get() != null
                        && view().detailViewModel().actionableProperty().get()));
    }

    @AfterAll
    static void close() throws Exception {
        ConsoleWindow.onFx(() -> {
            for (Window w : List.copyOf(Window.getWindows())) {
                if (w != view().getScene().getWindow() && w instanceof Stage st) {
                    st.close();
                }
            }
            return null;
        });
        window.close();
    }

    static MainView view() {
        return window.view();
    }

    @Test
    void everyClassControlKeepsItsLabelWhileAPinShows() throws Exception {
        var sv = view().supervisionViewModel();
        ConsoleWindow.onFx(() -> {
            view().overviewViewModel().select("enrichment");
            return null;
        });
        sv.setOverride("enrichment", 6, Duration.ofMinutes(45), "db-connections ceiling during the ledger DB failover,"
                + " incident 4711, until the replica catches up").get(20, TimeUnit.SECONDS);
        ClassControls controls = ConsoleWindow.onFx(() -> robot.lookup("." + "supervision").queryAs(ClassControls.class));
        Labeled state = ConsoleWindow.onFx(() -> (Labeled) controls.lookup("#" + ClassControls.STATE_ID));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> state.getText().contains("pinned to 6")));
        ConsoleWindow.onFx(() -> {
            controls.getScene().getRoot().applyCss();
            controls.getScene().getRoot().layout();
            List<String> labels = new ArrayList<>();
            List<String> cut = new ArrayList<>();
            for (Labeled l : labeleds(controls)) {
                if (l == state) {
                    continue; // the status line: shortened, whole in its tooltip (below)
                }
                labels.add(l.getText());
                if (!l.getText().equals(shown(l)) || shown(l).equals("…")) {
                    cut.add("'" + l.getText() + "' shows '" + shown(l) + "'");
                }
            }
            assertTrue(labels.containsAll(List.of("Mode", "Freeze…", "Clear override", "Drain…", "What-if…", "Nodes…",
                    "KEDA…")), labels.toString());
            assertEquals(List.of(), cut, "every control's label whole beside the pin's status line");
            List<String> uncut = new ArrayList<>(Uncut.cut(controls));
            uncut.removeIf(s -> s.startsWith("'" + state.getText() + "'"));
            assertEquals(List.of(), uncut);
            var mode = (javafx.scene.control.ChoiceBox<?>) controls.lookup("#" + ClassControls.MODE_ID);
            assertTrue(mode.getWidth() + 0.5 >= mode.prefWidth(-1), "the mode choice whole: " + mode.getWidth());
            assertEquals(state.getText(), Tips.text(state), "the whole status line in its tooltip");
            assertTrue(state.getText().contains("pinned to 6"), state.getText());
            return null;
        });
        // The detail's headline says the pin and what the decision would do: whole, wrapped if it must.
        Labeled headline = ConsoleWindow.onFx(() -> (Labeled) controls.getScene().lookup("#"
                + io.headroom.ui.detail.DetailView.HEADLINE_ID));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> headline.getText().startsWith("pinned")));
        ConsoleWindow.onFx(() -> {
            controls.getScene().getRoot().applyCss();
            controls.getScene().getRoot().layout();
            assertEquals(List.of(), Uncut.cut((javafx.scene.Parent) headline.getParent()).stream()
                    .filter(c -> c.startsWith("'" + headline.getText() + "'")).toList(), "the headline whole");
            return null;
        });
    }

    @Test
    void theTopBarsChipsShortenHonestlyAndSayTheRestOnHover() throws Exception {
        String tls = "TLS verification is OFF for context 'kind-payments-eu-west-1' (insecure-skip-tls-verify in"
                + " /home/op/.kube/config): the API server at https://10.0.0.1:6443 is not checked to be who it says";
        ConsoleWindow.onFx(() -> {
            view().viewModel().setStandingWarning(tls);
            view().viewModel().applyAccess(Map.of(
                    "ledger-replay", ActionCheck.denied("scale", "lease held by console ops-2"),
                    "enrichment", ActionCheck.denied("scale", "RBAC: cannot patch deployments/scale")));
            TopBar bar = robot.lookup("." + Styles.TOP_BAR).queryAs(TopBar.class);
            bar.getScene().getRoot().applyCss();
            bar.getScene().getRoot().layout();
            List<String> chips = new ArrayList<>();
            for (Labeled l : labeleds(bar)) {
                if (l.getStyleClass().contains(Styles.CHIP)) {
                    chips.add(l.getText());
                    assertEquals(l.getText(), shown(l), "'" + l.getText() + "' is not cut to …");
                    javafx.geometry.Bounds b = l.localToScene(l.getLayoutBounds());
                    javafx.geometry.Bounds group = l.getParent().localToScene(l.getParent().getLayoutBounds());
                    assertTrue(b.getMaxX() <= group.getMaxX() + 0.5 && b.getMaxX() <= 1280.5,
                            "'" + l.getText() + "' lies whole in the bar: " + b + " in " + group);
                }
            }
            Labeled warning = labeleds(bar).stream().filter(l -> tls.equals(Tips.text(l))).findFirst().orElseThrow(() -> new AssertionError(
                    "the TLS warning's whole text in a chip's tooltip: " + chips));
            assertTrue(warning.getText().contains("TLS"), "the chip says what it is about: " + warning.getText());
            Labeled blocked = labeleds(bar).stream().filter(l -> l.getText().contains("observe-only")).findFirst()
                    .orElseThrow(() -> new AssertionError("a chip says the classes are observe-only: " + chips));
            assertTrue(blocked.getText().startsWith("2 "), blocked.getText());
            assertTrue(Tips.text(blocked).contains("lease held by console ops-2"), "why, on hover");
            return null;
        });
    }

    @Test
    void theJournalsColumnsAreSizedToTheirContent() throws Exception {
        var sv = view().supervisionViewModel();
        sv.freeze("search-interactive", Duration.ofMinutes(30), "incident 4711: the ledger database fails over to"
                + " its replica in the other zone").get(20, TimeUnit.SECONDS);
        WaitForAsyncUtils.asyncFx(() -> view().openJournal()).get(120, TimeUnit.SECONDS);
        Stage stage = ConsoleWindow.onFx(() -> Window.getWindows().stream().filter(w -> w instanceof Stage st
                && st.getScene() != null && st.getScene().lookup("#" + JournalView.TABLE_ID) != null)
                .map(w -> (Stage) w).findFirst().orElseThrow());
        TableView<?> table = ConsoleWindow.onFx(() -> (TableView<?>) stage.getScene().lookup("#" + JournalView.TABLE_ID));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> table.getItems().size() >= 2));
        ConsoleWindow.onFx(() -> {
            stage.getScene().getRoot().applyCss();
            stage.getScene().getRoot().layout();
            List<String> cut = new ArrayList<>();
            int cells = 0;
            for (Node n : table.lookupAll(".table-cell")) {
                if (n instanceof TableCell<?, ?> c && c.isVisible() && c.getText() != null && !c.getText().isEmpty()
                        && c.getTableColumn() != null) {
                    cells++;
                    if (!c.getText().equals(shown(c))) {
                        if (FREE_TEXT.contains(c.getTableColumn().getText())) {
                            assertTrue(c.getTooltip() != null && c.getText().equals(c.getTooltip().getText()),
                                    "a long reason or detail whole in its tooltip: " + c.getText());
                        } else {
                            cut.add(c.getTableColumn().getText() + ": '" + c.getText() + "' shows '" + shown(c) + "'");
                        }
                    }
                }
            }
            assertTrue(cells >= 2 * 5, "the journal's cells were checked: " + cells);
            assertEquals(List.of(), cut, "only a long reason or detail (typed words) may shorten");
            double sum = table.getVisibleLeafColumns().stream().mapToDouble(c -> c.getWidth()).sum();
            assertTrue(sum <= table.getWidth() + 0.5, "no sideways scroll: " + sum + " in " + table.getWidth());
            assertFalse(table.getVisibleLeafColumns().get(table.getVisibleLeafColumns().size() - 1).getWidth() < 100,
                    "the last column takes the rest");
            return null;
        });
    }

    /** The journal's columns of free text: a long one shortens, whole in its tooltip. */
    static final List<String> FREE_TEXT = List.of("Reason", "Detail");

    /** The text a labeled shows: its whole text, or what is left of it with "…". */
    static String shown(Labeled l) {
        Node text = l.lookup(".text");
        return text instanceof javafx.scene.text.Text t ? t.getText() : l.getText();
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
        if (n instanceof Parent p && !(n instanceof Labeled)) {
            for (Node c : p.getChildrenUnmodifiable()) {
                out.addAll(labeleds(c));
            }
        }
        return out;
    }
}
