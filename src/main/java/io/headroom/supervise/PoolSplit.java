package io.headroom.supervise;

import io.headroom.loop.PoolPlacement;
import java.util.List;

/**
 * A count the operator typed for a class placed across pools (decision 0029), split as the loop places the
 * class's replicas: the preferred pool up to its bounds and availability, the rest to the next. Each pool's
 * change starts from its Deployment's replicas as read when the split was made.
 *
 * @param total    the count the operator asked for (the class's replicas)
 * @param changes  each pool's change, in preference order (probe pods included in {@code to})
 * @param unplaced the replicas no pool can hold (every pool at its bound): such a count is refused
 */
public record PoolSplit(int total, List<PoolPlacement.PoolChange> changes, int unplaced) {
    public PoolSplit {
        changes = List.copyOf(changes);
    }

    /** Whether every replica asked for fits some pool. */
    public boolean fits() {
        return unplaced == 0;
    }

    /** What the pools' Deployments are asked for, summed (probe pods included). */
    public int asked() {
        int n = 0;
        for (PoolPlacement.PoolChange c : changes) {
            n += c.to();
        }
        return n;
    }

    /** The pools' replicas now, summed. */
    public int current() {
        int n = 0;
        for (PoolPlacement.PoolChange c : changes) {
            n += c.from();
        }
        return n;
    }

    /** "spot 8, on-demand 4": each pool's count, a probe pod said as such. */
    public String pools() {
        StringBuilder b = new StringBuilder();
        for (PoolPlacement.PoolChange c : changes) {
            b.append(b.length() == 0 ? "" : ", ").append(c.pool()).append(' ').append(c.to());
        }
        return b.toString();
    }

    /** "12: spot 8, on-demand 4", or what does not fit: "20: spot 8, on-demand 10; 2 replicas fit no pool". */
    public String words() {
        int probes = asked() - (total - unplaced);
        return total + ": " + pools() + (probes <= 0 ? "" : " (" + probes + (probes == 1 ? " probe pod" : " probe pods")
                + " included, to learn when an unavailable pool's capacity is back)")
                + (fits() ? "" : "; " + unplaced + (unplaced == 1 ? " replica fits" : " replicas fit")
                + " no pool (each at its ceiling or maxReplicas)");
    }
}
