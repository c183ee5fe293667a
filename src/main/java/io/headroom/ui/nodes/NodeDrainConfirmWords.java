package io.headroom.ui.nodes;

import io.headroom.drain.NodeDrainPreview;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The node drain confirmation's words (no nodes, tested without FX): "Drain sandbox-node-1?", what it does in
 * a sentence naming the node and the classes, one section per class with its pods, the budgets, what will wait
 * and what is left alone.
 */
public record NodeDrainConfirmWords(NodeDrainPreview preview, Duration deadline) {

    /** A titled list of lines. */
    public record Section(String title, List<String> lines) {
        public Section {
            lines = List.copyOf(lines);
        }
    }

    public String heading() {
        return "Drain " + preview.node().name() + "?";
    }

    /** "Drain sandbox-node-1" (the button); what the drain would be refused for disables it. */
    public String confirmLabel() {
        return "Drain " + preview.node().name();
    }

    public String intro() {
        if (preview.refused() != null) {
            return preview.node().name() + " cannot be drained: " + preview.refused();
        }
        List<String> classes = preview.classes();
        int n = preview.podCount();
        return "Cordons " + preview.node().name() + " (no new pods land there), then evicts " + n
                + (n == 1 ? " pod" : " pods") + " through the Eviction API"
                + (classes.isEmpty() ? "" : ": " + (classes.size() == 1 ? "class " : "classes ") + String.join(", ", classes)
                + " first, each pod once its jobs in flight reach 0")
                + ". Refusals are retried until the deadline, " + deadline.toMinutes() + " min from the start;"
                + " the node stays cordoned afterwards until you uncordon it.";
    }

    /** One section per class (Headroom's first, then other pods by namespace), its pods under it. */
    public List<Section> groups() {
        List<Section> out = new ArrayList<>();
        for (NodeDrainPreview.Group g : preview.groups()) {
            out.add(new Section(g.title() + " — " + g.pods().size() + (g.pods().size() == 1 ? " pod" : " pods"),
                    g.pods()));
        }
        return out;
    }

    public Section budgets() {
        return new Section("PodDisruptionBudgets", preview.budgets());
    }

    public Section waits() {
        return new Section("What will wait", preview.waits().isEmpty() ? List.of("nothing: every budget allows its"
                + " evictions now, and no class drops below what it needs") : preview.waits());
    }

    public Section left() {
        return new Section("Left on the node", preview.left());
    }
}
