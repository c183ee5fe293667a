package io.headroom.supervise;

import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.AdmissionWrite;
import io.headroom.cluster.Admissions;
import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.CordonMark;
import io.headroom.cluster.DrainMarks;
import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeResult;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.Nodes;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ReplicaBump;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.Scaling;
import io.headroom.cluster.WorkloadRef;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The cluster as the supervisor writes to it: every write that changes what runs (a scale, a re-proposed
 * scale after a conflict, a drain mark, a cordon, an eviction) first asks {@link Freezes#begin}; once a
 * freeze covers the class, no write starts, even from a loop thread that was stuck in an earlier write when
 * the freeze was set. Applied once, to the set of ports ({@link #fence}): it replaces the four write ports
 * ({@link Scaling}, {@link DrainMarks}, {@link Nodes}, {@link Admissions}); reads, pauses and events are the same ports as before.
 * Each gated port is total (the ports have no defaults), so the compiler makes it forward every method.
 *
 * <p>Hand back (KEDA's pause removed), a kept pause and its end ({@code Pauses}) stay ungated by design: they
 * are clean-up, not actuation; a freeze promises that Headroom starts nothing that changes what runs, and
 * handing back is Headroom letting go; keeping a pause holds KEDA at the replicas the workload already has.
 * Gating them would leave a frozen class paused for ever after the console exits. The lease, in the
 * adapter, still fences them.
 */
final class GatedCluster {
    private final Freezes freezes;
    private final Function<WorkloadRef, String> classOf;

    private GatedCluster(Freezes freezes, Function<WorkloadRef, String> classOf) {
        this.freezes = freezes;
        this.classOf = classOf;
    }

    /** {@code ports} with its write ports behind the freeze gate. */
    static ClusterPorts fence(ClusterPorts ports, Freezes freezes, Function<WorkloadRef, String> classOf) {
        GatedCluster g = new GatedCluster(freezes, classOf);
        return ports.withWrites(g.new GatedScaling(ports.scaling()), g.new GatedMarks(ports.drainMarks()),
                g.new GatedNodes(ports.nodes())).withAdmissions(g.new GatedAdmissions(ports.admissions()));
    }

    private static String frozen(Freeze f) {
        return "frozen (" + f.reason() + "): not written";
    }

    /** Runs {@code write} unless a freeze covers {@code cls} (null: a global freeze only); else {@code refused}. */
    private <R> R gated(String cls, Function<Freeze, R> refused, Supplier<R> write) {
        Freeze f = freezes.begin(cls);
        if (f != null) {
            return refused.apply(f);
        }
        try {
            return write.get();
        } finally {
            freezes.end();
        }
    }

    private final class GatedScaling implements Scaling {
        private final Scaling real;

        GatedScaling(Scaling real) {
            this.real = real;
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
            return gated(classOf.apply(ref), f -> ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, frozen(f)),
                    () -> real.scale(ref, replicas, expectedResourceVersion));
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                                 Redecision.Redecider redecider, int maxAttempts) {
            return redeciding(ref, replicas, redecider,
                    r -> real.scale(ref, replicas, expectedResourceVersion, r, maxAttempts));
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion, ReplicaBump bump,
                                 Redecision.Redecider redecider, int maxAttempts) {
            return redeciding(ref, replicas, redecider,
                    r -> real.scale(ref, replicas, expectedResourceVersion, bump, r, maxAttempts));
        }

        /** A re-proposal after a conflict is a new write, which a freeze set meanwhile stops. */
        private ScaleResult redeciding(WorkloadRef ref, int replicas, Redecision.Redecider redecider,
                                       Function<Redecision.Redecider, ScaleResult> write) {
            String cls = classOf.apply(ref);
            return gated(cls, f -> ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, frozen(f)),
                    () -> write.apply(fresh -> {
                        Freeze now = freezes.covering(cls);
                        return now != null ? Redecision.giveUp("frozen meanwhile (" + now.reason() + ")")
                                : redecider.redecide(fresh);
                    }));
        }

        @Override
        public Optional<ReplicaBump> replicaBump(WorkloadRef ref) {
            return real.replicaBump(ref);
        }

        /** A dry run changes nothing: a freeze does not stop it. */
        @Override
        public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
            return real.dryRunScale(ref, replicas);
        }

        @Override
        public ActionCheck canScale(WorkloadRef ref) {
            return real.canScale(ref);
        }
    }

    /** Publishing admission changes what producers send: a freeze stops it. Expiring an entry gives back. */
    private final class GatedAdmissions implements Admissions {
        private final Admissions real;

        GatedAdmissions(Admissions real) {
            this.real = real;
        }

        @Override
        public AdmissionWrite publish(WorkloadRef ref, AdmissionEntry entry) {
            return gated(entry.className(), f -> AdmissionWrite.refused(frozen(f)), () -> real.publish(ref, entry));
        }

        /** Each class's freeze is checked as for its own write; the others' entries go on together. */
        @Override
        public Map<String, AdmissionWrite> refresh(String context, String namespace,
                                                   List<io.headroom.cluster.AdmissionRefresh> entries) {
            Map<String, AdmissionWrite> out = new java.util.LinkedHashMap<>();
            List<io.headroom.cluster.AdmissionRefresh> go = new java.util.ArrayList<>();
            for (io.headroom.cluster.AdmissionRefresh e : entries) {
                Freeze f = freezes.begin(e.entry().className()); // in flight until the write returns
                if (f != null) {
                    out.put(e.entry().className(), AdmissionWrite.refused(frozen(f)));
                } else {
                    go.add(e);
                }
            }
            if (go.isEmpty()) {
                return out;
            }
            try {
                out.putAll(real.refresh(context, namespace, go));
            } finally {
                go.forEach(e -> freezes.end());
            }
            return out;
        }

        @Override
        public AdmissionWrite expire(WorkloadRef ref, String className, Instant at, Instant decidedAt) {
            return real.expire(ref, className, at, decidedAt);
        }

        @Override
        public Optional<AdmissionEntry> published(WorkloadRef ref, String className) {
            return real.published(ref, className);
        }
    }

    private final class GatedMarks implements DrainMarks {
        private final DrainMarks real;

        GatedMarks(DrainMarks real) {
            this.real = real;
        }

        @Override
        public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
            return gated(classOf.apply(ref), f -> PodMarks.Result.refused(pods, frozen(f)),
                    () -> real.markForDrain(ref, pods, drainId));
        }

        @Override
        public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
            return gated(classOf.apply(ref), f -> PodMarks.Result.refused(pods, frozen(f)),
                    () -> real.markForDrain(ref, pods, drainId, expiresAt));
        }

        /** Removing marks gives pods back; a freeze does not stop it. */
        @Override
        public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
            return real.unmarkDrain(ref, pods, drainId);
        }

        @Override
        public List<PodMarks.Found> drainMarks(WorkloadRef ref) {
            return real.drainMarks(ref);
        }

        /** Clean-up gives pods back; a freeze does not stop it. */
        @Override
        public PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now) {
            return real.clearExpiredMarks(ref, marks, now);
        }
    }

    private final class GatedNodes implements Nodes {
        private final Nodes real;

        GatedNodes(Nodes real) {
            this.real = real;
        }

        @Override
        public List<NodeState> nodes(String context) {
            return real.nodes(context);
        }

        @Override
        public Optional<NodeState> node(NodeRef ref) {
            return real.node(ref);
        }

        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable) {
            return cordon(ref, unschedulable, null);
        }

        /** A cordon stops new pods landing, which changes what runs: a global freeze stops it; an uncordon gives back. */
        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
            if (!unschedulable) {
                return real.cordon(ref, false, null);
            }
            return gated(null, f -> NodeResult.failed(frozen(f)), () -> real.cordon(ref, true, mark));
        }

        /** An eviction removes capacity: a global freeze stops it (a class's freeze is checked by the node drain). */
        @Override
        public EvictionResult evict(String context, String namespace, String pod) {
            return gated(null, f -> EvictionResult.failed(frozen(f)), () -> real.evict(context, namespace, pod));
        }

        @Override
        public List<io.headroom.cluster.DisruptionBudget> budgets(String context, java.util.Collection<String> podKeys) {
            return real.budgets(context, podKeys);
        }
    }
}
