package io.headroom.ui.shell;

import io.headroom.ui.fx.Tips;
import io.headroom.ui.Styles;
import io.headroom.ui.fx.TextCell;
import java.util.List;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The event list as a strip at the window's foot: one line with the newest event (cut, with a
 * tooltip, never pushing anything), and a toggle that opens the last events in a panel over the
 * window's lower edge ({@link #list()}, placed by the shell). The strip has the whole width to
 * itself and the open list lies over the content, so neither takes space from the controls.
 */
public final class EventStrip extends VBox {
    public static final String ID = "event-strip";
    public static final String TOGGLE_ID = "event-toggle";
    public static final String LIST_ID = "event-list";
    public static final String HEADLINE_ID = "event-headline";
    /** "Saved to workloads.yaml · Revert", while a save can be taken back. */
    public static final String SAVED_ID = "event-saved-revert";

    private final ListView<EventListViewModel.ConsoleEvent> list = new ListView<>();
    private final ToggleButton toggle = new ToggleButton();

    public EventStrip(EventListViewModel vm) {
        setId(ID);
        getStyleClass().add("event-strip");
        toggle.setId(TOGGLE_ID);
        toggle.textProperty().bind(Bindings.createStringBinding(() -> (toggle.isSelected() ? "▾ " : "▴ ")
                + "Events " + vm.events().size(), vm.events(), toggle.selectedProperty()));
        Tips.set(toggle, "The last " + EventListViewModel.LIMIT + " events, newest first");
        toggle.setMinWidth(Region.USE_PREF_SIZE);
        toggle.accessibleTextProperty().bind(Bindings.createStringBinding(() -> (toggle.isSelected() ? "Hide" : "Show")
                + " the event list (" + vm.events().size() + " events)", vm.events(), toggle.selectedProperty()));
        Label headline = OneLine.of(vm.headlineProperty(), Styles.MUTED);
        headline.setId(HEADLINE_ID);
        Button saved = new Button();
        saved.setId(SAVED_ID);
        saved.textProperty().bind(vm.savedProperty());
        saved.visibleProperty().bind(vm.savedProperty().isNotEmpty());
        saved.managedProperty().bind(saved.visibleProperty());
        saved.setMinWidth(Region.USE_PREF_SIZE);
        Tips.set(saved, "Puts the workloads file back as it was before the save (Ctrl+Z too)");
        saved.setOnAction(e -> vm.revertSaved());
        HBox bar = new HBox(8, toggle, headline, saved); // the headline takes what is left: the chip stays whole
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.getStyleClass().add("event-bar");

        list.setId(LIST_ID);
        list.setItems(vm.events());
        list.setPlaceholder(new Label("Nothing has happened yet."));
        list.setPrefHeight(220);
        list.setMaxHeight(Region.USE_PREF_SIZE);
        list.setMaxWidth(900);
        list.setCellFactory(l -> new TextCell<>(EventListViewModel::format, EventListViewModel::format,
                List.of(Styles.OK, Styles.WARN, Styles.BAD), e -> switch (e.level()) {
                    case INFO -> null;
                    case OK -> Styles.OK;
                    case WARN -> Styles.WARN;
                    case BAD -> Styles.BAD;
                }));
        list.visibleProperty().bind(toggle.selectedProperty());
        list.managedProperty().bind(list.visibleProperty());
        list.getStyleClass().add("event-list");
        getChildren().add(bar);
    }

    /** Escape closes the open list (the key is then consumed); true when it did. */
    public boolean closeOnEscape(KeyEvent e) {
        if (e.getEventType() != KeyEvent.KEY_PRESSED || e.getCode() != KeyCode.ESCAPE || !toggle.isSelected()) {
            return false;
        }
        e.consume();
        boolean hadFocus = list.isFocused();
        toggle.setSelected(false);
        if (hadFocus) {
            toggle.requestFocus(); // focus does not vanish with the list
        }
        return true;
    }

    /** Opens or closes the list. */
    public ToggleButton toggle() {
        return toggle;
    }

    /** The open list: the shell lays it over the content, just above this strip. */
    public ListView<EventListViewModel.ConsoleEvent> list() {
        return list;
    }
}
