package io.headroom.session;

import io.headroom.cluster.ClusterPorts;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Supervisor;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * What every hand-back shares (design.md §4, ADR 0027): the supervisor whose holds it lifts, the session's own
 * cluster (not the freeze gate: giving back is clean-up), the journal, the classes, the clock and the I/O
 * executor; and its step: the intent journaled before the cluster is written ({@code HANDING_BACK}), the outcome
 * after it answers ({@code HANDED_BACK} or {@code HAND_BACK_REFUSED}). Used by {@link HandBack} (KEDA's pauses,
 * kept pauses), {@link AdmissionHandBack} (admission published for producers) and {@link Leftovers}.
 */
final class HandBackStep {
    final Supervisor supervisor;
    final ClusterPorts cluster;
    final Supplier<Journal> journal;
    final Supplier<List<WorkloadClass>> classes;
    final Clock clock;
    final Executor io;

    HandBackStep(Supervisor supervisor, ClusterPorts cluster, Supplier<Journal> journal,
                 Supplier<List<WorkloadClass>> classes, Clock clock, Executor io) {
        this.supervisor = supervisor;
        this.cluster = cluster;
        this.journal = journal;
        this.classes = classes;
        this.clock = clock;
        this.io = io;
    }

    /**
     * Journals a hand-back's intent before anything is written: null once it is on disk, else why not (then
     * nothing may be written).
     */
    String intent(JournalRecord intent) {
        try {
            journal.get().append(intent);
            return null;
        } catch (JournalException e) {
            return e.getMessage();
        }
    }

    /** Journals the outcome the cluster gave: null once written, else why not (what was done stands). */
    String outcome(JournalRecord outcome) {
        try {
            journal.get().append(outcome);
            return null;
        } catch (JournalException e) {
            return e.getMessage();
        }
    }
}
