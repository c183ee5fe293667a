package io.headroom.ui.shell;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * How the windows that settle what Headroom holds (hand back at exit, leftovers) carry out the operator's
 * choices: busy while the work runs, saying how long it may take; then done, the report said in the status.
 */
final class Settling {

    private final Executor fx;
    private final StringProperty status = new SimpleStringProperty("");
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final BooleanProperty done = new SimpleBooleanProperty();

    /** @param fx where the outcome is applied (the FX thread) */
    Settling(Executor fx) {
        this.fx = fx;
    }

    /**
     * Says {@code working} and is busy while {@code work} runs; then, on {@code fx}, done with the report's
     * {@code summary}, told apart by whether it went as chosen ({@code ok}).
     */
    <R> CompletableFuture<R> run(String working, Supplier<CompletableFuture<R>> work, Predicate<R> ok,
                                 Function<R, String> summary) {
        busy.set(true);
        status.set(working);
        return work.get().thenApplyAsync(report -> {
            busy.set(false);
            done.set(true);
            status.set(ok.test(report) ? "Done: " + summary.apply(report)
                    : "Not everything went as chosen:\n" + summary.apply(report));
            return report;
        }, fx);
    }

    /** Says {@code text} in the status, e.g. why nothing was done. */
    void say(String text) {
        status.set(text);
    }

    ReadOnlyStringProperty statusProperty() {
        return status;
    }

    ReadOnlyBooleanProperty busyProperty() {
        return busy;
    }

    ReadOnlyBooleanProperty doneProperty() {
        return done;
    }
}
