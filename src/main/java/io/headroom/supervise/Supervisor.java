package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.decision.ForecastFloor;
import io.headroom.decision.Observation;
import io.headroom.decision.Reason;
import io.headroom.drain.NodeDrain;
import io.headroom.journal.Journal;
import io.headroom.loop.Actuation;
import io.headroom.loop.Actuator;
import io.headroom.loop.PoolPlacement;
import io.headroom.loop.WorkloadClass;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Supervised operation (design.md §4): sits in the control loop's actuator seam and decides, per
 * class, whether a decision is applied, becomes a proposal, or is withheld (observe mode, a
 * freeze, an override) — the precedence itself is the pure {@link Precedence} step; the journal is
 * read back by {@link SupervisionReplay}. This class only composes the concerns, each with its own state:
 * {@link Modes}, {@link Pins} (freezes and overrides), {@link Proposals} (and approvals), {@link ClassDrains},
 * {@link NodeDrainDriver}, {@link Undo}; {@link Scaler} is the one way replicas change.
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
    /** Where freezes run when no executor is given: daemon threads, never the loop's. */
    private static final ExecutorService FREEZE_THREADS = io.headroom.threads.NamedThreads.cached("headroom-freeze");

    private final ClusterPorts cluster;
    private final Ledger ledger;
    private final Executor loopThread;
    private final Executor urgent;
    private final Modes modes;
    private final Pins pins;
    private final Proposals proposals;
    private final ClassDrains drains;
    /** Node drains (cordon, Headroom's pods first, evictions): loop thread only, like class drains. */
    private final NodeDrainDriver nodeDrains;
    /** Per class, its last decision's replicas: what a node drain's confirmation weighs capacity against. */
    private final Map<String, Integer> needs = new java.util.concurrent.ConcurrentHashMap<>();
    private final Undo undo;
    private final Scaler scaler;
    /** Admission published for producers (design.md §2b): loop thread, like scaling. */
    private final AdmissionDriver admissions;
    /** Forecast floors held ahead of a forecast rise, and predictive proposals (issue 29): loop thread. */
    private final ForecastFloors floors;
    private final List<Consumer<SupervisionState>> listeners = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Object publishLock = new Object();
    private volatile SupervisionState state;

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
        this.cluster = cluster;
        this.ledger = new Ledger(classes, cluster, journal, clock, user);
        this.loopThread = loopThread;
        this.urgent = urgent;
        this.modes = new Modes(ledger);
        this.pins = new Pins(ledger);
        ClusterPorts writes = GatedCluster.fence(cluster, pins.freezes, ledger::classOf);
        this.drains = new ClassDrains(ledger, writes, pins, this::withdraw, proposalTtl);
        this.scaler = new Scaler(ledger, writes, drains);
        this.admissions = new AdmissionDriver(ledger, writes, modes, pins);
        this.floors = new ForecastFloors(ledger, pins);
        this.proposals = new Proposals(ledger, proposalTtl, pins, scaler, drains);
        this.undo = new Undo(ledger, pins, drains, proposals, scaler);
        this.nodeDrains = new NodeDrainDriver(writes, journal, user, ledger.classes::values, drains::load,
                pins.freezes::covering);
        this.state = snapshot(clock.instant());
    }

    private void withdraw(String className, Instant now, String why) {
        proposals.withdraw(className, now, why);
    }

    /**
     * Where drains learn the jobs in flight per pod (class name → pod → jobs), e.g. the metrics
     * source's {@code inFlightByPod}. Without it every ready pod's load is unknown and drains are refused.
     */
    public void setPodLoad(Function<String, Map<String, Double>> podLoad) {
        drains.setPodLoad(podLoad);
    }

    /**
     * How long after marking a drain waits before it believes "idle" (the worker must have seen its
     * mark, and the metric must describe the time after). Default {@link #DEFAULT_DRAIN_NOTICE}.
     */
    public void setDrainNoticeGrace(Duration grace) {
        drains.noticeGrace = grace;
    }

    /**
     * A proposal stays actionable, unchanged, for at least {@code minimum} of wall time (read from
     * {@code wallNanos}, a monotonic ticker: not the session's clock, which the sandbox runs at 10×
     * or 60×), so a person can read it and act before the decision moves on. Meanwhile it is not
     * revised, withdrawn because the decision now holds, or expired; an operator's own action (a
     * mode, an override, a drain) and replicas that moved under it still take it away at once.
     */
    public void holdProposals(Duration minimum, LongSupplier wallNanos) {
        proposals.hold(minimum, wallNanos);
    }

    /** Who acts through this supervisor: written into every record and event. */
    public String user() {
        return ledger.user;
    }

    /** The OS user, as the journal records it. */
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

    /**
     * Rebuilds modes, freezes, overrides and pending proposals from the journal; what has expired
     * since is dropped. Call before the loop starts.
     */
    public void restore(Journal.Replay replay) {
        restore(() -> replay);
    }

    /**
     * As {@link #restore(Journal.Replay)}, reading the journal itself: {@code journal} is read and its freezes
     * applied under the freezes' lock, so a freeze (or unfreeze) made while the console goes live is either in
     * what is read or applied after it, never overwritten by a replay read before it.
     */
    public void restore(java.util.function.Supplier<Journal.Replay> journal) {
        Instant now = ledger.clock.instant();
        Journal.Replay[] read = new Journal.Replay[1];
        SupervisionReplay.Restored r = pins.atomically(() -> {
            read[0] = journal.get();
            SupervisionReplay.Restored restored = SupervisionReplay.replay(read[0], Map.copyOf(ledger.classes),
                    cluster.contextName(), now);
            pins.restore(restored.freezeAll(), restored.classes());
            return restored;
        });
        Journal.Replay replay = read[0];
        r.classes().forEach((name, c) -> {
            if (ledger.knows(name)) {
                modes.restore(name, c.mode());
                proposals.restore(name, c.proposal());
                drains.restore(name, c.orphanDrains());
            }
        });
        proposals.counted(r.proposalCounter());
        warnings.addAll(admissions.restore(replay.records()));
        drains.counted(r.drainCounter());
        floors.restore(replay.records(), now);
        warnings.addAll(r.warnings());
        publish(now);
    }

    // ------------------------------------------------------------------ the walk of one tick

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
        flushAdmissions();
        if (unpublished) {
            unpublished = false;
            publish(ledger.clock.instant());
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

    /**
     * Before a class is decided: its forecast looked at ahead of a rise (a predictive proposal, or a floor held by
     * forecast mode auto), and the floor it holds, for the decision to explain (issue 29).
     */
    @Override
    public ForecastFloor forecastFloor(WorkloadClass cls, Observation observation, Instant now) {
        ledger.add(cls);
        try {
            return floors.beforeDecide(cls, observation, ledger.clock.instant());
        } finally {
            publishOrDefer(now);
        }
    }

    @Override
    public Actuation handle(WorkloadClass cls, Decision d, WorkloadState w) {
        return handle(cls, d, w, null);
    }

    /** A class placed across pools (decision 0029): the same walk, each pool's change written or proposed. */
    @Override
    public Actuation handlePools(WorkloadClass cls, Decision d, WorkloadState w, PoolPlacement placed) {
        return handle(cls, d, w, placed);
    }

    private Actuation handle(WorkloadClass cls, Decision d, WorkloadState w, PoolPlacement placed) {
        Instant now = ledger.clock.instant();
        ledger.add(cls);
        if (!inTick) {
            expire(now);
        }
        try {
            advanceNodeDrains(now);
            Actuation a = placed == null ? act(cls, d, w, now) : actPools(cls, d, placed, now);
            admit(cls, d, now);
            if (!inTick) {
                flushAdmissions(); // else at the tick's end, one write per namespace
            }
            return a;
        } finally {
            publishOrDefer(now);
        }
    }

    /**
     * A pooled class's step: the same precedence over the pools' sums (freeze > override > mode), a change
     * being any pool's Deployment to move; then each pool's change applied (an override's count placed as the
     * decision's would be) or one proposal listing them. A class that drains on scale-down drains a shrinking
     * pool ({@link Scaler#applyPools}); while that drain runs it is moved on and the placement withheld.
     */
    private Actuation actPools(WorkloadClass cls, Decision d, PoolPlacement placed, Instant now) {
        String name = cls.name();
        List<PoolPlacement.PoolChange> changes = placed.changes();
        proposals.placed(name, placed); // another count the operator approves is split as this tick places
        int current = placed.current();
        int desired = PoolPlacement.asked(placed.result());
        needs.put(name, d.desiredReplicas());
        Actuation draining = drains.observePools(cls, d, placed, pins.covering(name), now);
        if (draining != null) {
            return draining;
        }
        Mode mode = modes.of(name);
        Precedence.Plan plan = Precedence.decide(new Precedence.Input(pins.covering(name), pins.override(name), mode,
                current, desired, placed.wantsChange(), false, true, null, proposals.rejection(name), now));
        Precedence.Step step = plan.step();
        Actuation held = holdOrWithdraw(name, mode, plan, current, desired, now);
        if (held != null) {
            return held;
        }
        String explanation = d.explanation() + " · placed: " + placed.result().explanation();
        if (step instanceof Precedence.Withhold h) {
            return Scaler.withheld(current, h.desired(), h.why());
        }
        if (step instanceof Precedence.Apply a) {
            List<PoolPlacement.PoolChange> to = a.cause() == Precedence.Cause.OVERRIDE
                    ? placed.changes(placed.at().apply(a.to())) : changes;
            return scaler.applyPools(cls, to, a.cause(), a.why(), explanation, null);
        }
        if (step instanceof Precedence.Propose) {
            return proposals.proposePools(cls, changes, d, explanation, now);
        }
        return Actuation.none(current);
    }

    /**
     * One class's step: its drains looked at once (a running drain withholds the decision), then the pure
     * precedence step, then exactly one concern acts on what it says.
     */
    private Actuation act(WorkloadClass cls, Decision d, WorkloadState w, Instant now) {
        String name = cls.name();
        int current = d.currentReplicas();
        int desired = d.desiredReplicas();
        needs.put(name, desired);
        Actuation draining = drains.observe(cls, d, w, pins.covering(name), now);
        if (draining != null) {
            return draining;
        }
        Mode mode = modes.of(name);
        Precedence.Plan plan = Precedence.decide(new Precedence.Input(pins.covering(name), pins.override(name), mode,
                current, desired, d.wantsChange(), cls.drainOnScaleDown() != null, w != null,
                drains.of(name).autoDrainAfter(), proposals.rejection(name), now));
        Precedence.Step step = plan.step();
        Actuation held = holdOrWithdraw(name, mode, plan, current, desired, now);
        if (held != null) {
            return held;
        }
        if (step instanceof Precedence.Withhold h) {
            return Scaler.withheld(current, h.desired(), h.why());
        }
        if (step instanceof Precedence.Apply a) {
            return scaler.apply(cls, w, current, a.to(), a.cause(), a.why(), drains.explanation(name, d, w), null);
        }
        if (step instanceof Precedence.Propose && desired > current && d.has(Reason.Code.FORECAST_FLOOR)
                && floors.held(name) != null) {
            // The operator approved this floor (or forecast mode auto holds it): rising to it needs no second ask.
            ForecastFloors.Held h = floors.held(name);
            proposals.withdraw(name, now, "the approved forecast floor raises " + name + " to " + desired);
            return scaler.apply(cls, w, current, desired, Precedence.Cause.APPROVED, "forecast floor "
                    + h.floor().replicas() + " until " + ForecastFloors.HHMM.format(h.floor().until()) + " (" + h.by()
                    + ")", drains.explanation(name, d, w), h.proposalId());
        }
        if (step instanceof Precedence.Propose) {
            return proposals.propose(cls, d, drains.explanation(name, d, w), now);
        }
        if (step instanceof Precedence.StartDrain s) {
            Outcome o = drains.auto(cls, w, s.to(), cls.drainOnScaleDown(), now);
            return Scaler.withheld(current, desired, o.ok() ? "auto: " + o.message()
                    : "auto: scale-down not started, " + o.message());
        }
        return Actuation.none(current);
    }

    /**
     * A supervised class's shown proposal held while the decision moved back (the operator may be reading it: it
     * stays a while), or null after withdrawing what the plan says to withdraw.
     */
    private Actuation holdOrWithdraw(String name, Mode mode, Precedence.Plan plan, int current, int desired,
                                     Instant now) {
        Proposal shown = proposals.of(name);
        if (plan.step() instanceof Precedence.Hold && mode == Mode.SUPERVISED && proposals.held(name)
                && shown.from() == current) {
            return Scaler.withheld(current, desired, "proposal " + shown.id() + " held for the operator");
        }
        if (plan.withdraw() != null) {
            proposals.withdraw(name, now, plan.withdraw());
        }
        return null;
    }

    /** The class's admission this tick; a problem with it never breaks the tick's scaling. */
    private void admit(WorkloadClass cls, Decision d, Instant now) {
        try {
            admissions.tick(cls, d, now);
        } catch (RuntimeException e) {
            java.util.logging.Logger.getLogger(Supervisor.class.getName())
                    .warning("admission of " + cls.name() + " not decided: " + e.getMessage());
        }
    }

    /** Writes the tick's admission refreshes; a problem with them never breaks the tick. */
    private void flushAdmissions() {
        try {
            admissions.flush();
        } catch (RuntimeException e) {
            java.util.logging.Logger.getLogger(Supervisor.class.getName())
                    .warning("admission not refreshed: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ admission

    /** Each class's admission choices (the workloads file's {@code admission:} blocks); a class not named is not published. */
    public void setAdmissionPolicies(Map<String, io.headroom.decision.AdmissionPolicy> byClass) {
        admissions.setPolicies(byClass);
    }

    /** A class's admission as last decided and published, or null before its first tick. Any thread. */
    public ClassAdmission admission(String className) {
        return admissions.view(className);
    }

    /** Every class's admission, by class. Any thread. */
    public Map<String, ClassAdmission> admissions() {
        return admissions.views();
    }

    /** Publishes a class's pending tightening of admission (journaled first). */
    public CompletableFuture<Outcome> approveAdmission(String className) {
        return command(now -> admissions.approve(className, now));
    }

    /** Rejects a class's pending tightening of admission: what producers read stays. */
    public CompletableFuture<Outcome> rejectAdmission(String className, String reason) {
        return command(now -> admissions.reject(className, reason, now));
    }

    /** The workload could not be read this tick: a running drain still moves on (towards its deadline). */
    @Override
    public void unobserved(WorkloadClass cls, String problem) {
        Instant now = ledger.clock.instant();
        if (drains.unobserved(cls, now)) {
            publishOrDefer(now);
        }
        if (nodeDrains.anyActive()) {
            advanceNodeDrains(now);
            publishOrDefer(now);
        }
    }

    /** Drops freezes, pins and proposals that ran out (see {@link Pins#expire}). */
    private void expire(Instant now) {
        pins.expire(now, modes);
        proposals.expire(now);
        floors.expire(now);
    }

    // ------------------------------------------------------------------ proposals and approvals

    /**
     * Applies a pending proposal after checking the world has not moved; a predictive proposal's floor is held from
     * now on (the decision rises to it when it is due).
     */
    public CompletableFuture<Outcome> approve(String proposalId) {
        return command(now -> floors.owns(proposalId) ? floors.approve(proposalId, null, null, now)
                : proposals.approve(proposalId, null, null, now));
    }

    /** Approves with another replica count than proposed ("override with value"). */
    public CompletableFuture<Outcome> approveWith(String proposalId, int replicas, String reason) {
        if (replicas < 0) {
            return refuse(Outcome.Why.INVALID, "replicas cannot be negative");
        }
        return command(now -> floors.owns(proposalId) ? floors.approve(proposalId, replicas, reason, now)
                : proposals.approve(proposalId, replicas, reason, now));
    }

    /**
     * How another count for a pending proposal would split across its class's pools (decision 0029), read on the
     * loop's thread: the approve-with-another-count dialog shows it before the operator confirms ("12: spot 8,
     * on-demand 4"). Null for a class with one pool; refused when the proposal has gone or a pool cannot be read.
     */
    public CompletableFuture<PoolSplit> split(String proposalId, int total) {
        return CompletableFuture.supplyAsync(() -> {
            Proposals.Split s = proposals.split(proposalId, total, ledger.clock.instant());
            if (s != null && s.refusal() != null) {
                throw new IllegalStateException(s.refusal().message());
            }
            return s == null ? null : s.split();
        }, loopThread);
    }

    /**
     * Asks the API server whether the proposal's change would be accepted (server-side dry run,
     * nothing changes); the answer is for the operator, not the journal.
     */
    public CompletableFuture<Outcome> dryRun(String proposalId) {
        return command(() -> floors.owns(proposalId) ? Outcome.refused(Outcome.Why.INVALID, "a forecast floor"
                + " changes nothing on approval: the decision rises to it when it is due, through the usual checks")
                : proposals.dryRun(proposalId));
    }

    /** Rejects a proposal; the same change is not proposed again for one proposal lifetime. */
    public CompletableFuture<Outcome> reject(String proposalId, String reason) {
        return command(() -> floors.owns(proposalId) ? floors.reject(proposalId, reason, ledger.clock.instant())
                : proposals.reject(proposalId, reason, ledger.clock.instant()));
    }

    // ------------------------------------------------------------------ forecast floors

    /**
     * Where predictive proposals come from: each class's forecast planned against what it runs (issue 29). Set
     * before the loop starts; without one no floor is ever proposed.
     */
    public void setFloorPlanner(FloorPlanner planner) {
        floors.setPlanner(planner);
    }

    /** Takes away the forecast floor a class holds (the operator's "cancel floor", an undo of its approval). */
    public CompletableFuture<Outcome> cancelFloor(String className, String reason) {
        return command(now -> floors.cancel(className, reason, now));
    }

    // ------------------------------------------------------------------ freezes and overrides

    /**
     * Freezes one class, or every class when {@code className} is null. Runs on its own executor,
     * not the loop's: it is journaled and in force when the future completes, even while the loop
     * thread is stuck in a cluster write, and no write starts after it (the gate). A freeze that
     * cannot be journaled still holds, in memory, and says so.
     */
    public CompletableFuture<Outcome> freeze(String className, Duration ttl, String reason) {
        if (ttl.isNegative() || ttl.isZero()) {
            return refuse(Outcome.Why.INVALID, "a freeze needs a positive duration");
        }
        if (reason == null || reason.isBlank()) {
            return refuse(Outcome.Why.INVALID, "a freeze needs a reason");
        }
        if (className != null && !ledger.classes.containsKey(className)) {
            return refuse(Outcome.Why.NOT_FOUND, "unknown class " + className);
        }
        return CompletableFuture.supplyAsync(() -> {
            try {
                Outcome o = pins.freeze(className, ttl, reason);
                publishFreezes();
                return o;
            } catch (RuntimeException e) {
                return Outcome.failed("failed: " + e.getMessage());
            }
        }, urgent);
    }

    /** Lifts a freeze on one class, or the global one when {@code className} is null; journaled first. */
    public CompletableFuture<Outcome> unfreeze(String className, String reason) {
        return command(() -> pins.unfreeze(className, reason, ledger.clock.instant()));
    }

    /**
     * While a class is handed back, no write of this console's starts for it (the freeze gate), so a tick
     * cannot pause KEDA again between the cluster's hand-back and the lifting of the class's holds, which
     * follows only once the cluster has confirmed it. In memory only; {@link #handedBack} lets it go.
     */
    public void handingBack(String className) {
        Instant now = ledger.clock.instant();
        pins.handingBack(className, new Freeze("being handed back", now.plus(Duration.ofMinutes(1)), ledger.user, now));
    }

    /** Ends {@link #handingBack}: the class's writes pass the gate again (as its holds, lifted or not, say). */
    public void handedBack(String className) {
        pins.handingBack(className, null);
    }

    /** Pins a class to {@code replicas} until {@code until}; it takes the class's proposal away. */
    public CompletableFuture<Outcome> setOverride(String className, int replicas, Instant until, String reason) {
        if (replicas < 0) {
            return refuse(Outcome.Why.INVALID, "replicas cannot be negative");
        }
        if (reason == null || reason.isBlank()) {
            return refuse(Outcome.Why.INVALID, "an override needs a reason");
        }
        return command(() -> {
            Instant now = ledger.clock.instant();
            if (!ledger.knows(className)) {
                return Outcome.refused(Outcome.Why.NOT_FOUND, "unknown class " + className);
            }
            if (!until.isAfter(now)) {
                return Outcome.refused(Outcome.Why.INVALID, "the override must end in the future");
            }
            ClassDrains.ClassDrain c = drains.of(className);
            if (c.active()) {
                return Outcome.refused(Outcome.Why.HELD, className + " is draining (" + c.drain().id()
                        + "); cancel the drain first");
            }
            Outcome o = pins.pin(className, replicas, until, reason, now);
            if (o.ok()) {
                proposals.withdraw(className, now, "override set");
            }
            return o;
        });
    }

    public CompletableFuture<Outcome> clearOverride(String className, String reason) {
        return command(() -> pins.unpin(className, reason, modes.of(className), ledger.clock.instant()));
    }

    // ------------------------------------------------------------------ class drains

    /**
     * Starts a drain (design.md §5): picks the idle or least-loaded pods, marks them, and lowers
     * replicas to {@code to} once their jobs have finished, or ends timed out at the deadline with
     * nothing scaled. Refused while the class is frozen, pinned or already draining.
     */
    public CompletableFuture<Outcome> startDrain(String className, int to, Duration deadline, String reason) {
        return drainCommand(deadline, now -> drains.drainTo(className, to, deadline, reason, now));
    }

    /**
     * Drains one pod the operator chose (the pod panel): as {@link #startDrain}, with exactly that pod
     * marked, waited on until its jobs are done, and replicas lowered by one so it is the one that goes.
     * Refused as a drain is (frozen, pinned, already draining, the decision wants more than runs), and
     * where lowering replicas would not remove that pod (see {@link io.headroom.drain.DrainPlanner#planPods}).
     */
    public CompletableFuture<Outcome> startPodDrain(String className, String pod, Duration deadline, String reason) {
        return drainCommand(deadline, now -> drains.drainPod(className, pod, deadline, reason, now));
    }

    /**
     * Replaces a hung (STUCK) pod: asks for a replacement first, then evicts the hung pod through the
     * Eviction API without waiting for its jobs (they go back to the queue), and ends honestly.
     */
    public CompletableFuture<Outcome> startReplaceDrain(String className, String pod, Duration deadline, String reason) {
        return drainCommand(deadline, now -> drains.replace(className, pod, deadline, reason, now));
    }

    /** Every drain needs a positive deadline; the rest is checked on the loop's thread, after expiries. */
    private CompletableFuture<Outcome> drainCommand(Duration deadline, Function<Instant, Outcome> start) {
        if (deadline.isNegative() || deadline.isZero()) {
            return refuse(Outcome.Why.INVALID, "a drain needs a positive deadline");
        }
        return command(start);
    }

    /** Stops a running drain and removes its marks; too late once replicas were lowered. */
    public CompletableFuture<Outcome> cancelDrain(String className, String reason) {
        return command(() -> drains.cancel(className, reason, ledger.clock.instant()));
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
    public List<NodeDrain> nodeDrains() {
        return nodeDrains.drains();
    }

    /** The nodes of {@code context} with their pods, read on the loop's thread (never the FX thread's). */
    public CompletableFuture<List<NodeState>> nodes(String context) {
        return CompletableFuture.supplyAsync(() -> cluster.nodes().nodes(context), loopThread);
    }

    /**
     * The nodes of {@code context} that Headroom cordoned and no drain of this console runs on (read on the
     * loop's thread): what a console that stopped mid-drain left behind, to uncordon or drain again.
     */
    public CompletableFuture<List<NodeState>> leftCordoned(String context) {
        return CompletableFuture.supplyAsync(() -> nodeDrains.leftCordoned(cluster.nodes().nodes(context)), loopThread);
    }

    /** The nodes a class's pods run on, by name (a cache read on the loop's thread): "from a class", a node to drain. */
    public CompletableFuture<List<NodeRef>> nodesOf(String className) {
        return CompletableFuture.supplyAsync(() -> {
            WorkloadClass c = ledger.cls(className);
            if (c == null) {
                return List.<NodeRef>of();
            }
            return cluster.workloads().workload(c.target()).map(w -> w.pods().stream().map(PodState::node)
                    .filter(java.util.Objects::nonNull).distinct().sorted()
                    .map(n -> new NodeRef(c.target().context(), n)).toList()).orElse(List.of());
        }, loopThread);
    }

    /**
     * Drains a node the way {@code kubectl drain} does (design.md §5): cordons it, drains the pods of
     * Headroom's classes the Headroom way (marked, their jobs in flight to 0), evicts every pod through
     * the Eviction API, retries refusals (a PodDisruptionBudget's 429) with back-off, and ends completed,
     * timed out at {@code deadline} naming the pods still there, or interrupted. Refused under a global freeze.
     */
    public CompletableFuture<Outcome> startNodeDrain(NodeRef node, Duration deadline, String reason) {
        if (deadline.isNegative() || deadline.isZero()) {
            return refuse(Outcome.Why.INVALID, "a drain needs a positive deadline");
        }
        return command(() -> nodeDrains.start(node, deadline, drains.noticeGrace, reason, drains.tag,
                ledger.clock.instant()));
    }

    /** What draining {@code node} would do (read on the loop's thread): the confirmation before it starts. */
    public CompletableFuture<io.headroom.drain.NodeDrainPreview> previewNodeDrain(NodeRef node) {
        return CompletableFuture.supplyAsync(() -> nodeDrains.preview(node, needs::get), loopThread);
    }

    /** Stops a node drain: nothing more is evicted, marks come off; the node stays cordoned. */
    public CompletableFuture<Outcome> cancelNodeDrain(NodeRef node, String reason) {
        return command(() -> nodeDrains.cancel(node, "cancelled by " + ledger.user
                + (reason == null || reason.isBlank() ? "" : ": " + reason), ledger.clock.instant()));
    }

    /** Uncordons a node (journaled first): new pods may be placed on it again. */
    public CompletableFuture<Outcome> uncordon(NodeRef node, String reason) {
        return command(() -> nodeDrains.uncordon(node, reason, ledger.clock.instant()));
    }

    // ------------------------------------------------------------------ undo and mode

    /**
     * Lifts the operator's rejection of {@code from → to} (an undo): the next tick may propose that
     * change again. Rejections live in memory only, so there is no record to write for it here.
     */
    public CompletableFuture<Outcome> unreject(String className, int from, int to) {
        return command(() -> proposals.unreject(className, from, to));
    }

    /**
     * Scales a class back from {@code to} to {@code from} (the undo of an approval), only while its
     * replicas are still {@code to} and nothing (freeze, override, drain) holds it; journaled first.
     */
    public CompletableFuture<Outcome> revert(String className, int from, int to, String reason) {
        return command(now -> undo.revert(className, from, to, reason, now));
    }

    /**
     * Undoes an earlier action: runs {@code inverse} (which journals its own change first, as
     * usual) and, once it succeeded, journals {@code UNDONE} saying what was undone, which is
     * also posted to the team timeline. An inverse that is refused journals nothing.
     *
     * @param what the undone action in words, e.g. "freeze of payments-steady"
     */
    public CompletableFuture<Outcome> undo(String className, String what, Supplier<CompletableFuture<Outcome>> inverse) {
        return undo.undo(className, what, inverse);
    }

    public CompletableFuture<Outcome> setMode(String className, Mode mode) {
        return command(() -> modes.set(className, mode, ledger.clock.instant()));
    }

    // ------------------------------------------------------------------ commands and snapshots

    private static CompletableFuture<Outcome> refuse(Outcome.Why why, String message) {
        return CompletableFuture.completedFuture(Outcome.refused(why, message));
    }

    /** A command that first drops what has run out, on the loop's thread. */
    private CompletableFuture<Outcome> command(Function<Instant, Outcome> body) {
        return command(() -> {
            Instant now = ledger.clock.instant();
            expire(now);
            return body.apply(now);
        });
    }

    private CompletableFuture<Outcome> command(Supplier<Outcome> body) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return body.get();
            } catch (RuntimeException e) {
                return Outcome.failed("failed: " + e.getMessage());
            } finally {
                publish(ledger.clock.instant());
            }
        }, loopThread);
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
            state = state.withFreezes(pins.freezes.all(), pins.freezes.byClass(),
                    ledger.journal.failure().orElse(null));
            listeners.forEach(l -> l.accept(state));
        }
    }

    private SupervisionState snapshot(Instant now) {
        Map<String, ClassSupervision> out = new LinkedHashMap<>();
        List<Proposal> pending = new ArrayList<>();
        Map<String, Freeze> classFreezes = pins.freezes.byClass();
        for (String name : ledger.names()) {
            Proposal p = proposals.of(name);
            ForecastFloors.Held held = floors.held(name);
            out.put(name, new ClassSupervision(name, modes.of(name), classFreezes.get(name), pins.override(name), p,
                    ledger.lastAction(name), drains.of(name).drain(), held == null ? null : held.floor(),
                    held == null ? null : held.by()));
            if (p != null) {
                pending.add(p);
            }
            Proposal ahead = floors.pending(name);
            if (ahead != null) {
                pending.add(ahead);
            }
        }
        return new SupervisionState(now, pins.freezes.all(), out, pending, warnings,
                ledger.journal.failure().orElse(null));
    }
}
