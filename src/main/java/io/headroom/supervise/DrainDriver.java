package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainAction;
import io.headroom.drain.DrainStep;
import io.headroom.drain.ReplaceStep;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

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

    private final ClusterPorts cluster;
    private final Journal journal;
    private final Records records;
    private volatile Function<String, Map<String, Double>> podLoad = c -> Map.of();
    private static final Logger LOG = Logger.getLogger(DrainDriver.class.getName());
    /** Expired marks already journaled as being cleared (class|drain|pods): journaled once, retried quietly. */
    private final Set<String> expiredJournaled = new HashSet<>();
    /**
     * Marks that could not be removed (an API error), per class and workload ({@link #leftKey}): pod → drain id,
     * retried every tick until gone, against the workload they were set on (a pooled class's pool).
     */
    private final Map<String, Map<String, String>> leftovers = new java.util.HashMap<>();
    /** The last eviction refusal journaled per replace drain (budget|message): journaled once, not per retry. */
    private final Map<String, String> refusalJournaled = new java.util.HashMap<>();

    DrainDriver(ClusterPorts cluster, Journal journal, Records records) {
        this.cluster = cluster;
        this.journal = journal;
        this.records = records;
    }

    private static String leftKey(WorkloadClass cls) {
        return cls.name() + "|" + cls.target();
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
                DrainStep.Step next = DrainStep.marked(d, mark(cls, m.pods(), m.drainId(), d.marksExpireAt()), now);
                d = next.drain();
                todo.addAll(next.actions());
            } else if (a instanceof DrainAction.Unmark u) {
                PodMarks.Result r = unmark(cls, u.pods(), u.drainId());
                if (!r.ok()) {
                    d = d.noting("; could not remove the marks from " + String.join("; ", r.failed())
                            + " (retried every tick)");
                    Map<String, String> left = leftovers.computeIfAbsent(leftKey(cls), k -> new java.util.TreeMap<>());
                    u.pods().stream().filter(p -> !r.done().contains(p)).forEach(p -> left.put(p, u.drainId()));
                }
            } else if (a instanceof DrainAction.Evict e) {
                DrainStep.Step next = ReplaceStep.evicted(d, evict(cls, d, e.pod(), now), now);
                d = next.drain();
                todo.addAll(next.actions());
            } else if (a instanceof DrainAction.Scale s) {
                int expect = s.expect() < 0 ? d.from() : s.expect();
                String why = d.replace() == null ? "marked pods idle: " + String.join(", ", d.podNames())
                        : s.replicas() > expect ? "a replacement for " + d.replace().pod() + ", which makes no progress"
                        : d.replace().pod() + " evicted: back to the replicas before its replacement";
                // The intent first: without its record, replicas are not changed and the drain ends failed.
                List<WorkloadState> rebased = new ArrayList<>(1);
                ScaleResult r = !journaled(cls, records.record(now, Kind.SCALING, cls.name()).change(expect, s.replicas())
                        .reason("drain " + d.id()).proposal(d.id()))
                        ? ScaleResult.of(ScaleResult.Outcome.FAILED, s.replicas(), "not scaled: the journal cannot be"
                        + " written" + journal.failure().map(f -> " (" + f + ")").orElse(""))
                        : scale(cls, expect, s.replicas(), s.resourceVersion(), rebased, d.replace() != null,
                        bump(d, expect, s.replicas(), why));
                journaled(cls, records.record(now, r.ok() ? Kind.APPLIED : Kind.FAILED, cls.name())
                        .change(expect, s.replicas()).reason("drain " + d.id()).proposal(d.id())
                        .detail(r.ok() ? why : r.message()));
                DrainStep.Step next = DrainStep.scaled(d, r, rebased.isEmpty() ? null : rebased.get(0), now);
                d = next.drain();
                todo.addAll(next.actions());
            }
        }
        if (!d.active() && (previous == null || previous.active())) {
            refusalJournaled.remove(d.id());
            // Unjournaled, the drain stays open in the journal: a restart removes its marks again, harmlessly.
            journaled(cls, records.record(now, Kind.DRAIN_ENDED, cls.name()).change(d.from(), d.to())
                    .proposal(d.id()).reason(d.phase().name()).detail(d.detail()));
        }
        return d;
    }

    /**
     * Asks the Eviction API to evict a replace drain's hung pod; journals the eviction, and each distinct
     * refusal once (not every retry). The intent was journaled when the drain started.
     */
    private EvictionResult evict(WorkloadClass cls, Drain d, String pod, Instant now) {
        EvictionResult r;
        try {
            r = cluster.nodes().evict(cls.target().context(), cls.target().namespace(), pod);
        } catch (RuntimeException ex) {
            r = EvictionResult.failed(String.valueOf(ex.getMessage()));
        }
        String key = cls.target().namespace() + "/" + pod;
        switch (r.outcome()) {
            case EVICTED, GONE -> {
                refusalJournaled.remove(d.id());
                journaled(cls, records.record(now, Kind.POD_EVICTED, cls.name()).proposal(d.id())
                        .reason("replacing a pod that makes no progress")
                        .detail(key + (r.outcome() == EvictionResult.Outcome.GONE ? ": already gone"
                                : ": evicted; " + ReplaceStep.jobsBack(d.replace()))));
            }
            default -> {
                String what = r.budget() + "|" + r.message();
                if (!what.equals(refusalJournaled.put(d.id(), what))) {
                    journaled(cls, records.record(now, Kind.EVICTION_REFUSED, cls.name()).proposal(d.id())
                            .reason(r.budget() == null ? r.outcome().name() : "PodDisruptionBudget " + r.budget())
                            .detail(key + ": " + r.message()));
                }
            }
        }
        return r;
    }

    /**
     * Tries again to remove marks that could not be removed before, and clears drain marks found
     * expired on the class's pods, whoever left them ({@link #clearExpired}); journals what goes.
     */
    void retryLeftovers(WorkloadClass cls, java.time.Instant now) {
        clearExpired(cls, now);
        Map<String, String> left = leftovers.get(leftKey(cls));
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
            journaled(cls, records.record(now, Kind.DRAIN_UNMARKED, cls.name())
                    .detail("drain marks removed at last from " + String.join(", ", removed)));
        }
    }

    /**
     * Appends; false when the journal cannot be written (the supervisor's state shows why). Its team-timeline
     * Event goes on the workload {@code cls} acts on: a pooled class's drain is its pool's Deployment's.
     */
    private boolean journaled(WorkloadClass cls, JournalRecord r) {
        try {
            TeamTimeline.append(journal, r, cls.target());
            return true;
        } catch (JournalException e) {
            return false;
        }
    }

    /**
     * Nothing left behind: drain marks whose expiry has passed by this console's clock (a console that
     * died mid-drain, or lost its way) are cleared and their pods get their prior deletion cost back,
     * whoever set them. Journaled first, once per drain and set of pods; a mark that could not be
     * cleared is tried again next tick. Unexpired marks, of a live console, are never touched.
     */
    private void clearExpired(WorkloadClass cls, Instant now) {
        List<PodMarks.Found> expired;
        try {
            expired = cluster.drainMarks().drainMarks(cls.target()).stream().filter(f -> f.expiredAt(now)).toList();
        } catch (RuntimeException e) {
            return; // the workload cannot be read now: the tick says why
        }
        Set<String> seen = new HashSet<>();
        Map<String, List<PodMarks.Found>> byDrain = new TreeMap<>();
        for (PodMarks.Found f : expired) {
            byDrain.computeIfAbsent(f.drainId(), k -> new ArrayList<>()).add(f);
        }
        for (Map.Entry<String, List<PodMarks.Found>> e : byDrain.entrySet()) {
            List<PodMarks.Found> marks = e.getValue();
            List<String> pods = marks.stream().map(PodMarks.Found::pod).toList();
            String key = cls.name() + "|" + e.getKey() + "|" + String.join(",", pods);
            seen.add(key);
            if (!expiredJournaled.contains(key)) {
                List<String> owners = marks.stream().map(f -> f.owner() == null ? "an unnamed owner" : f.owner())
                        .distinct().toList();
                try {
                    TeamTimeline.append(journal, records.record(now, Kind.DRAIN_UNMARKED, cls.name()).proposal(e.getKey())
                            .reason("marks expired")
                            .detail("drain marks of " + e.getKey() + " by " + String.join(", ", owners)
                                    + " expired at " + marks.get(0).expiresAt() + "; clearing them from "
                                    + String.join(", ", pods) + " and restoring their prior deletion cost"), cls.target());
                } catch (RuntimeException ex) {
                    // Journal first: a clean-up that cannot be recorded is not made (tried again next tick).
                    LOG.log(Level.WARNING, "not clearing expired drain marks of " + e.getKey()
                            + ": the journal could not record it: " + ex.getMessage());
                    continue;
                }
                expiredJournaled.add(key);
            }
            PodMarks.Result r;
            try {
                r = cluster.drainMarks().clearExpiredMarks(cls.target(), marks, now);
            } catch (RuntimeException ex) {
                r = PodMarks.Result.refused(pods, String.valueOf(ex.getMessage()));
            }
            if (!r.ok()) {
                LOG.log(Level.WARNING, "could not clear expired drain marks of " + e.getKey() + ": "
                        + String.join("; ", r.failed()) + " (tried again next tick)");
            }
        }
        // Forget what is no longer found (cleared), so a later expiry of the same drain is journaled again.
        expiredJournaled.removeIf(k -> k.startsWith(cls.name() + "|") && !seen.contains(k));
    }

    private PodMarks.Result mark(WorkloadClass cls, List<String> pods, String drainId, Instant expiresAt) {
        try {
            return cluster.drainMarks().markForDrain(cls.target(), pods, drainId, expiresAt);
        } catch (RuntimeException e) {
            return PodMarks.Result.refused(pods, String.valueOf(e.getMessage()));
        }
    }

    PodMarks.Result unmark(WorkloadClass cls, List<String> pods, String drainId) {
        try {
            return cluster.drainMarks().unmarkDrain(cls.target(), pods, drainId);
        } catch (RuntimeException e) {
            return PodMarks.Result.refused(pods, String.valueOf(e.getMessage()));
        }
    }

    /**
     * A replacement's extra replica is recorded on the workload with the replicas (who, from what, why, until the
     * drain's marks expire), and lowering it back removes the record: a console that stops in between leaves it
     * said. Null when replicas go down.
     */
    private static io.headroom.cluster.ReplicaBump bump(Drain d, int from, int to, String why) {
        return to <= from ? null
                : new io.headroom.cluster.ReplicaBump(null, d.marksExpireAt(), from, to, why + " (drain " + d.id() + ")");
    }

    /**
     * @param rebased  gets the fresh read a retried write is conditioned on (the last one, when several): the
     *                 version the drain's own write then follows, which its later looks judge reads by
     * @param recorded a replacement's scale: up with its record ({@code bump}), down removing it
     */
    private ScaleResult scale(WorkloadClass cls, int from, int replicas, String resourceVersion,
                              List<WorkloadState> rebased, boolean recorded, io.headroom.cluster.ReplicaBump bump) {
        try {
            // A stale resourceVersion (status updates move it too) re-reads: still at the drain's start, lower
            // replicas; moved by someone else, give up and the drain fails with the reason.
            Redecision.Redecider redecide = fresh -> {
                if (fresh.specReplicas() != from) {
                    return Redecision.giveUp("replicas moved from " + from + " to " + fresh.specReplicas()
                            + " during the drain");
                }
                rebased.clear();
                rebased.add(fresh);
                return Redecision.propose(replicas);
            };
            return recorded ? cluster.scaling().scale(cls.target(), replicas, resourceVersion, bump, redecide, 3)
                    : cluster.scaling().scale(cls.target(), replicas, resourceVersion, redecide, 3);
        } catch (RuntimeException e) {
            return ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, String.valueOf(e.getMessage()));
        }
    }
}
