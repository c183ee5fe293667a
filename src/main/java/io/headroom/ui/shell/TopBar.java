package io.headroom.ui.shell;

import io.headroom.ui.fx.Tips;
import io.headroom.ui.Styles;
import io.headroom.ui.supervise.OperatorActions;
import io.headroom.ui.supervise.SupervisionViewModel;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.StringProperty;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.image.Image;
import javafx.scene.image.ImageView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.shape.Circle;

/** The always-visible top bar: context, connection health, data freshness, sandbox speed, theme. */
public final class TopBar extends HBox {
    public static final String OPERATOR_ID = "top-operator";
    public static final String FRESHNESS_ID = "freshness";
    public static final String CONTEXT_ID = "context";
    public static final String CONTEXT_SWITCHER_ID = "context-switcher";

    public static final String FREEZE_ALL_ID = "freeze-all";
    public static final String PENDING_ID = "pending-count";
    public static final String THEME_ID = "theme";
    public static final String SETTINGS_ID = "settings";
    public static final String JOURNAL_ID = "journal";
    public static final String KEYS_ID = "keys";
    public static final String LEFT_CORDONED_ID = "left-cordoned";

    private Runnable showKeys = () -> { };
    /**
     * On a narrow window (1280×800) the least needed words give way to their tooltips: the wordmark
     * to its icon, the "Context" and "Speed" labels, the metrics source's name, "Settings…" to ⚙, and
     * "proposals waiting" to "waiting". Each keeps its meaning on hover.
     */
    private final javafx.beans.property.BooleanProperty compact = new javafx.beans.property.SimpleBooleanProperty();
    /** The status on the left, which is clipped when even the compact bar does not fit. */
    private final HBox status;
    private final HBox controls;
    /** Width the full bar needed when it last became compact; what compact saves, once measured. */
    private double fullNeed = -1;
    private double saving = -1;
    /** Whether the quiet "no proposals" chip fits beside the rest (see {@link #layoutChildren}). */
    private final javafx.beans.property.BooleanProperty quietFits = new javafx.beans.property.SimpleBooleanProperty(true);
    private Label pending;
    /** Style class of the bar while compact. */
    public static final String COMPACT = "compact";

    /** Whether the least needed words have given way to tooltips (the window is narrow). */
    public javafx.beans.value.ObservableBooleanValue compactProperty() {
        return compact;
    }

    /** What the {@code ?} button does: the shell's list of keys. */
    public void setOnShowKeys(Runnable r) {
        this.showKeys = r;
    }

    public TopBar(MainViewModel vm, OperatorActions actions, Runnable openJournal, Runnable openSettings) {
        getStyleClass().add(Styles.TOP_BAR);
        SupervisionViewModel sv = actions.viewModel();

        Label word = new Label("Headroom");
        word.getStyleClass().add(Styles.WORDMARK);
        var iconUrl = TopBar.class.getResource("/icons/headroom-32.png");
        if (iconUrl != null) {
            ImageView icon = new ImageView(new Image(iconUrl.toExternalForm(), 20, 20, true, true));
            word.setGraphic(icon);
            word.contentDisplayProperty().bind(javafx.beans.binding.Bindings.when(compact)
                    .then(javafx.scene.control.ContentDisplay.GRAPHIC_ONLY)
                    .otherwise(javafx.scene.control.ContentDisplay.LEFT));
        }
        Tips.set(word, "Headroom " + io.headroom.BuildInfo.current().version());

        Label context = new Label();
        context.setId(CONTEXT_ID);
        context.textProperty().bind(vm.contextProperty());
        context.getStyleClass().add(Styles.FIELD_VALUE);
        Label simulated = new Label("SIMULATED");
        simulated.getStyleClass().addAll(Styles.CHIP, Styles.INFO);
        simulated.visibleProperty().bind(vm.sandboxProperty());
        simulated.managedProperty().bind(vm.sandboxProperty());
        Tips.set(simulated, "The built-in sandbox: a deterministic simulated cluster and queues."
                + "\nNothing here touches a real cluster.");
        // Several clusters open: a switcher that shows one context's classes, or all of them.
        javafx.scene.control.ComboBox<String> switcher = new javafx.scene.control.ComboBox<>();
        switcher.setId(CONTEXT_SWITCHER_ID);
        Runnable fill = () -> {
            java.util.List<String> items = new java.util.ArrayList<>();
            items.add(io.headroom.ui.overview.OverviewViewModel.ALL);
            items.addAll(vm.contexts());
            switcher.getItems().setAll(items);
            switcher.setValue(vm.selectedContextProperty().get() == null
                    ? io.headroom.ui.overview.OverviewViewModel.ALL : vm.selectedContextProperty().get());
        };
        vm.contexts().addListener((javafx.collections.ListChangeListener<String>) c -> fill.run());
        fill.run();
        switcher.valueProperty().addListener((o, a, v) -> {
            if (v != null) {
                vm.selectedContextProperty().set(v);
            }
        });
        Tips.set(switcher, "Show the classes of one cluster, or of all open clusters");
        javafx.beans.binding.BooleanBinding several = javafx.beans.binding.Bindings.size(vm.contexts()).greaterThan(1);
        switcher.visibleProperty().bind(several);
        switcher.managedProperty().bind(several);
        context.visibleProperty().bind(several.not());
        context.managedProperty().bind(several.not());
        // The palette (or anything else) may switch the context too: the switcher shows it.
        vm.selectedContextProperty().addListener((o, a, v) -> switcher.setValue(v == null
                ? io.headroom.ui.overview.OverviewViewModel.ALL : v));
        switcher.setAccessibleText("Cluster context shown");
        Label operator = new Label();
        operator.setId(OPERATOR_ID);
        operator.textProperty().bind(vm.operatorProperty());
        operator.getStyleClass().add(Styles.FIELD_VALUE);
        Tips.set(operator, "Who acts from this console: written into every journal record and team"
                + " event (the kubeconfig user, or --operator=NAME)");
        Label contextField = field("Context");
        contextField.visibleProperty().bind(compact.not());
        contextField.managedProperty().bind(contextField.visibleProperty());
        Tips.bind(context, javafx.beans.binding.Bindings.concat("Context: ",
                vm.contextProperty()));
        HBox contextBox = new HBox(6, contextField, context, simulated, field("as"), operator);
        // One cluster (the sandbox, most files): the switcher never shows, so it is not built into the first frame.
        io.headroom.ui.fx.WhenShown.insert(contextBox.getChildren(), 2, switcher, several);
        contextBox.getStyleClass().add(Styles.HEALTH);

        HBox cluster = health("Cluster", vm.clusterHealthProperty(), vm.clusterDetailProperty(), null);
        HBox metrics = health("Metrics", vm.metricsHealthProperty(), vm.metricsDetailProperty(),
                vm.metricsSourceProperty());
        // Compact: the metrics source's name is said on hover (the tooltip starts with it).
        javafx.scene.Node source = metrics.getChildren().get(metrics.getChildren().size() - 1);
        source.visibleProperty().bind(compact.not());
        source.managedProperty().bind(source.visibleProperty());
        Tips.bind(metrics, javafx.beans.binding.Bindings.createStringBinding(
                () -> "Metrics: " + vm.metricsSourceProperty().get() + "\n" + vm.metricsDetailProperty().get(),
                vm.metricsSourceProperty(), vm.metricsDetailProperty()));
        Label fresh = new Label();
        fresh.setId(FRESHNESS_ID);
        fresh.textProperty().bind(vm.freshnessProperty());
        fresh.getStyleClass().addAll(Styles.FIELD_VALUE, Styles.NUMERIC);
        HBox freshness = new HBox(5, dot(vm.freshnessHealthProperty()), field("Data"), fresh);
        freshness.getStyleClass().add(Styles.HEALTH);
        Tips.bind(freshness, javafx.beans.binding.Bindings.concat("Last tick ", vm.freshnessProperty(), "\n",
                vm.freshnessDetailProperty()));

        HBox speed = speedSelector(vm, compact);
        speed.visibleProperty().bind(vm.sandboxProperty());
        speed.managedProperty().bind(vm.sandboxProperty());

        // Supervised mode: what waits, what is frozen, and the one-click freeze.
        Label pending = new Label();
        pending.setId(PENDING_ID);
        pending.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(() -> {
            int n = sv.pendingCountProperty().get();
            return n == 0 ? "no proposals" : compact.get() ? n + " waiting"
                    : n + (n == 1 ? " proposal" : " proposals") + " waiting";
        }, sv.pendingCountProperty(), compact));
        Tips.bind(pending, javafx.beans.binding.Bindings.createStringBinding(() -> {
            int n = sv.pendingCountProperty().get();
            return n == 0 ? "No proposal waits for you" : n + (n == 1 ? " proposal waits" : " proposals wait")
                    + " for you in the inbox";
        }, sv.pendingCountProperty()));
        // "no proposals" says nothing that needs the operator: it gives way first when even the compact
        // bar does not fit (warnings on a narrow window), so the chips that warn stay whole.
        pending.visibleProperty().bind(sv.pendingCountProperty().greaterThan(0).or(quietFits));
        pending.managedProperty().bind(pending.visibleProperty());
        this.pending = pending;
        pending.getStyleClass().add(Styles.CHIP);
        sv.pendingCountProperty().addListener((o, a, n) -> Styles.toggle(pending, List.of(Styles.INFO),
                n.intValue() > 0 ? Styles.INFO : null));
        // The chips say what they are about in few words, whole; the whole text is their tooltip.
        Label warning = new Label();
        warning.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(
                () -> ChipWords.warning(vm.warningProperty().get()), vm.warningProperty()));
        warning.getStyleClass().addAll(Styles.CHIP, Styles.WARN);
        warning.visibleProperty().bind(vm.warningProperty().isNotEmpty());
        warning.managedProperty().bind(warning.visibleProperty());
        Tips.bind(warning, vm.warningProperty(), t -> {
            t.setWrapText(true);
            t.setMaxWidth(560);
        });

        Label blocked = new Label();
        blocked.textProperty().bind(javafx.beans.binding.Bindings.createStringBinding(
                () -> ChipWords.blocked(vm.blockedCountProperty().get(), compact.get()), vm.blockedCountProperty(),
                compact));
        blocked.getStyleClass().addAll(Styles.CHIP, Styles.WARN);
        blocked.visibleProperty().bind(vm.blockedProperty().isNotEmpty());
        blocked.managedProperty().bind(blocked.visibleProperty());
        Tips.bind(blocked, javafx.beans.binding.Bindings.createStringBinding(
                () -> vm.blockedProperty().get() + ":\n" + vm.blockedDetailProperty().get(), vm.blockedProperty(),
                vm.blockedDetailProperty()));

        Button freezeAll = new Button();
        freezeAll.setId(FREEZE_ALL_ID);
        freezeAll.getStyleClass().add("freeze-all");
        freezeAll.textProperty().bind(javafx.beans.binding.Bindings.when(sv.frozenAllProperty())
                .then("Unfreeze all").otherwise("Freeze all"));
        Tips.set(freezeAll, "Stop every scaling action at once (Ctrl+Shift+F)");
        freezeAll.setOnAction(e -> actions.toggleFreezeAll());
        freezeAll.accessibleTextProperty().bind(freezeAll.textProperty().concat(": stop every scaling action"));
        Button settings = new Button("Settings…");
        settings.textProperty().bind(javafx.beans.binding.Bindings.when(compact).then("⚙").otherwise("Settings…"));
        settings.setAccessibleText("Settings");
        settings.setId(SETTINGS_ID);
        Tips.set(settings, "Prometheus and the workloads file (or the sandbox)");
        settings.setOnAction(e -> openSettings.run());
        Button journal = new Button("Journal");
        journal.setId(JOURNAL_ID);
        Tips.set(journal, "Every proposal, approval, freeze and change (Ctrl+J)");
        journal.setOnAction(e -> openJournal.run());

        Label time = new Label();
        time.textProperty().bind(vm.sessionTimeProperty());
        time.getStyleClass().addAll(Styles.NUMERIC, Styles.MUTED);

        Button theme = new Button("◐");
        javafx.beans.binding.StringBinding themeWords = javafx.beans.binding.Bindings.when(vm.darkThemeProperty())
                .then("Switch to the light theme").otherwise("Switch to the dark theme");
        Tips.bind(theme, themeWords);
        theme.setOnAction(e -> vm.toggleTheme());
        theme.accessibleTextProperty().bind(themeWords); // "◐" says nothing to a screen reader
        theme.setId(THEME_ID);

        // Two groups: the status on the left may be cut at its right edge on a narrow window; the
        // controls on the right, Freeze all above all, are never pushed out of sight.
        status = new HBox(word, separator(), contextBox, separator(), cluster, metrics, freshness, separator(),
                pending, blocked, warning); // freezes: the incident banner below says them in full
        status.getStyleClass().add(Styles.TOP_BAR_GROUP);
        status.setMinWidth(0);
        javafx.scene.shape.Rectangle clip = new javafx.scene.shape.Rectangle();
        clip.widthProperty().bind(status.widthProperty());
        clip.heightProperty().bind(status.heightProperty());
        status.setClip(clip);
        HBox.setHgrow(status, Priority.ALWAYS);
        Button keys = new Button("?");
        keys.setId(KEYS_ID);
        Tips.set(keys, "Every key of the console (?); every action by name: Ctrl+K");
        keys.setAccessibleText("Keyboard shortcuts");
        keys.setOnAction(e -> showKeys.run());
        controls = new HBox(speed, time, theme, keys, settings, journal, freezeAll);
        controls.getStyleClass().add(Styles.TOP_BAR_GROUP);
        controls.setMinWidth(Region.USE_PREF_SIZE);
        // Compact: tighter gaps too (bound, so the stylesheet's spacing does not apply meanwhile and
        // the bar's measure of what compact saves is right at once).
        for (HBox g : List.of(status, controls)) {
            g.spacingProperty().bind(javafx.beans.binding.Bindings.when(compact).then(8.0).otherwise(11.0));
        }
        getChildren().addAll(status, controls);
        // Nothing in the top bar may be squeezed into "…".
        keepWhole(this);
        compact.addListener((o, was, is) -> Styles.toggle(this, List.of(COMPACT), is ? COMPACT : null));
    }

    /**
     * Becomes compact when the whole bar does not fit, and full again once it would fit with room to
     * spare (what compact saves is measured the first time, so the bar does not flip at the edge).
     */
    @Override
    protected void layoutChildren() {
        double room = getWidth() - snappedLeftInset() - snappedRightInset() - getSpacing();
        double need = status.prefWidth(-1) + controls.prefWidth(-1);
        if (!compact.get()) {
            if (need > room + 0.5) {
                fullNeed = need;
                saving = -1;
                compact.set(true);
            }
        } else if (saving < 0) {
            saving = Math.max(0, fullNeed - need);
        } else if (need + saving + 8 <= room) {
            compact.set(false);
        }
        if (compact.get() && saving >= 0) {
            // Compact and still too wide: the quiet chip gives way; back once it fits with room to spare.
            double chip = pending.prefWidth(-1) + status.getSpacing();
            if (quietFits.get() && need > room + 0.5 && pending.isVisible()) {
                quietFits.set(false);
            } else if (!quietFits.get() && need + chip + 8 <= room) {
                quietFits.set(true);
            }
        } else if (!compact.get()) {
            quietFits.set(true);
        }
        super.layoutChildren();
    }

    /**
     * Adds the chip that warns of nodes Headroom left cordoned; hidden when there is none. It goes first in the
     * controls group, next to the status chips but never clipped with the status group on a narrow window (at
     * 1280 px the status group is cut). A click opens the Nodes window on the first one's context.
     */
    public void setCordonWarning(CordonWarningViewModel vm, java.util.function.Consumer<String> openNodes) {
        Button chip = new Button();
        chip.setId(LEFT_CORDONED_ID);
        chip.textProperty().bind(vm.textProperty());
        chip.getStyleClass().addAll(Styles.CHIP, Styles.WARN);
        chip.visibleProperty().bind(vm.textProperty().isNotEmpty());
        chip.managedProperty().bind(chip.visibleProperty());
        chip.setMinWidth(Region.USE_PREF_SIZE);
        Tips.bind(chip, vm.detailProperty());
        chip.accessibleTextProperty().bind(vm.textProperty().concat(": open the Nodes window"));
        chip.setOnAction(e -> {
            if (vm.contextProperty().get() != null) {
                openNodes.accept(vm.contextProperty().get());
            }
        });
        controls.getChildren().add(0, chip);
    }

    private static void keepWhole(javafx.scene.Parent parent) {
        for (javafx.scene.Node n : parent.getChildrenUnmodifiable()) {
            if (n instanceof javafx.scene.control.Labeled l) { // the warning chips too: they say it in few words
                l.setMinWidth(Region.USE_PREF_SIZE);
            } else if (n instanceof javafx.scene.layout.Pane p) {
                keepWhole(p);
            }
        }
    }

    private static HBox speedSelector(MainViewModel vm, javafx.beans.value.ObservableBooleanValue compact) {
        ToggleGroup group = new ToggleGroup();
        HBox box = new HBox(2);
        box.getStyleClass().addAll(Styles.SPEED, Styles.HEALTH);
        Label speedLabel = field("Speed");
        Tips.set(speedLabel, "How fast simulated time runs in the sandbox");
        speedLabel.visibleProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(() -> !compact.get(),
                compact));
        speedLabel.managedProperty().bind(speedLabel.visibleProperty());
        box.getChildren().add(speedLabel);
        for (double s : List.of(1.0, 10.0, 60.0)) {
            ToggleButton b = new ToggleButton((int) s + "×");
            b.setToggleGroup(group);
            b.setUserData(s);
            b.setSelected(vm.speedProperty().get() == s);
            b.setAccessibleText("Sandbox speed " + (int) s + " times real time");
            Tips.set(b, "Sandbox speed: simulated time runs " + (int) s + "× real time");
            box.getChildren().add(b);
        }
        group.selectedToggleProperty().addListener((obs, old, sel) -> {
            if (sel == null) {
                old.setSelected(true); // one speed is always chosen
            } else {
                vm.setSpeed((Double) sel.getUserData());
            }
        });
        vm.speedProperty().addListener((obs, old, s) -> group.getToggles().forEach(t -> {
            if (((Double) t.getUserData()) == s.doubleValue()) {
                t.setSelected(true);
            }
        }));
        return box;
    }

    private static HBox health(String name, ObjectProperty<MainViewModel.Health> health, StringProperty detail,
                               StringProperty value) {
        HBox box = new HBox(5, dot(health), field(name));
        if (value != null) {
            Label v = new Label();
            v.textProperty().bind(value);
            v.getStyleClass().add(Styles.FIELD_VALUE);
            box.getChildren().add(v);
        }
        box.getStyleClass().add(Styles.HEALTH);
        Tips.bind(box, detail);
        return box;
    }

    private static Circle dot(ObjectProperty<MainViewModel.Health> health) {
        Circle c = new Circle(4.5);
        c.getStyleClass().add(Styles.HEALTH_DOT);
        Runnable update = () -> Styles.toggle(c, List.of(Styles.OK, Styles.WARN, Styles.DANGER),
                switch (health.get()) {
                    case OK -> Styles.OK;
                    case DEGRADED -> Styles.WARN;
                    case DOWN -> Styles.DANGER;
                    case UNKNOWN -> null;
                });
        health.addListener((o, a, b) -> update.run());
        update.run();
        return c;
    }

    private static Label field(String text) {
        Label l = new Label(text);
        l.getStyleClass().add(Styles.FIELD_LABEL);
        return l;
    }

    private static Region separator() {
        Region r = new VBox();
        r.getStyleClass().add(Styles.SEPARATOR_V);
        return r;
    }
}
