package io.headroom.ui.shell;

import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import io.headroom.ui.shell.Commands.Command;
import io.headroom.ui.shell.Commands.Section;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The palette's commands for every node of the classes' contexts by name: "Drain node N…" (the Nodes window on
 * that node, asking first with what the drain would evict) and, for a cordoned node, "Uncordon N". Listing
 * nodes asks the API server for every pod, so the names are read now and then off the FX thread (when the
 * palette opens, and with the top bar's cordon chip), not while the operator types; FX thread otherwise.
 */
final class NodeCommands {
    private record Node(NodeRef ref, boolean cordoned) {
    }

    private final Consumer<NodeRef> drain;
    private final Consumer<NodeRef> uncordon;
    private final Predicate<NodeRef> draining;
    private List<Node> nodes = List.of();

    /**
     * @param drain    opens the drain's confirmation for a node
     * @param uncordon uncordons a node (where its outcome shows)
     * @param draining whether a drain of this console runs on a node now (neither command runs then)
     */
    NodeCommands(Consumer<NodeRef> drain, Consumer<NodeRef> uncordon, Predicate<NodeRef> draining) {
        this.drain = drain;
        this.uncordon = uncordon;
        this.draining = draining;
    }

    /**
     * Reads the nodes of {@code contexts} ({@code source}: context → future, completed off the FX thread) and
     * keeps their names on {@code fx}; a context that cannot be read now keeps what was read of it before.
     */
    CompletableFuture<Void> refresh(List<String> contexts, Function<String, CompletableFuture<List<NodeState>>> source,
                                    Executor fx) {
        List<CompletableFuture<Void>> reads = new ArrayList<>();
        for (String context : contexts) {
            CompletableFuture<List<NodeState>> read;
            try {
                read = source.apply(context);
            } catch (RuntimeException e) {
                read = CompletableFuture.failedFuture(e);
            }
            reads.add(read.handleAsync((list, e) -> {
                if (e == null && list != null) {
                    List<Node> next = new ArrayList<>(nodes.stream().filter(n -> !n.ref().context().equals(context))
                            .toList());
                    list.forEach(s -> next.add(new Node(s.ref(), s.unschedulable())));
                    nodes = List.copyOf(next);
                }
                return null;
            }, fx));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
    }

    /** A drain for every node read, and an uncordon for every cordoned one. */
    List<Command> all() {
        List<Command> list = new ArrayList<>();
        for (Node n : nodes) {
            String name = n.ref().name();
            java.util.function.Supplier<String> busy = () -> draining.test(n.ref())
                    ? "a drain of " + name + " is under way: cancel it in the Nodes window" : null;
            list.add(new Command("Drain node " + name + "… (" + n.ref().context() + ")", Section.CONSOLE, null, busy,
                    () -> drain.accept(n.ref())).alias("evict cordon nodes"));
            if (n.cordoned()) {
                list.add(new Command("Uncordon " + name + " (" + n.ref().context() + ")", Section.CONSOLE, null, busy,
                        () -> uncordon.accept(n.ref())).alias("schedulable nodes"));
            }
        }
        return list;
    }
}
