package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Placement;
import io.headroom.decision.Decision;
import io.headroom.drain.DrainPlanner;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.Actuation;
import io.headroom.loop.ClassPools;
import io.headroom.loop.PoolPlacement;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Proposals and approvals: the change a supervised class waits on, one per class (a newer decision revises
 * it), and what the operator does with it (approve, approve with another count, reject, ask for a dry run).
 * Each proposal is an immutable {@link Pending}, replaced whole; loop thread only.
 */
final class Proposals {
    private static final Outcome.Why GONE = Outcome.Why.NOT_FOUND;

    /** A proposal as shown, with the wall-clock nanos at which the operator first saw its current change. */
    record Pending(Proposal proposal, long shownAtNanos) {
    }

    private final Ledger ledger;
    private final ClusterPorts cluster;
    private final Duration proposalTtl;
    private final Pins pins;
    private final Scaler scaler;
    private final ClassDrains drains;
    private final Map<String, Pending> pending = new HashMap<>();
    /** The change the operator rejected, per class, not proposed again until it runs out. */
    private final Map<String, Precedence.Rejection> rejections = new HashMap<>();
    /** Per pooled class, its last tick's placement: how another count is split (decision 0029). */
    private final Map<String, PoolPlacement> placed = new HashMap<>();
    /** Per pooled class, each pool's change of its last approval: what the scale-back undo puts back. */
    private final Map<String, List<PoolPlacement.PoolChange>> approved = new HashMap<>();
    private long counter;
    /** A proposal stays as shown for at least this much wall time (zero: no hold). */
    private Duration minActionable = Duration.ZERO;
    private LongSupplier wallNanos = () -> 0L;

    Proposals(Ledger ledger, Duration proposalTtl, Pins pins, Scaler scaler, ClassDrains drains) {
        this.ledger = ledger;
        this.cluster = ledger.cluster;
        this.proposalTtl = proposalTtl;
        this.pins = pins;
        this.scaler = scaler;
        this.drains = drains;
    }

    void hold(Duration minimum, LongSupplier wallNanos) {
        this.minActionable = minimum;
        this.wallNanos = wallNanos;
    }

    Proposal of(String className) {
        Pending p = pending.get(className);
        return p == null ? null : p.proposal();
    }

    Precedence.Rejection rejection(String className) {
        return rejections.get(className);
    }

    void restore(String className, Proposal p) {
        if (p != null) {
            pending.put(className, new Pending(p, wallNanos.getAsLong()));
        }
    }

    /** The journal numbered proposals up to {@code seen}: new ones follow on. */
    void counted(long seen) {
        counter = Math.max(counter, seen);
    }

    /** True while the class's proposal is within its minimum real time. */
    boolean held(String className) {
        Pending p = pending.get(className);
        return p != null && !minActionable.isZero()
                && wallNanos.getAsLong() - p.shownAtNanos() < minActionable.toNanos();
    }

    /** Proposes (or revises, or keeps) the decision's change for a supervised class; journaled first. */
    Actuation propose(WorkloadClass cls, Decision d, String explanation, Instant now) {
        return propose(cls, d.currentReplicas(), d.desiredReplicas(), List.of(), d, explanation, now);
    }

    /**
     * Proposes (or revises, or keeps) the change of a class placed across pools (decision 0029): one proposal
     * listing each pool's change, its sums as from and to; journaled first.
     */
    Actuation proposePools(WorkloadClass cls, List<PoolPlacement.PoolChange> changes, Decision d,
                           String explanation, Instant now) {
        int current = 0;
        int desired = 0;
        for (PoolPlacement.PoolChange c : changes) {
            current += c.from();
            desired += c.to();
        }
        return propose(cls, current, desired, changes, d, explanation, now);
    }

    private Actuation propose(WorkloadClass cls, int current, int desired, List<PoolPlacement.PoolChange> pools,
                              Decision d, String explanation, Instant now) {
        Pending was = pending.get(cls.name());
        Proposal p = was == null ? null : was.proposal();
        if (p != null && p.from() == current && p.to() == desired
                && (p.samePools(pools) || p.pools().isEmpty() && !pools.isEmpty())) {
            // Same change still wanted: keep the proposal, refresh its explanation and expiry. A pooled proposal
            // restored from the journal (which keeps its sums, not its split) takes this tick's split.
            pending.put(cls.name(), new Pending(new Proposal(p.id(), p.className(), p.context(), p.from(), p.to(),
                    p.createdAt(), now, now.plus(proposalTtl), explanation, d.reasons(), pools), was.shownAtNanos()));
            return Scaler.withheld(current, desired, "proposal " + p.id() + " waiting for approval");
        }
        if (p != null && p.from() == current && held(cls.name())) {
            // A newer change waits until the operator has had the shown one long enough to act on it.
            return Scaler.withheld(current, desired, "proposal " + p.id() + " held for the operator");
        }
        String id = p != null ? p.id() : cls.name() + "-" + (counter + 1);
        Proposal next = new Proposal(id, cls.name(), cluster.contextName(), current, desired,
                p != null ? p.createdAt() : now, now, now.plus(proposalTtl), explanation, d.reasons(), pools);
        try {
            ledger.journal.append(ledger.record(now, p != null ? Kind.SUPERSEDED : Kind.PROPOSED, cls.name())
                    .change(current, desired).proposal(id).until(next.expiresAt()).detail(explanation)
                    .reason(p != null ? "revised from " + p.from() + " → " + p.to() : null));
        } catch (JournalException e) {
            return Scaler.withheld(current, desired, (p != null ? "proposal not revised, " : "not proposed, ")
                    + Ledger.unjournaled(e));
        }
        if (p == null) {
            counter++;
        }
        pending.put(cls.name(), new Pending(next, wallNanos.getAsLong()));
        ledger.did(cls.name(), p != null ? LastAction.Kind.REVISED : LastAction.Kind.PROPOSED,
                (p != null ? "proposal revised: " : "proposed: ") + current + " → " + desired);
        return Scaler.withheld(current, desired, "proposal " + id + " waiting for approval");
    }

    /**
     * Takes the class's proposal away. Withdrawn even when its record cannot be written: a restart brings
     * the proposal back, and approving it re-reads the workload first.
     */
    void withdraw(String className, Instant now, String why) {
        Proposal p = of(className);
        if (p == null) {
            return;
        }
        ledger.tryAppend(ledger.record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to()).proposal(p.id())
                .reason(why));
        ledger.did(className, LastAction.Kind.WITHDRAWN, "proposal " + p.from() + " → " + p.to() + " withdrawn: "
                + why);
        pending.remove(className);
    }

    /** Drops proposals that ran out (not one the operator is still given time to read); see {@link Pins#expire}. */
    void expire(Instant now) {
        for (String name : ledger.names()) {
            Proposal p = of(name);
            if (p != null && p.expiredAt(now) && !held(name)) {
                ledger.tryAppend(ledger.record(now, Kind.EXPIRED, name).change(p.from(), p.to()).proposal(p.id()));
                pending.remove(name);
            }
        }
    }

    private Proposal byId(String id) {
        for (Pending p : pending.values()) {
            if (p.proposal().id().equals(id)) {
                return p.proposal();
            }
        }
        return null;
    }

    /** Applies a pending proposal (with {@code value} instead of its count when given) after checking the world. */
    Outcome approve(String proposalId, Integer value, String reason, Instant now) {
        Proposal p = byId(proposalId);
        if (p == null) {
            return Outcome.refused(GONE, "proposal " + proposalId
                    + " is no longer pending (expired, revised or decided)");
        }
        WorkloadClass cls = ledger.cls(p.className());
        Freeze f = pins.covering(p.className());
        if (f != null) {
            return Outcome.refused(Outcome.Why.HELD, p.className() + " is frozen (" + f.reason() + "); unfreeze first");
        }
        if (cls.pooled()) {
            return approvePools(cls, p, value, reason, now);
        }
        Ledger.Read w = ledger.read(cls);
        if (w.refusal() != null) {
            return w.refusal();
        }
        int actual = w.get().specReplicas();
        if (actual != p.from()) {
            ledger.tryAppend(ledger.record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to())
                    .proposal(p.id()).reason("replicas moved from " + p.from() + " to " + actual + " since the proposal"));
            pending.remove(p.className());
            return Outcome.refused(Outcome.Why.MOVED, "replicas moved from " + p.from() + " to " + actual
                    + " since the proposal; the next tick decides again");
        }
        int to = value != null ? value : p.to();
        DrainPlanner.Plan drain = null;
        if (to < p.from() && cls.drainOnScaleDown() != null) {
            // This class drains on scale-down: approving starts a drain, so it must be possible first.
            DrainPlanner.Planned planned = drains.plan(cls, w.get(), to, cls.drainOnScaleDown(), now);
            if (planned instanceof DrainPlanner.Refused r) {
                return Outcome.refused(Outcome.Why.CLUSTER, p.className()
                        + " drains on scale-down, and cannot now: " + r.reason());
            }
            drain = (DrainPlanner.Plan) planned;
        }
        try {
            ledger.journal.append(ledger.record(now, Kind.APPROVED, p.className()).change(p.from(), to)
                    .proposal(p.id())
                    .reason(value != null ? "operator chose " + to + " instead of " + p.to()
                            + (reason == null || reason.isBlank() ? "" : ": " + reason) : null)
                    .detail(p.explanation()));
        } catch (JournalException e) {
            return Ledger.unjournaled(p.className() + ": not approved, ", e);
        }
        pending.remove(p.className());
        if (drain != null) {
            return drains.run(cls, ClassDrains.first(drain), "approved proposal " + p.id(), now);
        }
        Actuation a = scaler.apply(cls, w.get(), p.from(), to, Precedence.Cause.APPROVED,
                value != null ? "approved with " + to + (reason == null || reason.isBlank() ? "" : ": " + reason)
                        : "approved", p.explanation(), p.id());
        return Scaler.outcome(a, p.className(), p.className() + ": " + p.from() + " → " + to);
    }

    /**
     * Approves a pooled class's proposal, as it is or with the operator's count (the class's total, split across
     * the pools as the loop places it, {@link #split}): each pool re-read and still where the proposal found it,
     * then every pool's change applied, each write journaled ({@link Scaler#applyPools}). A proposal restored
     * from the journal (which keeps its sums, not its split) is split again the same way, its pools' sum still
     * where the proposal found it.
     */
    private Outcome approvePools(WorkloadClass cls, Proposal p, Integer value, String reason, Instant now) {
        boolean restored = p.pools().isEmpty();
        List<PoolPlacement.PoolChange> fresh = new ArrayList<>();
        String chosen = null;
        if (value == null && !restored) {
            for (PoolPlacement.PoolChange c : p.pools()) {
                Optional<WorkloadState> w;
                try {
                    w = cluster.workloads().workload(c.target());
                } catch (RuntimeException e) {
                    return Outcome.refused(Outcome.Why.CLUSTER, "could not read " + c.target() + ": "
                            + e.getMessage());
                }
                if (w.isEmpty()) {
                    return Outcome.refused(Outcome.Why.CLUSTER, "workload " + c.target() + " (pool " + c.pool()
                            + ") not found");
                }
                Outcome moved = moved(p, c.pool(), c.from(), w.get().specReplicas(), now);
                if (moved != null) {
                    return moved;
                }
                fresh.add(new PoolPlacement.PoolChange(c.pool(), c.target(), c.from(), c.to(),
                        w.get().resourceVersion(), c.words()));
            }
        } else {
            int total = value != null ? value : p.to();
            Split s = split(cls, total, now);
            if (s.refusal() != null) {
                return s.refusal();
            }
            PoolSplit split = s.split();
            if (!split.fits()) {
                return Outcome.refused(Outcome.Why.INVALID, p.className() + ": " + split.words()
                        + "; choose a count the pools can hold");
            }
            if (!restored) {
                for (PoolPlacement.PoolChange c : p.pools()) {
                    Outcome moved = moved(p, c.pool(), c.from(), split.changes().stream()
                            .filter(f -> f.pool().equals(c.pool())).findFirst().orElseThrow().from(), now);
                    if (moved != null) {
                        return moved;
                    }
                }
            } else if (split.current() != p.from() || value == null && split.asked() != p.to()) {
                String why = split.current() != p.from()
                        ? "the pools moved from " + p.from() + " to " + split.current() + " replicas since the proposal"
                        : "its split across pools was not kept over a restart, and the pools now take " + split.asked()
                        + " for " + p.to();
                ledger.tryAppend(ledger.record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to())
                        .proposal(p.id()).reason(why));
                pending.remove(p.className());
                return Outcome.refused(Outcome.Why.MOVED, p.className() + ": " + why + "; the next tick places again");
            }
            fresh.addAll(split.changes());
            if (value != null) {
                chosen = "operator chose " + value + " instead of " + p.to() + " (" + split.pools() + ")"
                        + (reason == null || reason.isBlank() ? "" : ": " + reason);
            }
        }
        int to = 0;
        for (PoolPlacement.PoolChange c : fresh) {
            to += c.to();
        }
        try {
            ledger.journal.append(ledger.record(now, Kind.APPROVED, p.className())
                    .change(p.from(), value != null ? value : to).proposal(p.id()).reason(chosen)
                    .detail(p.explanation()));
        } catch (JournalException e) {
            return Ledger.unjournaled(p.className() + ": not approved, ", e);
        }
        pending.remove(p.className());
        approved.put(p.className(), List.copyOf(fresh));
        String why = value != null ? "approved with " + value + (reason == null || reason.isBlank() ? "" : ": " + reason)
                : "approved";
        Actuation a = scaler.applyPools(cls, fresh, Precedence.Cause.APPROVED, why, p.explanation(), p.id());
        return Scaler.outcome(a, p.className(), p.className() + ": " + a.message());
    }

    /** Null while the pool is where the proposal found it; else the proposal is withdrawn, and the refusal says so. */
    private Outcome moved(Proposal p, String pool, int from, int actual, Instant now) {
        if (actual == from) {
            return null;
        }
        String why = "pool " + pool + " moved from " + from + " to " + actual + " replicas since the proposal";
        ledger.tryAppend(ledger.record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to())
                .proposal(p.id()).reason(why));
        pending.remove(p.className());
        return Outcome.refused(Outcome.Why.MOVED, p.className() + ": " + why + "; the next tick places again");
    }

    /** A split, or why there is none (a pool that cannot be read). */
    record Split(PoolSplit split, Outcome refusal) {
    }

    /** The last tick's placement of a pooled class: what another count is split with (same observation and memory). */
    void placed(String className, PoolPlacement placement) {
        placed.put(className, placement);
    }

    /**
     * Splits {@code total} across the class's pools by the loop's own rule (decision 0029): with the last tick's
     * placement (its observation and memory of unavailable pools), or, before this console's first tick of the
     * class, placed afresh as that tick will (a console starts with no memory of unavailable pools). Each pool is
     * re-read now: a change starts from its Deployment's replicas and resourceVersion as they are.
     */
    Split split(WorkloadClass cls, int total, Instant now) {
        Map<String, WorkloadState> states = new LinkedHashMap<>();
        for (ClassPools.Pool pool : cls.pools().pools()) {
            Optional<WorkloadState> w;
            try {
                w = cluster.workloads().workload(pool.target());
            } catch (RuntimeException e) {
                return new Split(null, Outcome.refused(Outcome.Why.CLUSTER, "could not read " + pool.target() + ": "
                        + e.getMessage()));
            }
            if (w.isEmpty()) {
                return new Split(null, Outcome.refused(Outcome.Why.CLUSTER, "workload " + pool.target() + " (pool "
                        + pool.name() + ") not found"));
            }
            states.put(pool.name(), w.get());
        }
        PoolPlacement last = placed.get(cls.name());
        Placement.Result r = last != null ? last.at().apply(total)
                : PoolPlacement.place(cls.pools(), states, total, Placement.Memory.EMPTY, now).result();
        List<PoolPlacement.PoolChange> changes = new ArrayList<>();
        for (ClassPools.Pool pool : cls.pools().pools()) {
            WorkloadState w = states.get(pool.name());
            Placement.PoolShare share = r.share(pool.name());
            changes.add(new PoolPlacement.PoolChange(pool.name(), pool.target(), w.specReplicas(), share.specReplicas(),
                    w.resourceVersion(), share.words()));
        }
        return new Split(new PoolSplit(total, changes, r.unplaced()), null);
    }

    /** The split of {@code total} for a pending proposal's pooled class (the dialog's preview), or null. */
    Split split(String proposalId, int total, Instant now) {
        Proposal p = byId(proposalId);
        WorkloadClass cls = p == null ? null : ledger.cls(p.className());
        if (p == null) {
            return new Split(null, Outcome.refused(GONE, "proposal " + proposalId + " is no longer pending"));
        }
        return cls == null || !cls.pooled() ? null : split(cls, Math.max(0, total), now);
    }

    /** Each pool's change of the class's last approval across pools (what a scale-back puts back), or null. */
    List<PoolPlacement.PoolChange> approvedPools(String className) {
        return approved.get(className);
    }

    /** The class's last approval across pools is taken back (or no longer can be). */
    void forgetApproved(String className) {
        approved.remove(className);
    }

    /**
     * Asks the API server whether the proposal's change would be accepted (server-side dry run,
     * nothing changes); the answer is for the operator, not the journal.
     */
    Outcome dryRun(String proposalId) {
        Proposal p = byId(proposalId);
        if (p == null) {
            return Outcome.refused(GONE, "proposal " + proposalId + " is no longer pending");
        }
        List<PoolPlacement.PoolChange> pools = p.pools();
        WorkloadClass cls = ledger.cls(p.className());
        if (pools.isEmpty() && cls != null && cls.pooled()) {
            // Restored from the journal, which keeps the sums: split as approving it would.
            Split s = split(cls, p.to(), ledger.clock.instant());
            if (s.refusal() != null) {
                return s.refusal();
            }
            pools = s.split().changes();
        }
        if (!pools.isEmpty()) {
            for (PoolPlacement.PoolChange c : pools) {
                ScaleResult r = c.changes() ? cluster.scaling().dryRunScale(c.target(), c.to()) : null;
                if (r != null && !r.ok()) {
                    return Outcome.refused(Outcome.Why.CLUSTER, "dry run: " + p.className() + " pool " + c.pool()
                            + " " + c.from() + " → " + c.to() + " would fail: " + r.message());
                }
            }
            return Outcome.ok("dry run: the API server would accept every pool's change of " + p.className()
                    + " (nothing changed)");
        }
        ScaleResult r = cluster.scaling().dryRunScale(ledger.cls(p.className()).target(), p.to());
        return r.ok() ? Outcome.ok("dry run: the API server would accept " + p.className() + " " + p.from()
                + " → " + p.to() + " (nothing changed)")
                : Outcome.refused(Outcome.Why.CLUSTER, "dry run: " + p.className() + " " + p.from() + " → " + p.to()
                + " would fail: " + r.message());
    }

    /** Rejects a proposal; the same change is not proposed again for one proposal lifetime. */
    Outcome reject(String proposalId, String reason, Instant now) {
        Proposal p = byId(proposalId);
        if (p == null) {
            return Outcome.refused(GONE, "proposal " + proposalId + " is no longer pending");
        }
        try {
            ledger.journal.append(ledger.record(now, Kind.REJECTED, p.className()).change(p.from(), p.to())
                    .proposal(p.id()).reason(reason));
        } catch (JournalException e) {
            return Ledger.unjournaled(p.className() + ": not rejected, ", e);
        }
        pending.remove(p.className());
        rejections.put(p.className(), new Precedence.Rejection(p.from(), p.to(), now.plus(proposalTtl)));
        ledger.did(p.className(), LastAction.Kind.REJECTED, "rejected " + p.from() + " → " + p.to());
        return Outcome.ok(p.className() + ": rejected " + p.from() + " → " + p.to());
    }

    /**
     * Lifts the operator's rejection of {@code from → to} (an undo): the next tick may propose that
     * change again. Rejections live in memory only, so there is no record to write for it here.
     */
    Outcome unreject(String className, int from, int to) {
        Precedence.Rejection r = rejections.get(className);
        if (r == null || r.from() != from || r.to() != to) {
            return Outcome.refused(Outcome.Why.MOVED, className + ": the rejection of " + from + " → " + to
                    + " no longer holds");
        }
        rejections.remove(className);
        return Outcome.ok(className + ": " + from + " → " + to + " may be proposed again");
    }
}
