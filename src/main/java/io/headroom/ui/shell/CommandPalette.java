package io.headroom.ui.shell;

import io.headroom.ui.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** The {@code Ctrl+K} command palette: a search field over every command, the matches below it. */
public final class CommandPalette extends VBox {
    public static final String ID = "command-palette";
    public static final String QUERY_ID = "palette-query";
    public static final String LIST_ID = "palette-list";
    public static final String MESSAGE_ID = "palette-message";
    /** Style class of a command that cannot run now (shown with why, not hidden). */
    public static final String UNAVAILABLE = "unavailable";

    private final TextField query = new TextField();
    private final ListView<PaletteViewModel.Item> list = new ListView<>();

    public CommandPalette(PaletteViewModel vm) {
        setId(ID);
        getStyleClass().addAll("overlay-card", "command-palette");
        setMaxWidth(640);
        setMaxHeight(USE_PREF_SIZE);
        query.setId(QUERY_ID);
        query.setPromptText("Type a command or a class: freeze, journal, what-if, speed…");
        query.setAccessibleText("Command search");
        query.textProperty().bindBidirectional(vm.queryProperty());
        list.setId(LIST_ID);
        list.setItems(vm.items());
        list.setFocusTraversable(false); // the field keeps the focus; arrows move the highlight
        list.setPrefHeight(360);
        list.setPlaceholder(new Label("No command matches"));
        list.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(PaletteViewModel.Item item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().remove(UNAVAILABLE);
                if (empty || item == null) {
                    setGraphic(null);
                    setText(null);
                    setAccessibleText(null);
                    return;
                }
                Label title = new Label(item.title());
                Label section = new Label(item.command().section().title());
                section.getStyleClass().add(Styles.MUTED);
                VBox left = new VBox(1, title);
                if (!item.enabled()) {
                    getStyleClass().add(UNAVAILABLE);
                    Label why = new Label(item.why());
                    why.getStyleClass().addAll(Styles.MUTED, "why");
                    left.getChildren().add(why);
                }
                Region gap = new Region();
                HBox.setHgrow(gap, Priority.ALWAYS);
                Label key = new Label(item.key());
                key.getStyleClass().add(HelpOverlay.KEY); // the UI font (Styles.KEY_FONT): O and 0 look alike in the monospace
                key.setVisible(!item.key().isEmpty());
                HBox row = new HBox(8, left, gap, section, key);
                row.setAlignment(Pos.CENTER_LEFT);
                setText(null);
                setGraphic(row);
                setAccessibleText(item.title() + (item.enabled() ? "" : ", unavailable: " + item.why())
                        + (item.key().isEmpty() ? "" : ", key " + item.key()));
            }
        });
        vm.selectedProperty().addListener((o, a, i) -> {
            if (i.intValue() >= 0 && i.intValue() < list.getItems().size()) {
                list.getSelectionModel().select(i.intValue());
                list.scrollTo(i.intValue() < 6 ? 0 : i.intValue() - 3); // the top of the list while it fits
            } else {
                list.getSelectionModel().clearSelection();
            }
        });
        vm.items().addListener((javafx.collections.ListChangeListener<PaletteViewModel.Item>) c -> {
            int i = vm.selectedProperty().get();
            if (i >= 0 && i < list.getItems().size()) {
                list.getSelectionModel().select(i);
                list.scrollTo(0);
            }
        });
        list.setOnMouseClicked(e -> {
            int i = list.getSelectionModel().getSelectedIndex();
            if (e.getButton() == MouseButton.PRIMARY && i >= 0) {
                vm.selectedProperty().set(i);
                vm.runSelected();
            }
        });
        query.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            switch (e.getCode()) {
                case UP -> vm.move(-1);
                case DOWN -> vm.move(1);
                case PAGE_UP -> vm.move(-8);
                case PAGE_DOWN -> vm.move(8);
                case ENTER -> vm.runSelected();
                case ESCAPE -> vm.close();
                default -> {
                    return;
                }
            }
            e.consume();
        });
        Label message = new Label();
        message.setId(MESSAGE_ID);
        message.getStyleClass().add(Styles.WARN);
        message.textProperty().bind(vm.messageProperty());
        message.visibleProperty().bind(vm.messageProperty().isNotEmpty());
        message.managedProperty().bind(message.visibleProperty());
        message.setWrapText(true);
        Label hint = new Label("↑ ↓ move · Enter runs · Escape closes · greyed commands say why they cannot run now");
        hint.getStyleClass().add(Styles.MUTED);
        getChildren().addAll(query, message, list, hint);
    }

    /** Puts the typing caret in the search field. */
    public void focusQuery() {
        query.requestFocus();
    }
}
