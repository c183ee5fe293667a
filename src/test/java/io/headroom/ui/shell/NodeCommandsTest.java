package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The palette's node commands without the toolkit: a drain per node of every context read, an uncordon only for
 * a cordoned one, each running for its own node; neither while a drain runs on it (with why); a context that
 * cannot be read now keeps its nodes from before.
 */
class NodeCommandsTest {
    static NodeState node(String context, String name, boolean cordoned) {
        return new NodeState(new NodeRef(context, name), cordoned, true, List.of(), Instant.EPOCH);
    }

    @Test
    void aDrainPerNodeAnUncordonForACordonedOneEachForItsNodeAndNoneWhileDraining() {
        List<String> ran = new ArrayList<>();
        Set<NodeRef> draining = new java.util.HashSet<>();
        NodeCommands c = new NodeCommands(n -> ran.add("drain " + n.name()), n -> ran.add("uncordon " + n.name()),
                draining::contains);
        Map<String, List<NodeState>> cluster = Map.of("prod", List.of(node("prod", "n-1", false),
                node("prod", "n-2", true)), "eu", List.of(node("eu", "e-1", false)));
        c.refresh(List.of("prod", "eu"), ctx -> CompletableFuture.completedFuture(cluster.get(ctx)), Runnable::run).join();
        List<String> titles = c.all().stream().map(Commands.Command::title).toList();
        assertEquals(List.of("Drain node n-1… (prod)", "Drain node n-2… (prod)", "Uncordon n-2 (prod)",
                "Drain node e-1… (eu)"), titles);
        c.all().forEach(cmd -> cmd.run().run());
        assertEquals(List.of("drain n-1", "drain n-2", "uncordon n-2", "drain e-1"), ran);
        assertNull(c.all().get(0).whyUnavailable());

        draining.add(new NodeRef("prod", "n-2"));
        assertTrue(c.all().get(1).whyUnavailable().contains("a drain of n-2 is under way"));
        assertTrue(c.all().get(2).whyUnavailable().contains("under way"));
        assertNull(c.all().get(0).whyUnavailable(), "the other nodes stay available");

        // eu cannot be read now: its node stays; prod's are read anew (n-2 uncordoned, its uncordon gone).
        c.refresh(List.of("prod", "eu"), ctx -> ctx.equals("eu") ? CompletableFuture.failedFuture(new RuntimeException("down"))
                : CompletableFuture.completedFuture(List.of(node("prod", "n-1", false), node("prod", "n-2", false))),
                Runnable::run).join();
        assertEquals(List.of("Drain node e-1… (eu)", "Drain node n-1… (prod)", "Drain node n-2… (prod)"),
                c.all().stream().map(Commands.Command::title).sorted().toList());
    }
}
