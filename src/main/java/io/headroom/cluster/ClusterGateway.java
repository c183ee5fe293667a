package io.headroom.cluster;

import java.time.Instant;
import java.util.Optional;

/**
 * The console's one port to a cluster: read workload state, scale it. The sandbox implements it
 * for real use; {@code io.headroom.kube.KubeClusterGateway} implements it against a Kubernetes API.
 *
 * <p>Every method may be called from any thread but the FX thread; reads answer from a local cache
 * (a Kubernetes gateway watches, it does not poll). The defaults below describe a cluster where
 * Headroom is the only autoscaler and may do anything; adapters override what they know better.
 */
public interface ClusterGateway extends AutoCloseable {

    /** The kubeconfig context (or "sandbox") this gateway talks to. */
    String contextName();

    /** The workload's current state, or empty when it does not exist. Never blocks the FX thread's caller for long. */
    Optional<WorkloadState> workload(WorkloadRef ref);

    /**
     * Sets the workload's replicas. With a non-null {@code expectedResourceVersion}, a workload that
     * has moved since is not overwritten: the result is {@link ScaleResult.Outcome#CONFLICT}.
     */
    ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion);

    /**
     * Scales with optimistic concurrency and a second opinion: when the workload moved since
     * {@code expectedResourceVersion}, re-reads it and asks {@code redecider} what to do with the
     * fresh state, then re-proposes (up to {@code maxAttempts} writes) or gives up with the reason.
     * Never a blind overwrite.
     */
    default ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                              Redecision.Redecider redecider, int maxAttempts) {
        return redecided(this, ref, replicas, expectedResourceVersion, redecider, maxAttempts,
                (want, version) -> scale(ref, want, version));
    }

    /**
     * Scales as {@link #scale(WorkloadRef, int, String, Redecision.Redecider, int)} does, with Headroom's record of
     * a bump ({@link ReplicaBump}: a replacement's extra replica) in the same write; {@code bump} null removes any
     * such record in that write (replicas lowered back). The default keeps no record (the sandbox: its
     * workloads die with it).
     */
    default ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion, ReplicaBump bump,
                              Redecision.Redecider redecider, int maxAttempts) {
        return scale(ref, replicas, expectedResourceVersion, redecider, maxAttempts);
    }

    /**
     * The bump Headroom recorded on the workload, whoever did ({@link ReplicaBump}), read from the API server;
     * empty when there is none; throws, in words, when it cannot be read. The default records none.
     */
    default Optional<ReplicaBump> replicaBump(WorkloadRef ref) {
        return Optional.empty();
    }

    /** One write of a workload's replicas at an expected resourceVersion. */
    @FunctionalInterface
    interface Write {
        ScaleResult write(int replicas, String expectedResourceVersion);
    }

    /**
     * Writes with optimistic concurrency and a second opinion: on a conflict, re-reads the workload
     * ({@link #freshWorkload}) and asks {@code redecider}, up to {@code maxAttempts} writes. Never a blind overwrite.
     */
    static ScaleResult redecided(ClusterGateway cluster, WorkloadRef ref, int replicas, String expectedResourceVersion,
                                 Redecision.Redecider redecider, int maxAttempts, Write write) {
        int want = replicas;
        String version = expectedResourceVersion;
        ScaleResult last = null;
        for (int attempt = 1; attempt <= Math.max(1, maxAttempts); attempt++) {
            last = write.write(want, version);
            if (last.outcome() != ScaleResult.Outcome.CONFLICT) {
                return last;
            }
            Optional<WorkloadState> fresh;
            try {
                fresh = cluster.freshWorkload(ref);
            } catch (RuntimeException e) {
                return ScaleResult.of(ScaleResult.Outcome.FAILED, want, "re-read after a conflict failed: "
                        + e.getMessage());
            }
            if (fresh.isEmpty()) {
                return ScaleResult.of(ScaleResult.Outcome.FAILED, want, "workload " + ref + " disappeared after a conflict");
            }
            Redecision r = redecider.redecide(fresh.get());
            if (r.givesUp()) {
                return ScaleResult.of(ScaleResult.Outcome.CONFLICT, fresh.get().specReplicas(),
                        "workload moved (now " + fresh.get().specReplicas() + " replicas, resourceVersion "
                                + fresh.get().resourceVersion() + "); gave up: " + r.giveUpReason());
            }
            want = r.replicas();
            version = fresh.get().resourceVersion();
        }
        return ScaleResult.of(ScaleResult.Outcome.CONFLICT, want,
                "still conflicting after " + maxAttempts + " attempts (someone else keeps scaling): " + last.message());
    }

    /**
     * The workload as the cluster has it right now, for re-deciding after a conflict: a watch
     * cache may lag behind the write that conflicted, so adapters with a cache read the server.
     */
    default Optional<WorkloadState> freshWorkload(WorkloadRef ref) {
        return workload(ref);
    }

    /** A server-side dry run of {@link #scale}: would the change be accepted? Nothing changes. */
    default ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
        return workload(ref).map(w -> ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas,
                        "dry run: would scale " + w.specReplicas() + " → " + replicas))
                .orElse(ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "no workload " + ref));
    }

    /** Whether this console may scale the workload now, and why not (RBAC, another autoscaler, the lease). */
    default ActionCheck canScale(WorkloadRef ref) {
        return ActionCheck.allowed("scale " + ref);
    }

    /** Another autoscaler (HPA, KEDA) managing the workload, in its own terms; {@code NONE} when none. */
    default AutoscalerView autoscaler(WorkloadRef ref) {
        return AutoscalerView.none(ref);
    }

    /**
     * Hands a workload Headroom froze or overrode back to the autoscaler that owns it (KEDA: removes
     * {@code autoscaling.keda.sh/paused-replicas}). REFUSED when there is nothing to hand back.
     */
    default ScaleResult handBack(WorkloadRef ref) {
        return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, "no other autoscaler manages " + ref);
    }

    /**
     * Leaves a pause behind for after this console exits: writes {@code pause} as annotations on the
     * workload ({@link HeadroomPause#OWNER}, {@link HeadroomPause#UNTIL}, {@link HeadroomPause#REASON})
     * and, where KEDA scales it, on the ScaledObject, whose {@code paused-replicas} is set (to the
     * pause's replicas) when it is not already. The default refuses: this cluster keeps nothing once
     * the console is gone (the sandbox).
     */
    default ScaleResult keepPause(WorkloadRef ref, HeadroomPause pause) {
        return ScaleResult.of(ScaleResult.Outcome.REFUSED, pause.replicas() == null ? 0 : pause.replicas(),
                "this cluster cannot keep a pause after the console exits");
    }

    /**
     * Removes a kept pause's annotations from the workload (and its ScaledObject). APPLIED when there
     * was none. The default has nothing to remove.
     */
    default ScaleResult clearPause(WorkloadRef ref) {
        return ScaleResult.of(ScaleResult.Outcome.APPLIED, 0, "no pause recorded on " + ref);
    }

    /**
     * Removes Headroom's record of a pause ({@link HeadroomPause#OWNER}, {@link HeadroomPause#UNTIL},
     * {@link HeadroomPause#REASON}) from the workload and its ScaledObject, and leaves KEDA's
     * {@code paused-replicas} as it is: the pause is the operator's from now on, as if set by hand.
     * APPLIED when there was none. The default has nothing to remove.
     */
    default ScaleResult forgetPause(WorkloadRef ref) {
        return clearPause(ref);
    }

    /**
     * The pause Headroom left on the workload, whoever left it: kept at exit, or written by a scale on its
     * ScaledObject ({@link HeadroomPause}). Read from the API server (not a cache: a console that starts
     * asks before its watches have synced); empty when there is none; throws, in words, when it cannot be read.
     */
    default Optional<HeadroomPause> keptPause(WorkloadRef ref) {
        return Optional.empty();
    }

    /**
     * Marks pods for a drain ({@link PodMarks}): lowest deletion cost and the drain annotation with
     * {@code drainId}. Pods that are gone or not the workload's fail one by one, with the reason.
     * The default refuses: a cluster that cannot mark pods cannot drain.
     */
    default PodMarks.Result markForDrain(WorkloadRef ref, java.util.List<String> pods, String drainId) {
        return PodMarks.Result.refused(pods, "this cluster cannot mark pods");
    }

    /**
     * Marks pods as {@link #markForDrain(WorkloadRef, java.util.List, String)} does, with marks that
     * expire at {@code expiresAt} (null: the adapter's default, {@link PodMarks#DEFAULT_TTL} from now).
     * A cluster that cannot record an expiry marks without one (the sandbox: its marks die with it).
     */
    default PodMarks.Result markForDrain(WorkloadRef ref, java.util.List<String> pods, String drainId,
                                         Instant expiresAt) {
        return markForDrain(ref, pods, drainId);
    }

    /**
     * Removes drain {@code drainId}'s marks from pods and restores the deletion cost they replaced; a
     * pod that is gone counts as done, and one marked by another drain is left alone (and counts as
     * done: nothing of this drain's is on it).
     */
    default PodMarks.Result unmarkDrain(WorkloadRef ref, java.util.List<String> pods, String drainId) {
        return PodMarks.Result.refused(pods, "this cluster cannot mark pods");
    }

    /** Every drain mark on the workload's pods, as the cluster view shows them (a cache read). */
    default java.util.List<PodMarks.Found> drainMarks(WorkloadRef ref) {
        return workload(ref).map(w -> w.pods().stream().filter(PodState::draining)
                .map(p -> new PodMarks.Found(p.name(), p.drainId(), null, null)).toList()).orElse(java.util.List.of());
    }

    /**
     * Clears marks found expired ({@link PodMarks.Found#expiredAt}) whoever set them, restoring the prior
     * deletion cost; only where the pod still carries exactly that mark, still expired at {@code now}.
     * Not fenced by the lease: it gives pods back, and any console may (must) do it.
     */
    default PodMarks.Result clearExpiredMarks(WorkloadRef ref, java.util.List<PodMarks.Found> marks, Instant now) {
        return PodMarks.Result.refused(marks.stream().map(PodMarks.Found::pod).toList(),
                "this cluster cannot clear marks");
    }

    /** How live the gateway's view of the cluster is. */
    /**
     * Posts a Kubernetes Event on the workload (one team timeline: {@code kubectl describe}, k9s and
     * Lens show it). Best effort: the answer says whether it was written and, if not, why; it never
     * throws. The default writes nothing (a cluster without events, the sandbox).
     */
    default EventResult postEvent(WorkloadRef ref, TeamEvent event) {
        return EventResult.notPosted("this cluster takes no events");
    }

    /**
     * The Headroom events (reason {@code Headroom…}, posted by this console or another) the cluster
     * holds from {@code since} on (all when null), oldest first: the read side of the team timeline.
     * Best effort: what cannot be read is said in the answer, it never throws. May ask the API server:
     * never call it on the FX thread. The default: this cluster keeps no events.
     */
    default TimelineRead teamEvents(Instant since) {
        return TimelineRead.unsupported("this cluster keeps no events");
    }

    /** The nodes of {@code context} with the pods bound to each; empty when this cluster has none to show. */
    default java.util.List<NodeState> nodes(String context) {
        return java.util.List.of();
    }

    /** One node as the API server has it now (a read, not a cache), or empty when there is no such node. */
    default Optional<NodeState> node(NodeRef ref) {
        return nodes(ref.context()).stream().filter(n -> n.ref().name().equals(ref.name())).findFirst();
    }

    /**
     * Cordons ({@code unschedulable} true: no new pod is placed there) or uncordons a node, as
     * {@code kubectl cordon/uncordon} does. The default refuses: this cluster has no nodes to write.
     */
    default NodeResult cordon(NodeRef ref, boolean unschedulable) {
        return NodeResult.failed("this cluster cannot cordon nodes");
    }

    /**
     * Cordons a node and records on it who did, when and why ({@link CordonMark}), so a console that stops
     * mid-drain leaves a trace any console finds; uncordoning ({@code mark} null, {@code unschedulable}
     * false) removes the record too. The default cordons without a record (a cluster that keeps none).
     */
    default NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
        return cordon(ref, unschedulable);
    }

    /**
     * Asks the Eviction API (policy/v1) to evict one pod: the pod terminates with its own grace period,
     * unless a PodDisruptionBudget refuses (HTTP 429, the budget named). Never a delete, never grace 0.
     */
    default EvictionResult evict(String context, String namespace, String pod) {
        return EvictionResult.failed("this cluster cannot evict pods");
    }

    /** Posts a Kubernetes Event on a node (a node drain's timeline); best effort, as {@link #postEvent}. */
    default EventResult postNodeEvent(NodeRef ref, TeamEvent event) {
        return EventResult.notPosted("this cluster takes no events");
    }

    /** The default: a gateway that reports nothing else is seen whole, and knows no time of a last change. */
    default ClusterHealth health() {
        return ClusterHealth.live(null);
    }

    @Override
    default void close() {
    }
}
