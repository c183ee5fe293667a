package io.headroom.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The ports of a cluster that lacks them (the sandbox keeps no pause after exit and takes no events;
 * {@code headroom plan} writes nothing): each refuses in words, or reads as empty. Named adapters, chosen
 * where the ports are assembled, instead of defaults a wrapper could forget to forward.
 */
public final class Unsupported {
    private Unsupported() {
    }

    /** A cluster that keeps nothing once the console is gone: nothing to hand back, keep or clear. */
    public static Pauses pauses() {
        return new Pauses() {
            @Override
            public ScaleResult handBack(WorkloadRef ref) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, "no other autoscaler manages " + ref);
            }

            @Override
            public ScaleResult keepPause(WorkloadRef ref, HeadroomPause pause) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, pause.replicas() == null ? 0 : pause.replicas(),
                        "this cluster cannot keep a pause after the console exits");
            }

            @Override
            public ScaleResult clearPause(WorkloadRef ref) {
                return ScaleResult.of(ScaleResult.Outcome.APPLIED, 0, "no pause recorded on " + ref);
            }

            @Override
            public ScaleResult forgetPause(WorkloadRef ref) {
                return clearPause(ref);
            }

            @Override
            public Optional<HeadroomPause> keptPause(WorkloadRef ref) {
                return Optional.empty();
            }
        };
    }

    /** A cluster that cannot mark pods, so cannot drain; the marks it shows are its pods' drain flags. */
    public static DrainMarks drainMarks(Workloads workloads) {
        return new DrainMarks() {
            @Override
            public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
                return PodMarks.Result.refused(pods, "this cluster cannot mark pods");
            }

            @Override
            public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
                return markForDrain(ref, pods, drainId);
            }

            @Override
            public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
                return markForDrain(ref, pods, drainId);
            }

            @Override
            public List<PodMarks.Found> drainMarks(WorkloadRef ref) {
                return foundOn(workloads, ref);
            }

            @Override
            public PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now) {
                return PodMarks.Result.refused(marks.stream().map(PodMarks.Found::pod).toList(),
                        "this cluster cannot clear marks");
            }
        };
    }

    /** The drain marks a cluster without annotations shows: its pods' drain flags, with no expiry. */
    public static List<PodMarks.Found> foundOn(Workloads workloads, WorkloadRef ref) {
        return workloads.workload(ref).map(w -> w.pods().stream().filter(PodState::draining)
                .map(p -> new PodMarks.Found(p.name(), p.drainId(), null, null)).toList()).orElse(List.of());
    }

    /** A cluster with no nodes to show or write. */
    public static Nodes nodes() {
        return new Nodes() {
            @Override
            public List<NodeState> nodes(String context) {
                return List.of();
            }

            @Override
            public Optional<NodeState> node(NodeRef ref) {
                return Optional.empty();
            }

            @Override
            public NodeResult cordon(NodeRef ref, boolean unschedulable) {
                return NodeResult.failed("this cluster cannot cordon nodes");
            }

            @Override
            public NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
                return cordon(ref, unschedulable);
            }

            @Override
            public EvictionResult evict(String context, String namespace, String pod) {
                return EvictionResult.failed("this cluster cannot evict pods");
            }

            @Override
            public List<DisruptionBudget> budgets(String context, java.util.Collection<String> podKeys) {
                return List.of();
            }
        };
    }

    /** A cluster that takes and keeps no events; {@code why} is what the journal window says. */
    public static TeamEvents events(String why) {
        return new TeamEvents() {
            @Override
            public EventResult postEvent(WorkloadRef ref, TeamEvent event) {
                return EventResult.notPosted("this cluster takes no events");
            }

            @Override
            public EventResult postNodeEvent(NodeRef ref, TeamEvent event) {
                return EventResult.notPosted("this cluster takes no events");
            }

            @Override
            public TimelineRead teamEvents(Instant since) {
                return TimelineRead.unsupported(why);
            }
        };
    }

    /** A cluster where no producer reads admission ({@code headroom plan}): nothing written, nothing to expire. */
    public static Admissions admissions() {
        return new Admissions() {
            @Override
            public AdmissionWrite publish(WorkloadRef ref, AdmissionEntry entry) {
                return AdmissionWrite.refused("this cluster takes no admission");
            }

            @Override
            public java.util.Map<String, AdmissionWrite> refresh(String context, String namespace,
                                                                 List<AdmissionRefresh> entries) {
                java.util.Map<String, AdmissionWrite> out = new java.util.LinkedHashMap<>();
                entries.forEach(e -> out.put(e.entry().className(), AdmissionWrite.refused("this cluster takes no admission")));
                return out;
            }

            @Override
            public AdmissionWrite expire(WorkloadRef ref, String className, Instant at, Instant decidedAt) {
                return AdmissionWrite.applied("no admission published for " + className);
            }

            @Override
            public Optional<AdmissionEntry> published(WorkloadRef ref, String className) {
                return Optional.empty();
            }
        };
    }
}
