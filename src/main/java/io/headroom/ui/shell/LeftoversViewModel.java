package io.headroom.ui.shell;

import io.headroom.session.KeepUntil;
import io.headroom.session.Leftover;
import io.headroom.session.Leftovers;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * What the start's leftovers dialog shows and does (no nodes): one row per leftover Headroom left on the
 * clusters (a pause, a drain's marks, a cordon), with who left it and until when, and the operator's choice
 * among handing it back, keeping it and clearing Headroom's record of it (hand back by default once it has
 * expired, keep while its owner may still be using it). {@link #confirm} carries the choices out under a
 * deadline and says the outcome in {@link #statusProperty()}. Results arrive on {@code fx}.
 */
public final class LeftoversViewModel extends SettlingDialogModel<LeftoversViewModel.Row> {
    /** One leftover and the operator's choice. */
    public static final class Row {
        private final Leftover leftover;
        private final String whose;
        private final boolean expired;
        private final ObjectProperty<Leftover.Choice> choice;

        Row(Leftover leftover, Instant now, ZoneId zone) {
            this.leftover = leftover;
            this.expired = leftover.expiredAt(now);
            this.whose = "by " + leftover.owner() + (leftover.expires() == null ? ", with no expiry"
                    : (expired ? ", expired " : ", until ") + KeepUntil.when(leftover.expires(), now, zone));
            this.choice = new SimpleObjectProperty<>(leftover.defaultChoice(now));
        }

        /** Names the row among the others (the view's ids). */
        public String key() {
            return leftover.key();
        }

        /** What it is: "KEDA paused at 5 on Deployment shop/orders (class orders): …". */
        public String what() {
            return leftover.what();
        }

        /** Who left it and until when: "by ana@desk-1/5f3a, expired 13:05". */
        public String whose() {
            return whose;
        }

        public boolean expired() {
            return expired;
        }

        /** The choices it offers, the one that undoes it first. */
        public List<Leftover.Choice> choices() {
            return leftover.choices();
        }

        /** What a choice does, for its button. */
        public String choiceText(Leftover.Choice c) {
            return leftover.choiceText(c);
        }

        public ObjectProperty<Leftover.Choice> choiceProperty() {
            return choice;
        }
    }

    private final Leftovers leftovers;
    private final StringProperty problems = new SimpleStringProperty("");

    /** @param zone where times are read (the operator's) */
    public LeftoversViewModel(Leftovers leftovers, Executor fx, Duration deadline, ZoneId zone) {
        super(fx, deadline, zone);
        this.leftovers = leftovers;
    }

    /** Fills the rows with what the clusters hold (read off the FX thread); completes with their count. */
    public CompletableFuture<Integer> load() {
        return leftovers.find().thenApplyAsync(found -> {
            Instant now = leftovers.now();
            rows.setAll(found.leftovers().stream().map(l -> new Row(l, now, zone)).toList());
            problems.set(found.problems().isEmpty() ? "" : "Not read: " + String.join("; ", found.problems()));
            return rows.size();
        }, fx);
    }

    /** Every row that offers {@code c} to it. */
    public void chooseAll(Leftover.Choice c) {
        rows.stream().filter(r -> r.choices().contains(c)).forEach(r -> r.choiceProperty().set(c));
    }

    /** Carries out every row's choice, journaled, within the deadline; the outcome in the status. */
    public CompletableFuture<Leftovers.Report> confirm() {
        Map<Leftover, Leftover.Choice> choices = new LinkedHashMap<>();
        rows.forEach(r -> choices.put(r.leftover, r.choiceProperty().get()));
        return settling.run("Working … (at most " + deadline.toSeconds() + " s)",
                () -> leftovers.settle(choices, deadline), Leftovers.Report::ok, Leftovers.Report::summary);
    }

    /** What could not be read (a context's nodes, a workload's pause), or empty. */
    public ReadOnlyStringProperty problemsProperty() {
        return problems;
    }
}
