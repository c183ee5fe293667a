package io.headroom.ui.supervise;

import io.headroom.ui.Styles;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.stage.Window;

/**
 * The operator's dialogs: freeze, override, another value, and confirmations for what is
 * dangerous. Each returns what the operator chose; none does I/O.
 */
public final class Dialogs {
    public static final String REASON_ID = "dialog-reason";
    public static final String REPLICAS_ID = "dialog-replicas";
    public static final String DURATION_ID = "dialog-duration";
    /** Another count's split across a pooled class's pools ("12: spot 8, on-demand 4"), shown before Apply. */
    public static final String SPLIT_ID = "dialog-split";

    static final Map<String, Duration> DURATIONS = new LinkedHashMap<>();

    static {
        DURATIONS.put("15 minutes", Duration.ofMinutes(15));
        DURATIONS.put("1 hour", Duration.ofHours(1));
        DURATIONS.put("4 hours", Duration.ofHours(4));
        DURATIONS.put("12 hours", Duration.ofHours(12));
    }

    private Dialogs() {
    }

    /** What a freeze or override dialog returns. */
    public record Choice(int replicas, Duration duration, String reason) {
    }

    public static Optional<Choice> freeze(Window owner, String scope) {
        return ask(owner, "Freeze " + scope, "No scaling action is applied to " + scope
                + " until the freeze ends or is lifted. Decisions keep being computed and shown.", -1, "1 hour");
    }

    public static Optional<Choice> override(Window owner, String className, int current) {
        return ask(owner, "Override " + className, "Pin " + className + " to a replica count until a time. "
                + "The decision keeps running and is shown; it takes over again when the override ends.", current,
                "1 hour");
    }

    /** How long a drain's pods get to finish their jobs. */
    static final Map<String, Duration> DRAIN_DEADLINES = new LinkedHashMap<>();

    static {
        DRAIN_DEADLINES.put("2 minutes", Duration.ofMinutes(2));
        DRAIN_DEADLINES.put("5 minutes", Duration.ofMinutes(5));
        DRAIN_DEADLINES.put("15 minutes", Duration.ofMinutes(15));
        DRAIN_DEADLINES.put("1 hour", Duration.ofHours(1));
    }

    /** A drain: the replicas after it, the deadline, the reason (optional). */
    public static Optional<Choice> drain(Window owner, String className, int current) {
        return ask(owner, "Drain " + className, "Take pods out without stopping work: Headroom marks the idle or"
                + " least-loaded pods (lowest deletion cost, and the headroom.io/drain annotation your workers"
                + " watch to stop taking jobs), waits until their jobs are done, then lowers replicas so exactly"
                + " those pods go. At the deadline, with jobs still running, nothing is scaled and the marks are"
                + " removed.", Math.max(0, current - 1), "5 minutes", DRAIN_DEADLINES, false);
    }

    /**
     * A drain of one pod the operator chose: the deadline and the reason (optional); replicas go down by
     * one: the class's, or for a class placed across pools those of the pod's own pool ({@code pool}, null for a
     * class with one). {@code note} adds what the operator should know about this pod (e.g. it is STUCK), or null.
     */
    public static Optional<Choice> drainPod(Window owner, String className, String pod, int current,
                                            io.headroom.loop.ClassSnapshot.PodPool pool, String note) {
        return ask(owner, "Drain pod " + pod, "Take " + pod + " out of " + className + " without stopping work:"
                + " Headroom marks it (lowest deletion cost, and the headroom.io/drain annotation your workers watch"
                + " to stop taking jobs), waits until its jobs are done, then lowers " + lowered(current, pool)
                + " so exactly this pod goes. At the deadline, with jobs still running,"
                + " nothing is scaled and the mark is removed (its prior deletion cost restored)."
                + (note == null ? "" : "\n\n" + note), -1, "5 minutes", DRAIN_DEADLINES, false);
    }

    /**
     * The replicas a pod's drain lowers by one: "replicas 5 → 4"; for a pooled class its pool's Deployment's, the
     * class's total beside them ("pool spot's replicas 3 → 2 (the class's 5 → 4)").
     */
    static String lowered(int current, io.headroom.loop.ClassSnapshot.PodPool pool) {
        String whole = current + " → " + Math.max(0, current - 1);
        return pool == null ? "replicas " + whole : "pool " + pool.pool() + "'s replicas " + pool.replicas() + " → "
                + Math.max(0, pool.replicas() - 1) + " (the class's " + whole + ")";
    }

    /**
     * Drain… on a STUCK pod: says plainly that a drain cannot end (the pod's jobs never finish) and offers to
     * replace it, what that does and what it costs (its jobs go back to the queue); the deadline and a reason.
     *
     * @param why why the pod is STUCK ("no completion for 2m 10s, 4 in flight")
     */
    public static Optional<Choice> replacePod(Window owner, String className, String pod, int current,
                                              io.headroom.loop.ClassSnapshot.PodPool pool, String why) {
        String more = pool == null ? "one more replica (" + current + " → " + (current + 1) + ")"
                : "one more replica in the pod's pool, " + pool.pool() + " (" + pool.replicas() + " → "
                + (pool.replicas() + 1) + "; the class's " + current + " → " + (current + 1) + ")";
        String back = pool == null ? "Replicas then return to " + current
                : "Pool " + pool.pool() + "'s replicas then return to " + pool.replicas();
        return ask(owner, "Replace pod " + pod, pod + " is not making progress: " + why + ". A drain waits for a"
                + " pod's jobs to finish, and a hung worker never finishes them, so a drain of it could only time out."
                + "\n\nReplace it instead: Headroom asks for " + more
                + ", waits for the new pod to be ready, then evicts " + pod + " through the Eviction API (its grace"
                + " period; a PodDisruptionBudget's refusal is shown and retried) without waiting for its jobs: they go"
                + " back to the queue unfinished, for other workers to retry. " + back
                + ". If no replacement is ready by the deadline, nothing is evicted.", -1, "5 minutes",
                DRAIN_DEADLINES, false, null, "Replace it");
    }

    /**
     * Another value for a proposal, with a reason for the journal. Follows the proposal while open:
     * a revision updates the text and says so; a proposal that goes closes the dialog.
     */
    public static Optional<Choice> otherValue(Window owner, ProposalWatch watch) {
        return otherValue(owner, watch, null);
    }

    /**
     * Another value, and for a class placed across pools how the count typed splits across them (decision 0029):
     * {@code split} answers on the FX thread with the words ("12: spot 8, on-demand 4"), or null for one pool; the
     * dialog shows the answer for the count typed before the operator applies it.
     */
    public static Optional<Choice> otherValue(Window owner, ProposalWatch watch,
                                              java.util.function.IntFunction<java.util.concurrent.CompletableFuture<String>> split) {
        ProposalRow p = watch.currentProperty().get();
        return ask(owner, "Approve " + p.className() + " with another value", otherValueText(p), p.to(), null,
                DURATIONS, false, watch, "Apply", split);
    }

    /**
     * Reject a proposal, with an optional reason for the journal; Reject is the default button (a rejection
     * changes nothing on the cluster). Follows the proposal while open, as another value does. The reason
     * typed (trimmed, possibly empty) on Reject; empty Optional on Cancel.
     */
    public static Optional<String> reject(Window owner, ProposalWatch watch) {
        ProposalRow p = watch.currentProperty().get();
        Dialog<String> d = new Dialog<>();
        d.initOwner(owner);
        d.setTitle("Reject " + p.className() + " " + p.from() + " → " + p.to());
        d.setHeaderText(d.getTitle());
        Label info = new Label(rejectText(p));
        info.setWrapText(true);
        info.setMaxWidth(420);
        TextField reason = new TextField();
        reason.setId(REASON_ID);
        reason.setPromptText("why (optional; goes to the journal)");
        reason.setPrefColumnCount(28);
        GridPane g = new GridPane();
        g.setHgap(10);
        g.setVgap(8);
        g.setPadding(new Insets(10, 10, 0, 10));
        g.add(info, 0, 0, 2, 1);
        g.addRow(1, new Label("Reason"), reason);
        d.getDialogPane().setContent(g);
        ButtonType ok = new ButtonType("Reject", ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        styled(d);
        watch.currentProperty().addListener((o, was, now) -> {
            info.setText(rejectText(now));
            d.setHeaderText(watch.changeProperty().get());
        });
        follow(d, watch);
        // The caret in the reason: the dialog gives the focus to its default button once shown, so after that.
        d.setOnShown(e -> io.headroom.ui.fx.FxExecutor.nextTurn(reason::requestFocus));
        d.setResultConverter(b -> b == ok ? reason.getText().trim() : null);
        return d.showAndWait();
    }

    private static String rejectText(ProposalRow p) {
        return "Nothing changes: " + p.className() + " stays at " + p.from() + " replicas, and " + p.from() + " → "
                + p.to() + " is not proposed again for one proposal lifetime. The reason is optional; it goes to"
                + " the journal and the event list.";
    }

    private static String otherValueText(ProposalRow p) {
        return "Proposed: " + p.from() + " → " + p.to() + ". Apply this many replicas instead:";
    }

    private static Optional<Choice> ask(Window owner, String title, String text, int replicas, String duration) {
        return ask(owner, title, text, replicas, duration, DURATIONS, true);
    }

    private static Optional<Choice> ask(Window owner, String title, String text, int replicas, String duration,
                                        Map<String, Duration> durations, boolean reasonRequired) {
        return ask(owner, title, text, replicas, duration, durations, reasonRequired, null);
    }

    private static Optional<Choice> ask(Window owner, String title, String text, int replicas, String duration,
                                        Map<String, Duration> durations, boolean reasonRequired,
                                        ProposalWatch watch) {
        return ask(owner, title, text, replicas, duration, durations, reasonRequired, watch, "Apply");
    }

    private static Optional<Choice> ask(Window owner, String title, String text, int replicas, String duration,
                                        Map<String, Duration> durations, boolean reasonRequired,
                                        ProposalWatch watch, String okText) {
        return ask(owner, title, text, replicas, duration, durations, reasonRequired, watch, okText, null);
    }

    private static Optional<Choice> ask(Window owner, String title, String text, int replicas, String duration,
                                        Map<String, Duration> durations, boolean reasonRequired,
                                        ProposalWatch watch, String okText,
                                        java.util.function.IntFunction<java.util.concurrent.CompletableFuture<String>> split) {
        Dialog<Choice> d = new Dialog<>();
        d.initOwner(owner);
        d.setTitle(title);
        d.setHeaderText(title);
        GridPane g = new GridPane();
        g.setHgap(10);
        g.setVgap(8);
        g.setPadding(new Insets(10, 10, 0, 10));
        Label info = new Label(text);
        info.setWrapText(true);
        info.setMaxWidth(420);
        g.add(info, 0, 0, 2, 1);
        int row = 1;
        Spinner<Integer> count = new Spinner<>(0, 1000, Math.max(0, replicas));
        count.setEditable(true);
        count.setId(REPLICAS_ID);
        if (replicas >= 0) {
            g.addRow(row++, new Label("Replicas"), count);
        }
        if (split != null) {
            Label pools = new Label("");
            pools.setId(SPLIT_ID);
            pools.setWrapText(true);
            pools.setMaxWidth(420);
            Label caption = new Label("Pools");
            g.addRow(row++, caption, pools);
            showSplit(count, split, pools, caption);
        }
        ChoiceBox<String> ttl = new ChoiceBox<>();
        ttl.getItems().addAll(durations.keySet());
        ttl.setId(DURATION_ID);
        ttl.setValue(duration);
        if (duration != null) {
            g.addRow(row++, new Label(reasonRequired ? "For" : "Deadline"), ttl);
        }
        TextField reason = new TextField();
        reason.setId(REASON_ID);
        reason.setPromptText("why (goes to the journal)");
        reason.setPrefColumnCount(28);
        g.addRow(row, new Label("Reason"), reason);
        d.getDialogPane().setContent(g);
        ButtonType ok = new ButtonType(okText, ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(ok, ButtonType.CANCEL);
        Node okButton = d.getDialogPane().lookupButton(ok);
        // A freeze or override without a reason is refused by the supervisor; say so here first.
        okButton.disableProperty().bind(reason.textProperty().isEmpty().and(
                javafx.beans.binding.Bindings.createBooleanBinding(() -> reasonRequired && duration != null)));
        styled(d);
        if (watch != null) {
            watch.currentProperty().addListener((o, was, now) -> {
                info.setText(otherValueText(now));
                d.setHeaderText(watch.changeProperty().get());
            });
            follow(d, watch);
        }
        d.setOnShown(e -> (duration != null && reasonRequired ? reason : count.getEditor()).requestFocus());
        d.setResultConverter(b -> b == ok ? new Choice(typed(count),
                duration == null ? null : durations.get(ttl.getValue()), reason.getText().trim()) : null);
        return d.showAndWait();
    }

    /**
     * Keeps {@code pools} saying how the count typed splits across the class's pools: asked again on each change,
     * the answer shown only while it is still for the count typed; hidden (with its caption) for one pool.
     */
    private static void showSplit(Spinner<Integer> count, java.util.function.IntFunction<
            java.util.concurrent.CompletableFuture<String>> split, Label pools, Label caption) {
        for (Label l : new Label[] {pools, caption}) {
            l.setVisible(false); // until the answer says the class has pools: nothing flashes for one pool
            l.setManaged(false);
        }
        Runnable ask = () -> {
            int n = typed(count);
            if (pools.isVisible()) {
                pools.setText(n + ": splitting across the pools…");
            }
            split.apply(n).thenAccept(words -> {
                if (typed(count) != n) {
                    return; // the operator typed on: that count's answer follows
                }
                boolean shown = words != null;
                pools.setText(shown ? words : "");
                for (Label l : new Label[] {pools, caption}) {
                    l.setVisible(shown);
                    l.setManaged(shown);
                }
            });
        };
        count.getEditor().textProperty().addListener((o, was, now) -> ask.run());
        count.valueProperty().addListener((o, was, now) -> ask.run());
        ask.run();
    }

    /** The number in the spinner's editor, even when the operator typed it and pressed Apply at once. */
    private static int typed(Spinner<Integer> count) {
        try {
            int v = Integer.parseInt(count.getEditor().getText().trim());
            return Math.max(0, Math.min(1000, v));
        } catch (NumberFormatException e) {
            return count.getValue();
        }
    }

    /** Closes the dialog (as Cancel) once its proposal is no longer pending; the watch says why. */
    private static void follow(Dialog<?> d, ProposalWatch watch) {
        Runnable close = () -> d.getDialogPane().getButtonTypes().stream()
                .filter(b -> b.getButtonData() == ButtonBar.ButtonData.CANCEL_CLOSE).findFirst()
                .map(b -> (javafx.scene.control.Button) d.getDialogPane().lookupButton(b))
                .ifPresent(javafx.scene.control.Button::fire);
        watch.goneProperty().addListener((o, was, gone) -> {
            if (gone) {
                close.run();
            }
        });
        d.addEventHandler(javafx.scene.control.DialogEvent.DIALOG_SHOWN, e -> {
            if (watch.goneProperty().get()) {
                close.run();
            }
        });
    }

    /** A yes/no question about a proposal, closed (as no) when the proposal goes; a revision is said. */
    public static boolean confirm(Window owner, String title, java.util.function.Function<ProposalRow, String> text,
                                  ProposalWatch watch) {
        ProposalRow p = watch.currentProperty().get();
        return confirm(owner, title, text.apply(p), "Scale down to " + p.to(), a -> {
            watch.currentProperty().addListener((o, was, now) -> {
                a.setHeaderText(watch.changeProperty().get());
                a.setContentText(text.apply(now));
                ((javafx.scene.control.Button) a.getDialogPane().lookupButton(a.getButtonTypes().stream()
                        .filter(b -> b.getButtonData() == ButtonBar.ButtonData.OK_DONE).findFirst().orElseThrow()))
                        .setText("Scale down to " + now.to());
            });
            follow(a, watch);
        });
    }

    /** A yes/no question for what is dangerous; the safe answer is the default. */
    public static boolean confirm(Window owner, String title, String text, String yes) {
        return confirm(owner, title, text, yes, a -> { });
    }

    private static boolean confirm(Window owner, String title, String text, String yes,
                                   java.util.function.Consumer<Alert> extra) {
        Alert a = new Alert(Alert.AlertType.WARNING);
        a.initOwner(owner);
        a.setTitle(title);
        a.setHeaderText(title);
        a.setContentText(text);
        ButtonType go = new ButtonType(yes, ButtonBar.ButtonData.OK_DONE);
        ButtonType cancel = new ButtonType("Cancel", ButtonBar.ButtonData.CANCEL_CLOSE);
        a.getButtonTypes().setAll(cancel, go);
        ((javafx.scene.control.Button) a.getDialogPane().lookupButton(go)).setDefaultButton(false);
        ((javafx.scene.control.Button) a.getDialogPane().lookupButton(cancel)).setDefaultButton(true);
        styled(a);
        extra.accept(a);
        return a.showAndWait().orElse(cancel) == go;
    }

    public static void styled(Dialog<?> d) {
        d.getDialogPane().sceneProperty().addListener((o, was, scene) -> {
            if (scene != null && scene.getWindow() instanceof javafx.stage.Stage st) {
                io.headroom.ui.fx.DialogFit.keepInside(st); // inside the console's window, buttons in view
            }
        });
        if (d.getDialogPane().getScene() != null
                && d.getDialogPane().getScene().getWindow() instanceof javafx.stage.Stage st) {
            io.headroom.ui.fx.DialogFit.keepInside(st);
        }
        if (d.getOwner() != null && d.getOwner().getScene() != null) {
            d.getDialogPane().getStylesheets().addAll(d.getOwner().getScene().getStylesheets());
            var root = d.getOwner().getScene().getRoot();
            d.getDialogPane().getStyleClass().addAll(root.getStyleClass().contains(Styles.THEME_LIGHT)
                    ? Styles.THEME_LIGHT : Styles.THEME_DARK);
        }
    }
}
