package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.drain.DrainPlanner;
import io.headroom.drain.DrainPod;
import io.headroom.drain.DrainStep;
import io.headroom.drain.ReplaceStep;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.loop.Actuation;
import io.headroom.loop.ClassPools;
import io.headroom.loop.PoolPlacement;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Class drains (design.md §5): a scale-down that marks the idle or least-loaded pods first, a drain of one
 * pod the operator chose, and the replacement of a hung pod; their start, each tick's step, cancelling, and
 * taking up what a console that stopped mid-drain left. The pure steps are {@link DrainPlanner},
 * {@link DrainStep} and {@link ReplaceStep}; {@link DrainDriver} carries their actions out. Each class's
 * drain state is an immutable {@link ClassDrain}, replaced whole; loop thread only.
 */
final class ClassDrains {

    /**
     * One class's drain state.
     *
     * @param drain          the running drain, or the last one (ended) for the operator to read; null when none
     * @param orphans        drains the journal started and never ended (the console stopped mid-drain)
     * @param autoDrainAfter no automatic drain before this (after one that did not complete); null when free
     * @param lastDesired    what the last decision wanted, -1 before the first
     * @param stuck          the pods the last decision found STUCK (alive, holding work, finishing nothing)
     */
    record ClassDrain(Drain drain, List<SupervisionReplay.Unfinished> orphans, Instant autoDrainAfter,
                      int lastDesired, List<String> stuck) {
        static final ClassDrain NONE = new ClassDrain(null, List.of(), null, -1, List.of());

        ClassDrain {
            orphans = List.copyOf(orphans);
            stuck = List.copyOf(stuck);
        }

        boolean active() {
            return drain != null && drain.active();
        }

        ClassDrain with(Drain d) {
            return new ClassDrain(d, orphans, autoDrainAfter, lastDesired, stuck);
        }

        ClassDrain without(SupervisionReplay.Unfinished u) {
            List<SupervisionReplay.Unfinished> rest = new ArrayList<>(orphans);
            rest.remove(u);
            return new ClassDrain(drain, rest, autoDrainAfter, lastDesired, stuck);
        }
    }

    /** How a drain takes the class's proposal away (the proposals are another concern's). */
    interface Withdraw {
        void withdraw(String className, Instant now, String why);
    }

    private final Ledger ledger;
    private final Pins pins;
    private final DrainDriver drains;
    private final Withdraw proposals;
    private final Duration proposalTtl;
    private final Map<String, ClassDrain> state = new HashMap<>();
    /** A pooled class's last placement, pool → the replicas its Deployment is asked for (what a pod drain weighs). */
    private final Map<String, Map<String, Integer>> shares = new HashMap<>();
    private long counter;
    /** Tells this console's drain ids from another's: marks are on shared pods. */
    final String tag = Long.toHexString(new java.security.SecureRandom().nextInt(0x10000) | 0x10000).substring(1);
    /** How long after marking a drain waits before it believes "idle". */
    Duration noticeGrace = Supervisor.DEFAULT_DRAIN_NOTICE;

    ClassDrains(Ledger ledger, ClusterPorts writes, Pins pins, Withdraw proposals, Duration proposalTtl) {
        this.ledger = ledger;
        this.pins = pins;
        this.drains = new DrainDriver(writes, ledger.journal, ledger::record);
        this.proposals = proposals;
        this.proposalTtl = proposalTtl;
    }

    void setPodLoad(Function<String, Map<String, Double>> podLoad) {
        drains.setPodLoad(podLoad);
    }

    Map<String, Double> load(String className) {
        return drains.load(className);
    }

    ClassDrain of(String className) {
        return state.getOrDefault(className, ClassDrain.NONE);
    }

    private void put(String className, ClassDrain d) {
        state.put(className, d);
    }

    /** The journal numbered drains up to {@code seen}: new ones follow on. */
    void counted(long seen) {
        counter = Math.max(counter, seen);
    }

    void restore(String className, List<SupervisionReplay.Unfinished> orphans) {
        ClassDrain d = of(className);
        List<SupervisionReplay.Unfinished> all = new ArrayList<>(d.orphans());
        all.addAll(orphans);
        put(className, new ClassDrain(d.drain(), all, d.autoDrainAfter(), d.lastDesired(), d.stuck()));
    }

    /**
     * The tick's one look at a class's drains: clears what a stopped console left, remembers what the
     * decision wanted, and moves a running drain on (stopped when a freeze or the decision says so). While
     * a drain still runs the decision is withheld, and the actuation says so; null when none runs.
     */
    Actuation observe(WorkloadClass cls, Decision d, WorkloadState w, Freeze freeze, Instant now) {
        int desired = d.desiredReplicas();
        cleanUpOrphans(w == null ? List.of() : List.of(Map.entry(cls, w)), now);
        ClassDrain c = of(cls.name());
        put(cls.name(), new ClassDrain(c.drain(), c.orphans(), c.autoDrainAfter(), desired, d.stuckPods()));
        drains.retryLeftovers(cls, now);
        if (!c.active()) {
            return null;
        }
        advance(cls, w, Precedence.drainStop(freeze, c.drain(), desired), now);
        Drain after = of(cls.name()).drain();
        return after.active() ? Scaler.withheld(d.currentReplicas(), desired, "draining " + after.change()
                + " (the decision wants " + desired + "): " + after.detail()) : null;
    }

    /**
     * A pooled class's tick (decision 0029): what a stopped console left is cleared from every pool, what the
     * placement gives each pool remembered, and a running drain moved on against its own pool's Deployment
     * (stopped by a freeze, or when the placement now gives that pool more than it ran). While it runs the
     * placement is withheld, and the actuation says so; null when none runs.
     */
    Actuation observePools(WorkloadClass cls, Decision d, PoolPlacement placed, Freeze freeze, Instant now) {
        Map<String, Integer> asked = new HashMap<>();
        List<Map.Entry<WorkloadClass, WorkloadState>> where = new ArrayList<>();
        for (PoolPlacement.PoolChange c : placed.changes()) {
            asked.put(c.pool(), c.to());
        }
        shares.put(cls.name(), asked);
        for (ClassPools.Pool p : cls.pools().pools()) {
            WorkloadClass view = poolView(cls, p);
            where.add(Map.entry(view, placed.states().get(p.name())));
            drains.retryLeftovers(view, now);
        }
        cleanUpOrphans(where, now);
        ClassDrain c = of(cls.name());
        put(cls.name(), new ClassDrain(c.drain(), c.orphans(), c.autoDrainAfter(), d.desiredReplicas(), d.stuckPods()));
        if (!c.active()) {
            return null;
        }
        ClassPools.Pool pool = cls.pools().poolOf(c.drain().target());
        WorkloadState w = pool == null ? null : placed.states().get(pool.name());
        int desired = pool == null ? c.drain().from() : asked.getOrDefault(pool.name(), c.drain().from());
        advance(cls, w, Precedence.drainStop(freeze, c.drain(), desired), now);
        Drain after = of(cls.name()).drain();
        return after.active() ? Scaler.withheld(placed.current(), PoolPlacement.asked(placed.result()), "draining pool "
                + (pool == null ? after.target().name() : pool.name()) + " " + after.change() + " (placement gives it "
                + desired + "): " + after.detail()) : null;
    }

    /**
     * A pool's Deployment as the drain machinery acts on it: the class's name (its journal, its state), the
     * pool's workload as the target (marks, replicas, evictions and their fence), no pools of its own.
     */
    static WorkloadClass poolView(WorkloadClass cls, ClassPools.Pool pool) {
        return new WorkloadClass(cls.name(), pool.target(), cls.policy(), cls.drainOnScaleDown());
    }

    /** What a drain acts on: the pool whose Deployment it drains, for a pooled class; the class itself otherwise. */
    private static WorkloadClass acting(WorkloadClass cls, Drain d) {
        if (!cls.pooled() || d == null) {
            return cls;
        }
        ClassPools.Pool p = cls.pools().poolOf(d.target());
        return p == null ? cls : poolView(cls, p);
    }

    /** The workload could not be read: a running drain still moves on (towards its deadline). True if one did. */
    boolean unobserved(WorkloadClass cls, Instant now) {
        if (!of(cls.name()).active()) {
            return false;
        }
        advance(cls, null, null, now);
        return true;
    }

    /**
     * The decision's explanation, and why replicas are one more than the class ran before a replacement that
     * did not lower them back (it timed out, was interrupted, or a console stopped in it), while they still are.
     */
    String explanation(String className, Decision d, WorkloadState w) {
        Drain r = of(className).drain();
        if (r == null || r.replace() == null || r.active() || d.currentReplicas() != r.from() + 1) {
            return d.explanation();
        }
        boolean runs = w != null && w.pods().stream().anyMatch(p -> p.name().equals(r.replace().pod()) && !p.terminating());
        return d.explanation() + "; " + ReplaceStep.extraReplica(r, runs);
    }

    /** One step of a running drain: stopped (when {@code stop} says why and it is not too late) or observed. */
    private void advance(WorkloadClass cls, WorkloadState w, String stop, Instant now) {
        ClassDrain c = of(cls.name());
        Drain before = c.drain();
        DrainStep.Step step = stop != null ? DrainStep.cancel(before, stop, now) : null;
        if (step == null || step.drain() == before) {
            step = DrainStep.observe(before, w, drains.load(cls.name()), now); // too late to stop: follow it
        }
        Drain after = drains.carryOut(acting(cls, before), before, step, now);
        put(cls.name(), new ClassDrain(after, c.orphans(), autoAfter(c.autoDrainAfter(), before, after, now),
                c.lastDesired(), c.stuck()));
        ledger.did(cls.name(), LastAction.Kind.DRAIN, "drain " + after.id() + " "
                + after.phase().name().toLowerCase().replace('_', ' ') + ": " + after.detail());
    }

    /**
     * A drain that did not complete is not retried automatically at once (the same busy pods would be marked
     * again, tick after tick): no automatic drain for as long as its deadline gave it. {@code was} otherwise.
     */
    private Instant autoAfter(Instant was, Drain before, Drain after, Instant now) {
        if (after.active() || after.phase() == DrainPhase.COMPLETED) {
            return was;
        }
        return now.plus(before.deadline().isAfter(before.startedAt())
                ? Duration.between(before.startedAt(), before.deadline()) : proposalTtl);
    }

    // ------------------------------------------------------------------ starting one

    /** Lowers replicas to {@code to} once the pods it marks are idle, or ends timed out with nothing scaled. */
    Outcome drainTo(String className, int to, Duration deadline, String reason, Instant now) {
        WorkloadClass pooled = ledger.cls(className);
        if (pooled != null && pooled.pooled()) {
            return Outcome.refused(Outcome.Why.INVALID, className + " is placed across pools: one count is not a"
                    + " split; drain a pod from the pod panel, or let the placement's scale-down drain pool by pool");
        }
        return checked(className, null, deadline, reason, "a drain", (cls, w, id) ->
                DrainPlanner.plan(id, cls.name(), w, drains.load(cls.name()), to, deadline, noticeGrace, now), now);
    }

    /** Drains exactly {@code pod}: marked, waited on, replicas lowered by one so it is the one that goes. */
    Outcome drainPod(String className, String pod, Duration deadline, String reason, Instant now) {
        return checked(className, pod, deadline, reason, "draining " + pod, (cls, w, id) ->
                DrainPlanner.planPods(id, cls.name(), w, drains.load(cls.name()), List.of(pod), deadline,
                        noticeGrace, now), now);
    }

    /** Replaces a hung (STUCK) pod: a replacement first, then the hung pod evicted without waiting on its jobs. */
    Outcome replace(String className, String pod, Duration deadline, String reason, Instant now) {
        return start(className, pod, now, (cls, w, id) -> {
            if (!of(className).stuck().contains(pod)) {
                // Replacing cuts a worker's jobs off: only for one the decision sees making no progress.
                return Outcome.refused(Outcome.Why.INVALID, className + ": " + pod + " is not STUCK (the last"
                        + " decision saw no hung worker there); drain it instead, which lets its jobs finish");
            }
            ReplaceStep.Start start = ReplaceStep.plan(id, cls.name(), w, pod, drains.load(cls.name()), deadline, now);
            if (start.refused()) {
                return Outcome.refused(Outcome.Why.CLUSTER, cls.name() + ": " + start.refusal());
            }
            return run(cls, start.step(), reason, now);
        });
    }

    /** An automatic drain (auto mode, a class that drains on scale-down): planned, journaled, started. */
    Outcome auto(WorkloadClass cls, WorkloadState w, int to, Duration deadline, Instant now) {
        DrainPlanner.Planned planned = plan(cls, w, to, deadline, now);
        if (planned instanceof DrainPlanner.Refused r) {
            return Outcome.refused(Outcome.Why.CLUSTER, cls.name() + ": " + r.reason());
        }
        return run(cls, first((DrainPlanner.Plan) planned), "auto", now);
    }

    DrainPlanner.Planned plan(WorkloadClass cls, WorkloadState w, int to, Duration deadline, Instant now) {
        return DrainPlanner.plan(nextId(cls), cls.name(), w, drains.load(cls.name()), to, deadline, noticeGrace, now);
    }

    static DrainStep.Step first(DrainPlanner.Plan plan) {
        return new DrainStep.Step(plan.drain(), List.of(plan.mark()));
    }

    private String nextId(WorkloadClass cls) {
        return cls.name() + "-drain-" + (counter + 1) + "-" + tag;
    }

    /** How a drain picks its pods, once the class may be drained. */
    private interface Planning {
        DrainPlanner.Planned plan(WorkloadClass cls, WorkloadState w, String id);
    }

    /** What one kind of drain does once the checks every drain shares have passed. */
    private interface DrainKind {
        Outcome start(WorkloadClass cls, WorkloadState w, String id);
    }

    /**
     * A class drain (of a count or of named pods): refused when the decision wants more replicas than
     * run ({@code what} would take away capacity the queue needs); otherwise planned, journaled and started.
     */
    private Outcome checked(String className, String pod, Duration deadline, String reason, String what,
                            Planning planning, Instant now) {
        return start(className, pod, now, (cls, w, id) -> {
            WorkloadClass whole = ledger.cls(className);
            ClassPools.Pool pool = whole.pooled() ? whole.pools().poolOf(cls.target()) : null;
            int wanted = pool == null ? of(className).lastDesired()
                    : shares.getOrDefault(className, Map.of()).getOrDefault(pool.name(), -1);
            if (wanted > w.specReplicas()) {
                return Outcome.refused(Outcome.Why.MOVED, className + ": " + (pool == null ? "the decision wants "
                        : "the placement gives pool " + pool.name() + " ") + wanted
                        + " replicas, more than the " + w.specReplicas() + " running; " + what + " would take away"
                        + " capacity the queue needs (it would be cancelled as soon as it started)");
            }
            DrainPlanner.Planned planned = planning.plan(cls, w, id);
            if (planned instanceof DrainPlanner.Refused r) {
                return Outcome.refused(Outcome.Why.CLUSTER, cls.name() + ": " + r.reason());
            }
            return run(cls, first((DrainPlanner.Plan) planned), reason, now);
        });
    }

    /**
     * The one way every drain starts: refused for an unknown class, a class frozen or pinned, already
     * draining, or whose workload cannot be read; otherwise {@code kind} plans, journals and starts it under
     * a fresh drain id.
     */
    private Outcome start(String className, String pod, Instant now, DrainKind kind) {
        Outcome held = pins.heldByHand(className);
        if (held != null) {
            return held;
        }
        WorkloadClass cls = ledger.cls(className);
        ClassDrain c = of(className);
        if (c.active()) {
            return Outcome.refused(Outcome.Why.HELD, className + " is already draining (" + c.drain().id() + ")");
        }
        if (cls.pooled() && pod != null) {
            return startInPool(cls, pod, kind);
        }
        Ledger.Read w = ledger.read(cls);
        if (w.refusal() != null) {
            return w.refusal();
        }
        return kind.start(cls, w.get(), nextId(cls));
    }

    /**
     * A pod command of a pooled class acts on the pod's own pool: each pool's workload is read (its pods are those
     * its selector picks, as the Deployment's ReplicaSets own them) and the one running {@code pod} is the one
     * marked, scaled, fenced and journaled against.
     */
    private Outcome startInPool(WorkloadClass cls, String pod, DrainKind kind) {
        List<String> names = new ArrayList<>();
        for (ClassPools.Pool p : cls.pools().pools()) {
            WorkloadClass view = poolView(cls, p);
            Ledger.Read w = ledger.read(view);
            if (w.refusal() != null) {
                return w.refusal();
            }
            if (w.get().pods().stream().anyMatch(x -> x.name().equals(pod))) {
                return kind.start(view, w.get(), nextId(cls));
            }
            names.add(p.name() + " (" + p.target().name() + ")");
        }
        return Outcome.refused(Outcome.Why.NOT_FOUND, cls.name() + ": pod " + pod + " is in none of its pools, "
                + String.join(", ", names) + " (gone since it was shown?)");
    }

    /**
     * A pooled class's pool to shrink {@code c.from()} → {@code c.to()}, drained (design.md §5): that pool's
     * idle or least-loaded pods marked, waited on, and its replicas lowered so exactly they go. Not while the
     * class already drains (one drain a class: this pool waits for it), nor, automatically, before the last drain
     * that did not complete has had its pause. The actuation says what it did; its {@code to} is the pool's
     * replicas now (lowered later, by the drain). Null when the pods that go never started (Pending, or still to
     * be created): nothing to wait on, and the pool is scaled directly.
     */
    Actuation drainPool(WorkloadClass cls, PoolPlacement.PoolChange c, Precedence.Cause cause, String proposalId,
                        Instant now) {
        ClassDrain cd = of(cls.name());
        if (cd.active()) {
            return new Actuation(Actuation.Kind.WITHHELD, c.from(), c.from(), "waits for drain " + cd.drain().id()
                    + " to end; the next placement after it shrinks this pool");
        }
        if (cause == Precedence.Cause.AUTO && cd.autoDrainAfter() != null && now.isBefore(cd.autoDrainAfter())) {
            return new Actuation(Actuation.Kind.WITHHELD, c.from(), c.from(), "the last drain did not complete;"
                    + " next try after " + Precedence.HHMM.format(cd.autoDrainAfter()) + " (or drain a pod by hand)");
        }
        ClassPools.Pool pool = cls.pools().pool(c.pool());
        WorkloadClass view = poolView(cls, pool);
        Ledger.Read r = ledger.read(view);
        if (r.refusal() != null) {
            return new Actuation(Actuation.Kind.FAILED, c.from(), c.from(), "not drained: " + r.refusal().message());
        }
        WorkloadState w = r.get();
        if (w.specReplicas() != c.from()) {
            return new Actuation(Actuation.Kind.FAILED, c.from(), c.from(), "pool " + c.pool() + " moved from "
                    + c.from() + " to " + w.specReplicas() + " replicas since the decision; the next tick places again");
        }
        long live = w.pods().stream().filter(p -> !p.terminating()).count();
        if (c.from() - live >= c.from() - c.to()) {
            return null; // only pods still to be created go (a probe just asked for): the pool is scaled directly
        }
        DrainPlanner.Planned planned = DrainPlanner.plan(nextId(cls), cls.name(), w, drains.load(cls.name()), c.to(),
                cls.drainOnScaleDown(), noticeGrace, now);
        if (planned instanceof DrainPlanner.Refused refused) {
            return new Actuation(Actuation.Kind.FAILED, c.from(), c.from(), "not drained: " + refused.reason());
        }
        if (((DrainPlanner.Plan) planned).drain().pods().stream().allMatch(DrainPod::pending)) {
            // Only pods that never started go (an unavailable pool's Unschedulable ones): no work to wait on, and
            // the ReplicaSet removes unscheduled pods first. The caller scales the pool directly.
            return null;
        }
        Outcome o = run(view, first((DrainPlanner.Plan) planned), cause == Precedence.Cause.APPROVED
                ? "approved proposal " + proposalId + " (pool " + c.pool() + ")" : "auto (pool " + c.pool() + ")", now);
        return new Actuation(o.ok() ? Actuation.Kind.APPLIED : Actuation.Kind.FAILED, c.from(), c.from(),
                o.message());
    }

    /** Journals a drain's start and carries out its first actions (marks; a replacement's scale-up). */
    Outcome run(WorkloadClass cls, DrainStep.Step first, String reason, Instant now) {
        Drain d = first.drain();
        WorkloadClass whole = ledger.cls(cls.name());
        ClassPools.Pool pool = whole != null && whole.pooled() ? whole.pools().poolOf(cls.target()) : null;
        String who = cls.name() + (pool == null ? "" : " pool " + pool.name() + " (" + pool.target().name() + ")");
        try {
            ledger.append(ledger.record(now, JournalRecord.Kind.DRAIN_STARTED, cls.name()).change(d.from(), d.to())
                    .proposal(d.id()).until(d.deadline()).reason(reason == null || reason.isBlank() ? null : reason)
                    .detail((d.replace() == null ? "" : ReplaceStep.startedDetail(d))
                            + String.join("; ", d.pods().stream().map(p -> p.name() + " (" + p.why() + ")").toList())),
                    cls.target());
        } catch (JournalException e) {
            return Ledger.unjournaled(cls.name() + ": drain not started, ", e);
        }
        counter++;
        proposals.withdraw(cls.name(), now, "a drain takes over");
        Drain running = drains.carryOut(cls, null, first, now);
        ClassDrain c = of(cls.name());
        // One that ends as it starts (its marks refused: another console's Lease, no permission) waits, as any.
        put(cls.name(), new ClassDrain(running, c.orphans(), autoAfter(c.autoDrainAfter(), d, running, now),
                c.lastDesired(), c.stuck()));
        ledger.did(cls.name(), LastAction.Kind.DRAIN, "drain " + d.id() + ": " + running.detail());
        if (d.replace() != null && running.active()) {
            return Outcome.ok(who + ": replacing " + d.replace().pod() + ": replicas " + d.from() + " → "
                    + (d.from() + 1) + "; once the new pod is ready " + d.replace().pod() + " is evicted (its jobs go"
                    + " back to the queue) and replicas return to " + d.from());
        }
        return running.active() ? Outcome.ok(who + ": draining " + d.from() + " → " + d.to() + ", "
                + String.join(", ", d.podNames()) + " marked")
                : Outcome.refused(Outcome.Why.CLUSTER, who + ": drain " + running.phase().name().toLowerCase()
                + ": " + running.detail());
    }

    /** Stops a running drain and removes its marks; too late once replicas were lowered. */
    Outcome cancel(String className, String reason, Instant now) {
        ClassDrain c = of(className);
        if (!c.active()) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, className + " has no running drain");
        }
        Drain before = c.drain();
        DrainStep.Step step = DrainStep.cancel(before, "cancelled by " + ledger.user
                + (reason == null || reason.isBlank() ? "" : ": " + reason), now);
        if (step.drain() == before) {
            return Outcome.refused(Outcome.Why.MOVED, className + ": too late to cancel, " + (before.replace() != null
                    ? before.replace().pod() + " was already evicted" : "replicas were already lowered to "
                    + before.to()));
        }
        Drain after = drains.carryOut(acting(ledger.cls(className), before), before, step, now);
        put(className, of(className).with(after));
        ledger.did(className, LastAction.Kind.DRAIN, "drain " + after.id() + " interrupted: " + after.detail());
        return Outcome.ok(className + ": drain cancelled, " + (before.replace() != null
                ? "nothing evicted" : "marks removed"));
    }

    // ------------------------------------------------------------------ what a stopped console left

    /**
     * A console that stopped mid-drain left pods marked: on its next look at the workload, remove
     * the marks of drains the journal started and never ended, and end them there. An end that
     * cannot be journaled is tried again next tick (the marks are gone by then: nothing to redo).
     *
     * @param where the class's workloads as read this tick, each with the class (or pool view) acting on it: one
     *              for a class of one workload, every pool's for a pooled class (its marks may be in any of them)
     */
    private void cleanUpOrphans(List<Map.Entry<WorkloadClass, WorkloadState>> where, Instant now) {
        if (where.isEmpty() || of(where.get(0).getKey().name()).orphans().isEmpty()
                || where.stream().anyMatch(e -> e.getValue() == null)) {
            return;
        }
        WorkloadClass cls = where.get(0).getKey();
        for (SupervisionReplay.Unfinished u : of(cls.name()).orphans()) {
            String hung = ReplaceStep.replacedPod(u.started().detail());
            if (hung != null && u.started().before() != null && u.started().before().equals(u.started().after())) {
                // A replacement (replicas end where they were), not a drain that lowers them: in the hung pod's pool.
                Map.Entry<WorkloadClass, WorkloadState> in = where.stream().filter(e -> e.getValue().pods().stream()
                        .anyMatch(p -> p.name().equals(hung))).findFirst().orElse(where.get(0));
                takeUpReplacement(in.getKey(), in.getValue(), u, hung, now);
                continue;
            }
            String id = u.id();
            List<String> marked = new ArrayList<>();
            List<String> done = new ArrayList<>();
            List<String> failed = new ArrayList<>();
            WorkloadClass on = cls;
            for (Map.Entry<WorkloadClass, WorkloadState> e : where) {
                List<String> here = e.getValue().pods().stream().filter(p -> id.equals(p.drainId()))
                        .map(PodState::name).toList();
                if (here.isEmpty()) {
                    continue;
                }
                on = e.getKey();
                marked.addAll(here);
                PodMarks.Result r = drains.unmark(e.getKey(), here, id);
                done.addAll(r.done());
                failed.addAll(r.failed());
            }
            boolean ended = ledger.tryAppend(ledger.record(now, JournalRecord.Kind.DRAIN_ENDED, cls.name()).proposal(id)
                    .reason(DrainPhase.INTERRUPTED.name())
                    .detail("the console stopped during the drain, which was not resumed"
                            + (marked.isEmpty() ? "" : "; marks removed from " + String.join(", ", done))
                            + (failed.isEmpty() ? "" : "; could not remove the marks from " + String.join("; ", failed))),
                    on.target());
            ledger.did(cls.name(), LastAction.Kind.DRAIN, "drain " + id + " interrupted by a restart");
            if (ended) {
                put(cls.name(), of(cls.name()).without(u));
            }
        }
    }

    /**
     * A replacement a console stopped in (issue 27): resumed where the journal and the cluster say it got to, or
     * ended saying where replicas stand and what became of the hung pod ({@link ReplaceStep#resume}). Journal
     * first: {@code DRAIN_RESUMED} before it goes on, {@code DRAIN_ENDED} for one that cannot; a record that
     * cannot be written leaves it for the next tick. It waits while another drain of the class runs.
     */
    private void takeUpReplacement(WorkloadClass cls, WorkloadState w, SupervisionReplay.Unfinished u, String hung,
                                   Instant now) {
        if (of(cls.name()).active()) {
            return;
        }
        JournalRecord started = u.started();
        int from = started.before();
        Instant evictedAt = null;
        boolean loweredBack = false;
        for (JournalRecord r : u.since()) {
            if (r.kind() == JournalRecord.Kind.POD_EVICTED) {
                evictedAt = r.at();
            } else if (r.kind() == JournalRecord.Kind.APPLIED && Integer.valueOf(from + 1).equals(r.before())
                    && Integer.valueOf(from).equals(r.after())) {
                loweredBack = true;
            }
        }
        Instant deadline = started.until() != null ? started.until() : started.at();
        DrainStep.Step step = ReplaceStep.resume(new ReplaceStep.Stopped(u.id(), cls.name(), from, hung, started.at(),
                deadline, evictedAt, loweredBack), w, drains.load(cls.name()), now);
        Drain d = step.drain();
        if (!ledger.tryAppend(ledger.record(now, d.active() ? JournalRecord.Kind.DRAIN_RESUMED
                        : JournalRecord.Kind.DRAIN_ENDED, cls.name()).change(from, from)
                .proposal(u.id()).until(d.active() ? deadline : null).reason(d.active() ? null : d.phase().name())
                .detail(d.detail()), cls.target())) {
            return;
        }
        put(cls.name(), of(cls.name()).without(u));
        Drain taken = d.active() ? drains.carryOut(cls, null, step, now) : d;
        put(cls.name(), of(cls.name()).with(taken));
        ledger.did(cls.name(), LastAction.Kind.DRAIN, "drain " + u.id() + (d.active() ? " resumed: " : " ")
                + taken.phase().name().toLowerCase().replace('_', ' ') + ": " + taken.detail());
    }
}
