package io.headroom.sandbox;

import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A sandbox class served by two Deployments on two node pools (decision 0029): the preferred one (the world's
 * workload of the class, e.g. on spot nodes) and a fallback (on-demand nodes, always with room). The preferred
 * pool's nodes go away for a window of every period: at its start half its pods are reclaimed, and while it
 * lasts none of its new pods can be placed; they pend, Unschedulable, until it ends. The world runs the pods
 * placed on either pool; each pool's Deployment is read and scaled on its own, with its own resourceVersion.
 * Loop thread only, like the rest of the sandbox's cluster.
 *
 * @param noCapacityFrom the window's start, seconds into each period
 * @param noCapacityTo   its end, seconds into each period
 */
public record SandboxPools(String className, WorkloadRef preferred, WorkloadRef fallback, double period,
                           double noCapacityFrom, double noCapacityTo) {

    public SandboxPools {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(preferred, "preferred");
        Objects.requireNonNull(fallback, "fallback");
        if (!(period > 0) || !(noCapacityFrom >= 0) || !(noCapacityTo > noCapacityFrom) || noCapacityTo > period) {
            throw new IllegalArgumentException("a capacity window must lie within its period");
        }
    }

    /** Whether the preferred pool's nodes are gone at {@code t} seconds into the world. */
    public boolean noCapacityAt(double t) {
        double in = t % period;
        return in >= noCapacityFrom && in < noCapacityTo;
    }

    /** The running state of one such class: each pool's spec, the preferred pool's placed and pending pods. */
    static final class State {
        private final SandboxPools pools;
        private final SandboxWorld world;
        private int preferredSpec;
        private int fallbackSpec;
        private int placed;
        /** Since when each of the preferred pool's unplaced pods has pended, oldest first. */
        private final Deque<Instant> pending = new ArrayDeque<>();
        private Instant lastPlaced;
        private long preferredVersion = 1;
        private long fallbackVersion = 1;
        private boolean wasOut;

        State(SandboxPools pools, SandboxWorld world) {
            this.pools = pools;
            this.world = world;
            this.preferredSpec = world.workload(pools.className()).map(WorkloadState::specReplicas).orElse(0);
            this.placed = preferredSpec;
            this.lastPlaced = world.now();
        }

        /** Brings the pools to the world's now: capacity gone or back, pods placed, the world's replicas. */
        void advance() {
            Instant now = world.now();
            boolean out = pools.noCapacityAt(world.elapsedSeconds());
            if (out && !wasOut) {
                // The nodes are reclaimed: half the preferred pool's pods go, and their replacements pend.
                int lost = placed - placed / 2;
                placed -= lost;
                preferredVersion++;
            }
            wasOut = out;
            if (!out && placed < preferredSpec) {
                placed = preferredSpec;
                lastPlaced = now;
            }
            placed = Math.min(placed, preferredSpec); // a scale-down removes pending pods first, then placed ones
            int unplaced = preferredSpec - placed;
            while (pending.size() > unplaced) {
                pending.removeLast();
            }
            while (pending.size() < unplaced) {
                pending.addLast(now);
            }
            int runs = placed + fallbackSpec;
            if (world.workload(pools.className()).map(WorkloadState::specReplicas).orElse(runs) != runs) {
                world.setReplicas(pools.className(), runs);
            }
        }

        Optional<WorkloadState> workload(WorkloadRef ref) {
            advance();
            Optional<WorkloadState> all = world.workload(pools.className());
            if (all.isEmpty()) {
                return Optional.empty();
            }
            List<PodState> pods = new ArrayList<>(all.get().pods());
            pods.sort(Comparator.comparing(PodState::createdAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                    .thenComparing(PodState::name));
            int split = Math.min(placed, pods.size()); // the oldest pods are the preferred pool's
            Instant now = world.now();
            if (ref.equals(pools.preferred())) {
                List<PodState> mine = new ArrayList<>(pods.subList(0, split));
                int i = 0;
                for (Instant since : pending) {
                    mine.add(new PodState(pools.preferred().name() + "-pending-" + (++i), "Pending", false, since, null,
                            null, null, null, null, null, null, since, null));
                }
                return Optional.of(new WorkloadState(ref, preferredSpec, ready(mine), "p" + preferredVersion, mine,
                        now, preferredVersion)).map(w -> withPlaced(w, lastPlaced));
            }
            List<PodState> rest = new ArrayList<>(pods.subList(split, pods.size()));
            return Optional.of(new WorkloadState(ref, fallbackSpec, ready(rest), "f" + fallbackVersion, rest, now,
                    fallbackVersion));
        }

        ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
            advance();
            boolean preferred = ref.equals(pools.preferred());
            String version = preferred ? "p" + preferredVersion : "f" + fallbackVersion;
            int spec = preferred ? preferredSpec : fallbackSpec;
            if (expectedResourceVersion != null && !expectedResourceVersion.equals(version)) {
                return ScaleResult.of(ScaleResult.Outcome.CONFLICT, spec, "resourceVersion is " + version
                        + ", expected " + expectedResourceVersion);
            }
            if (replicas < 0 || replicas > SandboxWorld.MAX_REPLICAS) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, spec, "replicas must be in 0.."
                        + SandboxWorld.MAX_REPLICAS + ", got " + replicas);
            }
            if (replicas != spec) {
                if (preferred) {
                    preferredSpec = replicas;
                    preferredVersion++;
                } else {
                    fallbackSpec = replicas;
                    fallbackVersion++;
                }
                advance();
            }
            return ScaleResult.applied(replicas);
        }

        private static int ready(List<PodState> pods) {
            return (int) pods.stream().filter(p -> p.ready() && !p.terminating()).count();
        }

        /** The latest placement shows on the newest placed pod (its PodScheduled=True time). */
        private static WorkloadState withPlaced(WorkloadState w, Instant lastPlaced) {
            List<PodState> pods = new ArrayList<>(w.pods());
            for (int i = pods.size() - 1; i >= 0; i--) {
                PodState p = pods.get(i);
                if (!p.unschedulable()) {
                    pods.set(i, new PodState(p.name(), p.phase(), p.ready(), p.createdAt(), p.deletionTimestamp(),
                            p.node(), p.deletionCost(), p.drainId(), p.readyAt(), p.drainOwner(), p.priorCost(), null,
                            lastPlaced));
                    break;
                }
            }
            return new WorkloadState(w.ref(), w.specReplicas(), w.readyReplicas(), w.resourceVersion(), pods,
                    w.observedAt(), w.generation());
        }
    }
}
