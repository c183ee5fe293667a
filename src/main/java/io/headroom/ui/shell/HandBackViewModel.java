package io.headroom.ui.shell;

import io.headroom.session.HandBack;
import io.headroom.session.KeepUntil;
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
 * What the exit dialog shows and does (no nodes): one row per class held by hand, each with a choice
 * (hand back, or keep the pause until its end), and the hand-back itself, run by the session under a
 * deadline, its outcome said in {@link #statusProperty()}. Results arrive on {@code fx}.
 */
public final class HandBackViewModel extends SettlingDialogModel<HandBackViewModel.Row> {
    /**
     * One class: what holds it, who takes it back, and the operator's choice; at exit also when a kept
     * pause would end (an option, and the custom text), checked as it is chosen.
     */
    public static final class Row {
        private final HandBack.Item item;
        private final String takesBack;
        private final String keepText;
        private final ObjectProperty<HandBack.Choice> choice = new SimpleObjectProperty<>(HandBack.Choice.HAND_BACK);
        private final ObjectProperty<KeepUntil.Option> keepOption = new SimpleObjectProperty<>(KeepUntil.Option.AS_HELD);
        private final StringProperty customUntil = new SimpleStringProperty("");
        private final StringProperty keepProblem = new SimpleStringProperty("");

        Row(HandBack.Item item, String takesBack, String keepText) {
            this.item = item;
            this.takesBack = takesBack;
            this.keepText = keepText;
        }

        /** Whether the operator chooses when a kept pause ends (at exit; an expired pause found at start is only left). */
        public boolean choosesEnd() {
            return item.keepUntil() != null;
        }

        /** When a kept pause would end, by default: the hold's own end. */
        public Instant asHeld() {
            return item.keepUntil();
        }

        public ObjectProperty<KeepUntil.Option> keepOptionProperty() {
            return keepOption;
        }

        /** The text of a custom end (90m, 2h, 17:30, 2026-12-03 08:00). */
        public StringProperty customUntilProperty() {
            return customUntil;
        }

        /** Why the chosen end is refused; empty when it is fine (or the class is handed back). */
        public ReadOnlyStringProperty keepProblemProperty() {
            return keepProblem;
        }

        public String className() {
            return item.className();
        }

        public String holds() {
            return item.holds();
        }

        /** "Hand back to KEDA (ScaledObject orders-so)", "Hand back to the HPA billing", "Hand back". */
        public String handBackText() {
            return takesBack;
        }

        /** "Keep the pause until" (its end chosen beside it), or at start "Leave it (Deployment x stays paused)". */
        public String keepText() {
            return keepText;
        }

        public ObjectProperty<HandBack.Choice> choiceProperty() {
            return choice;
        }
    }

    private final HandBack handBack;
    private List<HandBack.Item> items = List.of();

    public HandBackViewModel(HandBack handBack, Executor fx, Duration deadline) {
        this(handBack, fx, deadline, ZoneId.systemDefault());
    }

    /** @param zone where "until tomorrow 09:00" and "17:30" are read (the operator's) */
    public HandBackViewModel(HandBack handBack, Executor fx, Duration deadline, ZoneId zone) {
        super(fx, deadline, zone);
        this.handBack = handBack;
    }

    /** Fills the rows with the classes held by hand now (read off the FX thread); completes with their count. */
    public CompletableFuture<Integer> loadAtExit() {
        return handBack.atExit().thenApplyAsync(list -> {
            items = List.copyOf(list);
            rows.setAll(list.stream().map(this::row).toList());
            return list.size();
        }, fx);
    }

    private Row row(HandBack.Item it) {
        String back = it.autoscaler().startsWith("KEDA") ? "Hand back to " + it.autoscaler()
                : it.autoscaler().startsWith("the HPA") ? "Hand back to " + it.autoscaler() : "Hand back (Headroom lets go)";
        Row r = new Row(it, back, "Keep the pause until");
        Runnable check = () -> r.keepProblem.set(problem(r, handBack.now()));
        r.choice.addListener((o, a, b) -> check.run());
        r.keepOption.addListener((o, a, b) -> check.run());
        r.customUntil.addListener((o, a, b) -> check.run());
        // Choosing when the pause ends is choosing to keep it.
        r.keepOption.addListener((o, a, b) -> r.choice.set(HandBack.Choice.KEEP));
        r.customUntil.addListener((o, a, b) -> r.choice.set(HandBack.Choice.KEEP));
        return r;
    }

    /** An option in words with the end it means now: "as held (14:05)", "1 h (12:40)", "tomorrow 09:00", "custom…". */
    public String optionText(Row r, KeepUntil.Option o) {
        return KeepUntil.label(o, r.asHeld(), handBack.now(), zone);
    }

    /** Why the row's kept pause cannot end as chosen (empty: it can, or the class is handed back). */
    private String problem(Row r, Instant now) {
        if (!r.choosesEnd() || r.choice.get() != HandBack.Choice.KEEP) {
            return "";
        }
        KeepUntil.Chosen c = KeepUntil.resolve(r.keepOption.get(), r.customUntil.get(), r.asHeld(), now, zone);
        return c.ok() ? "" : c.problem();
    }

    /** Every row to one choice. */
    public void chooseAll(HandBack.Choice c) {
        rows.forEach(r -> r.choiceProperty().set(c));
    }

    /**
     * Runs what was chosen (each class handed back or kept until its chosen end) with the deadline. A kept pause whose end is refused (unreadable, past, too far)
     * stops it before anything is done: said in the status, and the future holds null.
     */
    public CompletableFuture<HandBack.Report> confirm() {
        Instant now = handBack.now();
        Map<String, HandBack.Choice> choices = new LinkedHashMap<>();
        rows.forEach(r -> choices.put(r.className(), r.choiceProperty().get()));
        List<String> refused = new java.util.ArrayList<>();
        List<HandBack.Item> chosen = new java.util.ArrayList<>();
        for (HandBack.Item it : items) {
            Row r = rows.stream().filter(x -> x.className().equals(it.className())).findFirst().orElse(null);
            if (r == null || choices.get(it.className()) != HandBack.Choice.KEEP) {
                chosen.add(it);
                continue;
            }
            KeepUntil.Chosen c = KeepUntil.resolve(r.keepOption.get(), r.customUntil.get(), r.asHeld(), now, zone);
            r.keepProblem.set(c.ok() ? "" : c.problem());
            if (c.ok()) {
                chosen.add(it.withKeepUntil(c.until()));
            } else {
                refused.add(it.className() + ": " + c.problem());
            }
        }
        if (!refused.isEmpty()) {
            settling.say("Nothing done yet — choose when the kept pause ends:\n" + String.join("\n", refused));
            return CompletableFuture.completedFuture(null);
        }
        return settling.run("Handing back … (at most " + deadline.toSeconds() + " s)",
                () -> handBack.finish(chosen, choices, deadline), HandBack.Report::ok, HandBack.Report::summary);
    }
}
