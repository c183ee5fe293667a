package io.headroom.ui.supervise;

import io.headroom.ui.fx.Tips;
import io.headroom.decision.ForecastMode;
import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.LastAction;
import io.headroom.supervise.Mode;
import io.headroom.ui.Styles;
import java.util.List;
import java.util.Locale;
import java.util.function.IntSupplier;
import javafx.beans.value.ObservableStringValue;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.util.StringConverter;

/** The selected class's actuation controls in the detail header: mode, freeze, override, state. */
public final class ClassControls extends HBox {
    public static final String MODE_ID = "class-mode";
    public static final String FREEZE_ID = "class-freeze";
    public static final String OVERRIDE_ID = "class-override";
    public static final String STATE_ID = "class-supervision";
    public static final String DRAIN_ID = "class-drain";
    public static final String NODES_ID = "class-nodes";
    public static final String WHAT_IF_ID = "class-what-if";
    public static final String EXPORT_KEDA_ID = "class-export-keda";
    public static final String FORECAST_ID = "class-forecast";
    public static final String CANCEL_FLOOR_ID = "class-cancel-floor";

    /** How long the end of the last drain stays in the state line. */
    static final java.time.Duration RECENT_DRAIN = java.time.Duration.ofMinutes(10);

    private final ChoiceBox<Mode> mode = new ChoiceBox<>();
    /** What the class does with its forecast (issue 29): off, forecast only, propose, auto. */
    private final ChoiceBox<ForecastMode> forecast = new ChoiceBox<>();
    private final Button cancelFloor = new Button("Cancel floor");
    private final Button freeze = new Button();
    private final Button override = new Button();
    private final Button drain = new Button();
    private final Label state = new Label();
    private final ObservableStringValue className;
    private final SupervisionViewModel vm;
    private boolean updating;
    /** False while the class has no decision (no tick yet, the cluster out of reach): nothing to act on. */
    private final javafx.beans.property.BooleanProperty actionable = new javafx.beans.property.SimpleBooleanProperty(true);
    /** A drain past the point where it can be called off. */
    private final javafx.beans.property.BooleanProperty drainLocked = new javafx.beans.property.SimpleBooleanProperty();

    public ClassControls(OperatorActions actions, ObservableStringValue className, IntSupplier currentReplicas) {
        this.vm = actions.viewModel();
        this.className = className;
        getStyleClass().add("supervision");
        setAlignment(Pos.CENTER_LEFT);
        mode.setId(MODE_ID);
        mode.getItems().setAll(Mode.values());
        mode.setConverter(new StringConverter<>() {
            @Override
            public String toString(Mode m) {
                return m == null ? "" : m.name().toLowerCase(Locale.ROOT);
            }

            @Override
            public Mode fromString(String s) {
                return Mode.valueOf(s.toUpperCase(Locale.ROOT));
            }
        });
        Tips.set(mode, "observe: never act · supervised: propose, you approve · auto: act as decided");
        mode.valueProperty().addListener((o, old, m) -> {
            if (updating || m == null || old == null) {
                return;
            }
            if (!actions.setMode(className.get(), m)) {
                updating = true;
                mode.setValue(old); // the operator said no to auto
                updating = false;
            }
        });
        forecast.setId(FORECAST_ID);
        forecast.getItems().setAll(ForecastMode.values());
        forecast.setConverter(new StringConverter<>() {
            @Override
            public String toString(ForecastMode m) {
                return m == null ? "" : "Forecast: " + m.word().replace('-', ' ');
            }

            @Override
            public ForecastMode fromString(String s) {
                return ForecastMode.parse(s.replace("Forecast: ", ""));
            }
        });
        Tips.set(forecast, "What the forecast does for this class: off · forecast only (drawn and"
                + " explained, never acts) · propose (a floor ahead of each rise, you approve) · auto (held without"
                + " asking). Journaled as a policy edit; Ctrl+Z sets it back");
        forecast.valueProperty().addListener((o, old, m) -> {
            if (updating || m == null || old == null) {
                return;
            }
            if (!actions.setForecastMode(className.get(), m)) {
                updating = true;
                forecast.setValue(old); // the operator said no to auto
                updating = false;
            }
        });
        cancelFloor.setId(CANCEL_FLOOR_ID);
        cancelFloor.setOnAction(e -> actions.cancelFloor(className.get()));
        Tips.set(cancelFloor, "Stop holding the forecast floor: the reactive decision alone rules"
                + " (journaled; the same rise is not proposed again)");
        cancelFloor.setVisible(false);
        cancelFloor.managedProperty().bind(cancelFloor.visibleProperty());
        freeze.setId(FREEZE_ID);
        freeze.setOnAction(e -> actions.toggleFreeze(className.get()));
        Tips.set(freeze, "Freeze or unfreeze this class (F)");
        override.setId(OVERRIDE_ID);
        override.setOnAction(e -> actions.toggleOverride(className.get(), currentReplicas.getAsInt()));
        drain.setId(DRAIN_ID);
        drain.setOnAction(e -> actions.toggleDrain(className.get(), currentReplicas.getAsInt()));
        Tips.set(drain, "Take pods out once their jobs are done, or cancel the running drain");
        state.setId(STATE_ID);
        state.getStyleClass().add(Styles.MUTED);
        state.setMinWidth(0);
        state.setTextOverrun(javafx.scene.control.OverrunStyle.ELLIPSIS);
        Tips.bind(state, state.textProperty());
        Label modeLabel = new Label("Mode");
        modeLabel.getStyleClass().add(Styles.MUTED);
        getChildren().addAll(modeLabel, mode, forecast, cancelFloor, freeze, override, drain, state);
        mode.disableProperty().bind(actionable.not());
        cancelFloor.disableProperty().bind(actionable.not());
        freeze.disableProperty().bind(actionable.not());
        override.disableProperty().bind(actionable.not());
        drain.disableProperty().bind(actionable.not().or(drainLocked));
        // The controls keep their labels at every size: only the status line gives way (shortened with
        // "…", whole in its tooltip), never a button squeezed to "…".
        HBox.setHgrow(state, javafx.scene.layout.Priority.ALWAYS);
        for (javafx.scene.Node n : List.of(modeLabel, mode, forecast, cancelFloor, freeze, override, drain)) {
            keepWhole(n);
        }
        vm.stateProperty().addListener((o, a, b) -> refresh());
        className.addListener((o, a, b) -> refresh());
        refresh();
    }

    /** A control is never narrower than its label (the status line takes what is left). */
    private static void keepWhole(javafx.scene.Node n) {
        if (n instanceof javafx.scene.control.Control c) {
            c.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
    }

    /** "draining 4 → 2 · 1m 40s left · waiting for a (2 in flight)". */
    static String drainProgress(io.headroom.drain.Drain d, java.time.Instant now) {
        long left = Math.max(0, java.time.Duration.between(now, d.deadline()).toSeconds());
        String phase = switch (d.phase()) {
            case MARKING -> "marking";
            case WAITING, REPLACING -> (left / 60 > 0 ? left / 60 + "m " : "") + left % 60 + "s left";
            case EVICTING -> "evicting";
            default -> "lowering replicas";
        };
        return (d.replace() == null ? "draining " : "") + d.change() + " · " + phase + " · " + d.detail();
    }

    /**
     * What acts on the cluster is enabled only while the class has a decision ({@code decided}); What-if,
     * which replays the history already recorded, stays enabled (issue 28: while the cluster is out of reach).
     */
    public void bindActionable(javafx.beans.value.ObservableBooleanValue decided) {
        actionable.bind(decided);
    }

    /** Adds the What-if… button (the window needs the charts and the session, which the shell has). */
    public void setOnWhatIf(Runnable open) {
        Button whatIf = new Button("What-if…");
        whatIf.setId(WHAT_IF_ID);
        whatIf.setOnAction(e -> open.run());
        Tips.bind(whatIf, javafx.beans.binding.Bindings.when(actionable)
                .then("Edit this class's policy and replay its recent load under both; nothing is applied")
                .otherwise("No decision now (the cluster may be out of reach): What-if replays the history recorded"
                        + " so far; nothing is applied"));
        keepWhole(whatIf);
        getChildren().add(getChildren().indexOf(state), whatIf);
    }

    /** Adds the Export / apply as KEDA… button: the class as a ScaledObject, a dry run, apply after confirmation. */
    public void setOnExportKeda(Runnable open) {
        Button keda = new Button("KEDA…");
        keda.setId(EXPORT_KEDA_ID);
        keda.setOnAction(e -> open.run());
        keda.disableProperty().bind(actionable.not());
        Tips.set(keda, "Export / apply as KEDA: this class's policy as a ScaledObject (what KEDA cannot"
                + " express as comments), a server-side dry run and the difference; applied only after you confirm");
        keepWhole(keda);
        getChildren().add(getChildren().indexOf(state), keda);
    }

    /** Adds the Nodes… button: the nodes this class runs on, to drain one (cordon, evict, PDB refusals shown). */
    public void setOnNodes(Runnable open) {
        Button nodes = new Button("Nodes…");
        nodes.setId(NODES_ID);
        nodes.setOnAction(e -> open.run());
        nodes.disableProperty().bind(actionable.not());
        Tips.set(nodes, "The nodes this class's pods run on: drain one the way kubectl drain does,"
                + " this class's pods drained first; uncordon");
        keepWhole(nodes);
        getChildren().add(getChildren().indexOf(state), nodes);
    }

    private void refresh() {
        ClassSupervision c = vm.of(className.get());
        updating = true;
        mode.setValue(c == null ? null : c.mode());
        forecast.setValue(vm.forecastMode(className.get()));
        updating = false;
        forecast.setVisible(forecast.getValue() != null); // a console that cannot change it does not offer it
        forecast.setManaged(forecast.isVisible());
        cancelFloor.setVisible(c != null && c.floor() != null);
        boolean frozen = c != null && c.freeze() != null;
        boolean pinned = c != null && c.override() != null;
        freeze.setText(frozen ? "Unfreeze" : "Freeze…");
        override.setText(pinned ? "Clear override" : "Override…");
        boolean draining = c != null && c.draining();
        drain.setText(draining ? "Cancel drain" : "Drain…");
        // Once replicas were lowered a drain can no longer be called off: it follows the removal to its end.
        drainLocked.set(draining && !c.drain().cancellable());
        List<String> parts = new java.util.ArrayList<>();
        String applies = ActionWarnings.applies(c, vm.globalFreeze());
        if (applies != null) {
            parts.add("applies: " + applies); // overlays in conflict: what wins comes first
        }
        if (vm.frozenAllProperty().get()) {
            parts.add("everything frozen");
        }
        if (frozen) {
            parts.add("frozen until " + SupervisionViewModel.HHMM.format(c.freeze().until()) + " — "
                    + c.freeze().reason());
        }
        if (pinned) {
            parts.add("pinned to " + c.override().replicas() + " until "
                    + SupervisionViewModel.HHMM.format(c.override().until()) + " — " + c.override().reason());
        }
        if (c != null && c.floor() != null) {
            parts.add("forecast floor " + c.floor().replicas() + " from " + SupervisionViewModel.HHMM.format(
                    c.floor().from()) + " until " + SupervisionViewModel.HHMM.format(c.floor().until()) + " ("
                    + c.floorBy() + ")");
        }
        if (draining) {
            parts.add(drainProgress(c.drain(), vm.now()));
        } else {
            if (c != null && c.drain() != null && c.drain().endedAt() != null
                    && c.drain().endedAt().isAfter(vm.now().minus(RECENT_DRAIN))) {
                // How the last drain ended stays in view for a while, whatever happens next.
                parts.add("drain " + c.drain().phase().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " at "
                        + SupervisionViewModel.HHMM.format(c.drain().endedAt()) + ": " + c.drain().detail());
            }
            if (c != null && c.lastAction() != null && c.lastAction().kind() != LastAction.Kind.DRAIN) {
                parts.add(c.lastAction().text());
            }
        }
        state.setText(String.join(" · ", parts));
        Styles.toggle(state, List.of(Styles.BAD, Styles.INFO), frozen || pinned || vm.frozenAllProperty().get()
                ? Styles.BAD : draining ? Styles.INFO : null);
    }
}
