package io.headroom.ui.detail;

import io.headroom.ui.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The selected class's pods (issue 15, items 2 and 3), one compact row each: name with a STUCK chip,
 * phase, ready, node and age; then jobs in flight, jobs finished lately, deletion cost, drain mark and
 * who set it; then why it is STUCK. Each pod not terminating nor marked has a Drain… button, which asks
 * what a class drain asks (deadline, reason, a warning below the decision) and starts the supervised drain
 * of that pod. Rows are rebuilt only when what they show changed.
 */
public final class PodPanel extends VBox {
    public static final String ID = "pod-panel";
    public static final String SUMMARY_ID = "pod-summary";

    /** The id of a pod's row, e.g. {@code pod-row-payments-steady-00001}. */
    public static String rowId(String pod) {
        return "pod-row-" + pod;
    }

    /** The id of a pod's Drain… button. */
    public static String drainId(String pod) {
        return "pod-drain-" + pod;
    }

    /** The id of a pod's figures line (in flight, finished, cost, mark). */
    public static String workId(String pod) {
        return "pod-work-" + pod;
    }

    private final PodPanelViewModel vm;
    private final VBox list = new VBox(6);

    public PodPanel(PodPanelViewModel vm) {
        super(4);
        this.vm = vm;
        setId(ID);
        getStyleClass().add("pod-panel");
        Label summary = new Label();
        summary.setId(SUMMARY_ID);
        summary.getStyleClass().add(Styles.MUTED);
        summary.setWrapText(true);
        summary.textProperty().bind(vm.summaryProperty());
        getChildren().addAll(summary, list);
        vm.rows().addListener((javafx.collections.ListChangeListener<PodPanelViewModel.PodRow>) c -> rebuild());
        rebuild();
    }

    public PodPanelViewModel viewModel() {
        return vm;
    }

    private void rebuild() {
        list.getChildren().clear();
        for (PodPanelViewModel.PodRow r : vm.rows()) {
            list.getChildren().add(row(r));
        }
    }

    /** "cost\u00a0—": a name and its value, never split over two lines. */
    static String figure(String name, String value) {
        return name.replace(' ', '\u00a0') + '\u00a0' + value;
    }

    private VBox row(PodPanelViewModel.PodRow r) {
        Label name = new Label(r.name());
        name.getStyleClass().add(Styles.TERM_NAME);
        name.setMinWidth(Region.USE_PREF_SIZE);
        HBox first = new HBox(6);
        first.setAlignment(Pos.CENTER_LEFT);
        if (r.stuck()) {
            Label chip = new Label("STUCK");
            chip.getStyleClass().addAll(Styles.CHIP, Styles.DANGER);
            chip.setMinWidth(Region.USE_PREF_SIZE);
            chip.setTooltip(new Tooltip("Ready, holding work, finishing nothing: " + r.stuckDetail()
                    + ". Capacity is lower than the replica count suggests."));
            first.getChildren().add(chip);
        }
        Label state = new Label(r.phase() + " · " + (r.ready() ? "ready" : "not ready") + " · " + r.node() + " · "
                + r.age());
        state.getStyleClass().add(Styles.MUTED);
        state.setWrapText(true);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        first.getChildren().addAll(name, spacer);
        if (r.drainable()) {
            Button drain = new Button("Drain…");
            drain.setId(drainId(r.name()));
            drain.setTooltip(new Tooltip(r.stuck() ? r.name() + " makes no progress, so its jobs never finish:"
                    + " Drain… offers to replace it (one more replica, then it is evicted and its jobs go back to"
                    + " the queue)" : "Take " + r.name() + " out once its jobs are done: marked, waited on, then"
                    + " replicas lowered by one so exactly this pod goes (journaled)"));
            drain.setOnAction(e -> vm.drain(r.name()));
            drain.setFocusTraversable(true);
            drain.setMinWidth(Region.USE_PREF_SIZE);
            first.getChildren().add(drain);
        }
        // Each figure is bound to its name by no-break spaces: a narrow panel wraps between figures,
        // never leaving a lone "—" of "cost —" or "mark —" at the start of a line.
        Label work = new Label(String.join(" · ", figure("in flight", r.inFlight()),
                figure("finished", r.completions()), figure("cost", r.deletionCost()),
                figure("mark", r.drainMark()) + (r.drainMark().equals(io.headroom.ui.Format.NO_DATA)
                        ? "" : " by " + r.owner())));
        work.setId(workId(r.name()));
        work.getStyleClass().addAll(Styles.TERM_FORMULA, Styles.NUMERIC);
        work.setWrapText(true);
        VBox box = new VBox(1, first, state, work);
        if (r.stuck()) {
            Label why = new Label("STUCK: " + r.stuckDetail());
            why.getStyleClass().add(Styles.BAD);
            why.setWrapText(true);
            box.getChildren().add(why);
        }
        box.setId(rowId(r.name()));
        box.getStyleClass().add("pod-row");
        return box;
    }
}
