package io.headroom.ui.shell;

import java.time.Duration;
import java.time.ZoneId;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the exit and the start's leftovers dialogs have in common (no nodes): rows of things Headroom holds,
 * each with the operator's choice, carried out under a deadline by a {@link Settling} whose status, busy and
 * done the dialog binds to. Results arrive on {@code fx}; times are read in {@code zone} (the operator's).
 *
 * @param <R> one row
 */
abstract class SettlingDialogModel<R> {
    final Executor fx;
    final Duration deadline;
    final ZoneId zone;
    final ObservableList<R> rows = FXCollections.observableArrayList();
    final Settling settling;

    SettlingDialogModel(Executor fx, Duration deadline, ZoneId zone) {
        this.fx = fx;
        this.settling = new Settling(fx);
        this.deadline = deadline;
        this.zone = zone;
    }

    public final ObservableList<R> rows() {
        return rows;
    }

    /** "Working … (at most 10 s)", then the outcome in words. */
    public final ReadOnlyStringProperty statusProperty() {
        return settling.statusProperty();
    }

    public final ReadOnlyBooleanProperty busyProperty() {
        return settling.busyProperty();
    }

    public final ReadOnlyBooleanProperty doneProperty() {
        return settling.doneProperty();
    }
}
