package io.headroom.session;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.CordonMark;
import io.headroom.cluster.HeadroomPause;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.ReplicaBump;
import io.headroom.cluster.WorkloadRef;
import java.time.Instant;
import java.util.List;

/**
 * Something Headroom wrote on a cluster that is still there when a console starts, whoever left it
 * (this user before a restart, another console, one that died): a pause, a drain's marks, a cordon, replicas
 * raised for a replacement, admission published for producers. Each
 * names its owner and its expiry as the object carries them, and what handing it back, keeping it or
 * clearing it would do. Found and settled by {@link Leftovers}.
 */
public sealed interface Leftover {

    /** What the operator may choose for a leftover. */
    enum Choice {
        /** Undo it: KEDA autoscales again, the marks go and the deletion cost comes back, the node is uncordoned. */
        HAND_BACK,
        /** Leave it as it is (offered again at the next start). */
        KEEP,
        /** Remove Headroom's record of it only: the effect stays, as if done by hand (a KEDA pause). */
        CLEAR
    }

    /** A key that names this leftover among the others (view ids, choices). */
    String key();

    /** The kubeconfig context it is in. */
    String context();

    /** Who left it: a console's identity or an operator, as written on the object. */
    String owner();

    /** When it expires by its owner's clock; null when the object does not say (it never expires). */
    Instant expires();

    /** What it is, in words: "KEDA paused at 5 on Deployment shop/orders (class orders)". */
    String what();

    /** The choices it offers, the one that undoes it first. */
    List<Choice> choices();

    /** What a choice does to it, in words, for the button. */
    String choiceText(Choice c);

    /** True once its expiry has passed: then handing it back is the default. */
    default boolean expiredAt(Instant now) {
        return expires() != null && !now.isBefore(expires());
    }

    /** Hand back once expired; keep while its owner may still be using it. */
    default Choice defaultChoice(Instant now) {
        return expiredAt(now) ? Choice.HAND_BACK : Choice.KEEP;
    }

    /** "by ana@desk-1/5f3a, expired 13:05" or "…, until 14:05", in the object's own terms. */
    default String whose(Instant now) {
        return "by " + owner() + (expires() == null ? ", with no expiry"
                : (expiredAt(now) ? ", expired " : ", until ") + expires());
    }

    /**
     * A pause Headroom left on a class's workload: KEDA's {@code paused-replicas} with Headroom's owner and
     * expiry on the ScaledObject (a scale wrote it, or a pause kept at exit), or a kept pause on the workload.
     */
    record Pause(String className, WorkloadRef workload, HeadroomPause pause) implements Leftover {
        @Override
        public String key() {
            return "pause-" + className;
        }

        @Override
        public String context() {
            return workload.context();
        }

        @Override
        public String owner() {
            return pause.owner();
        }

        @Override
        public Instant expires() {
            return pause.until();
        }

        @Override
        public String what() {
            return (pause.replicas() == null ? "paused" : "KEDA paused at " + pause.replicas()) + " on "
                    + workload.kind() + " " + workload.namespace() + "/" + workload.name() + " (class " + className + ")"
                    + (pause.reason().isBlank() ? "" : ": " + pause.reason());
        }

        /** Clearing only makes sense where KEDA's pause would stay behind as the operator's. */
        @Override
        public List<Choice> choices() {
            return pause.replicas() == null ? List.of(Choice.HAND_BACK, Choice.KEEP)
                    : List.of(Choice.HAND_BACK, Choice.KEEP, Choice.CLEAR);
        }

        @Override
        public String choiceText(Choice c) {
            return switch (c) {
                case HAND_BACK -> pause.replicas() == null ? "Hand back (end the pause; Headroom's holds on "
                        + className + " lifted)" : "Hand back to KEDA (it autoscales again; Headroom's holds on "
                        + className + " lifted)";
                case KEEP -> "Keep it";
                case CLEAR -> "Clear Headroom's record (KEDA stays paused at " + pause.replicas() + ", as if by hand)";
            };
        }
    }

    /** A drain's marks on a class's pods (lowest deletion cost, {@code headroom.io/drain}), with their owner and expiry. */
    record Marks(String className, WorkloadRef workload, String drainId, List<PodMarks.Found> marks) implements Leftover {
        public Marks {
            marks = List.copyOf(marks);
        }

        @Override
        public String key() {
            return "marks-" + className + "-" + drainId;
        }

        @Override
        public String context() {
            return workload.context();
        }

        @Override
        public String owner() {
            String o = marks.isEmpty() ? null : marks.get(0).owner();
            return o == null ? "an unknown console" : o;
        }

        /** The latest expiry of its marks; null when one of them has none. */
        @Override
        public Instant expires() {
            Instant last = null;
            for (PodMarks.Found f : marks) {
                if (f.expiresAt() == null) {
                    return null;
                }
                last = last == null || f.expiresAt().isAfter(last) ? f.expiresAt() : last;
            }
            return last;
        }

        public List<String> pods() {
            return marks.stream().map(PodMarks.Found::pod).toList();
        }

        @Override
        public String what() {
            return "drain " + drainId + " marks " + String.join(", ", pods()) + " of " + workload.kind() + " "
                    + workload.namespace() + "/" + workload.name() + " (class " + className + ")";
        }

        @Override
        public List<Choice> choices() {
            return List.of(Choice.HAND_BACK, Choice.KEEP);
        }

        @Override
        public String choiceText(Choice c) {
            return c == Choice.HAND_BACK ? "Remove the marks (their deletion cost restored)" : "Keep them";
        }
    }

    /** A node Headroom cordoned for a node drain, with the record it left on the node. */
    record Cordon(NodeRef node, CordonMark mark) implements Leftover {
        @Override
        public String key() {
            return "cordon-" + node.context() + "-" + node.name();
        }

        @Override
        public String context() {
            return node.context();
        }

        @Override
        public String owner() {
            return mark.by() == null ? "an unknown console" : mark.by();
        }

        @Override
        public Instant expires() {
            return mark.expires();
        }

        @Override
        public String what() {
            return "node " + node.name() + " (" + node.context() + ") cordoned" + (mark.drainId() == null ? ""
                    : " for " + mark.drainId()) + (mark.why() == null || mark.why().isBlank() ? "" : ": " + mark.why());
        }

        @Override
        public List<Choice> choices() {
            return List.of(Choice.HAND_BACK, Choice.KEEP);
        }

        @Override
        public String choiceText(Choice c) {
            return c == Choice.HAND_BACK ? "Uncordon (new pods may be placed there again)" : "Keep it cordoned";
        }

        /** Kept by default, expired or not: a drain that completed leaves its node cordoned on purpose. */
        @Override
        public Choice defaultChoice(Instant now) {
            return Choice.KEEP;
        }
    }

    /**
     * Replicas Headroom raised for a while (a replacement's extra replica) and never lowered back, with the
     * record it wrote beside them.
     *
     * @param replicasNow     the workload's replicas when it was found
     * @param resourceVersion the workload's version when it was found: a write changes nothing that moved since
     */
    record Bump(String className, WorkloadRef workload, ReplicaBump bump, int replicasNow, String resourceVersion)
            implements Leftover {
        @Override
        public String key() {
            return "bump-" + className;
        }

        @Override
        public String context() {
            return workload.context();
        }

        @Override
        public String owner() {
            return bump.owner();
        }

        @Override
        public Instant expires() {
            return bump.until();
        }

        /** Still at the count it was raised to, with a count before it that can be restored. */
        public boolean stillRaised() {
            return replicasNow == bump.to() && bump.from() >= 0;
        }

        @Override
        public String what() {
            return "replicas of " + workload.kind() + " " + workload.namespace() + "/" + workload.name() + " (class "
                    + className + ") raised " + (bump.from() < 0 ? "?" : bump.from()) + " → "
                    + (bump.to() < 0 ? "?" : bump.to()) + (bump.reason().isBlank() ? "" : ": " + bump.reason())
                    + (stillRaised() ? "" : "; now " + replicasNow);
        }

        @Override
        public List<Choice> choices() {
            return stillRaised() ? List.of(Choice.HAND_BACK, Choice.KEEP, Choice.CLEAR) : List.of(Choice.KEEP, Choice.CLEAR);
        }

        @Override
        public String choiceText(Choice c) {
            return switch (c) {
                case HAND_BACK -> "Lower them back to " + bump.from();
                case KEEP -> "Keep it";
                case CLEAR -> "Clear Headroom's record (replicas stay at " + replicasNow + ")";
            };
        }

        /** Once expired: lowered back while still raised, else only the stale record cleared. */
        @Override
        public Choice defaultChoice(Instant now) {
            return !expiredAt(now) ? Choice.KEEP : stillRaised() ? Choice.HAND_BACK : Choice.CLEAR;
        }
    }

    /**
     * Admission this console's operator published for producers (ADR 0027) that nothing refreshes now and that
     * has not expired: left by a console that stopped without handing it back (a crash), or set OPEN for hours
     * at exit. Expiring it now gives producers their own default at once; kept, it expires by itself.
     */
    record Admission(String className, WorkloadRef workload, AdmissionEntry entry) implements Leftover {
        @Override
        public String key() {
            return "admission-" + className;
        }

        @Override
        public String context() {
            return workload.context();
        }

        @Override
        public String owner() {
            return entry.owner().isBlank() ? "an unknown console" : entry.owner();
        }

        @Override
        public Instant expires() {
            return entry.expiresAt();
        }

        @Override
        public String what() {
            return "admission " + entry.label() + " for the producers of class " + className + " (ConfigMap "
                    + workload.namespace() + "/" + AdmissionEntry.CONFIG_MAP + ")"
                    + (entry.reason().isBlank() ? "" : ": " + entry.reason());
        }

        @Override
        public List<Choice> choices() {
            return List.of(Choice.HAND_BACK, Choice.KEEP);
        }

        @Override
        public String choiceText(Choice c) {
            return c == Choice.HAND_BACK ? "Expire it now (producers apply their own default)"
                    : "Keep it until it expires (" + entry.expiresAt() + ")";
        }
    }
}
