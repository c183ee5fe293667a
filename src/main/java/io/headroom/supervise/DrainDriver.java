package io.headroom.supervise;

import io.headroom.cluster.ClusterGateway;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ScaleResult;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainAction;
import io.headroom.drain.DrainStep;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Carries out what drain steps ask ({@link DrainAction}s) against the cluster, feeds the results
 * back into {@link DrainStep}, and journals the replica change and the drain's end. Loop thread
 * only, like the supervisor that owns it.
 */
final class DrainDriver {

    /** Makes a journal record naming the class's context and the acting user. */
    interface Records {
        JournalRecord record(Instant at, Kind kind, String className);
    }

    private final ClusterGateway cluster;
    private final Journal journal;
    private final Records records;
    private volatile Function<String, Map<String, Double>> podLoad = c -> Map.of();
    /** Marks that could not be removed (an API error), per class: pod → drain id, retried every tick until gone. */
    private final Map<String, Map<String, String>> leftovers = new java.util.HashMap<>();

    DrainDriver(ClusterGateway cluster, Journal journal, Records records) {
        this.cluster = cluster;
        this.journal = journal;
        this.records = records;
    }

    void setPodLoad(Function<String, Map<String, Double>> load) {
        this.podLoad = load;
    }

    /** Jobs in flight per pod; empty when the source cannot tell (a failure is "unknown", not 0). */
    Map<String, Double> load(String className) {
        try {
            Map<String, Double> m = podLoad.apply(className);
            return m == null ? Map.of() : m;
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    /**
     * Carries out {@code step}'s actions and those their results lead to; journals the end when
     * the drain reaches it here. {@code previous} is the drain before the step (null when it starts).
     */
    Drain carryOut(WorkloadClass cls, Drain previous, DrainStep.Step step, Instant now) {
        Drain d = step.drain();
        Deque<DrainAction> todo = new ArrayDeque<>(step.actions());
        while (!todo.isEmpty()) {
            DrainAction a = todo.poll();
            if (a instanceof DrainAction.Mark m) {
                DrainStep.Step next = DrainStep.marked(d, mark(cls, m.pods(), m.drainId()), now);
                d = next.drain();
                todo.addAll(next.actions());
            } else if (a instanceof DrainAction.Unmark u) {
                PodMarks.Result r = unmark(cls, u.pods(), u.drainId());
                if (!r.ok()) {
                    d = d.noting("; could not remove the marks from " + String.join("; ", r.failed())
                            + " (retried every tick)");
                    Map<String, String> left = leftovers.computeIfAbsent(cls.name(), k -> new java.util.TreeMap<>());
                    u.pods().stream().filter(p -> !r.done().contains(p)).forEach(p -> left.put(p, u.drainId()));
                }
            } else if (a instanceof DrainAction.Scale s) {
                // The intent first: without its record, replicas are not lowered and the drain ends failed.
                ScaleResult r = !journaled(records.record(now, Kind.SCALING, cls.name()).change(d.from(), s.replicas())
                        .reason("drain " + d.id()).proposal(d.id()))
                        ? ScaleResult.of(ScaleResult.Outcome.FAILED, s.replicas(), "not scaled: the journal cannot be"
                        + " written" + journal.failure().map(f -> " (" + f + ")").orElse(""))
                        : scale(cls, d.from(), s.replicas(), s.resourceVersion());
                journaled(records.record(now, r.ok() ? Kind.APPLIED : Kind.FAILED, cls.name())
                        .change(d.from(), s.replicas()).reason("drain " + d.id()).proposal(d.id())
                        .detail(r.ok() ? "marked pods idle: " + String.join(", ", d.podNames()) : r.message()));
                DrainStep.Step next = DrainStep.scaled(d, r, now);
                d = next.drain();
                todo.addAll(next.actions());
            }
        }
        if (!d.active() && (previous == null || previous.active())) {
            // Unjournaled, the drain stays open in the journal: a restart removes its marks again, harmlessly.
            journaled(records.record(now, Kind.DRAIN_ENDED, cls.name()).change(d.from(), d.to())
                    .proposal(d.id()).reason(d.phase().name()).detail(d.detail()));
        }
        return d;
    }

    /** Tries again to remove marks that could not be removed before; journals when they are gone. */
    void retryLeftovers(WorkloadClass cls, java.time.Instant now) {
        Map<String, String> left = leftovers.get(cls.name());
        if (left == null || left.isEmpty()) {
            return;
        }
        List<String> removed = new java.util.ArrayList<>();
        for (String id : new java.util.TreeSet<>(left.values())) {
            List<String> pods = left.entrySet().stream().filter(e -> e.getValue().equals(id)).map(Map.Entry::getKey)
                    .toList();
            removed.addAll(unmark(cls, pods, id).done());
        }
        removed.forEach(left::remove);
        if (!removed.isEmpty()) {
            journaled(records.record(now, Kind.DRAIN_UNMARKED, cls.name())
                    .detail("drain marks removed at last from " + String.join(", ", removed)));
        }
    }

    /** Appends; false when the journal cannot be written (the supervisor's state shows why). */
    private boolean journaled(JournalRecord r) {
        try {
            journal.append(r);
            return true;
        } catch (JournalException e) {
            return false;
        }
    }

    private PodMarks.Result mark(WorkloadClass cls, List<String> pods, String drainId) {
        try {
            return cluster.markForDrain(cls.target(), pods, drainId);
        } catch (RuntimeException e) {
            return PodMarks.Result.refused(pods, String.valueOf(e.getMessage()));
        }
    }

    PodMarks.Result unmark(WorkloadClass cls, List<String> pods, String drainId) {
        try {
            return cluster.unmarkDrain(cls.target(), pods, drainId);
        } catch (RuntimeException e) {
            return PodMarks.Result.refused(pods, String.valueOf(e.getMessage()));
        }
    }

    private ScaleResult scale(WorkloadClass cls, int from, int replicas, String resourceVersion) {
        try {
            // A stale resourceVersion (status updates move it too) re-reads: still at the drain's start, lower
            // replicas; moved by someone else, give up and the drain fails with the reason.
            return cluster.scale(cls.target(), replicas, resourceVersion,
                    fresh -> fresh.specReplicas() == from ? Redecision.propose(replicas)
                            : Redecision.giveUp("replicas moved from " + from + " to " + fresh.specReplicas()
                            + " during the drain"), 3);
        } catch (RuntimeException e) {
            return ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, String.valueOf(e.getMessage()));
        }
    }
}
