package io.headroom.ui.nodes;

import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import io.headroom.drain.NodeDrain;
import io.headroom.drain.NodeDrainPod;
import io.headroom.drain.NodeDrainPreview;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import io.headroom.ui.fx.PulseBatcher;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The node drain window's state and commands (MVVM, no nodes): the context's nodes (or only those a
 * class runs on), the selected node's drain with each pod's progress and every refusal with the budget
 * that refused it, and the commands drain, cancel and uncordon. Reads and commands run on the
 * supervisor's (loop) thread; results come back through {@code fx}.
 */
public final class NodeDrainViewModel {
    static final DateTimeFormatter HHMMSS = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)
            .withZone(ZoneId.systemDefault());

    /**
     * One node in the table.
     *
     * @param headroomCordon who cordoned it for Headroom, when and why ({@link io.headroom.cluster.CordonMark}),
     *                       null when it is not cordoned by Headroom
     */
    public record NodeRow(NodeRef ref, boolean cordoned, boolean ready, int pods, String drain,
                          io.headroom.cluster.CordonMark headroomCordon) {
        public String name() {
            return ref.name();
        }
    }

    private final Supervisor supervisor;
    private final Executor fx;
    private final PulseBatcher<List<NodeDrain>> drains;
    private final java.util.function.Consumer<io.headroom.supervise.SupervisionState> listener;

    // Properties
    private final StringProperty context = new SimpleStringProperty();
    /** Only the nodes this class's pods run on; null: every node of the context. */
    private final StringProperty classFilter = new SimpleStringProperty();
    private final ObservableList<NodeRow> nodes = FXCollections.observableArrayList();
    private final ObjectProperty<NodeRow> selected = new SimpleObjectProperty<>();
    private final StringProperty drainState = new SimpleStringProperty("");
    private final ObservableList<String> pods = FXCollections.observableArrayList();
    private final ObservableList<String> refusals = FXCollections.observableArrayList();
    private final BooleanProperty draining = new SimpleBooleanProperty();
    private final StringProperty status = new SimpleStringProperty("");
    private final ObjectProperty<Duration> deadline = new SimpleObjectProperty<>(Duration.ofMinutes(10));
    private final StringProperty reason = new SimpleStringProperty("");
    private final StringProperty leftCordoned = new SimpleStringProperty("");
    private final ObjectProperty<NodeDrainPreview> confirmation = new SimpleObjectProperty<>();
    private List<NodeDrain> lastDrains = List.of();
    /** The node whose drain the last command started or stopped: the status line follows it to its end. */
    private NodeRef followed;
    /** Told after every command's answer and every drain's end: the cluster's cordons may have changed. */
    private Runnable changed = () -> { };

    public NodeDrainViewModel(Supervisor supervisor, String context, Executor fx) {
        this.supervisor = supervisor;
        this.fx = fx;
        this.context.set(context);
        this.drains = new PulseBatcher<>(fx, batch -> applyDrains(batch.get(batch.size() - 1)));
        this.listener = st -> drains.offer(supervisor.nodeDrains());
        supervisor.addListener(listener);
        selected.addListener((o, a, b) -> showSelected());
    }

    // ------------------------------------------------------------------ properties

    public StringProperty contextProperty() {
        return context;
    }

    public StringProperty classFilterProperty() {
        return classFilter;
    }

    public ObservableList<NodeRow> nodes() {
        return nodes;
    }

    public ObjectProperty<NodeRow> selectedProperty() {
        return selected;
    }

    /** The selected node's drain in a sentence: phase and detail; empty when it never drained here. */
    public StringProperty drainStateProperty() {
        return drainState;
    }

    /** The selected node's drain, one line per pod: where it is. */
    public ObservableList<String> pods() {
        return pods;
    }

    /** Every refusal of the selected node's drain, newest first, with the budget that refused. */
    public ObservableList<String> refusals() {
        return refusals;
    }

    public BooleanProperty drainingProperty() {
        return draining;
    }

    /** What the last command did, or why not. */
    public StringProperty statusProperty() {
        return status;
    }

    public ObjectProperty<Duration> deadlineProperty() {
        return deadline;
    }

    public StringProperty reasonProperty() {
        return reason;
    }

    /**
     * The warning for nodes Headroom cordoned that no drain of this console runs on (a console stopped
     * mid-drain, or a drain ended with the node cordoned): who, when, why, and what to do; empty when none.
     */
    public StringProperty leftCordonedProperty() {
        return leftCordoned;
    }

    /**
     * The confirmation asked for before a drain starts: what it would evict per class, the budgets, what will
     * wait; null when none is asked. {@link #confirmDrain} starts it, {@link #dismissConfirmation} does not.
     */
    public ObjectProperty<NodeDrainPreview> confirmationProperty() {
        return confirmation;
    }

    /** Runs {@code r} (FX thread) after each command's answer and each drain's end: e.g. the top bar's cordon chip. */
    public void onChanged(Runnable r) {
        changed = r == null ? () -> { } : r;
    }

    // ------------------------------------------------------------------ commands

    /**
     * Drain node, as the button does: reads what draining the selected node would do (off the FX thread)
     * and asks for confirmation; nothing starts until {@link #confirmDrain}.
     */
    public CompletableFuture<NodeDrainPreview> askToDrain() {
        NodeRow n = selected.get();
        if (n == null) {
            status.set("select a node");
            return CompletableFuture.completedFuture(null);
        }
        status.set("reading what draining " + n.name() + " would do…");
        return supervisor.previewNodeDrain(n.ref()).handleAsync((p, e) -> {
            if (e != null) {
                status.set("could not read " + n.name() + ": " + rootMessage(e));
                return null;
            }
            status.set(p.refused() != null ? n.name() + " cannot be drained: " + p.refused()
                    : "confirm the drain of " + n.name());
            confirmation.set(p);
            return p;
        }, fx);
    }

    /**
     * Drain node on the node named {@code node} (the palette's "Drain node N…"): reads the nodes, selects it and
     * asks as {@link #askToDrain()} does; says so when the context has no node of that name.
     */
    public CompletableFuture<NodeDrainPreview> askToDrain(String node) {
        return selectNamed(node).thenCompose(found -> found ? askToDrain() : CompletableFuture.completedFuture(null));
    }

    /** Uncordon on the node named {@code node} (the palette's "Uncordon N"): reads the nodes, selects it, uncordons. */
    public CompletableFuture<Outcome> uncordon(String node) {
        return selectNamed(node).thenCompose(found -> found ? uncordon() : CompletableFuture.completedFuture(
                Outcome.refused(Outcome.Why.NOT_FOUND, "no node " + node + " in " + context.get())));
    }

    /** Reads the nodes again and selects the one named {@code node} (FX thread); false when there is none. */
    private CompletableFuture<Boolean> selectNamed(String node) {
        return refresh().thenApplyAsync(v -> {
            NodeRow row = nodes.stream().filter(r -> r.name().equals(node)).findFirst().orElse(null);
            if (row == null) {
                status.set("no node " + node + " in " + context.get());
                return false;
            }
            selected.set(row);
            showSelected();
            return true;
        }, fx);
    }

    /** The confirmation's Drain: starts the drain it showed (the deadline and reason set). */
    public CompletableFuture<Outcome> confirmDrain() {
        NodeDrainPreview p = confirmation.get();
        confirmation.set(null);
        if (p == null || p.refused() != null) {
            return CompletableFuture.completedFuture(p == null ? Outcome.refused(Outcome.Why.NOT_FOUND, "nothing to confirm")
                    : Outcome.refused(Outcome.Why.CLUSTER, p.refused()));
        }
        followed = p.node();
        return answer(supervisor.startNodeDrain(p.node(), deadline.get(), reason.get()));
    }

    /** The confirmation's Cancel: nothing starts. */
    public void dismissConfirmation() {
        NodeDrainPreview p = confirmation.get();
        confirmation.set(null);
        if (p != null) {
            status.set("drain of " + p.node().name() + " not started");
        }
    }

    /**
     * Reads the nodes again (off the FX thread), keeping the selection by name. Opened from a class, the
     * class's nodes, and every node this console drains or Headroom cordoned, and the one selected: a drain
     * evicts the class's pods from its node, which must not then leave the window it is cancelled and
     * uncordoned from.
     */
    public CompletableFuture<Void> refresh() {
        String ctx = context.get();
        String cls = classFilter.get();
        String keep = selected.get() == null ? null : selected.get().name();
        Set<NodeRef> drained = supervisor.nodeDrains().stream().filter(NodeDrain::active).map(NodeDrain::node)
                .collect(java.util.stream.Collectors.toSet());
        CompletableFuture<Set<String>> only = cls == null ? CompletableFuture.completedFuture(null)
                : supervisor.nodesOf(cls).thenApply(l -> Set.copyOf(l.stream().map(NodeRef::name).toList()));
        return only.thenCombine(supervisor.nodes(ctx), (names, list) -> list.stream()
                        .filter(n -> names == null || names.contains(n.ref().name()) || drained.contains(n.ref())
                                || n.headroomCordon() != null || n.ref().name().equals(keep)).toList())
                .thenAcceptAsync(this::applyNodes, fx)
                .exceptionally(e -> {
                    fx.execute(() -> status.set("could not read the nodes: " + rootMessage(e)));
                    return null;
                });
    }

    /** Drains the selected node with the deadline and reason set, unasked (what {@link #confirmDrain} does). */
    public CompletableFuture<Outcome> drain() {
        NodeRow n = selected.get();
        if (n == null) {
            return CompletableFuture.completedFuture(Outcome.refused(Outcome.Why.INVALID, "select a node"));
        }
        followed = n.ref();
        return answer(supervisor.startNodeDrain(n.ref(), deadline.get(), reason.get()));
    }

    public CompletableFuture<Outcome> cancel() {
        NodeRow n = selected.get();
        if (n == null) {
            return CompletableFuture.completedFuture(Outcome.refused(Outcome.Why.INVALID, "select a node"));
        }
        followed = n.ref();
        return answer(supervisor.cancelNodeDrain(n.ref(), reason.get()));
    }

    /** One action away: new pods may land on the selected node again. */
    public CompletableFuture<Outcome> uncordon() {
        NodeRow n = selected.get();
        if (n == null) {
            return CompletableFuture.completedFuture(Outcome.refused(Outcome.Why.INVALID, "select a node"));
        }
        followed = null;
        return answer(supervisor.uncordon(n.ref(), reason.get()));
    }

    /** Stops listening (the window closed). */
    public void dispose() {
        supervisor.removeListener(listener);
        drains.stop();
    }

    // ------------------------------------------------------------------ applying results (FX thread)

    private java.util.function.Consumer<Outcome> onOutcome = o -> { };

    /** Told (FX thread) each drain, cancel and uncordon's outcome: the console's event list records them. */
    public void setOnOutcome(java.util.function.Consumer<Outcome> c) {
        onOutcome = c;
    }

    private CompletableFuture<Outcome> answer(CompletableFuture<Outcome> f) {
        return f.thenApplyAsync(o -> {
            status.set(o.message());
            onOutcome.accept(o);
            applyDrains(supervisor.nodeDrains());
            if (o.ok() && followed != null) {
                followStatus(); // the drain's own words from now on, to its end
            }
            refresh();
            changed.run();
            return o;
        }, fx);
    }

    private void applyNodes(List<NodeState> list) {
        String keep = selected.get() == null ? null : selected.get().name();
        List<NodeRow> rows = new ArrayList<>();
        for (NodeState n : list) {
            rows.add(new NodeRow(n.ref(), n.unschedulable(), n.ready(), n.pods().size(), drainOf(n.ref()),
                    n.headroomCordon()));
        }
        nodes.setAll(rows);
        refreshLeftCordoned();
        selected.set(rows.stream().filter(r -> r.name().equals(keep)).findFirst().orElse(null));
        showSelected();
    }

    private void applyDrains(List<NodeDrain> list) {
        boolean ended = list.stream().anyMatch(d -> !d.active() && lastDrains.stream().anyMatch(
                x -> x.id().equals(d.id()) && x.active()));
        lastDrains = list;
        for (int i = 0; i < nodes.size(); i++) {
            NodeRow r = nodes.get(i);
            String d = drainOf(r.ref());
            if (!d.equals(r.drain())) {
                NodeRow next = new NodeRow(r.ref(), r.cordoned(), r.ready(), r.pods(), d, r.headroomCordon());
                boolean was = r.equals(selected.get());
                nodes.set(i, next);
                if (was) {
                    selected.set(next);
                }
            }
        }
        refreshLeftCordoned();
        showSelected();
        followStatus();
        if (ended) {
            refresh(); // the node's cordon and pods as the cluster has them now
            changed.run();
        }
    }

    /**
     * The status line while it speaks of a drain: where that drain is now, in its own words, and how it ended
     * (never the start's "0 of 16 pods gone" once every pod has gone).
     */
    private void followStatus() {
        NodeRef f = followed;
        NodeDrain d = f == null ? null : lastDrains.stream().filter(x -> x.node().equals(f)).findFirst().orElse(null);
        if (d != null) {
            status.set(f.name() + ": " + phaseWords(d) + (d.active() ? "" : " at " + HHMMSS.format(d.endedAt()))
                    + " · " + d.detail());
        }
    }

    private static String phaseWords(NodeDrain d) {
        return "drain " + d.phase().name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private boolean drainingHere(NodeRef ref) {
        return lastDrains.stream().anyMatch(d -> d.node().equals(ref) && d.active());
    }

    /**
     * Nodes cordoned by Headroom with no drain of this console running, in two kinds: those whose cordon is
     * from a drain this console ran and ended (it says how it ended: a completed drain leaves its node cordoned
     * by design), and the others, which a console that stopped mid-drain may have left.
     */
    private void refreshLeftCordoned() {
        List<String> ours = new ArrayList<>();
        List<String> strangers = new ArrayList<>();
        for (NodeRow r : nodes) {
            if (r.headroomCordon() == null || drainingHere(r.ref())) {
                continue;
            }
            NodeDrain mine = lastDrains.stream().filter(d -> d.node().equals(r.ref())
                    && d.id().equals(r.headroomCordon().drainId())).findFirst().orElse(null);
            if (mine != null) {
                ours.add(r.name() + " stays cordoned after its " + phaseWords(mine) + " at "
                        + HHMMSS.format(mine.endedAt()));
            } else {
                strangers.add(r.name() + " " + r.headroomCordon().describe(HHMMSS::format));
            }
        }
        List<String> parts = new ArrayList<>();
        if (!ours.isEmpty()) {
            parts.add(String.join("; ", ours) + ". Uncordon " + (ours.size() == 1 ? "it" : "them")
                    + " when ready for new pods.");
        }
        if (!strangers.isEmpty()) {
            parts.add((strangers.size() == 1 ? "A node is" : strangers.size() + " nodes are")
                    + " cordoned by Headroom with no drain of this console running (a console may have stopped"
                    + " mid-drain): " + String.join("; ", strangers) + ". Select it to Uncordon, or Drain node again.");
        }
        leftCordoned.set(String.join(" ", parts));
    }

    private String drainOf(NodeRef ref) {
        return lastDrains.stream().filter(d -> d.node().equals(ref)).findFirst()
                .map(d -> d.phase().name().toLowerCase(Locale.ROOT).replace('_', ' ')).orElse("");
    }

    private void showSelected() {
        NodeRow n = selected.get();
        NodeDrain d = n == null ? null : lastDrains.stream().filter(x -> x.node().equals(n.ref())).findFirst()
                .orElse(null);
        draining.set(d != null && d.active());
        if (d == null) {
            drainState.set(n == null ? "" : n.name() + (n.headroomCordon() != null ? " is "
                    + n.headroomCordon().describe(HHMMSS::format) : n.cordoned() ? " is cordoned" : " is schedulable")
                    + "; no drain from this console");
            pods.clear();
            refusals.clear();
            return;
        }
        drainState.set(d.id() + " · " + d.phase().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                + (d.active() ? " until " + HHMMSS.format(d.deadline()) : " at " + HHMMSS.format(d.endedAt()))
                + " · " + d.detail());
        List<String> lines = new ArrayList<>(d.pods().stream().map(NodeDrainViewModel::podLine).toList());
        d.left().forEach(l -> lines.add("left: " + l));
        pods.setAll(lines);
        List<String> r = new ArrayList<>();
        for (int i = d.refusals().size() - 1; i >= 0; i--) {
            NodeDrain.Refusal x = d.refusals().get(i);
            r.add(HHMMSS.format(x.at()) + "  " + x.pod() + " refused"
                    + (x.budget() == null ? "" : " by PodDisruptionBudget " + x.budget()) + ": " + x.message()
                    + " (attempt " + x.attempt() + ", next at " + HHMMSS.format(x.retryAt()) + ")");
        }
        refusals.setAll(r);
    }

    private static String podLine(NodeDrainPod p) {
        return (p.headroom() ? "[" + p.className() + "] " : "") + p.describe()
                + (p.state() == NodeDrainPod.State.TO_EVICT && p.nextAttemptAt() != null && p.attempts() > 0
                ? ", next try " + HHMMSS.format(p.nextAttemptAt()) : "");
    }

    private static String rootMessage(Throwable e) {
        return io.headroom.ErrorWords.of(e); // the innermost cause's words, never its class name
    }
}
