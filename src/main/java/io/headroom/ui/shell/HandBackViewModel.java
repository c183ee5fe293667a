package io.headroom.ui.shell;

import io.headroom.session.HandBack;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the exit dialog shows and does (no nodes): one row per class held by hand, each with a choice
 * (hand back, or keep the pause until its end), and the hand-back itself, run by the session under a
 * deadline, its outcome said in {@link #statusProperty()}. Also the start's offer to hand back pauses
 * found expired. Results arrive on {@code fx}.
 */
public final class HandBackViewModel {
    private static final DateTimeFormatter HHMM = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    /** One class: what holds it, who takes it back, and the operator's choice. */
    public static final class Row {
        private final String className;
        private final String holds;
        private final String takesBack;
        private final String keepText;
        private final ObjectProperty<HandBack.Choice> choice = new SimpleObjectProperty<>(HandBack.Choice.HAND_BACK);

        Row(String className, String holds, String takesBack, String keepText) {
            this.className = className;
            this.holds = holds;
            this.takesBack = takesBack;
            this.keepText = keepText;
        }

        public String className() {
            return className;
        }

        public String holds() {
            return holds;
        }

        /** "Hand back to KEDA (ScaledObject orders-so)", "Hand back to the HPA billing", "Hand back". */
        public String handBackText() {
            return takesBack;
        }

        /** "Keep the pause until 14:05". */
        public String keepText() {
            return keepText;
        }

        public ObjectProperty<HandBack.Choice> choiceProperty() {
            return choice;
        }
    }

    private final HandBack handBack;
    private final Executor fx;
    private final Duration deadline;
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final StringProperty status = new SimpleStringProperty("");
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final BooleanProperty done = new SimpleBooleanProperty();
    private List<HandBack.Item> items = List.of();
    private List<HandBack.Expired> expired = List.of();

    public HandBackViewModel(HandBack handBack, Executor fx, Duration deadline) {
        this.handBack = handBack;
        this.fx = fx;
        this.deadline = deadline;
    }

    /** Fills the rows with the classes held by hand now (read off the FX thread); completes with their count. */
    public CompletableFuture<Integer> loadAtExit() {
        return handBack.atExit().thenApplyAsync(list -> {
            items = List.copyOf(list);
            rows.setAll(list.stream().map(HandBackViewModel::row).toList());
            return list.size();
        }, fx);
    }

    /** Fills the rows with the expired pauses found at start (read off the FX thread); completes with their count. */
    public CompletableFuture<Integer> loadExpired() {
        return handBack.expiredPauses().thenApplyAsync(list -> {
            expired = List.copyOf(list);
            rows.setAll(list.stream().map(x -> new Row(x.className(), x.describe(), "Hand back now",
                    "Leave it (" + x.target().kind() + " " + x.target().name() + " stays paused)")).toList());
            return list.size();
        }, fx);
    }

    private static Row row(HandBack.Item it) {
        String back = it.autoscaler().startsWith("KEDA") ? "Hand back to " + it.autoscaler()
                : it.autoscaler().startsWith("the HPA") ? "Hand back to " + it.autoscaler() : "Hand back (Headroom lets go)";
        return new Row(it.className(), it.holds(), back, "Keep the pause until " + HHMM.format(it.keepUntil()));
    }

    public ObservableList<Row> rows() {
        return rows;
    }

    /** Every row to one choice. */
    public void chooseAll(HandBack.Choice c) {
        rows.forEach(r -> r.choiceProperty().set(c));
    }

    /** Runs what was chosen (exit: each class handed back or kept; start: the expired pauses chosen) with the deadline. */
    public CompletableFuture<HandBack.Report> confirm() {
        busy.set(true);
        status.set("Handing back … (at most " + deadline.toSeconds() + " s)");
        Map<String, HandBack.Choice> choices = new LinkedHashMap<>();
        rows.forEach(r -> choices.put(r.className(), r.choiceProperty().get()));
        CompletableFuture<HandBack.Report> work = expired.isEmpty()
                ? handBack.finish(items, choices, deadline)
                : handBack.handBackExpired(expired.stream()
                        .filter(x -> choices.get(x.className()) == HandBack.Choice.HAND_BACK).toList(), deadline);
        return work.thenApplyAsync(report -> {
            busy.set(false);
            done.set(true);
            status.set(report.ok() ? "Done: " + report.summary() : "Not everything went as chosen:\n" + report.summary());
            return report;
        }, fx);
    }

    public ReadOnlyStringProperty statusProperty() {
        return status;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy;
    }

    public ReadOnlyBooleanProperty doneProperty() {
        return done;
    }
}
