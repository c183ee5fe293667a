package io.headroom.supervise;

import io.headroom.cluster.TeamEvents;
import io.headroom.cluster.EventResult;
import io.headroom.cluster.TeamEvent;
import io.headroom.cluster.WorkloadRef;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * One team timeline (design.md §4): every operator action written to the journal is also posted as a
 * Kubernetes Event on the class's workload, so {@code kubectl describe}, k9s, Lens and other
 * consoles see it. A journal decorator: the record is durable first (the journal's own rule), then
 * the event is posted on {@code posting}, never on the caller's thread; an event that cannot be
 * written never blocks or undoes the action, and is reported to {@code problems}.
 */
public final class TeamTimeline implements Journal {

    /** The record kinds that are operator actions or what they did to the world, and their event reasons. */
    static final Map<Kind, String> REASONS = Map.ofEntries(
            Map.entry(Kind.APPROVED, "HeadroomApproved"),
            Map.entry(Kind.REJECTED, "HeadroomRejected"),
            Map.entry(Kind.OVERRIDE_SET, "HeadroomOverride"),
            Map.entry(Kind.OVERRIDE_CLEARED, "HeadroomOverrideCleared"),
            Map.entry(Kind.FROZEN, "HeadroomFrozen"),
            Map.entry(Kind.UNFROZEN, "HeadroomUnfrozen"),
            Map.entry(Kind.MODE_CHANGED, "HeadroomModeChanged"),
            Map.entry(Kind.APPLIED, "HeadroomScaled"),
            Map.entry(Kind.FAILED, "HeadroomScaleFailed"),
            Map.entry(Kind.DRAIN_STARTED, "HeadroomDrainStarted"),
            Map.entry(Kind.DRAIN_ENDED, "HeadroomDrainEnded"),
            Map.entry(Kind.DRAIN_RESUMED, "HeadroomDrainResumed"),
            Map.entry(Kind.DRAIN_UNMARKED, "HeadroomDrainMarksCleared"),
            Map.entry(Kind.POLICY_EDITED, "HeadroomPolicyEdited"),
            Map.entry(Kind.POLICY_REVERTED, "HeadroomPolicyReverted"),
            Map.entry(Kind.NODE_DRAIN_STARTED, "HeadroomNodeDrainStarted"),
            Map.entry(Kind.NODE_CORDONED, "HeadroomNodeCordoned"),
            Map.entry(Kind.POD_EVICTED, "HeadroomPodEvicted"),
            Map.entry(Kind.EVICTION_REFUSED, "HeadroomEvictionRefused"),
            Map.entry(Kind.NODE_DRAIN_ENDED, "HeadroomNodeDrainEnded"),
            Map.entry(Kind.NODE_UNCORDONED, "HeadroomNodeUncordoned"),
            Map.entry(Kind.HANDED_BACK, "HeadroomHandedBack"),
            Map.entry(Kind.PAUSE_KEPT, "HeadroomPauseKept"),
            Map.entry(Kind.HAND_BACK_REFUSED, "HeadroomHandBackRefused"),
            Map.entry(Kind.SCALED_OBJECT_APPLIED, "HeadroomAppliedScaledObject"),
            Map.entry(Kind.SCALED_OBJECT_REFUSED, "HeadroomScaledObjectRefused"),
            Map.entry(Kind.UNDONE, "HeadroomUndone"),
            Map.entry(Kind.ADMISSION_PUBLISHED, "HeadroomAdmission"),
            Map.entry(Kind.ADMISSION_FAILED, "HeadroomAdmissionFailed"),
            Map.entry(Kind.ADMISSION_REJECTED, "HeadroomAdmissionRejected"),
            Map.entry(Kind.FORECAST_FLOOR_APPROVED, "HeadroomForecastFloor"),
            Map.entry(Kind.FORECAST_FLOOR_REJECTED, "HeadroomForecastFloorRejected"),
            Map.entry(Kind.FORECAST_FLOOR_LAPSED, "HeadroomForecastFloorLapsed"),
            Map.entry(Kind.FORECAST_FLOOR_CANCELLED, "HeadroomForecastFloorCancelled"));

    private final Journal journal;
    private final TeamEvents cluster;
    private final Map<String, WorkloadRef> workloads;
    private final Executor posting;
    private final Consumer<String> problems;

    /**
     * @param workloads class name → its workload (a freeze of everything is posted on each)
     * @param posting   where events are posted (a background executor)
     * @param problems  told, in a sentence, about each event that could not be written
     */
    public TeamTimeline(Journal journal, TeamEvents cluster, Map<String, WorkloadRef> workloads, Executor posting,
                        Consumer<String> problems) {
        this.journal = journal;
        this.cluster = cluster;
        this.workloads = Map.copyOf(workloads);
        this.posting = posting;
        this.problems = problems;
    }

    @Override
    public JournalRecord append(JournalRecord record) {
        return append(record, null);
    }

    /**
     * Appends {@code record} and posts its Event on {@code on} instead of the class's workload: a pooled
     * class's write, drain or pod command acts on one pool's Deployment (decision 0029), and the team timeline
     * reads Events per object. Null posts on the class's workload, as {@link #append(JournalRecord)} does.
     */
    public JournalRecord append(JournalRecord record, WorkloadRef on) {
        JournalRecord written = journal.append(record); // throws when it cannot be written: no event either
        String reason = REASONS.get(written.kind());
        if (reason != null && written.node() != null) {
            // A node's record: on the node (kubectl describe node), and on the class's workload when it names one.
            TeamEvent event = event(written, written.kind() == Kind.FAILED ? "HeadroomNodeActionFailed" : reason);
            io.headroom.cluster.NodeRef node = new io.headroom.cluster.NodeRef(written.context(), written.node());
            post(() -> cluster.postNodeEvent(node, event), reason, "node " + written.node());
            WorkloadRef ref = on != null ? on : written.className() == null ? null : workloads.get(written.className());
            if (ref != null) {
                post(() -> cluster.postEvent(ref, event), reason, ref.name());
            }
        } else if (reason != null) {
            List<WorkloadRef> targets = on != null ? List.of(on) : written.className() == null
                    ? List.copyOf(workloads.values())
                    : Optional.ofNullable(workloads.get(written.className())).map(List::of).orElse(List.of());
            TeamEvent event = event(written, reason);
            for (WorkloadRef ref : targets) {
                try {
                    posting.execute(() -> post(ref, event));
                } catch (RejectedExecutionException e) {
                    problems.accept("event " + reason + " on " + ref.name() + " not posted: the console is closing");
                }
            }
        }
        return written;
    }

    /**
     * Appends to {@code journal}, its Event on {@code on} when the journal is a team timeline (the one way the
     * supervisor's concerns name the object a record is about); a plain journal just appends.
     */
    static JournalRecord append(Journal journal, JournalRecord record, WorkloadRef on) {
        return journal instanceof TeamTimeline t ? t.append(record, on) : journal.append(record);
    }

    /** Posts on the posting executor; a problem is reported, never thrown. */
    private void post(java.util.function.Supplier<EventResult> write, String reason, String where) {
        try {
            posting.execute(() -> {
                EventResult r;
                try {
                    r = write.get();
                } catch (RuntimeException e) {
                    r = EventResult.notPosted(String.valueOf(e.getMessage()));
                }
                if (!r.posted() && r.problem() != null && !r.problem().equals("this cluster takes no events")) {
                    problems.accept("event " + reason + " on " + where + " not posted: " + r.problem());
                }
            });
        } catch (RejectedExecutionException e) {
            problems.accept("event " + reason + " on " + where + " not posted: the console is closing");
        }
    }

    private void post(WorkloadRef ref, TeamEvent event) {
        EventResult r;
        try {
            r = cluster.postEvent(ref, event);
        } catch (RuntimeException e) {
            r = EventResult.notPosted(String.valueOf(e.getMessage()));
        }
        if (!r.posted() && r.problem() != null && !r.problem().equals("this cluster takes no events")) {
            problems.accept("event " + event.reason() + " on " + ref.name() + " not posted: " + r.problem());
        }
    }

    /** Each event reason this timeline posts → the record kind it is posted for (a reader's mapping). */
    public static Map<String, Kind> reasons() {
        Map<String, Kind> byReason = new java.util.HashMap<>();
        REASONS.forEach((kind, reason) -> byReason.put(reason, kind));
        byReason.put("HeadroomNodeActionFailed", Kind.FAILED);
        return Map.copyOf(byReason);
    }

    /**
     * The event this timeline posts for {@code r} (its reason and message), or empty when the record
     * is not posted: how a reader knows an event of the cluster is one of its own journal's records.
     */
    public static Optional<TeamEvent> eventOf(JournalRecord r) {
        String reason = REASONS.get(r.kind());
        if (reason == null) {
            return Optional.empty();
        }
        return Optional.of(event(r, r.node() != null && r.kind() == Kind.FAILED ? "HeadroomNodeActionFailed" : reason));
    }

    /** The event for a record: actor, what changed and why, in one line (the journal redacted it already). */
    static TeamEvent event(JournalRecord r, String reason) {
        String floor = floorWords(r);
        if (floor != null) {
            return new TeamEvent(reason, floor, false, r.at(), r.user());
        }
        StringBuilder m = new StringBuilder(r.user());
        m.append(": ").append(r.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '));
        if (r.node() != null) {
            m.append(" node ").append(r.node());
        } else if (r.className() == null) {
            m.append(" (every class)");
        }
        if (r.before() != null || r.after() != null) {
            m.append(' ').append(r.before() == null ? "?" : r.before()).append(" → ")
                    .append(r.after() == null ? "?" : r.after());
        }
        if (r.reason() != null && !r.reason().isBlank()) {
            m.append("; reason: ").append(r.reason());
        }
        if (r.until() != null) {
            m.append("; until ").append(r.until());
        }
        if (r.node() != null && r.detail() != null && !r.detail().isBlank()) {
            m.append("; ").append(r.detail());
        }
        if (r.context() != null) {
            m.append("; context ").append(r.context());
        }
        return new TeamEvent(reason, m.toString(), r.kind() == Kind.FAILED || r.kind() == Kind.FROZEN
                || r.kind() == Kind.PAUSE_KEPT || r.kind() == Kind.SCALED_OBJECT_REFUSED
                || r.kind() == Kind.HAND_BACK_REFUSED || r.kind() == Kind.ADMISSION_FAILED
                || r.kind() == Kind.EVICTION_REFUSED || r.kind() == Kind.NODE_DRAIN_ENDED
                && !"COMPLETED".equals(r.reason()), r.at(), r.user());
    }

    /**
     * A forecast floor's record in words (issue 29): what is held, from when until when (absolute times: the event is
     * read by consoles in other zones) and why; null for other records.
     */
    private static String floorWords(JournalRecord r) {
        Kind k = r.kind();
        if (k != Kind.FORECAST_FLOOR_APPROVED && k != Kind.FORECAST_FLOOR_LAPSED && k != Kind.FORECAST_FLOOR_CANCELLED
                && k != Kind.FORECAST_FLOOR_REJECTED) {
            return null;
        }
        StringBuilder m = new StringBuilder(r.user()).append(": forecast floor ");
        Integer n = k == Kind.FORECAST_FLOOR_APPROVED || k == Kind.FORECAST_FLOOR_REJECTED ? r.after() : r.before();
        String replicas = (n == null ? "its" : String.valueOf(n)) + " replica" + (n != null && n == 1 ? "" : "s");
        String reason = r.reason() == null || r.reason().isBlank() ? null : r.reason();
        switch (k) {
            case FORECAST_FLOOR_APPROVED -> {
                io.headroom.decision.ForecastFloor f = ForecastFloors.floorOf(r);
                m.append(reason != null && reason.startsWith("auto:") ? "held automatically (forecast: auto)"
                        : "approved").append(": at least ").append(replicas);
                if (f != null) {
                    m.append(" from ").append(f.from()).append(" until ").append(f.until());
                    if (f.why() != null && !f.why().isBlank()) {
                        m.append("; forecast: ").append(f.why());
                    }
                } else if (r.until() != null) {
                    m.append(" until ").append(r.until());
                }
            }
            case FORECAST_FLOOR_LAPSED -> {
                m.append("lapsed: ").append(replicas).append(" no longer held");
                if (r.until() != null) {
                    m.append(" at ").append(r.until());
                }
                if (reason != null) {
                    m.append("; reason: ").append(reason);
                }
            }
            case FORECAST_FLOOR_CANCELLED -> {
                m.append("cancelled: ").append(replicas).append(" no longer held");
                if (reason != null) {
                    m.append("; reason: ").append(reason);
                }
                if (r.until() != null) {
                    m.append("; it was to hold until ").append(r.until());
                }
            }
            default -> { // rejected
                m.append("rejected: ").append(replicas).append(" not held");
                if (r.before() != null) {
                    m.append(" (").append(r.before()).append(" run)");
                }
                if (reason != null) {
                    m.append("; reason: ").append(reason);
                }
                if (r.until() != null) {
                    m.append("; it would have held until ").append(r.until());
                }
            }
        }
        if (r.context() != null) {
            m.append("; context ").append(r.context());
        }
        return m.toString();
    }

    @Override
    public Replay replay() {
        return journal.replay();
    }

    @Override
    public Replay history() {
        return journal.history();
    }

    @Override
    public Replay history(java.time.Instant since) {
        return journal.history(since);
    }

    @Override
    public Optional<List<JournalRecord>> appendedAfter(long seq) {
        return journal.appendedAfter(seq);
    }

    @Override
    public Optional<String> failure() {
        return journal.failure();
    }

    @Override
    public void close() {
        journal.close();
    }
}
