package io.headroom.ui.welcome;

import io.headroom.session.Endpoints;
import java.util.List;
import java.util.function.Supplier;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * A console opened from a workloads file, while it connects: each endpoint's state in words
 * ({@link Endpoints}), refreshed by the view's timer. Done (the window goes) once every endpoint is
 * ok. Cancel stops waiting and offers the decisions: the sandbox instead, edit the file, quit, or go
 * on with what answers; a failed or timed-out endpoint offers them at once.
 *
 * <p>{@link #nothingOpened}: the file names something that could not be opened at all (an unreadable
 * kubeconfig): no console behind the dialog, nothing to go on with; the decisions are the sandbox
 * instead, edit the file to blame, try again, or quit.
 */
public final class ConnectionProgressViewModel {
    private final Supplier<List<Endpoints.Endpoint>> endpoints;
    final ObservableList<String> lines = FXCollections.observableArrayList();
    final ObservableList<Endpoints.State> states = FXCollections.observableArrayList();
    private final BooleanProperty done = new SimpleBooleanProperty();
    private final BooleanProperty choosing = new SimpleBooleanProperty();
    final StringProperty headline = new SimpleStringProperty("Connecting …");
    final StringProperty title = new SimpleStringProperty("Connecting");
    final StringProperty editLabel = new SimpleStringProperty("Edit the workloads file");
    private final BooleanProperty canGoOn = new SimpleBooleanProperty(true);
    private boolean cancelled;
    /** Null unless nothing was opened: the file to blame, whose editing the headline then follows. */
    private String blamed;

    public ConnectionProgressViewModel(Supplier<List<Endpoints.Endpoint>> endpoints) {
        this.endpoints = endpoints;
    }

    /**
     * Nothing was opened: {@code failure} says which endpoint, where and why; {@code blamed} is the file
     * to edit (the kubeconfig, or the workloads file), {@code workloads} the file that was asked for.
     */
    public static ConnectionProgressViewModel nothingOpened(Endpoints.Endpoint failure, java.nio.file.Path workloads,
                                                            java.nio.file.Path blamed) {
        ConnectionProgressViewModel vm = new ConnectionProgressViewModel(() -> List.of(failure));
        vm.blamed = blamed.toString();
        vm.title.set("Could not connect");
        vm.canGoOn.set(false);
        vm.editLabel.set(blamed.equals(workloads) ? "Edit the workloads file" : "Edit " + blamed.getFileName());
        vm.headline.set("Nothing was opened: " + workloads + " names what could not be opened. Open the sandbox"
                + " instead, edit " + blamed + " and try again, or quit.");
        vm.choosing.set(true);
        vm.refresh(); // its one line, before the window shows
        return vm;
    }

    /** Whether there is a console to go on with (not when nothing was opened). */
    public ReadOnlyBooleanProperty canGoOn() {
        return canGoOn;
    }

    /** The operator opened the file to blame in an editor: what to do once it is saved. */
    public void edited() {
        if (blamed != null) {
            headline.set("Editing " + blamed + ": save it, then choose Try again.");
        }
    }

    /** Reads the endpoints again (field reads: the FX thread may call it). */
    public void refresh() {
        List<Endpoints.Endpoint> now = endpoints.get();
        // The states first: the view redraws its lines when they change, styled by these.
        states.setAll(now.stream().map(Endpoints.Endpoint::state).toList());
        List<String> l = now.stream().map(Endpoints.Endpoint::line).toList();
        if (!l.equals(lines)) {
            lines.setAll(l);
        }
        if (blamed != null) {
            return; // nothing was opened: nothing connects meanwhile, and the headline says what to do
        }
        boolean allOk = now.stream().allMatch(e -> e.state() == Endpoints.State.OK);
        long bad = now.stream().filter(e -> e.decided() && e.state() != Endpoints.State.OK).count();
        long waiting = now.stream().filter(e -> !e.decided()).count();
        if (allOk) {
            headline.set("Connected.");
            done.set(true);
        } else if (bad > 0) {
            headline.set(bad + " of " + now.size() + " not answering" + (waiting > 0 ? ", " + waiting + " still connecting" : "")
                    + ". Their classes are observed only, without data, until they answer.");
            choosing.set(true);
        } else if (!cancelled) { // after Cancel the window keeps polling, but says what the operator chose
            headline.set("Connecting to " + now.size() + " endpoint(s) …");
        }
    }

    /** The operator stops waiting: the decisions are offered. */
    public void cancel() {
        if (blamed != null) {
            return; // nothing is being waited for
        }
        cancelled = true;
        choosing.set(true);
        headline.set("Stopped waiting. Open the sandbox instead, edit the workloads file, quit, or go on with what answers.");
    }

    public ReadOnlyBooleanProperty done() {
        return done;
    }

    /** The decisions are offered (after Cancel, or once an endpoint failed or timed out). */
    public ReadOnlyBooleanProperty choosing() {
        return choosing;
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    public String headline() {
        return headline.get();
    }
}
