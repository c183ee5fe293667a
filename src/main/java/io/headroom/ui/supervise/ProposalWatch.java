package io.headroom.ui.supervise;

import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ListChangeListener;

/**
 * One proposal followed while a dialog about it is open: revised (same id, another change) or
 * gone (withdrawn, expired, decided elsewhere), said in words. FX thread; holds no nodes.
 */
public final class ProposalWatch {
    private final SupervisionViewModel vm;
    private final ProposalRow shown;
    private final ObjectProperty<ProposalRow> current = new SimpleObjectProperty<>();
    private final BooleanProperty gone = new SimpleBooleanProperty();
    private final StringProperty change = new SimpleStringProperty("");
    private final ListChangeListener<ProposalRow> listener = c -> refresh();

    public ProposalWatch(SupervisionViewModel vm, ProposalRow shown) {
        this.vm = vm;
        this.shown = shown;
        current.set(shown);
        vm.proposals().addListener(listener);
        refresh();
    }

    /** The proposal as it is now (the shown one until it is revised). */
    public ObjectProperty<ProposalRow> currentProperty() { return current; }
    /** True once it is no longer pending; the dialog closes and the status line says why. */
    public BooleanProperty goneProperty() { return gone; }
    /** "Revised while open: was 4 → 3, now 4 → 2", or empty. */
    public StringProperty changeProperty() { return change; }

    private void refresh() {
        if (gone.get()) {
            return;
        }
        ProposalRow now = vm.current(shown);
        if (now == null) {
            vm.statusOkProperty().set(false);
            vm.statusProperty().set("Closed the dialog on " + shown.className() + " " + shown.from() + " → "
                    + shown.to() + ": the proposal is no longer waiting (" + vm.whatBecameOf(shown)
                    + "); nothing was done");
            gone.set(true);
            stop();
            return;
        }
        if (now.from() != current.get().from() || now.to() != current.get().to()) {
            change.set("Revised while open: was " + shown.from() + " → " + shown.to() + ", now " + now.from() + " → "
                    + now.to());
            current.set(now);
        }
    }

    /** Stops following (the dialog closed). */
    public void stop() {
        vm.proposals().removeListener(listener);
    }
}
