package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.WorkloadState;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every concern of the supervisor shares and none owns: the classes it supervises, who acts, the
 * journal its records go to, and the last thing done per class (a sentence the operator reads, written by
 * whichever concern acted last). Classes and last actions are changed on the loop's thread only.
 */
final class Ledger {
    final ClusterPorts cluster;
    final Journal journal;
    final Clock clock;
    final String user;
    /** Read from any thread (a freeze checks the class it names). */
    final Map<String, WorkloadClass> classes = new ConcurrentHashMap<>();
    /** The classes in the order they were first seen: the order the snapshot lists them in. */
    private final Set<String> order = new LinkedHashSet<>();
    private final Map<String, LastAction> lastActions = new HashMap<>();

    Ledger(List<WorkloadClass> classes, ClusterPorts cluster, Journal journal, Clock clock, String user) {
        classes.forEach(this::add);
        this.cluster = cluster;
        this.journal = journal;
        this.clock = clock;
        this.user = user;
    }

    /** A class the loop hands over that was not configured at the start (loop thread). */
    void add(WorkloadClass c) {
        classes.putIfAbsent(c.name(), c);
        order.add(c.name());
    }

    boolean knows(String className) {
        return order.contains(className);
    }

    List<String> names() {
        return List.copyOf(order);
    }

    WorkloadClass cls(String className) {
        return classes.get(className);
    }

    /** The class a write is for, its target or one of its pools' (the freeze gate asks; null when none). */
    String classOf(io.headroom.cluster.WorkloadRef ref) {
        for (WorkloadClass c : classes.values()) {
            if (c.scales(ref)) {
                return c.name();
            }
        }
        return null;
    }

    LastAction lastAction(String className) {
        return lastActions.get(className);
    }

    void did(String className, LastAction.Kind kind, String text) {
        lastActions.put(className, LastAction.of(kind, text));
    }

    /** A record naming the class's own context (several clusters may be open at once). */
    JournalRecord record(Instant at, Kind kind, String className) {
        WorkloadClass c = className == null ? null : classes.get(className);
        return JournalRecord.of(at, kind, user, c != null ? c.target().context() : cluster.contextName(), className);
    }

    /** Appends; false when the journal cannot be written (the state says so, from {@link Journal#failure()}). */
    boolean tryAppend(JournalRecord r) {
        try {
            journal.append(r);
            return true;
        } catch (JournalException e) {
            return false;
        }
    }

    /**
     * Appends, its team-timeline Event on {@code on} (a pool's workload) rather than the class's; throws as
     * {@link Journal#append} does.
     */
    JournalRecord append(JournalRecord r, io.headroom.cluster.WorkloadRef on) {
        return TeamTimeline.append(journal, r, on);
    }

    /** As {@link #tryAppend(JournalRecord)}, its Event on {@code on}. */
    boolean tryAppend(JournalRecord r, io.headroom.cluster.WorkloadRef on) {
        try {
            append(r, on);
            return true;
        } catch (JournalException e) {
            return false;
        }
    }

    static String unjournaled(JournalException e) {
        return "not journaled: " + e.getMessage();
    }

    /** A command's refusal for a record that could not be written. */
    static Outcome unjournaled(String what, JournalException e) {
        return Outcome.refused(Outcome.Why.UNJOURNALED, what + unjournaled(e));
    }

    /** A workload read for a command: the state, or the refusal that says why there is none. */
    record Read(WorkloadState get, Outcome refusal) {
    }

    Read read(WorkloadClass cls) {
        try {
            return cluster.workloads().workload(cls.target()).map(w -> new Read(w, null))
                    .orElse(new Read(null, Outcome.refused(Outcome.Why.CLUSTER, "workload " + cls.target()
                            + " not found")));
        } catch (RuntimeException e) {
            return new Read(null, Outcome.refused(Outcome.Why.CLUSTER, "could not read " + cls.target() + ": "
                    + e.getMessage()));
        }
    }
}
