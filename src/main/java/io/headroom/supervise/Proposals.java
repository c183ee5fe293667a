package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.ScaleResult;
import io.headroom.decision.Decision;
import io.headroom.drain.DrainPlanner;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.Actuation;
import io.headroom.loop.PoolPlacement;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        if (p != null && p.from() == current && p.to() == desired && p.samePools(pools)) {
            // Same change still wanted: keep the proposal, refresh its explanation and expiry.
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
            return approvePools(cls, p, value, now);
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
     * Approves a pooled class's proposal: each pool re-read and still where the proposal found it, then every
     * pool's change applied, each write journaled ({@link Scaler#applyPools}).
     */
    private Outcome approvePools(WorkloadClass cls, Proposal p, Integer value, Instant now) {
        if (value != null) {
            return Outcome.refused(Outcome.Why.INVALID, p.className() + " is placed across pools: approve the"
                    + " proposal as it is, pool by pool, or pin a count with an override");
        }
        if (p.pools().isEmpty()) {
            // Restored from the journal, which keeps the sums only: the split is not known to approve.
            ledger.tryAppend(ledger.record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to())
                    .proposal(p.id()).reason("its split across pools was not kept over a restart"));
            pending.remove(p.className());
            return Outcome.refused(Outcome.Why.MOVED, p.className() + ": the proposal's split across pools was"
                    + " not kept over a restart; the next tick proposes again");
        }
        List<PoolPlacement.PoolChange> fresh = new java.util.ArrayList<>();
        for (PoolPlacement.PoolChange c : p.pools()) {
            java.util.Optional<io.headroom.cluster.WorkloadState> w;
            try {
                w = cluster.workloads().workload(c.target());
            } catch (RuntimeException e) {
                return Outcome.refused(Outcome.Why.CLUSTER, "could not read " + c.target() + ": " + e.getMessage());
            }
            if (w.isEmpty()) {
                return Outcome.refused(Outcome.Why.CLUSTER, "workload " + c.target() + " (pool " + c.pool()
                        + ") not found");
            }
            int actual = w.get().specReplicas();
            if (actual != c.from()) {
                String why = "pool " + c.pool() + " moved from " + c.from() + " to " + actual + " replicas since the"
                        + " proposal";
                ledger.tryAppend(ledger.record(now, Kind.WITHDRAWN, p.className()).change(p.from(), p.to())
                        .proposal(p.id()).reason(why));
                pending.remove(p.className());
                return Outcome.refused(Outcome.Why.MOVED, p.className() + ": " + why + "; the next tick places again");
            }
            fresh.add(new PoolPlacement.PoolChange(c.pool(), c.target(), c.from(), c.to(), w.get().resourceVersion(),
                    c.words()));
        }
        try {
            ledger.journal.append(ledger.record(now, Kind.APPROVED, p.className()).change(p.from(), p.to())
                    .proposal(p.id()).detail(p.explanation()));
        } catch (JournalException e) {
            return Ledger.unjournaled(p.className() + ": not approved, ", e);
        }
        pending.remove(p.className());
        Actuation a = scaler.applyPools(cls, fresh, Precedence.Cause.APPROVED, "approved", p.explanation(), p.id());
        return Scaler.outcome(a, p.className(), p.className() + ": " + a.message());
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
        if (!p.pools().isEmpty()) {
            for (PoolPlacement.PoolChange c : p.pools()) {
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
