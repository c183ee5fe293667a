package io.headroom.ui.detail;

import io.headroom.ui.fx.Tips;
import io.headroom.ui.Styles;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The selected class's pods (issue 15, items 2 and 3), one compact row each: name with a STUCK chip,
 * phase, ready, node and age; then jobs in flight, jobs finished lately, deletion cost, drain mark and
 * who set it; then why it is STUCK. Each pod not terminating nor marked has a Drain… button, which asks
 * what a class drain asks (deadline, reason, a warning below the decision) and starts the supervised drain
 * of that pod. Each pod keeps its row while it is listed; what the row shows is updated in place.
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
    private final java.util.Map<String, PodRowView> views = new java.util.HashMap<>();

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
        // Rows never move under the operator's attention (issue 28): a pod that went keeps its row, greyed, and a
        // new one comes below while the pointer is on the rows or a key, click or the focus came in lately.
        io.headroom.ui.fx.AttentionArea.follow(list, vm.attention());
    }

    public PodPanelViewModel viewModel() {
        return vm;
    }

    /**
     * Shows the rows as they are now. Each pod keeps its row (and its Drain… button) for as long as it is listed,
     * its figures updated in place: a tick changes every pod's age, and rows built anew each time took a focused
     * Drain… out of the window (the focus then restarted at the top bar, and Tab never reached what follows).
     */
    private void rebuild() {
        java.util.Map<String, PodRowView> kept = new java.util.HashMap<>();
        java.util.List<javafx.scene.Node> order = new java.util.ArrayList<>();
        for (PodPanelViewModel.PodRow r : vm.rows()) {
            PodRowView v = views.get(r.name());
            if (v == null) {
                v = new PodRowView(r.name());
            }
            v.show(r);
            kept.put(r.name(), v);
            order.add(v.box);
        }
        views.clear();
        views.putAll(kept);
        if (!list.getChildren().equals(order)) {
            list.getChildren().setAll(order);
        }
    }

    /** "cost\u00a0—": a name and its value, never split over two lines. */
    static String figure(String name, String value) {
        return name.replace(' ', '\u00a0') + '\u00a0' + value;
    }

    /** A pod's row kept after the pod went, while the operator's attention is on the rows. */
    static final String GONE = "pod-gone";

    /** One pod's row: built once per pod, its words and figures shown anew each time they change. */
    private final class PodRowView {
        private final VBox box = new VBox(1);
        private final HBox first = new HBox(6);
        private final Label chip = new Label("STUCK");
        private final Label name;
        private final Region spacer = new Region();
        private final Button drain = new Button("Drain…");
        private final Label state = new Label();
        private final Label work = new Label();
        private final Label why = new Label();
        private String pod;

        PodRowView(String pod) {
            this.pod = pod;
            name = new Label(pod);
            name.getStyleClass().add(Styles.TERM_NAME);
            name.setMinWidth(Region.USE_PREF_SIZE);
            first.setAlignment(Pos.CENTER_LEFT);
            chip.getStyleClass().addAll(Styles.CHIP, Styles.DANGER);
            chip.setMinWidth(Region.USE_PREF_SIZE);
            state.getStyleClass().add(Styles.MUTED);
            state.setWrapText(true);
            HBox.setHgrow(spacer, Priority.ALWAYS);
            drain.setId(drainId(pod));
            drain.setOnAction(e -> vm.drain(this.pod));
            drain.setFocusTraversable(true);
            drain.setMinWidth(Region.USE_PREF_SIZE);
            // Each figure is bound to its name by no-break spaces: a narrow panel wraps between figures,
            // never leaving a lone "—" of "cost —" or "mark —" at the start of a line.
            work.setId(workId(pod));
            work.getStyleClass().addAll(Styles.TERM_FORMULA, Styles.NUMERIC);
            work.setWrapText(true);
            why.getStyleClass().add(Styles.BAD);
            why.setWrapText(true);
            box.setId(rowId(pod));
            box.getStyleClass().add("pod-row");
        }

        void show(PodPanelViewModel.PodRow r) {
            pod = r.name();
            Tips.set(chip, "Ready, holding work, finishing nothing: " + r.stuckDetail()
                    + ". Capacity is lower than the replica count suggests.");
            state.setText(r.gone() ? "gone from the cluster · was " + r.phase() + " on " + r.node()
                    : r.phase() + " · " + (r.ready() ? "ready" : "not ready") + " · " + r.node() + " · " + r.age());
            Styles.toggle(box, java.util.List.of(GONE), r.gone() ? GONE : null);
            Tips.set(drain, r.stuck() ? r.name() + " makes no progress, so its jobs never finish:"
                    + " Drain… offers to replace it (one more replica, then it is evicted and its jobs go back to"
                    + " the queue)" : "Take " + r.name() + " out once its jobs are done: marked, waited on, then"
                    + " replicas lowered by one so exactly this pod goes (journaled)");
            work.setText(String.join(" · ", figure("in flight", r.inFlight()),
                    figure("finished", r.completions()), figure("cost", r.deletionCost()),
                    figure("mark", r.drainMark()) + (r.drainMark().equals(io.headroom.ui.Format.NO_DATA)
                            ? "" : " by " + r.owner())));
            why.setText("STUCK: " + r.stuckDetail());
            java.util.List<javafx.scene.Node> top = new java.util.ArrayList<>();
            if (r.stuck()) {
                top.add(chip);
            }
            top.add(name);
            top.add(spacer);
            if (r.drainable()) {
                top.add(drain);
            }
            if (!first.getChildren().equals(top)) {
                first.getChildren().setAll(top);
            }
            java.util.List<javafx.scene.Node> lines = r.stuck() ? java.util.List.of(first, state, work, why)
                    : java.util.List.of(first, state, work);
            if (!box.getChildren().equals(lines)) {
                box.getChildren().setAll(lines);
            }
        }
    }
}
