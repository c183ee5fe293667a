package io.headroom.sim;

import io.headroom.decision.Placement.PoolSpec;
import io.headroom.sandbox.SandboxClassSpec.Window;
import java.util.List;
import java.util.Objects;

/**
 * One simulated pool of a class (decision 0029): what placement knows of it, the windows (seconds into the
 * run) in which its nodes have no room (its new pods stay Pending, Unschedulable, until the window ends), and
 * those in which its broker fails every acquisition ({@code acquireFails}: its pods are placed and run but do
 * no work, and the broker reports one failed acquisition per pod per second). A pool with acquisition windows
 * has a broker figure all run long (0 outside them); one without has none.
 */
public record SimPool(PoolSpec spec, List<Window> noCapacity, List<Window> acquireFails) {
    public SimPool {
        Objects.requireNonNull(spec, "spec");
        noCapacity = List.copyOf(noCapacity);
        acquireFails = List.copyOf(acquireFails);
    }

    /** A pool whose broker never fails. */
    public SimPool(PoolSpec spec, List<Window> noCapacity) {
        this(spec, noCapacity, List.of());
    }

    /** Whether new pods of this pool find a node at {@code t} seconds into the run. */
    public boolean hasCapacity(double t) {
        return !within(noCapacity, t);
    }

    /** Whether the pool's broker fails its pods' acquisitions at {@code t} seconds into the run. */
    public boolean acquisitionsFail(double t) {
        return within(acquireFails, t);
    }

    /** Whether the pool reports its broker's failed acquisitions (it has acquisition windows). */
    public boolean hasBroker() {
        return !acquireFails.isEmpty();
    }

    private static boolean within(List<Window> windows, double t) {
        for (Window w : windows) {
            if (t >= w.fromSeconds() && t < w.toSeconds()) {
                return true;
            }
        }
        return false;
    }
}
