package io.headroom.ui.supervise;

import io.headroom.supervise.ClassSupervision;
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
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.util.StringConverter;

/** The selected class's actuation controls in the detail header: mode, freeze, override, state. */
public final class ClassControls extends HBox {
    public static final String MODE_ID = "class-mode";
    public static final String FREEZE_ID = "class-freeze";
    public static final String OVERRIDE_ID = "class-override";
    public static final String STATE_ID = "class-supervision";

    private final ChoiceBox<Mode> mode = new ChoiceBox<>();
    private final Button freeze = new Button();
    private final Button override = new Button();
    private final Label state = new Label();
    private final ObservableStringValue className;
    private final SupervisionViewModel vm;
    private boolean updating;

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
        mode.setTooltip(new Tooltip("observe: never act · supervised: propose, you approve · auto: act as decided"));
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
        freeze.setId(FREEZE_ID);
        freeze.setOnAction(e -> actions.toggleFreeze(className.get()));
        freeze.setTooltip(new Tooltip("Freeze or unfreeze this class (F)"));
        override.setId(OVERRIDE_ID);
        override.setOnAction(e -> actions.toggleOverride(className.get(), currentReplicas.getAsInt()));
        state.setId(STATE_ID);
        state.getStyleClass().add(Styles.MUTED);
        state.setMinWidth(0);
        state.setTextOverrun(javafx.scene.control.OverrunStyle.ELLIPSIS);
        Tooltip stateTip = new Tooltip();
        stateTip.textProperty().bind(state.textProperty());
        state.setTooltip(stateTip);
        Label modeLabel = new Label("Mode");
        modeLabel.getStyleClass().add(Styles.MUTED);
        getChildren().addAll(modeLabel, mode, freeze, override, state);
        vm.stateProperty().addListener((o, a, b) -> refresh());
        className.addListener((o, a, b) -> refresh());
        refresh();
    }

    private void refresh() {
        ClassSupervision c = vm.of(className.get());
        updating = true;
        mode.setValue(c == null ? null : c.mode());
        updating = false;
        boolean frozen = c != null && c.freeze() != null;
        boolean pinned = c != null && c.override() != null;
        freeze.setText(frozen ? "Unfreeze" : "Freeze…");
        override.setText(pinned ? "Clear override" : "Override…");
        List<String> parts = new java.util.ArrayList<>();
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
        if (c != null && c.lastAction() != null) {
            parts.add(c.lastAction());
        }
        state.setText(String.join(" · ", parts));
        Styles.toggle(state, List.of(Styles.BAD), frozen || pinned || vm.frozenAllProperty().get() ? Styles.BAD : null);
    }
}
