package io.headroom.supervise;

import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.ClusterGateway;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The cluster as the supervisor writes to it: every write that changes what runs (a scale, a
 * re-proposed scale after a conflict, a drain mark) first asks {@link Freezes#begin}; once a
 * freeze covers the class, no write starts, even from a loop thread that was stuck in an earlier
 * write when the freeze was set. Reads and clean-up (removing drain marks) pass straight through.
 */
final class GatedCluster implements ClusterGateway {
    private final ClusterGateway real;
    private final Freezes freezes;
    private final Function<WorkloadRef, String> classOf;

    GatedCluster(ClusterGateway real, Freezes freezes, Function<WorkloadRef, String> classOf) {
        this.real = real;
        this.freezes = freezes;
        this.classOf = classOf;
    }

    private static String frozen(Freeze f) {
        return "frozen (" + f.reason() + "): not written";
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
        Freeze f = freezes.begin(classOf.apply(ref));
        if (f != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, frozen(f));
        }
        try {
            return real.scale(ref, replicas, expectedResourceVersion);
        } finally {
            freezes.end();
        }
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                             Redecision.Redecider redecider, int maxAttempts) {
        return redeciding(ref, replicas, redecider, r -> real.scale(ref, replicas, expectedResourceVersion, r, maxAttempts));
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                             io.headroom.cluster.ReplicaBump bump, Redecision.Redecider redecider, int maxAttempts) {
        return redeciding(ref, replicas, redecider,
                r -> real.scale(ref, replicas, expectedResourceVersion, bump, r, maxAttempts));
    }

    /** A write that re-decides on a conflict, through the gate: a re-proposal is a new write, which a freeze set meanwhile stops. */
    private ScaleResult redeciding(WorkloadRef ref, int replicas, Redecision.Redecider redecider,
                                   Function<Redecision.Redecider, ScaleResult> write) {
        String cls = classOf.apply(ref);
        Freeze f = freezes.begin(cls);
        if (f != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, frozen(f));
        }
        try {
            return write.apply(fresh -> {
                Freeze now = freezes.covering(cls);
                return now != null ? Redecision.giveUp("frozen meanwhile (" + now.reason() + ")")
                        : redecider.redecide(fresh);
            });
        } finally {
            freezes.end();
        }
    }

    @Override
    public Optional<io.headroom.cluster.ReplicaBump> replicaBump(WorkloadRef ref) {
        return real.replicaBump(ref);
    }

    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
        Freeze f = freezes.begin(classOf.apply(ref));
        if (f != null) {
            return PodMarks.Result.refused(pods, frozen(f));
        }
        try {
            return real.markForDrain(ref, pods, drainId);
        } finally {
            freezes.end();
        }
    }

    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
        Freeze f = freezes.begin(classOf.apply(ref));
        if (f != null) {
            return PodMarks.Result.refused(pods, frozen(f));
        }
        try {
            return real.markForDrain(ref, pods, drainId, expiresAt);
        } finally {
            freezes.end();
        }
    }

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

    /** An event records what was done; a freeze does not stop it. */
    @Override
    public io.headroom.cluster.TimelineRead teamEvents(Instant since) {
        return real.teamEvents(since);
    }

    @Override
    public io.headroom.cluster.EventResult postEvent(WorkloadRef ref, io.headroom.cluster.TeamEvent event) {
        return real.postEvent(ref, event);
    }

    @Override
    public List<io.headroom.cluster.NodeState> nodes(String context) {
        return real.nodes(context);
    }

    @Override
    public Optional<io.headroom.cluster.NodeState> node(io.headroom.cluster.NodeRef ref) {
        return real.node(ref);
    }

    /** A cordon stops new pods landing, which changes what runs: a global freeze stops it; an uncordon gives back. */
    @Override
    public io.headroom.cluster.NodeResult cordon(io.headroom.cluster.NodeRef ref, boolean unschedulable) {
        return cordon(ref, unschedulable, null);
    }

    @Override
    public io.headroom.cluster.NodeResult cordon(io.headroom.cluster.NodeRef ref, boolean unschedulable,
                                                 io.headroom.cluster.CordonMark mark) {
        if (!unschedulable) {
            return real.cordon(ref, false, null);
        }
        Freeze f = freezes.begin(null);
        if (f != null) {
            return io.headroom.cluster.NodeResult.failed(frozen(f));
        }
        try {
            return real.cordon(ref, true, mark);
        } finally {
            freezes.end();
        }
    }

    /** An eviction removes capacity: a global freeze stops it (a class's freeze is checked by the node drain). */
    @Override
    public io.headroom.cluster.EvictionResult evict(String context, String namespace, String pod) {
        Freeze f = freezes.begin(null);
        if (f != null) {
            return io.headroom.cluster.EvictionResult.failed(frozen(f));
        }
        try {
            return real.evict(context, namespace, pod);
        } finally {
            freezes.end();
        }
    }

    @Override
    public io.headroom.cluster.EventResult postNodeEvent(io.headroom.cluster.NodeRef ref,
                                                         io.headroom.cluster.TeamEvent event) {
        return real.postNodeEvent(ref, event);
    }

    @Override
    public String contextName() {
        return real.contextName();
    }

    @Override
    public Optional<WorkloadState> workload(WorkloadRef ref) {
        return real.workload(ref);
    }

    @Override
    public Optional<WorkloadState> freshWorkload(WorkloadRef ref) {
        return real.freshWorkload(ref);
    }

    @Override
    public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
        return real.dryRunScale(ref, replicas);
    }

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        return real.canScale(ref);
    }

    @Override
    public AutoscalerView autoscaler(WorkloadRef ref) {
        return real.autoscaler(ref);
    }

    /*
     * Hand back (KEDA's pause removed), a kept pause and its end pass straight through, ungated by design.
     * They are clean-up, not actuation: a freeze promises that Headroom starts nothing that changes what
     * runs, and handing back is Headroom letting go (the exit lifts the class's freeze itself first, and
     * KEDA or the HPA then scales by its own rules); keeping a pause only writes who/until annotations and
     * holds KEDA at the replicas the workload already has, which is what a freeze wants. Gating them would
     * leave a frozen class paused for ever after the console exits. They stay fenced by the Lease in the
     * gateway, and the hand-back runs on the session's own cluster, not through this gate.
     */
    @Override
    public ScaleResult handBack(WorkloadRef ref) {
        return real.handBack(ref);
    }

    @Override
    public ScaleResult keepPause(WorkloadRef ref, io.headroom.cluster.HeadroomPause pause) {
        return real.keepPause(ref, pause);
    }

    @Override
    public ScaleResult clearPause(WorkloadRef ref) {
        return real.clearPause(ref);
    }

    @Override
    public ScaleResult forgetPause(WorkloadRef ref) {
        return real.forgetPause(ref);
    }

    @Override
    public java.util.Optional<io.headroom.cluster.HeadroomPause> keptPause(WorkloadRef ref) {
        return real.keptPause(ref);
    }

    @Override
    public ClusterHealth health() {
        return real.health();
    }

    /** The supervisor does not own the cluster: closing the gate leaves it open. */
    @Override
    public void close() {
    }
}
