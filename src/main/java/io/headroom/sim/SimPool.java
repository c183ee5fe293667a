package io.headroom.sim;

import io.headroom.decision.Placement.PoolSpec;
import io.headroom.sandbox.SandboxClassSpec.Window;
import java.util.List;
import java.util.Objects;

/**
 * One simulated pool of a class (decision 0029): what placement knows of it, and the windows (seconds into
 * the run) in which its nodes have no room: its new pods stay Pending (Unschedulable) until the window ends.
 */
public record SimPool(PoolSpec spec, List<Window> noCapacity) {
    public SimPool {
        Objects.requireNonNull(spec, "spec");
        noCapacity = List.copyOf(noCapacity);
    }

    /** Whether new pods of this pool find a node at {@code t} seconds into the run. */
    public boolean hasCapacity(double t) {
        for (Window w : noCapacity) {
            if (t >= w.fromSeconds() && t < w.toSeconds()) {
                return false;
            }
        }
        return true;
    }
}
