package io.headroom.ui.supervise;

import io.headroom.ui.fx.Tips;
import io.headroom.ui.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/** The proposals inbox: one card per pending change, approve / reject / another value. */
public final class InboxView extends VBox {
    public static final String LIST_ID = "inbox";
    public static final String JOURNAL_BANNER_ID = "journal-banner";
    public static final String STATUS_ID = "inbox-status";
    public static final String UNDO_ID = "inbox-undo";
    public static final String HELD_ID = "inbox-held";
    public static final String SHORTCUTS = "A approve · R reject · O other value · D dry run · F freeze class · "
            + "Ctrl+Shift+F freeze all · Ctrl+Z undo · Ctrl+J journal";

    private final ListView<ProposalRow> list = new ListView<>();

    public InboxView(OperatorActions actions) {
        SupervisionViewModel vm = actions.viewModel();
        getStyleClass().add("inbox");
        Label title = new Label("Proposals");
        title.getStyleClass().add("inbox-title");
        Label count = new Label();
        count.textProperty().bind(vm.pendingCountProperty().asString());
        count.getStyleClass().addAll(Styles.CHIP, Styles.INFO);
        // While the cards hold still under the operator's attention, the header says why the list is not in class
        // order: on the title's line, so that it moves no card.
        Label held = new Label();
        held.setId(HELD_ID);
        held.textProperty().bind(vm.heldNoteProperty());
        held.visibleProperty().bind(vm.heldNoteProperty().isNotEmpty());
        held.setMinWidth(0);
        held.setTextOverrun(javafx.scene.control.OverrunStyle.ELLIPSIS);
        held.getStyleClass().add(Styles.MUTED);
        Tips.set(held, "The cards do not move while the pointer is on them or for a few seconds after you used them:"
                + " a proposal that went stays greyed where it was, a new one comes below. The class order comes back"
                + " after.");
        HBox header = new HBox(8, title, count, held);
        header.setAlignment(Pos.CENTER_LEFT);

        // The journal cannot be written (an error: nothing acts) or was read back with warnings.
        Label journal = new Label();
        journal.setId(JOURNAL_BANNER_ID);
        journal.textProperty().bind(vm.journalProblemProperty());
        journal.visibleProperty().bind(vm.journalProblemProperty().isNotEmpty());
        journal.managedProperty().bind(journal.visibleProperty());
        journal.setWrapText(true);
        journal.setMinHeight(Region.USE_PREF_SIZE);
        journal.setMaxWidth(Double.MAX_VALUE);
        journal.getStyleClass().addAll(Styles.CHIP, "journal-banner");
        Styles.toggle(journal, java.util.List.of(Styles.DANGER, Styles.WARN), Styles.WARN);
        vm.journalFailedProperty().addListener((o, a, failed) -> Styles.toggle(journal,
                java.util.List.of(Styles.DANGER, Styles.WARN), failed ? Styles.DANGER : Styles.WARN));
        Tips.bind(journal, vm.journalDetailProperty());

        list.setId(LIST_ID);
        list.setItems(vm.proposals());
        list.setPlaceholder(new Label("No change is waiting for you."));
        list.setCellFactory(l -> new Card(actions));
        // Cards never move under the operator's attention, whichever device it came from: the pointer on them, a
        // key pressed or a click in them, the focus arriving, in the last few seconds (issue 28).
        io.headroom.ui.fx.AttentionArea.follow(list, vm.attention());
        // The proposals change every tick or so (an expiry, a new figure): the cards are drawn anew and a focused
        // button leaves the scene. The operator's keyboard focus is not lost to that: it goes back to the same
        // button of the same proposal's card once the cards are laid out again.
        vm.proposals().addListener((javafx.collections.ListChangeListener<ProposalRow>) change -> {
            javafx.scene.Node f = list.getScene() == null ? null : list.getScene().getFocusOwner();
            Card card = null;
            for (javafx.scene.Node p = f; p != null; p = p.getParent()) {
                if (p instanceof Card c) {
                    card = c;
                    break;
                }
            }
            if (!(f instanceof Button b) || card == null || card.getItem() == null) {
                return;
            }
            String id = card.getItem().id();
            String text = b.getText();
            io.headroom.ui.fx.FxExecutor.nextTurn(() -> refocus(id, text, b));
        });
        // Tab from the list goes into the highlighted card (the one the keys act on), wherever the
        // virtual flow keeps its cell among the others.
        list.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.TAB && !e.isShiftDown() && list.isFocused()) {
                ProposalRow row = list.getSelectionModel().getSelectedItem();
                for (javafx.scene.Node n : list.lookupAll(".list-cell")) {
                    if (n instanceof Card c && shown(c) && row != null && c.getItem() != null
                            && row.id().equals(c.getItem().id())) { // the same proposal, its figures maybe newer
                        c.first().requestFocus();
                        e.consume();
                        return;
                    }
                }
            }
        });
        list.getSelectionModel().selectedItemProperty().addListener((o, a, row) -> {
            if (row != null && row != vm.selectedProperty().get()) {
                vm.selectedProperty().set(row);
            }
        });
        vm.selectedProperty().addListener((o, a, row) -> {
            if (row != null && list.getSelectionModel().getSelectedItem() != row) {
                list.getSelectionModel().select(row);
            }
        });
        VBox.setVgrow(list, Priority.ALWAYS);

        Label keys = new Label(SHORTCUTS);
        keys.getStyleClass().addAll(Styles.FAINT, "inbox-keys");
        keys.setWrapText(true);
        keys.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        Label status = new Label();
        status.textProperty().bind(vm.statusProperty());
        status.setWrapText(true);
        status.getStyleClass().add("inbox-status");
        status.setId(STATUS_ID);
        // What Ctrl+Z would take back, and the levels behind it in the tooltip.
        Label undo = new Label();
        undo.setId(UNDO_ID);
        undo.textProperty().bind(vm.undoLabelProperty().concat(javafx.beans.binding.Bindings.when(
                vm.undoLabelProperty().isEmpty()).then("").otherwise(" (Ctrl+Z)")));
        undo.visibleProperty().bind(vm.undoLabelProperty().isNotEmpty());
        undo.managedProperty().bind(undo.visibleProperty());
        undo.getStyleClass().add(Styles.MUTED);
        undo.setWrapText(true);
        vm.undoable().addListener((javafx.collections.ListChangeListener<String>) c -> Tips.set(undo,
                "Ctrl+Z undoes, newest first:\n" + String.join("\n", vm.undoable())));
        vm.statusOkProperty().addListener((o, a, ok) -> Styles.toggle(status, java.util.List.of(Styles.BAD),
                ok ? null : Styles.BAD));
        getChildren().addAll(header, journal, list, undo, keys); // outcomes: the event list at the window's foot
    }

    public ListView<ProposalRow> list() {
        return list;
    }

    /**
     * The card the operator highlighted, when the inbox has the focus and that card is on screen
     * (not scrolled away); null otherwise, and the keys act on the class in view.
     */
    public ProposalRow highlightedOnScreen() {
        ProposalRow row = list.getSelectionModel().getSelectedItem();
        if (row == null || !list.isFocused() || list.getScene() == null) {
            return null;
        }
        javafx.geometry.Bounds view = list.localToScene(list.getBoundsInLocal());
        for (javafx.scene.Node n : list.lookupAll(".list-cell")) {
            if (n instanceof ListCell<?> cell && cell.isVisible() && row.equals(cell.getItem())
                    && view.contains(cell.localToScene(cell.getBoundsInLocal()).getCenterX(),
                    cell.localToScene(cell.getBoundsInLocal()).getCenterY())) {
                return row;
            }
        }
        return null;
    }

    /**
     * Shows the cards' ages and expiry countdowns as of now, each card where it is. Not {@code ListView.refresh()}:
     * that hands every card back to the list and out again in another order, so a focused button would leave the
     * window for a moment (Tab then restarts at the top bar) and come back on another proposal's card (Enter acts
     * on a proposal the operator did not pick). FX thread.
     */
    public void showAges() {
        for (javafx.scene.Node n : list.lookupAll(".list-cell")) {
            if (n instanceof Card c && !c.isEmpty() && c.getItem() != null) {
                c.showWhen(c.getItem());
            }
        }
    }

    /**
     * Focuses the button called {@code text} on the card of proposal {@code id} when the change to the list took
     * the focus from {@code was}, that button: the focus was lost (nothing, the list, a node no longer shown) or
     * {@code was} still has it on a card now showing another proposal. Where the operator moved the focus since
     * (Tab to the next card, the detail), it stays.
     */
    private void refocus(String id, String text, Button was) {
        javafx.scene.Node now = list.getScene() == null ? null : list.getScene().getFocusOwner();
        boolean lost = now == null || now.getScene() == null || !shown(now) || now == list
                || now != was && isInside(now, list) && cardOf(now) == null;
        Card wasOn = cardOf(was);
        boolean moved = now == was && (wasOn == null || wasOn.getItem() == null || !wasOn.getItem().id().equals(id));
        if (!lost && !moved) {
            return;
        }
        list.layout();
        for (javafx.scene.Node n : list.lookupAll(".list-cell")) {
            if (n instanceof Card c && shown(c) && c.getItem() != null && c.getItem().id().equals(id)) {
                Button want = c.button(text);
                if (want != null && want != now && !want.isDisabled()) {
                    want.requestFocus();
                }
                return;
            }
        }
        // Its card left the inbox: the focus must not stay on a button of whichever card took its place (Space or
        // Enter would act on a proposal the operator never aimed at). The list keeps it; the keys act on the
        // highlighted card, as drawn.
        if (moved || lost) {
            list.requestFocus();
        }
    }

    private static boolean isInside(javafx.scene.Node n, javafx.scene.Node parent) {
        for (javafx.scene.Node p = n; p != null; p = p.getParent()) {
            if (p == parent) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code n} and every parent are visible: the list keeps a sizing cell holding an item too, visible
     * itself inside a hidden parent, and never shown; focus given to its buttons goes nowhere.
     */
    private static boolean shown(javafx.scene.Node n) {
        for (javafx.scene.Node p = n; p != null; p = p.getParent()) {
            if (!p.isVisible()) {
                return false;
            }
        }
        return true;
    }

    private static Card cardOf(javafx.scene.Node n) {
        for (javafx.scene.Node p = n; p != null; p = p.getParent()) {
            if (p instanceof Card c) {
                return c;
            }
        }
        return null;
    }

    /** A card whose proposal is no longer pending. */
    static final String GONE = "card-gone";

    private static final class Card extends ListCell<ProposalRow> {
        private final OperatorActions actions;
        private final Label cls = new Label();
        private final Label change = new Label();
        private final Label when = new Label();
        private final Label why = new Label();
        private final Button approve = new Button("Approve");
        private final Button reject = new Button("Reject");
        private final Button other = new Button("Other value…");
        private final Button dry = new Button("Dry run");
        private final VBox box;

        Card(OperatorActions actions) {
            this.actions = actions;
            cls.getStyleClass().add("card-class");
            change.getStyleClass().add("card-change");
            when.getStyleClass().add(Styles.MUTED);
            why.getStyleClass().add("card-why");
            why.setWrapText(true);
            why.setMaxHeight(48);
            approve.getStyleClass().add("approve");
            Tips.set(approve, "Approve (A)");
            Tips.set(reject, "Reject, with an optional reason for the journal (R)");
            Tips.set(other, "Approve with another replica count (O)");
            approve.setOnAction(e -> actions.approve(getItem()));
            reject.setOnAction(e -> actions.reject(getItem()));
            other.setOnAction(e -> actions.approveOtherValue(getItem()));
            dry.setOnAction(e -> actions.dryRun(getItem()));
            Tips.set(dry, "Ask the API server whether it would accept this change (D); nothing changes");
            cls.setMinWidth(Region.USE_PREF_SIZE);
            change.setMinWidth(Region.USE_PREF_SIZE);
            HBox top = new HBox(8, cls, change);
            top.setAlignment(Pos.BASELINE_LEFT);
            for (Button b : java.util.List.of(approve, reject, other, dry)) {
                b.setMinWidth(Region.USE_PREF_SIZE); // a narrow inbox wraps the buttons, never cuts them
            }
            javafx.scene.layout.FlowPane buttons = new javafx.scene.layout.FlowPane(6, 4, approve, reject, other, dry);
            box = new VBox(3, top, when, why, buttons);
            box.getStyleClass().add("card");
            setPrefWidth(0); // wrap to the list's width instead of widening it
        }

        /**
         * The proposal's age and expiry as of now, and whether this console may act on it: an action it may not
         * take is disabled, and says why.
         */
        void showWhen(ProposalRow p) {
            SupervisionViewModel vm = actions.viewModel();
            if (!p.pending()) {
                when.setText("No longer waiting: " + p.gone());
                Tips.set(when, when.getText()); // one line, so that the card keeps its height; whole in the tooltip
                return;
            }
            String blocked = vm.blockedReason(p.className());
            when.setText(vm.age(p) + " · " + (p.forecast() ? "the rise is due at "
                    + SupervisionViewModel.HHMM.format(p.expiresAt()) + ", " : "") + vm.expiresIn(p)
                    + (blocked == null ? "" : " · cannot scale: " + blocked));
            Tips.set(when, when.getText());
            approve.setDisable(blocked != null);
            other.setDisable(blocked != null);
            Tips.set(approve, blocked != null ? "Cannot scale from here: " + blocked
                    : p.forecast() ? "Approve: hold at least " + p.to() + " replicas from "
                    + SupervisionViewModel.HHMM.format(p.floorFrom()) + " until "
                    + SupervisionViewModel.HHMM.format(p.floorUntil()) + "; the decision may go higher (A)"
                    : "Approve (A)");
        }

        /** The card's button called {@code text}, or null. */
        Button button(String text) {
            return java.util.stream.Stream.of(approve, reject, other, dry).filter(b -> b.getText().equals(text))
                    .findFirst().orElse(null);
        }

        /** The first of the card's buttons that can act now (Tab from the list lands on it). */
        Button first() {
            return java.util.stream.Stream.of(approve, reject, other, dry).filter(b -> !b.isDisabled()).findFirst()
                    .orElse(reject);
        }

        @Override
        protected void updateItem(ProposalRow p, boolean empty) {
            super.updateItem(p, empty);
            setText(null);
            if (empty || p == null) {
                setGraphic(null);
                return;
            }
            cls.setText(p.className());
            change.setText(p.forecast() ? "forecast floor " + p.to() + " (" + p.from() + " run)"
                    : p.from() + " → " + p.to());
            Styles.toggle(change, java.util.List.of(Styles.CHANGE_UP, Styles.CHANGE_DOWN),
                    p.up() ? Styles.CHANGE_UP : Styles.CHANGE_DOWN);
            showWhen(p);
            // A proposal that went keeps its card, greyed, while the operator's attention holds the cards; its
            // buttons stay where they were (a disabled one would hand the focus to another card's) and say so.
            Styles.toggle(box, java.util.List.of(GONE), p.pending() ? null : GONE);
            why.setText(p.explanation());
            // A forecast floor changes nothing on approval, so there is nothing for a dry run to ask the server.
            dry.setVisible(!p.forecast());
            dry.setManaged(!p.forecast());
            setGraphic(box);
        }
    }
}
