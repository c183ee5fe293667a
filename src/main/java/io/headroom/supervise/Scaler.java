package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.Actuation;
import io.headroom.loop.PoolPlacement;
import io.headroom.loop.WorkloadClass;
import java.time.Instant;
import java.util.List;

/**
 * The one way the supervisor changes a class's replicas: the intent is journaled first (no record, no
 * write), the write passes the freeze gate ({@link GatedCluster}), the outcome is journaled after.
 */
final class Scaler {
    private final Ledger ledger;
    /** Every write goes through here: no write starts once a freeze covers its class. */
    private final ClusterPorts writes;
    /** A pooled class that drains on scale-down drains each shrinking pool through these (design.md §5). */
    private final ClassDrains drains;

    Scaler(Ledger ledger, ClusterPorts writes, ClassDrains drains) {
        this.ledger = ledger;
        this.writes = writes;
        this.drains = drains;
    }

    /** Scales {@code from} → {@code to}; the actuation says what happened, in the words the loop shows. */
    Actuation apply(WorkloadClass cls, WorkloadState w, int from, int to, Precedence.Cause cause, String why,
                    String explanation, String proposalId) {
        Instant now = ledger.clock.instant();
        try {
            ledger.journal.append(ledger.record(now, Kind.SCALING, cls.name()).change(from, to).reason(why)
                    .proposal(proposalId));
        } catch (JournalException e) {
            String message = "not scaled " + from + " → " + to + " (" + why + "): " + Ledger.unjournaled(e);
            ledger.did(cls.name(), LastAction.Kind.FAILED, message);
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
        ledger.tryAppend(ledger.record(now, r.ok() ? Kind.APPLIED : Kind.FAILED, cls.name())
                .change(from, r.ok() ? r.replicas() : to).reason(why).detail(r.ok() ? explanation : r.message())
                .proposal(proposalId));
        ledger.did(cls.name(), r.ok() ? LastAction.Kind.APPLIED : LastAction.Kind.FAILED,
                (r.ok() ? "applied " : "failed ") + from + " → " + to + " (" + why + ")");
        return new Actuation(r.ok() ? Actuation.Kind.APPLIED : Actuation.Kind.FAILED, from,
                r.ok() ? r.replicas() : from, r.ok() ? why : r.message());
    }

    /**
     * Scales a class placed across pools (decision 0029): each pool whose share moved, the pools that grow
     * first, each as one scale of its own Deployment: its intent journaled (naming the pool), the gated,
     * fenced write, its outcome journaled. A pool refused or failed does not stop the others (capacity asked
     * of one pool is worth having while another's write failed); the actuation says which.
     *
     * <p>A class that drains on scale-down drains a shrinking pool instead of lowering it (unless an override
     * pins the count, which scales directly, as for a class of one workload): that pool's idlest pods are
     * marked, waited on, and its replicas lowered so exactly they go ({@link ClassDrains#drainPool}); a pool whose
     * pods that go never started (Pending) is lowered directly, nothing to wait on. One drain
     * runs per class: a second pool to shrink waits for it, and the next placement after it shrinks that one.
     */
    Actuation applyPools(WorkloadClass cls, List<PoolPlacement.PoolChange> changes, Precedence.Cause cause,
                         String why, String explanation, String proposalId) {
        int from = 0;
        for (PoolPlacement.PoolChange c : changes) {
            from += c.from();
        }
        int to = from;
        boolean failed = false;
        boolean acted = false;
        boolean any = false;
        StringBuilder words = new StringBuilder();
        boolean drainsDown = cls.drainOnScaleDown() != null && cause != Precedence.Cause.OVERRIDE;
        for (PoolPlacement.PoolChange c : PoolPlacement.growFirst(changes)) {
            any = true;
            Actuation a = drainsDown && c.to() < c.from()
                    ? drains.drainPool(cls, c, cause, proposalId, ledger.clock.instant()) : null;
            if (a == null) { // grows, scales down directly, or only Pending pods go: nothing to drain
                a = applyPool(cls, c, cause, why, explanation, proposalId);
            }
            to += a.to() - a.from();
            failed |= a.kind() == Actuation.Kind.FAILED;
            acted |= a.kind() == Actuation.Kind.APPLIED;
            // A pool written says nothing more; a drain started, a pool that waits, or one that failed, say what.
            words.append(words.length() == 0 ? "" : "; ").append(c.pool()).append(' ').append(c.from())
                    .append(" → ").append(c.to()).append(a.kind() == Actuation.Kind.FAILED ? " not applied: "
                            + a.message() : a.to() == a.from() ? ": " + a.message() : "");
        }
        if (!any) {
            return Actuation.none(from);
        }
        String text = why + " (" + words + ")";
        if (!failed && !acted) {
            // Every pool to move waits (for a running drain, or after one that did not complete): nothing done.
            return withheld(from, sumTo(changes), text);
        }
        ledger.did(cls.name(), failed ? LastAction.Kind.FAILED : LastAction.Kind.APPLIED,
                (failed ? "failed " : "applied ") + from + " → " + sumTo(changes) + " across pools: "
                        + words);
        return new Actuation(failed ? Actuation.Kind.FAILED : Actuation.Kind.APPLIED, from, to, text);
    }

    private static int sumTo(List<PoolPlacement.PoolChange> changes) {
        int n = 0;
        for (PoolPlacement.PoolChange c : changes) {
            n += c.to();
        }
        return n;
    }

    /** One pool's scale: intent, gated write of its own Deployment at the version read, outcome. */
    private Actuation applyPool(WorkloadClass cls, PoolPlacement.PoolChange c, Precedence.Cause cause, String why,
                                String explanation, String proposalId) {
        Instant now = ledger.clock.instant();
        String poolWhy = why + " · pool " + c.pool() + " (" + c.target().name() + ")";
        try {
            ledger.append(ledger.record(now, Kind.SCALING, cls.name()).change(c.from(), c.to())
                    .reason(poolWhy).detail(c.words()).proposal(proposalId), c.target());
        } catch (JournalException e) {
            return new Actuation(Actuation.Kind.FAILED, c.from(), c.from(), Ledger.unjournaled(e));
        }
        boolean pinned = cause == Precedence.Cause.OVERRIDE;
        Redecision.Redecider redecide = fresh -> pinned || fresh.specReplicas() == c.from() ? Redecision.propose(c.to())
                : Redecision.giveUp("pool " + c.pool() + " moved from " + c.from() + " to " + fresh.specReplicas()
                        + " replicas since the decision; the next tick places again");
        ScaleResult r;
        try {
            r = writes.scaling().scale(c.target(), c.to(), c.resourceVersion(), redecide, 3);
        } catch (RuntimeException e) {
            r = ScaleResult.of(ScaleResult.Outcome.FAILED, c.from(), e.getMessage());
        }
        // Its Event goes on this pool's Deployment: the team timeline reads Events per object.
        ledger.tryAppend(ledger.record(now, r.ok() ? Kind.APPLIED : Kind.FAILED, cls.name())
                .change(c.from(), r.ok() ? r.replicas() : c.to()).reason(poolWhy)
                .detail(r.ok() ? c.words() + " · " + explanation : r.message()).proposal(proposalId), c.target());
        return new Actuation(r.ok() ? Actuation.Kind.APPLIED : Actuation.Kind.FAILED, c.from(),
                r.ok() ? r.replicas() : c.from(), r.ok() ? poolWhy : r.message());
    }

    /** A command's outcome for a scale: done, or failed with the words of what went wrong. */
    static Outcome outcome(Actuation a, String className, String done) {
        return a.kind() == Actuation.Kind.APPLIED ? Outcome.ok(done) : Outcome.failed(className + ": " + a.message());
    }

    static Actuation withheld(int current, int desired, String why) {
        return new Actuation(Actuation.Kind.WITHHELD, current, desired, why);
    }
}
