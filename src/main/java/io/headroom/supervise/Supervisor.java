package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.decision.Reason;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.drain.DrainPlanner;
import io.headroom.drain.DrainStep;
import io.headroom.drain.ReplaceStep;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.Actuation;
import io.headroom.loop.Actuator;
import io.headroom.loop.WorkloadClass;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Supervised operation (DESIGN §4): sits in the control loop's actuator seam and decides, per
 * class, whether a decision is applied, becomes a proposal, or is withheld (observe mode, a
 * freeze, an override) — the precedence itself is the pure {@link Precedence} step; the journal is
 * read back by {@link SupervisionReplay}.
 *
 * <p>The journal is written before the world changes: a scale's intent ({@code SCALING}) before
 * the write, a command's record before its state changes. A record that cannot be written means
 * the action is not taken, and {@link SupervisionState#journalFailure()} says why until the
 * journal can be written again. The one exception is a freeze, which stops actions: it takes
 * effect in memory even then, and says it will not survive a restart. Removing a drain's own marks
 * (clean-up) is journaled after it is done: repeating it after a restart is harmless.
 *
 * <p>Thread model: state lives on the loop's thread. {@link #handle} is called there by the loop;
 * operator commands are queued onto the same executor and answer with a future, so the FX thread
 * never waits on the cluster. Freezes are the exception: they run on their own executor, so Freeze
 * all never waits behind a loop thread stuck in a cluster write, and every write passes a gate
 * ({@link GatedCluster}) that refuses to start once a freeze covers its class. Snapshots go to
 * listeners after every change, from the loop's thread or a freeze's.
 */
public final class Supervisor implements Actuator {
    /** How long a worker gets to see its drain mark (a downward-API volume syncs within about a minute). */
    public static final Duration DEFAULT_DRAIN_NOTICE = Duration.ofSeconds(60);
    private static final DateTimeFormatter HHMM = Precedence.HHMM;
    /** Where freezes run when no executor is given: daemon threads, never the loop's. */
    private static final ExecutorService FREEZE_THREADS = io.headroom.threads.NamedThreads.cached("headroom-freeze");

    private final ClusterPorts cluster;
    /** Every write goes through here: no write starts once a freeze covers its class. */
    private final ClusterPorts writes;
    private final Journal journal;
    private final Clock clock;
    private final Executor loopThread;
    private final Executor urgent;
    private final String user;
    private final Duration proposalTtl;
    private final Map<String, WorkloadClass> classes = new ConcurrentHashMap<>();
    private final Map<String, Slot> slots = new LinkedHashMap<>();
    private final Freezes freezes = new Freezes();
    private final List<Consumer<SupervisionState>> listeners = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final DrainDriver drains;
    /** Node drains (cordon, Headroom's pods first, evictions): loop thread only, like class drains. */
    private final NodeDrainDriver nodeDrains;
    private final Object publishLock = new Object();
    private long proposalCounter;
    private long drainCounter;
    /** Tells this console's drain ids from another's: marks are on shared pods. */
    private final String drainTag = Long.toHexString(new java.security.SecureRandom().nextInt(0x10000) | 0x10000)
            .substring(1);
    private Duration drainNoticeGrace = DEFAULT_DRAIN_NOTICE;
    /** A proposal stays as shown for at least this much wall time (zero: no hold); see {@link #holdProposals}. */
    private Duration minActionable = Duration.ZERO;
    private java.util.function.LongSupplier wallNanos = () -> 0L;
    private volatile SupervisionState state;

    /** Mutable per-class state, loop thread only (freezes live in {@link Freezes}). */
    private static final class Slot {
        Mode mode = Mode.SUPERVISED;
        ReplicaOverride override;
        Proposal proposal;
        Precedence.Rejection rejected;
        LastAction lastAction;
        /** The running drain, or the last one (ended) for the operator to read; null when none. */
        Drain drain;
        /**
         * Drains the journal started and never ended (the console stopped mid-drain): a drain's marks go, a
         * replacement is taken up or ended ({@link ReplaceStep#resume}).
         */
        final List<SupervisionReplay.Unfinished> orphanDrains = new ArrayList<>();
        /** No automatic drain before this (after one that did not complete). */
        Instant autoDrainAfter;
        /** What the last decision wanted, -1 before the first. */
        int lastDesired = -1;
        /** The pods the last decision found STUCK (alive, holding work, finishing nothing). */
        List<String> stuck = List.of();
        /** Wall-clock nanos when the operator was first shown the proposal's current change. */
        long shownAtNanos;
    }

    /**
     * @param loopThread the executor the control loop ticks on; commands are serialised with ticks there
     * @param user who the journal says acted (the OS user)
     */
    public Supervisor(List<WorkloadClass> classes, ClusterPorts cluster, Journal journal, Clock clock,
                      Executor loopThread, String user, Duration proposalTtl) {
        this(classes, cluster, journal, clock, loopThread, FREEZE_THREADS, user, proposalTtl);
    }

    /** @param urgent where freezes run, so they never wait behind a loop thread stuck in a cluster write */
    public Supervisor(List<WorkloadClass> classes, ClusterPorts cluster, Journal journal, Clock clock,
                      Executor loopThread, Executor urgent, String user, Duration proposalTtl) {
        for (WorkloadClass c : classes) {
            this.classes.put(c.name(), c);
            slots.put(c.name(), new Slot());
        }
        this.cluster = cluster;
        this.writes = GatedCluster.fence(cluster, freezes, this::classOf);
        this.journal = journal;
        this.clock = clock;
        this.loopThread = loopThread;
        this.urgent = urgent;
        this.user = user;
        this.proposalTtl = proposalTtl;
        this.drains = new DrainDriver(writes, journal, this::record);
        this.nodeDrains = new NodeDrainDriver(writes, journal, user, this.classes::values, drains::load,
                freezes::covering);
        this.state = snapshot(clock.instant());
    }

    /** The class a write is for (the gate asks; null when no class targets it: only a global freeze stops it). */
    private String classOf(WorkloadRef ref) {
        for (WorkloadClass c : classes.values()) {
            if (c.target().equals(ref)) {
                return c.name();
            }
        }
        return null;
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

    /**
     * A proposal stays actionable, unchanged, for at least {@code minimum} of wall time (read from
     * {@code wallNanos}, a monotonic ticker: not the session's clock, which the sandbox runs at 10×
     * or 60×), so a person can read it and act before the decision moves on. Meanwhile it is not
     * revised, withdrawn because the decision now holds, or expired; an operator's own action (a
     * mode, an override, a drain) and replicas that moved under it still take it away at once.
     */
    public void holdProposals(Duration minimum, java.util.function.LongSupplier wallNanos) {
        this.minActionable = minimum;
        this.wallNanos = wallNanos;
    }

    /** True while the class's proposal is within its minimum real time. */
    private boolean held(Slot s) {
        return s.proposal != null && !minActionable.isZero()
                && wallNanos.getAsLong() - s.shownAtNanos < minActionable.toNanos();
    }

    /** The OS user, as the journal records it. */
    /** Who acts through this supervisor: written into every record and event. */
    public String user() {
        return user;
    }

    public static String osUser() {
        String u = System.getProperty("user.name");
        return u == null || u.isBlank() ? "unknown" : u;
    }

    public SupervisionState state() {
        return state;
    }

    /** Listeners run on the loop's thread, or on the thread a freeze ran on. */
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
     * since is dropped. Call before the loop starts.
     */
    public void restore(Journal.Replay replay) {
        Instant now = clock.instant();
        SupervisionReplay.Restored r = SupervisionReplay.replay(replay, Map.copyOf(classes), cluster.contextName(), now);
        synchronized (freezes) {
            freezes.set(null, r.freezeAll());
            r.classes().forEach((name, c) -> freezes.set(name, c.freeze()));
        }
        r.classes().forEach((name, c) -> {
            Slot s = slots.get(name);
            if (s != null) {
                s.mode = c.mode();
                s.override = c.override();
                s.proposal = c.proposal();
                s.shownAtNanos = wallNanos.getAsLong();
                s.orphanDrains.addAll(c.orphanDrains());
            }
        });
        proposalCounter = Math.max(proposalCounter, r.proposalCounter());
        drainCounter = Math.max(drainCounter, r.drainCounter());
        warnings.addAll(r.warnings());
        publish(now);
    }

    // ------------------------------------------------------------------ the actuator seam

    @Override
    public Actuation handle(WorkloadClass cls, Decision d, WorkloadState w) {
        Instant now = clock.instant();
        classes.putIfAbsent(cls.name(), cls);
        Slot s = slots.computeIfAbsent(cls.name(), n -> new Slot());
        if (!inTick) {
            expire(now);
        }
        try {
            advanceNodeDrains(now);
            return act(cls, s, d, w, now);
        } finally {
            publishOrDefer(now);
        }
    }

    /**
     * Within a loop's tick: expiries are looked at once, and the snapshot of every class is published once
     * at its end. Per class, both walk every class: a 5,000-class tick did 25 million steps of them and
     * handed the console 5,000 snapshots.
     */
    private boolean inTick;
    /** Something changed within this tick that is not yet published. */
    private boolean unpublished;

    @Override
    public void tickStarted(Instant now) {
        inTick = true;
        expire(now);
        unpublished = true; // what expired, and the tick's own changes
    }

    @Override
    public void tickEnded(Instant now) {
        inTick = false;
        if (unpublished) {
            unpublished = false;
            publish(clock.instant());
        }
    }

    /** Publishes now, or at the end of the tick this is part of. */
    private void publishOrDefer(Instant now) {
        if (inTick) {
            unpublished = true;
        } else {
            publish(now);
        }
    }

    private Actuation act(WorkloadClass cls, Slot s, Decision d, WorkloadState w, Instant now) {
        int current = d.currentReplicas();
        int desired = d.desiredReplicas();
        cleanUpOrphans(cls, s, w, now);
        s.lastDesired = desired;
        s.stuck = d.stuckPods();
        drains.retryLeftovers(cls, now);
        if (s.drain != null && s.drain.active()) {
            advanceDrain(cls, s, w, Precedence.drainStop(freezes.covering(cls.name()), s.drain, desired), now);
            if (s.drain.active()) {
                return withheld(current, desired, "draining " + s.drain.change()
                        + " (the decision wants " + desired + "): " + s.drain.detail());
            }
        }
        Precedence.Plan plan = Precedence.decide(new Precedence.Input(freezes.covering(cls.name()), s.override, s.mode,
                current, desired, d.wantsChange(), cls.drainOnScaleDown() != null, w != null, s.autoDrainAfter,
                s.rejected, now));
        Precedence.Step step = plan.step();
        if (step instanceof Precedence.Hold && s.mode == Mode.SUPERVISED && held(s) && s.proposal.from() == current) {
            // The decision moved back, but the operator may be reading this proposal: it stays a while.
            return withheld(current, desired, "proposal " + s.proposal.id() + " held for the operator");
        }
        if (plan.withdraw() != null) {
            withdraw(s, now, plan.withdraw());
        }
        if (step instanceof Precedence.Withhold h) {
            return withheld(current, h.desired(), h.why());
        }
        if (step instanceof Precedence.Apply a) {
            return apply(cls, w, current, a.to(), a.cause(), a.why(), explanation(s, d, w), null);
        }
        if (step instanceof Precedence.Propose) {
            return propose(cls, s, d, explanation(s, d, w), now);
        }
        if (step instanceof Precedence.StartDrain drain) {
            Outcome o = drainNow(cls, s, w, drain.to(), cls.drainOnScaleDown(), "auto", now);
            return withheld(current, desired, o.ok() ? "auto: " + o.message()
                    : "auto: scale-down not started, " + o.message());
        }
        return Actuation.none(current);
    }

    /**
     * The decision's explanation, and why replicas are one more than the class ran before a replacement that
     * did not lower them back (it timed out, was interrupted, or a console stopped in it), while they still are.
     */
    private static String explanation(Slot s, Decision d, WorkloadState w) {
        Drain r = s.drain;
        if (r == null || r.replace() == null || r.active() || d.currentReplicas() != r.from() + 1) {
            return d.explanation();
        }
        boolean runs = w != null && w.pods().stream().anyMatch(p -> p.name().equals(r.replace().pod()) && !p.terminating());
        return d.explanation() + "; " + ReplaceStep.extraReplica(r, runs);
    }

    private Actuation propose(WorkloadClass cls, Slot s, Decision d, String explanation, Instant now) {
        int current = d.currentReplicas();
        int desired = d.desiredReplicas();
        Proposal p = s.proposal;
        List<String> reasons = d.reasons().stream().map(Reason::toString).toList();
        if (p != null && p.from() == current && p.to() == desired) {
            // Same change still wanted: keep the proposal, refresh its explanation and expiry.
            s.proposal = new Proposal(p.id(), p.className(), p.context(), p.from(), p.to(), p.createdAt(), now,
                    now.plus(proposalTtl), explanation, reasons);
            return withheld(current, desired, "proposal " + p.id() + " waiting for approval");
        }
        if (p != null && p.from() == current && held(s)) {
            // A newer change waits until the operator has had the shown one long enough to act on it.
            return withheld(current, desired, "proposal " + p.id() + " held for the operator");
        }
        String id = p != null ? p.id() : cls.name() + "-" + (proposalCounter + 1);
        Proposal next = new Proposal(id, cls.name(), cluster.contextName(), current, desired,
                p != null ? p.createdAt() : now, now, now.plus(proposalTtl), explanation, reasons);
        try {
            journal.append(record(now, p != null ? Kind.SUPERSEDED : Kind.PROPOSED, cls.name())
                    .change(current, desired).proposal(id).until(next.expiresAt()).detail(explanation)
                    .reason(p != null ? "revised from " + p.from() + " → " + p.to() : null));
        } catch (JournalException e) {
            return withheld(current, desired, (p != null ? "proposal not revised, " : "not proposed, ")
                    + unjournaled(e));
        }
        if (p == null) {
            proposalCounter++;
        }
        s.proposal = next;
        s.shownAtNanos = wallNanos.getAsLong();
        s.lastAction = LastAction.of(p != null ? LastAction.Kind.REVISED : LastAction.Kind.PROPOSED,
                (p != null ? "proposal revised: " : "proposed: ") + current + " → " + desired);
        return withheld(current, desired, "proposal " + id + " waiting for approval");
    }

    private void withdraw(Slot s, Instant now, String why) {
        Proposal p = s.proposal;
        if (p == null) {
            return;
        }
        // Withdrawn here even when its record cannot be written: a restart brings the proposal back, and
        // approving it re-reads the workload first.
        tryAppend(record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to()).proposal(p.id()).reason(why));
        s.lastAction = LastAction.of(LastAction.Kind.WITHDRAWN, "proposal " + p.from() + " → " + p.to()
                + " withdrawn: " + why);
        s.proposal = null;
    }

    /**
     * Scales {@code from} → {@code to}: the intent is journaled first (no record, no write), the
     * write passes the freeze gate, the outcome is journaled after.
     */
    private Actuation apply(WorkloadClass cls, WorkloadState w, int from, int to, Precedence.Cause cause, String why,
                            String explanation, String proposalId) {
        Instant now = clock.instant();
        Slot s = slots.get(cls.name());
        try {
            journal.append(record(now, Kind.SCALING, cls.name()).change(from, to).reason(why).proposal(proposalId));
        } catch (JournalException e) {
            String message = "not scaled " + from + " → " + to + " (" + why + "): " + unjournaled(e);
            s.lastAction = LastAction.of(LastAction.Kind.FAILED, message);
            return new Actuation(Actuation.Kind.FAILED, from, from, message);
        }
        // A stale resourceVersion (someone scaled meanwhile) re-reads the workload: an override
        // re-proposes the pinned count; a decision or an approval gives up with the reason, and
        // the next tick decides again from the fresh state. Never a blind overwrite.
        boolean pinned = cause == Precedence.Cause.OVERRIDE;
        Redecision.Redecider redecide = fresh -> pinned || fresh.specReplicas() == from ? Redecision.propose(to)
                : Redecision.giveUp("replicas moved from " + from + " to " + fresh.specReplicas()
                        + " since the decision; the next tick decides again");
        ScaleResult r;
        try {
            r = writes.scaling().scale(cls.target(), to, w == null ? null : w.resourceVersion(), redecide, 3);
        } catch (RuntimeException e) {
            r = ScaleResult.of(ScaleResult.Outcome.FAILED, from, e.getMessage());
        }
        // The write is done (or not): when its outcome cannot be journaled, the state says the journal
        // fails and a restart warns that this scale's outcome is unknown.
        tryAppend(record(now, r.ok() ? Kind.APPLIED : Kind.FAILED, cls.name()).change(from, r.ok() ? r.replicas() : to)
                .reason(why).detail(r.ok() ? explanation : r.message()).proposal(proposalId));
        s.lastAction = LastAction.of(r.ok() ? LastAction.Kind.APPLIED : LastAction.Kind.FAILED,
                (r.ok() ? "applied " : "failed ") + from + " → " + to + " (" + why + ")");
        return new Actuation(r.ok() ? Actuation.Kind.APPLIED : Actuation.Kind.FAILED, from,
                r.ok() ? r.replicas() : from, r.ok() ? why : r.message());
    }

    private static Actuation withheld(int current, int desired, String why) {
        return new Actuation(Actuation.Kind.WITHHELD, current, desired, why);
    }

    /**
     * Drops what has run out. An expiry follows from the time already journaled, so it happens
     * even when its record cannot be written (a restart drops the same things).
     */
    private void expire(Instant now) {
        synchronized (freezes) {
            Freeze all = freezes.all();
            if (all != null && !all.activeAt(now)) {
                tryAppend(record(now, Kind.FREEZE_EXPIRED, null).reason(all.reason()));
                freezes.set(null, null);
            }
            freezes.byClass().forEach((name, f) -> {
                if (!f.activeAt(now)) {
                    tryAppend(record(now, Kind.FREEZE_EXPIRED, name).reason(f.reason()));
                    freezes.set(name, null);
                }
            });
        }
        for (Map.Entry<String, Slot> e : slots.entrySet()) {
            Slot s = e.getValue();
            if (s.override != null && !s.override.activeAt(now)) {
                String next = "override ended; " + s.mode.name().toLowerCase() + " mode takes over";
                tryAppend(record(now, Kind.OVERRIDE_EXPIRED, e.getKey()).change(null, s.override.replicas())
                        .reason(next));
                s.lastAction = LastAction.of(LastAction.Kind.OVERRIDE_ENDED, next);
                s.override = null;
            }
            if (s.proposal != null && s.proposal.expiredAt(now) && !held(s)) {
                tryAppend(record(now, Kind.EXPIRED, e.getKey()).change(s.proposal.from(), s.proposal.to())
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
        Freeze f = freezes.covering(p.className());
        if (f != null) {
            return Outcome.refused(p.className() + " is frozen (" + f.reason() + "); unfreeze first");
        }
        Read w = read(cls);
        if (w.refusal() != null) {
            return w.refusal();
        }
        int actual = w.get().specReplicas();
        if (actual != p.from()) {
            tryAppend(record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to()).proposal(p.id())
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
        try {
            journal.append(record(now, Kind.APPROVED, p.className()).change(p.from(), to).proposal(p.id())
                    .reason(value != null ? "operator chose " + to + " instead of " + p.to()
                            + (reason == null || reason.isBlank() ? "" : ": " + reason) : null)
                    .detail(p.explanation()));
        } catch (JournalException e) {
            return Outcome.refused(p.className() + ": not approved, " + unjournaled(e));
        }
        s.proposal = null;
        if (drain != null) {
            return runDrain(cls, s, plan(drain), "approved proposal " + p.id(), now);
        }
        Actuation a = apply(cls, w.get(), p.from(), to, Precedence.Cause.APPROVED,
                value != null ? "approved with " + to + (reason == null || reason.isBlank() ? "" : ": " + reason)
                        : "approved", p.explanation(), p.id());
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
            ScaleResult r = cluster.scaling().dryRunScale(classes.get(p.className()).target(), p.to());
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
            try {
                journal.append(record(now, Kind.REJECTED, p.className()).change(p.from(), p.to()).proposal(p.id())
                        .reason(reason));
            } catch (JournalException e) {
                return Outcome.refused(p.className() + ": not rejected, " + unjournaled(e));
            }
            s.proposal = null;
            s.rejected = new Precedence.Rejection(p.from(), p.to(), now.plus(proposalTtl));
            s.lastAction = LastAction.of(LastAction.Kind.REJECTED, "rejected " + p.from() + " → " + p.to());
            return Outcome.ok(p.className() + ": rejected " + p.from() + " → " + p.to());
        });
    }

    /**
     * Freezes one class, or every class when {@code className} is null. Runs on its own executor,
     * not the loop's: it is journaled and in force when the future completes, even while the loop
     * thread is stuck in a cluster write, and no write starts after it (the gate). A freeze that
     * cannot be journaled still holds, in memory, and says so.
     */
    public CompletableFuture<Outcome> freeze(String className, Duration ttl, String reason) {
        if (ttl.isNegative() || ttl.isZero()) {
            return CompletableFuture.completedFuture(Outcome.refused("a freeze needs a positive duration"));
        }
        if (reason == null || reason.isBlank()) {
            return CompletableFuture.completedFuture(Outcome.refused("a freeze needs a reason"));
        }
        if (className != null && !classes.containsKey(className)) {
            return CompletableFuture.completedFuture(Outcome.refused("unknown class " + className));
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                return freezeNow(className, ttl, reason);
            } catch (RuntimeException e) {
                return Outcome.refused("failed: " + e.getMessage());
            }
        }, urgent);
    }

    private Outcome freezeNow(String className, Duration ttl, String reason) {
        Instant now = clock.instant();
        Freeze f = new Freeze(reason, now.plus(ttl), user, now);
        String notJournaled = null;
        int inFlight;
        synchronized (freezes) {
            try {
                journal.append(record(now, Kind.FROZEN, className).reason(reason).until(f.until()));
            } catch (JournalException e) {
                notJournaled = e.getMessage();
            }
            freezes.set(className, f);
            inFlight = freezes.inFlight();
        }
        publishFreezes();
        String what = (className == null ? "everything" : className) + " frozen until " + HHMM.format(f.until());
        String flight = inFlight == 0 ? "" : "; " + inFlight + (inFlight == 1 ? " write was" : " writes were")
                + " already under way and may still land";
        return notJournaled == null ? Outcome.ok(what + flight)
                : Outcome.refused(what + " in memory only: not journaled (" + notJournaled
                + "), so it will not survive a restart" + flight);
    }

    /** Lifts a freeze on one class, or the global one when {@code className} is null; journaled first. */
    public CompletableFuture<Outcome> unfreeze(String className, String reason) {
        return command(() -> {
            Instant now = clock.instant();
            String what = className == null ? "global freeze" : className + " freeze";
            synchronized (freezes) {
                if (className == null ? freezes.all() == null : freezes.of(className) == null) {
                    return Outcome.refused(className == null ? "nothing is frozen globally"
                            : className + " is not frozen");
                }
                try {
                    journal.append(record(now, Kind.UNFROZEN, className).reason(reason));
                } catch (JournalException e) {
                    return Outcome.refused(what + " not lifted, " + unjournaled(e));
                }
                freezes.set(className, null);
            }
            return Outcome.ok(what + " lifted");
        });
    }

    /**
     * While a class is handed back, no write of this console's starts for it (the freeze gate), so a tick
     * cannot pause KEDA again between the cluster's hand-back and the lifting of the class's holds, which
     * follows only once the cluster has confirmed it. In memory only; {@link #handedBack} lets it go.
     */
    public void handingBack(String className) {
        Instant now = clock.instant();
        freezes.handingBack(className, new Freeze("being handed back", now.plus(Duration.ofMinutes(1)), user, now));
    }

    /** Ends {@link #handingBack}: the class's writes pass the gate again (as its holds, lifted or not, say). */
    public void handedBack(String className) {
        freezes.handingBack(className, null);
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
            try {
                journal.append(record(now, Kind.OVERRIDE_SET, className).change(null, replicas).reason(reason)
                        .until(until));
            } catch (JournalException e) {
                return Outcome.refused(className + ": override not set, " + unjournaled(e));
            }
            s.override = new ReplicaOverride(replicas, until, reason, user, now);
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
            try {
                journal.append(record(now, Kind.OVERRIDE_CLEARED, className).change(null, s.override.replicas())
                        .reason(reason));
            } catch (JournalException e) {
                return Outcome.refused(className + ": override not cleared, " + unjournaled(e));
            }
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
            publishOrDefer(now);
        }
        if (nodeDrains.anyActive()) {
            advanceNodeDrains(now);
            publishOrDefer(now);
        }
    }

    // ------------------------------------------------------------------ node drains

    /** A running node drain looks at its node (at most every couple of seconds); never breaks a class's tick. */
    private void advanceNodeDrains(Instant now) {
        try {
            nodeDrains.advance(now);
        } catch (RuntimeException e) {
            java.util.logging.Logger.getLogger(Supervisor.class.getName())
                    .warning("a node drain could not move on: " + e.getMessage());
        }
    }

    /** Every node drain this console ran: the running ones and the last one per node. Any thread. */
    public List<io.headroom.drain.NodeDrain> nodeDrains() {
        return nodeDrains.drains();
    }

    /** The nodes of {@code context} with their pods, read on the loop's thread (never the FX thread's). */
    public CompletableFuture<List<io.headroom.cluster.NodeState>> nodes(String context) {
        return CompletableFuture.supplyAsync(() -> cluster.nodes().nodes(context), loopThread);
    }

    /**
     * The nodes of {@code context} that Headroom cordoned and no drain of this console runs on (read on the
     * loop's thread): what a console that stopped mid-drain left behind, to uncordon or drain again.
     */
    public CompletableFuture<List<io.headroom.cluster.NodeState>> leftCordoned(String context) {
        return CompletableFuture.supplyAsync(() -> nodeDrains.leftCordoned(cluster.nodes().nodes(context)), loopThread);
    }

    /** The nodes a class's pods run on, by name (a cache read on the loop's thread): "from a class", a node to drain. */
    public CompletableFuture<List<io.headroom.cluster.NodeRef>> nodesOf(String className) {
        return CompletableFuture.supplyAsync(() -> {
            WorkloadClass c = classes.get(className);
            if (c == null) {
                return List.<io.headroom.cluster.NodeRef>of();
            }
            return cluster.workloads().workload(c.target()).map(w -> w.pods().stream().map(PodState::node)
                    .filter(java.util.Objects::nonNull).distinct().sorted()
                    .map(n -> new io.headroom.cluster.NodeRef(c.target().context(), n)).toList()).orElse(List.of());
        }, loopThread);
    }

    /**
     * Drains a node the way {@code kubectl drain} does (DESIGN §5): cordons it, drains the pods of
     * Headroom's classes the Headroom way (marked, their jobs in flight to 0), evicts every pod through
     * the Eviction API, retries refusals (a PodDisruptionBudget's 429) with back-off, and ends completed,
     * timed out at {@code deadline} naming the pods still there, or interrupted. Refused under a global freeze.
     */
    public CompletableFuture<Outcome> startNodeDrain(io.headroom.cluster.NodeRef node, Duration deadline, String reason) {
        if (deadline.isNegative() || deadline.isZero()) {
            return CompletableFuture.completedFuture(Outcome.refused("a drain needs a positive deadline"));
        }
        return command(() -> nodeDrains.start(node, deadline, drainNoticeGrace, reason, drainTag, clock.instant()));
    }

    /** Stops a node drain: nothing more is evicted, marks come off; the node stays cordoned. */
    public CompletableFuture<Outcome> cancelNodeDrain(io.headroom.cluster.NodeRef node, String reason) {
        return command(() -> nodeDrains.cancel(node, "cancelled by " + user
                + (reason == null || reason.isBlank() ? "" : ": " + reason), clock.instant()));
    }

    /** Uncordons a node (journaled first): new pods may be placed on it again. */
    public CompletableFuture<Outcome> uncordon(io.headroom.cluster.NodeRef node, String reason) {
        return command(() -> nodeDrains.uncordon(node, reason, clock.instant()));
    }

    /** One step of a running drain: stopped (when {@code stop} says why and it is not too late) or observed. */
    private void advanceDrain(WorkloadClass cls, Slot s, WorkloadState w, String stop, Instant now) {
        Drain before = s.drain;
        DrainStep.Step step = stop != null ? DrainStep.cancel(before, stop, now) : null;
        if (step == null || step.drain() == before) {
            step = DrainStep.observe(before, w, drains.load(cls.name()), now); // too late to stop: follow it
        }
        s.drain = drains.carryOut(cls, before, step, now);
        s.lastAction = LastAction.of(LastAction.Kind.DRAIN, "drain " + s.drain.id() + " "
                + s.drain.phase().name().toLowerCase().replace('_', ' ') + ": " + s.drain.detail());
        if (!s.drain.active() && s.drain.phase() != DrainPhase.COMPLETED) {
            // A drain that did not complete is not retried automatically at once: the same busy pods
            // would be marked again, tick after tick.
            s.autoDrainAfter = now.plus(before.deadline().isAfter(before.startedAt())
                    ? Duration.between(before.startedAt(), before.deadline()) : proposalTtl);
        }
    }

    /** Why the class may not be changed by hand now (a freeze or an override holds it), or null. */
    private String heldByHand(String className, Slot s) {
        Freeze f = freezes.covering(className);
        if (f != null) {
            return className + " is frozen (" + f.reason() + "); unfreeze first";
        }
        if (s.override != null) {
            return className + " is pinned to " + s.override.replicas() + "; clear the override first";
        }
        return null;
    }

    /**
     * Starts a drain (DESIGN §5): picks the idle or least-loaded pods, marks them, and lowers
     * replicas to {@code to} once their jobs have finished, or ends timed out at the deadline with
     * nothing scaled. Refused while the class is frozen, pinned or already draining.
     */
    public CompletableFuture<Outcome> startDrain(String className, int to, Duration deadline, String reason) {
        return drainCommand(className, deadline, reason, "a drain", (cls, w, id, now) ->
                DrainPlanner.plan(id, cls.name(), w, drains.load(cls.name()), to, deadline, drainNoticeGrace, now));
    }

    /**
     * Drains one pod the operator chose (the pod panel): as {@link #startDrain}, with exactly that pod
     * marked, waited on until its jobs are done, and replicas lowered by one so it is the one that goes.
     * Refused as a drain is (frozen, pinned, already draining, the decision wants more than runs), and
     * where lowering replicas would not remove that pod (see {@link DrainPlanner#planPods}).
     */
    public CompletableFuture<Outcome> startPodDrain(String className, String pod, Duration deadline, String reason) {
        return drainCommand(className, deadline, reason, "draining " + pod, (cls, w, id, now) ->
                DrainPlanner.planPods(id, cls.name(), w, drains.load(cls.name()), List.of(pod), deadline,
                        drainNoticeGrace, now));
    }

    /**
     * Replaces a hung (STUCK) pod: asks for a replacement first, then evicts the hung pod through the
     * Eviction API without waiting for its jobs (they go back to the queue), and ends honestly.
     */
    public CompletableFuture<Outcome> startReplaceDrain(String className, String pod, Duration deadline, String reason) {
        return drainStart(className, deadline, (cls, s, w, id, now) -> {
            if (!s.stuck.contains(pod)) {
                // Replacing cuts a worker's jobs off: only for one the decision sees making no progress.
                return Outcome.refused(className + ": " + pod + " is not STUCK (the last decision saw no hung worker"
                        + " there); drain it instead, which lets its jobs finish");
            }
            ReplaceStep.Start start = ReplaceStep.plan(id, cls.name(), w, pod, drains.load(cls.name()), deadline, now);
            if (start.refused()) {
                return Outcome.refused(cls.name() + ": " + start.refusal());
            }
            return runDrain(cls, s, start.step(), reason, now);
        });
    }

    /** How a drain picks its pods, once the class may be drained (loop thread). */
    private interface DrainPlanning {
        DrainPlanner.Planned plan(WorkloadClass cls, WorkloadState w, String id, Instant now);
    }

    /**
     * A class drain (of a count or of named pods): refused when the decision wants more replicas than
     * run ({@code what} would take away capacity the queue needs); otherwise planned, journaled and started.
     */
    private CompletableFuture<Outcome> drainCommand(String className, Duration deadline, String reason, String what,
                                                    DrainPlanning planning) {
        return drainStart(className, deadline, (cls, s, w, id, now) -> {
            if (s.lastDesired > w.specReplicas()) {
                return Outcome.refused(className + ": the decision wants " + s.lastDesired + " replicas, more than"
                        + " the " + w.specReplicas() + " running; " + what + " would take away capacity the"
                        + " queue needs (it would be cancelled as soon as it started)");
            }
            DrainPlanner.Planned planned = planning.plan(cls, w, id, now);
            if (planned instanceof DrainPlanner.Refused r) {
                return Outcome.refused(cls.name() + ": " + r.reason());
            }
            return runDrain(cls, s, plan((DrainPlanner.Plan) planned), reason, now);
        });
    }

    /** What one kind of drain does once the checks every drain shares have passed (loop thread). */
    private interface DrainKind {
        Outcome start(WorkloadClass cls, Slot s, WorkloadState w, String id, Instant now);
    }

    /**
     * The one way every drain starts: refused for a non-positive deadline, an unknown class, a class
     * frozen or pinned, already draining, or whose workload cannot be read; otherwise {@code kind} plans,
     * journals and starts it under a fresh drain id.
     */
    private CompletableFuture<Outcome> drainStart(String className, Duration deadline, DrainKind kind) {
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
            String held = heldByHand(className, s);
            if (held != null) {
                return Outcome.refused(held);
            }
            if (s.drain != null && s.drain.active()) {
                return Outcome.refused(className + " is already draining (" + s.drain.id() + ")");
            }
            Read w = read(cls);
            if (w.refusal() != null) {
                return w.refusal();
            }
            return kind.start(cls, s, w.get(), cls.name() + "-drain-" + (drainCounter + 1) + "-" + drainTag, now);
        });
    }

    /** Plans, journals and starts a drain (loop thread); the outcome says whether it runs. */
    private Outcome drainNow(WorkloadClass cls, Slot s, WorkloadState w, int to, Duration deadline, String reason,
                             Instant now) {
        DrainPlanner.Planned planned = planDrain(cls, w, to, deadline, now);
        if (planned instanceof DrainPlanner.Refused r) {
            return Outcome.refused(cls.name() + ": " + r.reason());
        }
        return runDrain(cls, s, plan((DrainPlanner.Plan) planned), reason, now);
    }

    private DrainPlanner.Planned planDrain(WorkloadClass cls, WorkloadState w, int to, Duration deadline,
                                           Instant now) {
        String id = cls.name() + "-drain-" + (drainCounter + 1) + "-" + drainTag;
        return DrainPlanner.plan(id, cls.name(), w, drains.load(cls.name()), to, deadline, drainNoticeGrace, now);
    }

    private static DrainStep.Step plan(DrainPlanner.Plan plan) {
        return new DrainStep.Step(plan.drain(), List.of(plan.mark()));
    }

    /** Journals a drain's start and carries out its first actions (marks; a replacement's scale-up). */
    private Outcome runDrain(WorkloadClass cls, Slot s, DrainStep.Step first, String reason, Instant now) {
        Drain d = first.drain();
        try {
            journal.append(record(now, Kind.DRAIN_STARTED, cls.name()).change(d.from(), d.to()).proposal(d.id())
                    .until(d.deadline()).reason(reason == null || reason.isBlank() ? null : reason)
                    .detail((d.replace() == null ? "" : ReplaceStep.startedDetail(d))
                            + String.join("; ", d.pods().stream().map(p -> p.name() + " (" + p.why() + ")").toList())));
        } catch (JournalException e) {
            return Outcome.refused(cls.name() + ": drain not started, " + unjournaled(e));
        }
        drainCounter++;
        withdraw(s, now, "a drain takes over");
        s.drain = drains.carryOut(cls, null, first, now);
        s.lastAction = LastAction.of(LastAction.Kind.DRAIN, "drain " + d.id() + ": " + s.drain.detail());
        if (d.replace() != null && s.drain.active()) {
            return Outcome.ok(cls.name() + ": replacing " + d.replace().pod() + ": replicas " + d.from() + " → "
                    + (d.from() + 1) + "; once the new pod is ready " + d.replace().pod() + " is evicted (its jobs go"
                    + " back to the queue) and replicas return to " + d.from());
        }
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
                return Outcome.refused(className + ": too late to cancel, " + (before.replace() != null
                        ? before.replace().pod() + " was already evicted" : "replicas were already lowered to "
                        + before.to()));
            }
            s.drain = drains.carryOut(classes.get(className), before, step, now);
            s.lastAction = LastAction.of(LastAction.Kind.DRAIN, "drain " + s.drain.id() + " interrupted: "
                    + s.drain.detail());
            return Outcome.ok(className + ": drain cancelled, " + (before.replace() != null
                    ? "nothing evicted" : "marks removed"));
        });
    }

    /**
     * A console that stopped mid-drain left pods marked: on its next look at the workload, remove
     * the marks of drains the journal started and never ended, and end them there. An end that
     * cannot be journaled is tried again next tick (the marks are gone by then: nothing to redo).
     */
    private void cleanUpOrphans(WorkloadClass cls, Slot s, WorkloadState w, Instant now) {
        if (s.orphanDrains.isEmpty() || w == null) {
            return;
        }
        for (SupervisionReplay.Unfinished u : List.copyOf(s.orphanDrains)) {
            String hung = ReplaceStep.replacedPod(u.started().detail());
            if (hung != null && u.started().before() != null && u.started().before().equals(u.started().after())) {
                // A replacement (replicas end where they were), not a drain that lowers them.
                takeUpReplacement(cls, s, w, u, hung, now);
                continue;
            }
            String id = u.id();
            List<String> marked = w.pods().stream().filter(p -> id.equals(p.drainId())).map(PodState::name).toList();
            PodMarks.Result r = marked.isEmpty() ? new PodMarks.Result(List.of(), List.of())
                    : drains.unmark(cls, marked, id);
            boolean ended = tryAppend(record(now, Kind.DRAIN_ENDED, cls.name()).proposal(id)
                    .reason(DrainPhase.INTERRUPTED.name())
                    .detail("the console stopped during the drain, which was not resumed"
                            + (marked.isEmpty() ? "" : "; marks removed from " + String.join(", ", r.done()))
                            + (r.ok() ? "" : "; could not remove the marks from " + String.join("; ", r.failed()))));
            s.lastAction = LastAction.of(LastAction.Kind.DRAIN, "drain " + id + " interrupted by a restart");
            if (ended) {
                s.orphanDrains.remove(u);
            }
        }
    }

    /**
     * A replacement a console stopped in (issue 27): resumed where the journal and the cluster say it got to, or
     * ended saying where replicas stand and what became of the hung pod ({@link ReplaceStep#resume}). Journal
     * first: {@code DRAIN_RESUMED} before it goes on, {@code DRAIN_ENDED} for one that cannot; a record that
     * cannot be written leaves it for the next tick. It waits while another drain of the class runs.
     */
    private void takeUpReplacement(WorkloadClass cls, Slot s, WorkloadState w, SupervisionReplay.Unfinished u,
                                   String hung, Instant now) {
        if (s.drain != null && s.drain.active()) {
            return;
        }
        JournalRecord started = u.started();
        int from = started.before();
        Instant evictedAt = null;
        boolean loweredBack = false;
        for (JournalRecord r : u.since()) {
            if (r.kind() == Kind.POD_EVICTED) {
                evictedAt = r.at();
            } else if (r.kind() == Kind.APPLIED && Integer.valueOf(from + 1).equals(r.before())
                    && Integer.valueOf(from).equals(r.after())) {
                loweredBack = true;
            }
        }
        Instant deadline = started.until() != null ? started.until() : started.at();
        DrainStep.Step step = ReplaceStep.resume(new ReplaceStep.Stopped(u.id(), cls.name(), from, hung, started.at(),
                deadline, evictedAt, loweredBack), w, drains.load(cls.name()), now);
        Drain d = step.drain();
        if (!tryAppend(record(now, d.active() ? Kind.DRAIN_RESUMED : Kind.DRAIN_ENDED, cls.name()).change(from, from)
                .proposal(u.id()).until(d.active() ? deadline : null).reason(d.active() ? null : d.phase().name())
                .detail(d.detail()))) {
            return;
        }
        s.orphanDrains.remove(u);
        s.drain = d.active() ? drains.carryOut(cls, null, step, now) : d;
        s.lastAction = LastAction.of(LastAction.Kind.DRAIN, "drain " + u.id() + (d.active() ? " resumed: " : " ")
                + s.drain.phase().name().toLowerCase().replace('_', ' ') + ": " + s.drain.detail());
    }

    /**
     * Lifts the operator's rejection of {@code from → to} (an undo): the next tick may propose that
     * change again. Rejections live in memory only, so there is no record to write for it here.
     */
    public CompletableFuture<Outcome> unreject(String className, int from, int to) {
        return command(() -> {
            Slot s = slots.get(className);
            if (s == null || s.rejected == null || s.rejected.from() != from || s.rejected.to() != to) {
                return Outcome.refused(className + ": the rejection of " + from + " → " + to + " no longer holds");
            }
            s.rejected = null;
            return Outcome.ok(className + ": " + from + " → " + to + " may be proposed again");
        });
    }

    /**
     * Scales a class back from {@code to} to {@code from} (the undo of an approval), only while its
     * replicas are still {@code to} and nothing (freeze, override, drain) holds it; journaled first.
     */
    public CompletableFuture<Outcome> revert(String className, int from, int to, String reason) {
        return command(() -> {
            Instant now = clock.instant();
            expire(now);
            Slot s = slots.get(className);
            WorkloadClass cls = classes.get(className);
            if (s == null || cls == null) {
                return Outcome.refused("unknown class " + className);
            }
            String held = heldByHand(className, s);
            if (held != null) {
                return Outcome.refused(held);
            }
            if (s.drain != null && s.drain.active()) {
                return Outcome.refused(className + " is draining; cancel the drain first");
            }
            Read w = read(cls);
            if (w.refusal() != null) {
                return w.refusal();
            }
            if (w.get().specReplicas() != to) {
                return Outcome.refused(className + ": replicas moved from " + to + " to " + w.get().specReplicas()
                        + " since; nothing to take back");
            }
            withdraw(s, now, "the operator scaled back");
            Actuation a = apply(cls, w.get(), to, from, Precedence.Cause.APPROVED, reason, "scaled back by the operator",
                    null);
            return a.kind() == Actuation.Kind.APPLIED ? Outcome.ok(className + ": " + to + " → " + from)
                    : Outcome.refused(className + ": " + a.message());
        });
    }

    /**
     * Undoes an earlier action: runs {@code inverse} (which journals its own change first, as
     * usual) and, once it succeeded, journals {@link Kind#UNDONE} saying what was undone, which is
     * also posted to the team timeline. An inverse that is refused journals nothing.
     *
     * @param what the undone action in words, e.g. "freeze of payments-steady"
     */
    public CompletableFuture<Outcome> undo(String className, String what, Supplier<CompletableFuture<Outcome>> inverse) {
        return inverse.get().thenApply(o -> {
            if (!o.ok()) {
                return Outcome.refused("not undone (" + what + "): " + o.message());
            }
            boolean journaled = tryAppend(record(clock.instant(), Kind.UNDONE, className).reason(what)
                    .detail(o.message()));
            return journaled ? Outcome.ok("Undone: " + what + " (" + o.message() + ")")
                    : Outcome.refused("undone (" + o.message() + "), but the undo itself was not journaled");
        });
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
            try {
                journal.append(record(now, Kind.MODE_CHANGED, className).detail(mode.name())
                        .reason(s.mode.name() + " → " + mode.name()));
            } catch (JournalException e) {
                return Outcome.refused(className + " stays " + s.mode.name().toLowerCase() + ", " + unjournaled(e));
            }
            s.mode = mode;
            return Outcome.ok(className + " is now " + mode.name().toLowerCase());
        });
    }

    /** A workload read for a command: the state, or the refusal that says why there is none. */
    private record Read(WorkloadState get, Outcome refusal) {
    }

    private Read read(WorkloadClass cls) {
        try {
            return cluster.workloads().workload(cls.target()).map(w -> new Read(w, null))
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

    /** Appends; false when the journal cannot be written (the state says so, from {@link Journal#failure()}). */
    private boolean tryAppend(JournalRecord r) {
        try {
            journal.append(r);
            return true;
        } catch (JournalException e) {
            return false;
        }
    }

    private static String unjournaled(JournalException e) {
        return "not journaled: " + e.getMessage();
    }

    /** A record naming the class's own context (several clusters may be open at once). */
    private JournalRecord record(Instant at, Kind kind, String className) {
        WorkloadClass c = className == null ? null : classes.get(className);
        return JournalRecord.of(at, kind, user, c != null ? c.target().context() : cluster.contextName(), className);
    }

    /** Loop thread: a whole new snapshot. */
    private void publish(Instant now) {
        synchronized (publishLock) {
            state = snapshot(now);
            listeners.forEach(l -> l.accept(state));
        }
    }

    /** Any thread: the last snapshot with the freezes (and the journal's health) as they are now. */
    private void publishFreezes() {
        synchronized (publishLock) {
            state = state.withFreezes(freezes.all(), freezes.byClass(), journal.failure().orElse(null));
            listeners.forEach(l -> l.accept(state));
        }
    }

    private SupervisionState snapshot(Instant now) {
        Map<String, ClassSupervision> out = new LinkedHashMap<>();
        List<Proposal> pending = new ArrayList<>();
        Map<String, Freeze> classFreezes = freezes.byClass();
        for (Map.Entry<String, Slot> e : slots.entrySet()) {
            Slot s = e.getValue();
            out.put(e.getKey(), new ClassSupervision(e.getKey(), s.mode, classFreezes.get(e.getKey()), s.override,
                    s.proposal, s.lastAction, s.drain));
            if (s.proposal != null) {
                pending.add(s.proposal);
            }
        }
        return new SupervisionState(now, freezes.all(), out, pending, warnings, journal.failure().orElse(null));
    }
}
