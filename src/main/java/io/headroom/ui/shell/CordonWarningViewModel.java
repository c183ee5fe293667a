package io.headroom.ui.shell;

import io.headroom.cluster.NodeState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The top bar's warning about nodes Headroom cordoned and left so (issue 15): a console that stopped in
 * the middle of a node drain, or a drain that ended with its node cordoned, leaves
 * {@code headroom.io/cordoned-by} on a node nobody may remember. "1 node left cordoned by Headroom", hidden
 * when there is none; the detail names each node with who, when and why; a click opens the Nodes window
 * on the context of the first one. The nodes are read off the FX thread (one request per context, so not
 * every tick: the shell refreshes now and then); FX thread only otherwise; holds no nodes of the scene.
 */
public final class CordonWarningViewModel {
    private final StringProperty text = new SimpleStringProperty("");
    private final StringProperty detail = new SimpleStringProperty("");
    private final StringProperty context = new SimpleStringProperty();

    /** "1 node left cordoned by Headroom", or "" when none (the chip is hidden). */
    public ReadOnlyStringProperty textProperty() {
        return text;
    }

    /** Each node: who cordoned it, when and why; then what to do. */
    public ReadOnlyStringProperty detailProperty() {
        return detail;
    }

    /** The context of the first node left cordoned (the Nodes window to open); null when none. */
    public ReadOnlyStringProperty contextProperty() {
        return context;
    }

    /** Shows the nodes Headroom left cordoned (from {@code Supervisor.leftCordoned}). */
    public void show(List<NodeState> left) {
        int n = left.size();
        text.set(n == 0 ? "" : n + (n == 1 ? " node" : " nodes") + " left cordoned by Headroom");
        context.set(n == 0 ? null : left.get(0).ref().context());
        List<String> lines = new ArrayList<>();
        for (NodeState s : left) {
            lines.add(s.ref().name() + " (" + s.ref().context() + ") is " + s.headroomCordon().describe());
        }
        detail.set(n == 0 ? "" : String.join("\n", lines) + "\nNo new pods are placed there, and no drain of this"
                + " console runs on " + (n == 1 ? "it" : "them") + ". Click to open the Nodes window: Uncordon, or"
                + " drain again.");
    }

    /**
     * Reads every context's nodes left cordoned ({@code source}: context → future, completed off the FX thread)
     * and shows them all on {@code fx}. A context that cannot be read now keeps nothing back: the others show,
     * and the next refresh tries again; when none can be read the chip stays as it was.
     */
    public CompletableFuture<Void> refresh(List<String> contexts,
                                           Function<String, CompletableFuture<List<NodeState>>> source, Executor fx) {
        List<CompletableFuture<List<NodeState>>> reads = new ArrayList<>();
        for (String c : contexts) {
            CompletableFuture<List<NodeState>> f;
            try {
                f = source.apply(c);
            } catch (RuntimeException e) {
                f = CompletableFuture.failedFuture(e);
            }
            reads.add(f.handle((v, e) -> e == null ? v : null));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenAcceptAsync(v -> {
            List<NodeState> all = new ArrayList<>();
            boolean any = false;
            for (CompletableFuture<List<NodeState>> r : reads) {
                List<NodeState> got = r.join();
                if (got != null) {
                    any = true;
                    all.addAll(got);
                }
            }
            if (any || contexts.isEmpty()) {
                show(all);
            }
        }, fx);
    }
}
