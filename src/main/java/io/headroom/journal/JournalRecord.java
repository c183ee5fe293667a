package io.headroom.journal;

import java.time.Instant;
import java.util.Objects;

/**
 * One journal entry: who did what to which class, when, on which cluster, with the numbers
 * before and after and the reason. Fields that do not apply to a kind are null.
 *
 * @param seq position in the journal, from 1; assigned by the journal on append
 * @param until when a freeze, override or proposal ends
 * @param detail free text: the decision's explanation, an error message, a mode name
 * @param node   the node a node drain, cordon or eviction was about; null for everything else
 */
public record JournalRecord(long seq, Instant at, Kind kind, String user, String context, String className,
                            Integer before, Integer after, String reason, String detail, String proposalId,
                            Instant until, String node) {

    /** What happened. */
    public enum Kind {
        PROPOSED, SUPERSEDED, WITHDRAWN, EXPIRED, APPROVED, REJECTED,
        OVERRIDE_SET, OVERRIDE_CLEARED, OVERRIDE_EXPIRED,
        FROZEN, UNFROZEN, FREEZE_EXPIRED,
        MODE_CHANGED,
        /** A scale about to be written (the intent); APPLIED or FAILED follows for the same class. */
        SCALING,
        APPLIED, FAILED,
        DRAIN_STARTED, DRAIN_ENDED,
        /**
         * A console took up a drain the journal started and never ended (a replacement a console stopped in): where
         * it stood and what comes next in the detail; its {@code DRAIN_ENDED} follows as for any drain.
         */
        DRAIN_RESUMED,
        /** Drain marks that could not be removed when their drain ended were removed later. */
        DRAIN_UNMARKED,
        /** A console went live on this journal: its build (version, commit, build time) in the detail. */
        CONSOLE_OPENED,
        /** An operator changed a class's live policy in this console (the changes in the detail). */
        POLICY_EDITED,
        /** A class's live policy went back to the workloads file's. */
        POLICY_REVERTED,
        /** An operator wrote a policy edit into the workloads file (file and changes in the detail). */
        POLICY_SAVED,
        /**
         * An operator put a workloads file back as it was before a save from the console (its own kind, not an
         * undo of the supervisor's: the file, the class and the changes taken back in the detail).
         */
        POLICY_SAVE_REVERTED,
        /** A node drain began (the intent: its node is cordoned, its pods evicted, Headroom's drained first). */
        NODE_DRAIN_STARTED,
        /** A node was cordoned (no new pods placed on it). */
        NODE_CORDONED,
        /** The Eviction API accepted a pod's eviction: it terminates with its grace period. */
        POD_EVICTED,
        /** An eviction was refused (HTTP 429 from a PodDisruptionBudget, named) or failed; it is retried with back-off. */
        EVICTION_REFUSED,
        NODE_DRAIN_ENDED,
        /** A node was uncordoned by the operator. */
        NODE_UNCORDONED,
        /**
         * A hand-back is about to be attempted (the intent): at exit, Headroom's holds on a class and KEDA's
         * pause; at start, a leftover found on the cluster (a pause, drain marks, a cordon), handed back or
         * its record cleared as chosen. {@code HANDED_BACK} or {@code HAND_BACK_REFUSED} follows.
         */
        HANDING_BACK,
        /**
         * The cluster confirmed a hand-back journaled as {@code HANDING_BACK}: KEDA's pause removed, the
         * leftover undone or its record cleared; then (at exit) the class's freeze, override or auto mode
         * were lifted, each journaled before. What was done in the detail.
         */
        HANDED_BACK,
        /** At exit the operator kept a class's pause: owner and expiry ({@code until}) written on the workload. */
        PAUSE_KEPT,
        /**
         * A hand-back or a kept pause (journaled just before as {@code HANDING_BACK} or {@code PAUSE_KEPT})
         * was not written to the cluster: another console holds the class's Lease, the API server refused
         * or could not be reached (why, in words). Nothing was lifted: the class stays held and the pause,
         * with its owner and expiry, stays on the cluster for the next console to offer.
         */
        HAND_BACK_REFUSED,
        /** At start the operator kept a leftover found on the cluster as it was (what, whose, until when). */
        LEFTOVER_KEPT,
        /** A ScaledObject is about to be applied from the console (the reviewed difference in the detail). */
        SCALED_OBJECT_APPLYING,
        /** The ScaledObject was written (its resourceVersion in the detail). */
        SCALED_OBJECT_APPLIED,
        /** The ScaledObject was not written: the server refused, or it changed since it was reviewed. */
        SCALED_OBJECT_REFUSED,
        /**
         * The operator undid an earlier action (reason: what was undone); the undoing change itself
         * is journaled before it, as its own kind, so a replay needs nothing from this record.
         */
        UNDONE,
        /** A tightening of a class's admission awaits the operator (supervised mode): the verdict in the reason. */
        ADMISSION_PROPOSED,
        /** The operator rejected a proposed tightening of admission; the same verdict is not proposed again. */
        ADMISSION_REJECTED,
        /** A class's admission is about to be written for producers (the intent): the verdict in the reason. */
        ADMISSION_PUBLISHING,
        /** The cluster took the admission journaled as {@code ADMISSION_PUBLISHING} (its expiry in {@code until}). */
        ADMISSION_PUBLISHED,
        /** The admission journaled as {@code ADMISSION_PUBLISHING} was not written (why, in the detail). */
        ADMISSION_FAILED,
        /**
         * Ahead of a forecast rise, a floor awaits the operator (forecast mode propose; issue 29): the replicas now
         * and the floor's in {@code before}/{@code after}, the proposal's expiry (the rise) in {@code until}, the
         * proposal in words in the reason, the floor's start and end and the forecast in the detail
         * ("from 2026-01-02T08:52:00Z until 2026-01-02T09:15:00Z · the last 5 …").
         */
        FORECAST_FLOOR_PROPOSED,
        /**
         * A forecast floor is held from now on (approved by the operator, or applied by forecast mode auto, said in
         * the reason): the floor's replicas in {@code after}, its end in {@code until}, the detail as a proposal's.
         */
        FORECAST_FLOOR_APPROVED,
        /** The operator rejected a proposed forecast floor (the reason typed); that rise is not proposed again. */
        FORECAST_FLOOR_REJECTED,
        /** A proposed forecast floor left the inbox unapproved (the rise passed, or it is no longer needed: the reason). */
        FORECAST_FLOOR_WITHDRAWN,
        /** A held forecast floor reached its end: the reactive decision alone rules again. */
        FORECAST_FLOOR_LAPSED,
        /** A held forecast floor was taken away before its end (the operator, an undo, the class's forecast mode). */
        FORECAST_FLOOR_CANCELLED;

        /**
         * A record of a drain's progress, kept with the drain until it ends (a snapshot keeps them, the replay
         * hands them to the console that takes an unfinished drain up): outcomes of its scales, its evictions, a
         * resumption. Not a scale's intent ({@code SCALING}): without its outcome it says nothing of how far the
         * drain got, and the replay pairs it with the next outcome of the class, as it does every scale's.
         */
        public static boolean drainProgress(Kind k) {
            return k == APPLIED || k == FAILED || k == POD_EVICTED || k == EVICTION_REFUSED || k == DRAIN_RESUMED;
        }
    }

    public JournalRecord {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(user, "user");
    }

    /** A record to append; the journal assigns the sequence number. */
    public static JournalRecord of(Instant at, Kind kind, String user, String context, String className) {
        return new JournalRecord(0, at, kind, user, context, className, null, null, null, null, null, null, null);
    }

    public JournalRecord withSeq(long s) {
        return new JournalRecord(s, at, kind, user, context, className, before, after, reason, detail, proposalId,
                until, node);
    }

    public JournalRecord change(Integer from, Integer to) {
        return new JournalRecord(seq, at, kind, user, context, className, from, to, reason, detail, proposalId, until, node);
    }

    public JournalRecord reason(String r) {
        return new JournalRecord(seq, at, kind, user, context, className, before, after, r, detail, proposalId, until, node);
    }

    public JournalRecord detail(String d) {
        return new JournalRecord(seq, at, kind, user, context, className, before, after, reason, d, proposalId, until, node);
    }

    public JournalRecord proposal(String id) {
        return new JournalRecord(seq, at, kind, user, context, className, before, after, reason, detail, id, until, node);
    }

    public JournalRecord until(Instant u) {
        return new JournalRecord(seq, at, kind, user, context, className, before, after, reason, detail, proposalId,
                u, node);
    }

    /** The same record about {@code n}, a node. */
    public JournalRecord node(String n) {
        return new JournalRecord(seq, at, kind, user, context, className, before, after, reason, detail, proposalId,
                until, n);
    }
}
