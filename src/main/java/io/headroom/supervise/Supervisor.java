package io.headroom.supervise;

import io.headroom.cluster.ClusterGateway;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.decision.Reason;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.drain.DrainPlanner;
import io.headroom.drain.DrainStep;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.Actuation;
import io.headroom.loop.Actuator;
import io.headroom.loop.WorkloadClass;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Supervised operation (DESIGN §4): sits in the control loop's actuator seam and decides, per
 * class, whether a decision is applied, becomes a proposal, or is withheld (observe mode, a
 * freeze, an override). Every change of state is written to the journal before it is reported.
 *
 * <p>Thread model: all state lives on the loop's thread. {@link #handle} is called there by the
 * loop; operator commands are queued onto the same executor and answer with a future, so the FX
 * thread never waits on the cluster. Snapshots go to listeners after every change.
 */
public final class Supervisor implements Actuator {
    /** How long a worker gets to see its drain mark (a downward-API volume syncs within about a minute). */
    public static final Duration DEFAULT_DRAIN_NOTICE = Duration.ofSeconds(60);
    private static final DateTimeFormatter HHMM = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    private final ClusterGateway cluster;
    private final Journal journal;
    private final Clock clock;
    private final Executor loopThread;
    private final String user;
    private final Duration proposalTtl;
    private final Map<String, WorkloadClass> classes = new LinkedHashMap<>();
    private final Map<String, Slot> slots = new LinkedHashMap<>();
    private final List<Consumer<SupervisionState>> listeners = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final DrainDriver drains;
    private Freeze freezeAll;
    private long proposalCounter;
    private long drainCounter;
    /** Tells this console's drain ids from another's: marks are on shared pods. */
    private final String drainTag = Long.toHexString(new java.security.SecureRandom().nextInt(0x10000) | 0x10000)
            .substring(1);
    private Duration drainNoticeGrace = DEFAULT_DRAIN_NOTICE;
    private volatile SupervisionState state;

    /** Mutable per-class state, loop thread only. */
    private static final class Slot {
        Mode mode = Mode.SUPERVISED;
        Freeze freeze;
        ReplicaOverride override;
        Proposal proposal;
        int rejectedFrom = -1;
        int rejectedTo = -1;
        Instant rejectedUntil;
        String lastAction;
        /** The running drain, or the last one (ended) for the operator to read; null when none. */
        Drain drain;
        /** Drains the journal started and never ended (the console stopped mid-drain): their marks go. */
        final List<String> orphanDrains = new ArrayList<>();
        /** No automatic drain before this (after one that did not complete). */
        Instant autoDrainAfter;
        /** What the last decision wanted, -1 before the first. */
        int lastDesired = -1;
    }

    /**
     * @param loopThread the executor the control loop ticks on; commands are serialised with ticks there
     * @param user who the journal says acted (the OS user)
     */
    public Supervisor(List<WorkloadClass> classes, ClusterGateway cluster, Journal journal, Clock clock,
                      Executor loopThread, String user, Duration proposalTtl) {
        this(classes, cluster, journal, clock, loopThread, loopThread, user, proposalTtl);
    }

    /** @param urgent where freezes run, so they never wait behind a loop thread stuck in a cluster write */
    public Supervisor(List<WorkloadClass> classes, ClusterGateway cluster, Journal journal, Clock clock,
                      Executor loopThread, Executor urgent, String user, Duration proposalTtl) {
        for (WorkloadClass c : classes) {
            this.classes.put(c.name(), c);
            slots.put(c.name(), new Slot());
        }
        this.cluster = cluster;
        this.journal = journal;
        this.clock = clock;
        this.loopThread = loopThread;
        this.user = user;
        this.proposalTtl = proposalTtl;
        this.drains = new DrainDriver(cluster, journal, this::record);
        this.state = snapshot(clock.instant());
    }

    /**
     * Where drains learn the jobs in flight per pod (class name → pod → jobs), e.g. the metrics
     * source's {@code inFlightByPod}. Without it every ready pod's load is unknown and drains are refused.
     */
    public void setPodLoad(java.util.function.Function<String, Map<String, Double>> podLoad) {
        drains.setPodLoad(podLoad);
    }

    /**
     * How long after marking a drain waits before it believes "idle" (the worker must have seen its
     * mark, and the metric must describe the time after). Default {@link #DEFAULT_DRAIN_NOTICE}.
     */
    public void setDrainNoticeGrace(Duration grace) {
        this.drainNoticeGrace = grace;
    }

    /** The OS user, as the journal records it. */
    public static String osUser() {
        String u = System.getProperty("user.name");
        return u == null || u.isBlank() ? "unknown" : u;
    }

    public SupervisionState state() {
        return state;
    }

    /** Listeners run on the loop's thread. */
    public void addListener(Consumer<SupervisionState> l) {
        listeners.add(l);
        l.accept(state);
    }

    public void removeListener(Consumer<SupervisionState> l) {
        listeners.remove(l);
    }

    // ------------------------------------------------------------------ replay

    /**
     * Rebuilds modes, freezes, overrides and pending proposals from the journal; what has expired
     * since is dropped (and journaled as expired on the next tick). Call before the loop starts.
     */
    public void restore(Journal.Replay replay) {
        for (JournalRecord r : replay.records()) {
            if (r.context() != null && !cluster.contextName().equals(r.context()) && !classContext(r)) {
                continue; // another cluster's journal lines
            }
            Slot s = r.className() == null ? null : slots.get(r.className());
            switch (r.kind()) {
                case FROZEN -> {
                    Freeze f = new Freeze(r.reason(), r.until(), r.user(), r.at());
                    if (r.className() == null) {
                        freezeAll = f;
                    } else if (s != null) {
                        s.freeze = f;
                    }
                }
                case UNFROZEN, FREEZE_EXPIRED -> {
                    if (r.className() == null) {
                        freezeAll = null;
                    } else if (s != null) {
                        s.freeze = null;
                    }
                }
                case OVERRIDE_SET -> {
                    if (s != null) {
                        s.override = new ReplicaOverride(r.after(), r.until(), r.reason(), r.user(), r.at());
                    }
                }
                case OVERRIDE_CLEARED, OVERRIDE_EXPIRED -> {
                    if (s != null) {
                        s.override = null;
                    }
                }
                case MODE_CHANGED -> {
                    if (s != null && r.detail() != null) {
                        s.mode = Mode.valueOf(r.detail());
                    }
                }
                case PROPOSED, SUPERSEDED -> {
                    if (s != null) {
                        s.proposal = new Proposal(r.proposalId(), r.className(), r.context(), r.before(), r.after(),
                                s.proposal != null && s.proposal.id().equals(r.proposalId())
                                        ? s.proposal.createdAt() : r.at(),
                                r.at(), r.until(), r.detail() == null ? "" : r.detail(), List.of());
                        proposalCounter = Math.max(proposalCounter, counterOf(r.proposalId()));
                    }
                }
                case DRAIN_STARTED -> {
                    if (s != null && r.proposalId() != null) {
                        s.orphanDrains.add(r.proposalId());
                        drainCounter = Math.max(drainCounter, drainNumber(r.proposalId()));
                    }
                }
                case DRAIN_ENDED -> {
                    if (s != null) {
                        s.orphanDrains.remove(r.proposalId());
                    }
                }
                case APPROVED, REJECTED, WITHDRAWN, EXPIRED -> {
                    if (s != null && s.proposal != null && s.proposal.id().equals(r.proposalId())) {
                        s.proposal = null;
                    }
                }
                default -> {
                }
            }
        }
        warnings.addAll(replay.warnings());
        Instant now = clock.instant();
        if (freezeAll != null && !freezeAll.activeAt(now)) {
            freezeAll = null;
        }
        for (Slot s : slots.values()) {
            if (s.freeze != null && !s.freeze.activeAt(now)) {
                s.freeze = null;
            }
            if (s.override != null && !s.override.activeAt(now)) {
                s.override = null;
            }
            if (s.proposal != null && s.proposal.expiredAt(now)) {
                s.proposal = null;
            }
        }
        publish(now);
    }

    private boolean classContext(JournalRecord r) {
        WorkloadClass c = r.className() == null ? null : classes.get(r.className());
        return c != null && c.target().context().equals(r.context());
    }

    /** N of "class-drain-N-tag". */
    private static long drainNumber(String id) {
        String[] parts = id.split("-");
        for (int i = parts.length - 1; i > 0; i--) {
            if (parts[i - 1].equals("drain")) {
                try {
                    return Long.parseLong(parts[i]);
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    private static long counterOf(String id) {
        if (id == null) {
            return 0;
        }
        int dash = id.lastIndexOf('-');
        try {
            return Long.parseLong(id.substring(dash + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    // ------------------------------------------------------------------ the actuator seam

    @Override
    public Actuation handle(WorkloadClass cls, Decision d, WorkloadState w) {
        Instant now = clock.instant();
        expire(now);
        Slot s = slots.computeIfAbsent(cls.name(), n -> new Slot());
        classes.putIfAbsent(cls.name(), cls);
        try {
            return act(cls, s, d, w, now);
        } finally {
            publish(now);
        }
    }

    private Actuation act(WorkloadClass cls, Slot s, Decision d, WorkloadState w, Instant now) {
        int current = d.currentReplicas();
        Freeze f = freezeAll != null ? freezeAll : s.freeze;
        cleanUpOrphans(cls, s, w, now);
        s.lastDesired = d.desiredReplicas();
        drains.retryLeftovers(cls, now);
        if (s.drain != null && s.drain.active()) {
            String stop = f != null ? "frozen (" + f.reason() + ")"
                    : d.desiredReplicas() > s.drain.from() ? "the load rose: the decision now wants "
                    + d.desiredReplicas() + " replicas" : null;
            advanceDrain(cls, s, w, stop, now);
            if (s.drain.active()) {
                return withheld(current, d.desiredReplicas(), "draining " + s.drain.from() + " → " + s.drain.to()
                        + " (the decision wants " + d.desiredReplicas() + "): " + s.drain.detail());
            }
        }
        if (f != null) {
            return withheld(current, d.desiredReplicas(), "frozen until " + HHMM.format(f.until()) + ": " + f.reason());
        }
        if (s.override != null) {
            int pinned = s.override.replicas();
            if (current != pinned) {
                return apply(cls, w, current, pinned, "override: " + s.override.reason(), d.explanation(), null);
            }
            return withheld(current, pinned, "override pins " + pinned + " until " + HHMM.format(s.override.until()));
        }
        switch (s.mode) {
            case OBSERVE:
                withdraw(s, now, "observe mode");
                return withheld(current, d.desiredReplicas(), "observe mode: decided, not acted on");
            case AUTO:
                withdraw(s, now, "auto mode");
                if (!d.wantsChange()) {
                    return Actuation.none(current);
                }
                if (d.desiredReplicas() < current && cls.drainOnScaleDown() != null && w != null) {
                    if (s.autoDrainAfter != null && now.isBefore(s.autoDrainAfter)) {
                        return withheld(current, d.desiredReplicas(), "auto: the last drain did not complete; next"
                                + " try after " + HHMM.format(s.autoDrainAfter) + " (or drain by hand)");
                    }
                    Outcome o = drainNow(cls, s, w, d.desiredReplicas(), cls.drainOnScaleDown(), "auto", now);
                    return withheld(current, d.desiredReplicas(), o.ok() ? "auto: " + o.message()
                            : "auto: scale-down not started, " + o.message());
                }
                return apply(cls, w, current, d.desiredReplicas(), "auto", d.explanation(), null);
            default:
                return propose(cls, s, d, now);
        }
    }

    private Actuation propose(WorkloadClass cls, Slot s, Decision d, Instant now) {
        int current = d.currentReplicas();
        int desired = d.desiredReplicas();
        if (!d.wantsChange()) {
            withdraw(s, now, "the decision now holds " + current);
            return Actuation.none(current);
        }
        if (s.rejectedUntil != null && now.isBefore(s.rejectedUntil) && s.rejectedFrom == current
                && s.rejectedTo == desired) {
            return withheld(current, desired, "rejected by the operator; not proposed again before "
                    + HHMM.format(s.rejectedUntil));
        }
        Proposal p = s.proposal;
        List<String> reasons = d.reasons().stream().map(Reason::toString).toList();
        if (p != null && p.from() == current && p.to() == desired) {
            // Same change still wanted: keep the proposal, refresh its explanation and expiry.
            s.proposal = new Proposal(p.id(), p.className(), p.context(), p.from(), p.to(), p.createdAt(), now,
                    now.plus(proposalTtl), d.explanation(), reasons);
            return withheld(current, desired, "proposal " + p.id() + " waiting for approval");
        }
        String id = p != null ? p.id() : cls.name() + "-" + (++proposalCounter);
        Proposal next = new Proposal(id, cls.name(), cluster.contextName(), current, desired,
                p != null ? p.createdAt() : now, now, now.plus(proposalTtl), d.explanation(), reasons);
        JournalRecord rec = record(now, p != null ? Kind.SUPERSEDED : Kind.PROPOSED, cls.name())
                .change(current, desired).proposal(id).until(next.expiresAt()).detail(d.explanation())
                .reason(p != null ? "revised from " + p.from() + " → " + p.to() : null);
        journal.append(rec);
        s.proposal = next;
        s.lastAction = (p != null ? "proposal revised: " : "proposed: ") + current + " → " + desired;
        return withheld(current, desired, "proposal " + id + " waiting for approval");
    }

    private void withdraw(Slot s, Instant now, String why) {
        if (s.proposal != null) {
            journal.append(record(now, Kind.WITHDRAWN, s.proposal.className()).change(s.proposal.from(),
                    s.proposal.to()).proposal(s.proposal.id()).reason(why));
            s.lastAction = "proposal " + s.proposal.from() + " → " + s.proposal.to() + " withdrawn: " + why;
            s.proposal = null;
        }
    }

    private Actuation apply(WorkloadClass cls, WorkloadState w, int from, int to, String why, String explanation,
                            String proposalId) {
        Instant now = clock.instant();
        ScaleResult r;
        // A stale resourceVersion (someone scaled meanwhile) re-reads the workload: an override
        // re-proposes the pinned count; a decision or an approval gives up with the reason, and
        // the next tick decides again from the fresh state. Never a blind overwrite.
        boolean pinned = why.startsWith("override");
        Redecision.Redecider redecide = fresh -> pinned || fresh.specReplicas() == from ? Redecision.propose(to)
                : Redecision.giveUp("replicas moved from " + from + " to " + fresh.specReplicas()
                        + " since the decision; the next tick decides again");
        try {
            r = cluster.scale(cls.target(), to, w == null ? null : w.resourceVersion(), redecide, 3);
        } catch (RuntimeException e) {
            r = ScaleResult.of(ScaleResult.Outcome.FAILED, from, e.getMessage());
        }
        Kind kind = r.ok() ? Kind.APPLIED : Kind.FAILED;
        journal.append(record(now, kind, cls.name()).change(from, r.ok() ? r.replicas() : to).reason(why)
                .detail(r.ok() ? explanation : r.message()).proposal(proposalId));
        Slot s = slots.get(cls.name());
        if (s != null) {
            s.lastAction = (r.ok() ? "applied " : "failed ") + from + " → " + to + " (" + why + ")";
        }
        return new Actuation(r.ok() ? Actuation.Kind.APPLIED : Actuation.Kind.FAILED, from,
                r.ok() ? r.replicas() : from, r.ok() ? why : r.message());
    }

    private static Actuation withheld(int current, int desired, String why) {
        return new Actuation(Actuation.Kind.WITHHELD, current, desired, why);
    }

    private void expire(Instant now) {
        if (freezeAll != null && !freezeAll.activeAt(now)) {
            journal.append(record(now, Kind.FREEZE_EXPIRED, null).reason(freezeAll.reason()));
            freezeAll = null;
        }
        for (Map.Entry<String, Slot> e : slots.entrySet()) {
            Slot s = e.getValue();
            if (s.freeze != null && !s.freeze.activeAt(now)) {
                journal.append(record(now, Kind.FREEZE_EXPIRED, e.getKey()).reason(s.freeze.reason()));
                s.freeze = null;
            }
            if (s.override != null && !s.override.activeAt(now)) {
                journal.append(record(now, Kind.OVERRIDE_EXPIRED, e.getKey()).change(null, s.override.replicas())
                        .reason("override ended; " + s.mode.name().toLowerCase() + " mode takes over"));
                s.lastAction = "override ended; " + s.mode.name().toLowerCase() + " mode takes over";
                s.override = null;
            }
            if (s.proposal != null && s.proposal.expiredAt(now)) {
                journal.append(record(now, Kind.EXPIRED, e.getKey()).change(s.proposal.from(), s.proposal.to())
                        .proposal(s.proposal.id()));
                s.proposal = null;
            }
        }
    }

    // ------------------------------------------------------------------ operator commands

    /** Applies a pending proposal after checking the world has not moved. */
    public CompletableFuture<Outcome> approve(String proposalId) {
        return command(() -> approveNow(proposalId, null, null));
    }

    /** Approves with another replica count than proposed ("override with value"). */
    public CompletableFuture<Outcome> approveWith(String proposalId, int replicas, String reason) {
        if (replicas < 0) {
            return CompletableFuture.completedFuture(Outcome.refused("replicas cannot be negative"));
        }
        return command(() -> approveNow(proposalId, replicas, reason));
    }

    private Outcome approveNow(String proposalId, Integer value, String reason) {
        Instant now = clock.instant();
        expire(now);
        Slot s = slotOfProposal(proposalId);
        if (s == null) {
            return Outcome.refused("proposal " + proposalId + " is no longer pending (expired, revised or decided)");
        }
        Proposal p = s.proposal;
        WorkloadClass cls = classes.get(p.className());
        Freeze f = freezeAll != null ? freezeAll : s.freeze;
        if (f != null) {
            return Outcome.refused(p.className() + " is frozen (" + f.reason() + "); unfreeze first");
        }
        Read w = read(cls);
        if (w.refusal() != null) {
            return w.refusal();
        }
        int actual = w.get().specReplicas();
        if (actual != p.from()) {
            journal.append(record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to()).proposal(p.id())
                    .reason("replicas moved from " + p.from() + " to " + actual + " since the proposal"));
            s.proposal = null;
            return Outcome.refused("replicas moved from " + p.from() + " to " + actual
                    + " since the proposal; the next tick decides again");
        }
        int to = value != null ? value : p.to();
        DrainPlanner.Plan drain = null;
        if (to < p.from() && cls.drainOnScaleDown() != null) {
            // This class drains on scale-down: approving starts a drain, so it must be possible first.
            DrainPlanner.Planned planned = planDrain(cls, w.get(), to, cls.drainOnScaleDown(), now);
            if (planned instanceof DrainPlanner.Refused r) {
                return Outcome.refused(p.className() + " drains on scale-down, and cannot now: " + r.reason());
            }
            drain = (DrainPlanner.Plan) planned;
        }
        journal.append(record(now, Kind.APPROVED, p.className()).change(p.from(), to).proposal(p.id())
                .reason(value != null ? "operator chose " + to + " instead of " + p.to()
                        + (reason == null || reason.isBlank() ? "" : ": " + reason) : null)
                .detail(p.explanation()));
        s.proposal = null;
        if (drain != null) {
            return runDrain(cls, s, drain, "approved proposal " + p.id(), now);
        }
        Actuation a = apply(cls, w.get(), p.from(), to, value != null ? "approved with " + to : "approved",
                p.explanation(), p.id());
        return a.kind() == Actuation.Kind.APPLIED ? Outcome.ok(p.className() + ": " + p.from() + " → " + to)
                : Outcome.refused(p.className() + ": " + a.message());
    }

    /**
     * Asks the API server whether the proposal's change would be accepted (server-side dry run,
     * nothing changes); the answer is for the operator, not the journal.
     */
    public CompletableFuture<Outcome> dryRun(String proposalId) {
        return command(() -> {
            Slot s = slotOfProposal(proposalId);
            if (s == null) {
                return Outcome.refused("proposal " + proposalId + " is no longer pending");
            }
            Proposal p = s.proposal;
            ScaleResult r = cluster.dryRunScale(classes.get(p.className()).target(), p.to());
            return r.ok() ? Outcome.ok("dry run: the API server would accept " + p.className() + " " + p.from()
                    + " → " + p.to() + " (nothing changed)")
                    : Outcome.refused("dry run: " + p.className() + " " + p.from() + " → " + p.to()
                    + " would fail: " + r.message());
        });
    }

    /** Rejects a proposal; the same change is not proposed again for one proposal lifetime. */
    public CompletableFuture<Outcome> reject(String proposalId, String reason) {
        return command(() -> {
            Instant now = clock.instant();
            Slot s = slotOfProposal(proposalId);
            if (s == null) {
                return Outcome.refused("proposal " + proposalId + " is no longer pending");
            }
            Proposal p = s.proposal;
            journal.append(record(now, Kind.REJECTED, p.className()).change(p.from(), p.to()).proposal(p.id())
                    .reason(reason));
            s.proposal = null;
            s.rejectedFrom = p.from();
            s.rejectedTo = p.to();
            s.rejectedUntil = now.plus(proposalTtl);
            s.lastAction = "rejected " + p.from() + " → " + p.to();
            return Outcome.ok(p.className() + ": rejected " + p.from() + " → " + p.to());
        });
    }

    /** Freezes one class, or every class when {@code className} is null. */
    public CompletableFuture<Outcome> freeze(String className, Duration ttl, String reason) {
        if (ttl.isNegative() || ttl.isZero()) {
            return CompletableFuture.completedFuture(Outcome.refused("a freeze needs a positive duration"));
        }
        if (reason == null || reason.isBlank()) {
            return CompletableFuture.completedFuture(Outcome.refused("a freeze needs a reason"));
        }
        return command(() -> {
            Instant now = clock.instant();
            Freeze f = new Freeze(reason, now.plus(ttl), user, now);
            if (className == null) {
                freezeAll = f;
            } else {
                Slot s = slots.get(className);
                if (s == null) {
                    return Outcome.refused("unknown class " + className);
                }
                s.freeze = f;
            }
            journal.append(record(now, Kind.FROZEN, className).reason(reason).until(f.until()));
            return Outcome.ok((className == null ? "everything" : className) + " frozen until "
                    + HHMM.format(f.until()));
        });
    }

    /** Lifts a freeze on one class, or the global one when {@code className} is null. */
    public CompletableFuture<Outcome> unfreeze(String className, String reason) {
        return command(() -> {
            Instant now = clock.instant();
            if (className == null) {
                if (freezeAll == null) {
                    return Outcome.refused("nothing is frozen globally");
                }
                freezeAll = null;
            } else {
                Slot s = slots.get(className);
                if (s == null || s.freeze == null) {
                    return Outcome.refused(className + " is not frozen");
                }
                s.freeze = null;
            }
            journal.append(record(now, Kind.UNFROZEN, className).reason(reason));
            return Outcome.ok((className == null ? "global freeze" : className + " freeze") + " lifted");
        });
    }

    /** Pins a class to {@code replicas} until {@code until}. */
    public CompletableFuture<Outcome> setOverride(String className, int replicas, Instant until, String reason) {
        if (replicas < 0) {
            return CompletableFuture.completedFuture(Outcome.refused("replicas cannot be negative"));
        }
        if (reason == null || reason.isBlank()) {
            return CompletableFuture.completedFuture(Outcome.refused("an override needs a reason"));
        }
        return command(() -> {
            Instant now = clock.instant();
            Slot s = slots.get(className);
            if (s == null) {
                return Outcome.refused("unknown class " + className);
            }
            if (!until.isAfter(now)) {
                return Outcome.refused("the override must end in the future");
            }
            if (s.drain != null && s.drain.active()) {
                return Outcome.refused(className + " is draining (" + s.drain.id() + "); cancel the drain first");
            }
            s.override = new ReplicaOverride(replicas, until, reason, user, now);
            journal.append(record(now, Kind.OVERRIDE_SET, className).change(null, replicas).reason(reason)
                    .until(until));
            withdraw(s, now, "override set");
            return Outcome.ok(className + " pinned to " + replicas + " until " + HHMM.format(until));
        });
    }

    public CompletableFuture<Outcome> clearOverride(String className, String reason) {
        return command(() -> {
            Instant now = clock.instant();
            Slot s = slots.get(className);
            if (s == null || s.override == null) {
                return Outcome.refused(className + " has no override");
            }
            journal.append(record(now, Kind.OVERRIDE_CLEARED, className).change(null, s.override.replicas())
                    .reason(reason));
            s.override = null;
            return Outcome.ok(className + " override cleared; " + s.mode.name().toLowerCase() + " mode takes over");
        });
    }

    /** The workload could not be read this tick: a running drain still moves on (towards its deadline). */
    @Override
    public void unobserved(WorkloadClass cls, String problem) {
        Instant now = clock.instant();
        Slot s = slots.get(cls.name());
        if (s != null && s.drain != null && s.drain.active()) {
            advanceDrain(cls, s, null, null, now);
            publish(now);
        }
    }

    /** One step of a running drain: stopped (when {@code stop} says why and it is not too late) or observed. */
    private void advanceDrain(WorkloadClass cls, Slot s, WorkloadState w, String stop, Instant now) {
        Drain before = s.drain;
        DrainStep.Step step = stop != null ? DrainStep.cancel(before, stop, now) : null;
        if (step == null || step.drain() == before) {
            step = DrainStep.observe(before, w, drains.load(cls.name()), now); // too late to stop: follow it
        }
        s.drain = drains.carryOut(cls, before, step, now);
        s.lastAction = "drain " + s.drain.id() + " " + s.drain.phase().name().toLowerCase().replace('_', ' ')
                + ": " + s.drain.detail();
        if (!s.drain.active() && s.drain.phase() != DrainPhase.COMPLETED) {
            // A drain that did not complete is not retried automatically at once: the same busy pods
            // would be marked again, tick after tick.
            s.autoDrainAfter = now.plus(before.deadline().isAfter(before.startedAt())
                    ? Duration.between(before.startedAt(), before.deadline()) : proposalTtl);
        }
    }

    /**
     * Starts a drain (DESIGN §5): picks the idle or least-loaded pods, marks them, and lowers
     * replicas to {@code to} once their jobs have finished, or ends timed out at the deadline with
     * nothing scaled. Refused while the class is frozen, pinned or already draining.
     */
    public CompletableFuture<Outcome> startDrain(String className, int to, Duration deadline, String reason) {
        if (deadline.isNegative() || deadline.isZero()) {
            return CompletableFuture.completedFuture(Outcome.refused("a drain needs a positive deadline"));
        }
        return command(() -> {
            Instant now = clock.instant();
            expire(now);
            Slot s = slots.get(className);
            WorkloadClass cls = classes.get(className);
            if (s == null || cls == null) {
                return Outcome.refused("unknown class " + className);
            }
            Freeze f = freezeAll != null ? freezeAll : s.freeze;
            if (f != null) {
                return Outcome.refused(className + " is frozen (" + f.reason() + "); unfreeze first");
            }
            if (s.override != null) {
                return Outcome.refused(className + " is pinned to " + s.override.replicas() + "; clear the override first");
            }
            if (s.drain != null && s.drain.active()) {
                return Outcome.refused(className + " is already draining (" + s.drain.id() + ")");
            }
            Read w = read(cls);
            if (w.refusal() != null) {
                return w.refusal();
            }
            if (s.lastDesired > w.get().specReplicas()) {
                return Outcome.refused(className + ": the decision wants " + s.lastDesired + " replicas, more than"
                        + " the " + w.get().specReplicas() + " running; a drain would take away capacity the"
                        + " queue needs (it would be cancelled as soon as it started)");
            }
            return drainNow(cls, s, w.get(), to, deadline, reason, now);
        });
    }

    /** Plans, journals and starts a drain (loop thread); the outcome says whether it runs. */
    private Outcome drainNow(WorkloadClass cls, Slot s, WorkloadState w, int to, Duration deadline, String reason,
                             Instant now) {
        DrainPlanner.Planned planned = planDrain(cls, w, to, deadline, now);
        if (planned instanceof DrainPlanner.Refused r) {
            return Outcome.refused(cls.name() + ": " + r.reason());
        }
        return runDrain(cls, s, (DrainPlanner.Plan) planned, reason, now);
    }

    private DrainPlanner.Planned planDrain(WorkloadClass cls, WorkloadState w, int to, Duration deadline,
                                           Instant now) {
        String id = cls.name() + "-drain-" + (drainCounter + 1) + "-" + drainTag;
        return DrainPlanner.plan(id, cls.name(), w, drains.load(cls.name()), to, deadline, drainNoticeGrace, now);
    }

    private Outcome runDrain(WorkloadClass cls, Slot s, DrainPlanner.Plan plan, String reason, Instant now) {
        drainCounter++;
        withdraw(s, now, "a drain takes over");
        Drain d = plan.drain();
        journal.append(record(now, Kind.DRAIN_STARTED, cls.name()).change(d.from(), d.to()).proposal(d.id())
                .until(d.deadline()).reason(reason == null || reason.isBlank() ? null : reason)
                .detail(String.join("; ", d.pods().stream().map(p -> p.name() + " (" + p.why() + ")").toList())));
        s.drain = drains.carryOut(cls, null, new DrainStep.Step(d, List.of(plan.mark())), now);
        s.lastAction = "drain " + d.id() + ": " + s.drain.detail();
        return s.drain.active() ? Outcome.ok(cls.name() + ": draining " + d.from() + " → " + d.to() + ", "
                + String.join(", ", d.podNames()) + " marked")
                : Outcome.refused(cls.name() + ": drain " + s.drain.phase().name().toLowerCase() + ": "
                + s.drain.detail());
    }

    /** Stops a running drain and removes its marks; too late once replicas were lowered. */
    public CompletableFuture<Outcome> cancelDrain(String className, String reason) {
        return command(() -> {
            Instant now = clock.instant();
            Slot s = slots.get(className);
            if (s == null || s.drain == null || !s.drain.active()) {
                return Outcome.refused(className + " has no running drain");
            }
            Drain before = s.drain;
            DrainStep.Step step = DrainStep.cancel(before, "cancelled by " + user
                    + (reason == null || reason.isBlank() ? "" : ": " + reason), now);
            if (step.drain() == before) {
                return Outcome.refused(className + ": too late to cancel, replicas were already lowered to "
                        + before.to());
            }
            s.drain = drains.carryOut(classes.get(className), before, step, now);
            s.lastAction = "drain " + s.drain.id() + " interrupted: " + s.drain.detail();
            return Outcome.ok(className + ": drain cancelled, marks removed");
        });
    }

    /**
     * A console that stopped mid-drain left pods marked: on its next look at the workload, remove
     * the marks of drains the journal started and never ended, and end them there.
     */
    private void cleanUpOrphans(WorkloadClass cls, Slot s, WorkloadState w, Instant now) {
        if (s.orphanDrains.isEmpty() || w == null) {
            return;
        }
        for (String id : List.copyOf(s.orphanDrains)) {
            List<String> marked = w.pods().stream().filter(p -> id.equals(p.drainId()))
                    .map(io.headroom.cluster.PodState::name).toList();
            io.headroom.cluster.PodMarks.Result r = marked.isEmpty()
                    ? new io.headroom.cluster.PodMarks.Result(List.of(), List.of()) : drains.unmark(cls, marked, id);
            journal.append(record(now, Kind.DRAIN_ENDED, cls.name()).proposal(id).reason(DrainPhase.INTERRUPTED.name())
                    .detail("the console stopped during the drain, which was not resumed"
                            + (marked.isEmpty() ? "" : "; marks removed from " + String.join(", ", r.done()))
                            + (r.ok() ? "" : "; could not remove the marks from " + String.join("; ", r.failed()))));
            s.lastAction = "drain " + id + " interrupted by a restart";
            s.orphanDrains.remove(id);
        }
    }

    public CompletableFuture<Outcome> setMode(String className, Mode mode) {
        return command(() -> {
            Instant now = clock.instant();
            Slot s = slots.get(className);
            if (s == null) {
                return Outcome.refused("unknown class " + className);
            }
            if (s.mode == mode) {
                return Outcome.ok(className + " is already " + mode.name().toLowerCase());
            }
            journal.append(record(now, Kind.MODE_CHANGED, className).detail(mode.name())
                    .reason(s.mode.name() + " → " + mode.name()));
            s.mode = mode;
            return Outcome.ok(className + " is now " + mode.name().toLowerCase());
        });
    }

    /** A workload read for a command: the state, or the refusal that says why there is none. */
    private record Read(WorkloadState get, Outcome refusal) {
    }

    private Read read(WorkloadClass cls) {
        try {
            return cluster.workload(cls.target()).map(w -> new Read(w, null))
                    .orElse(new Read(null, Outcome.refused("workload " + cls.target() + " not found")));
        } catch (RuntimeException e) {
            return new Read(null, Outcome.refused("could not read " + cls.target() + ": " + e.getMessage()));
        }
    }

    private Slot slotOfProposal(String id) {
        for (Slot s : slots.values()) {
            if (s.proposal != null && s.proposal.id().equals(id)) {
                return s;
            }
        }
        return null;
    }

    private CompletableFuture<Outcome> command(Supplier<Outcome> body) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return body.get();
            } catch (RuntimeException e) {
                return Outcome.refused("failed: " + e.getMessage());
            } finally {
                publish(clock.instant());
            }
        }, loopThread);
    }

    /** A record naming the class's own context (several clusters may be open at once). */
    private JournalRecord record(Instant at, Kind kind, String className) {
        WorkloadClass c = className == null ? null : classes.get(className);
        return JournalRecord.of(at, kind, user, c != null ? c.target().context() : cluster.contextName(), className);
    }

    private void publish(Instant now) {
        state = snapshot(now);
        for (Consumer<SupervisionState> l : listeners) {
            l.accept(state);
        }
    }

    private SupervisionState snapshot(Instant now) {
        Map<String, ClassSupervision> out = new LinkedHashMap<>();
        List<Proposal> pending = new ArrayList<>();
        for (Map.Entry<String, Slot> e : slots.entrySet()) {
            Slot s = e.getValue();
            out.put(e.getKey(), new ClassSupervision(e.getKey(), s.mode, s.freeze, s.override, s.proposal,
                    s.lastAction, s.drain));
            if (s.proposal != null) {
                pending.add(s.proposal);
            }
        }
        return new SupervisionState(now, freezeAll, out, pending, warnings, null);
    }
}
