package io.headroom.ui.detail;

import io.headroom.ui.Styles;
import javafx.scene.control.Label;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** The detail's forecast section: its mode, the forecast in words (or why none), and how much of the week is in. */
public final class ForecastPanel extends VBox {
    public static final String WORDS_ID = "forecast-words";
    public static final String MODE_ID = "forecast-mode";
    public static final String HISTORY_ID = "forecast-history";

    public ForecastPanel(ForecastViewModel vm) {
        super(3);
        Label mode = new Label();
        mode.setId(MODE_ID);
        mode.getStyleClass().add(Styles.MUTED);
        mode.textProperty().bind(javafx.beans.binding.Bindings.concat("mode: ", vm.modeProperty()));
        Label words = wrapped(new Label());
        words.setId(WORDS_ID);
        words.textProperty().bind(vm.wordsProperty());
        Label service = wrapped(new Label());
        service.getStyleClass().add(Styles.TERM_FORMULA);
        service.textProperty().bind(vm.serviceProperty());
        service.visibleProperty().bind(vm.serviceProperty().isNotEmpty());
        service.managedProperty().bind(service.visibleProperty());
        Label history = new Label();
        history.setId(HISTORY_ID);
        history.getStyleClass().add(Styles.FAINT);
        history.textProperty().bind(vm.historyProperty());
        history.visibleProperty().bind(vm.historyProperty().isNotEmpty());
        history.managedProperty().bind(history.visibleProperty());
        getChildren().addAll(mode, words, service, history);
    }

    private static Label wrapped(Label l) {
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return l;
    }
}
