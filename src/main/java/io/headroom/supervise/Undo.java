package io.headroom.supervise;

import io.headroom.cluster.WorkloadState;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.Actuation;
import io.headroom.loop.PoolPlacement;
import io.headroom.loop.WorkloadClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Taking an action back: an approval scaled back, a rejection lifted, any command's inverse run and the
 * undo journaled. It holds no state of its own: what can be undone is what the other concerns still hold.
 */
final class Undo {
    private final Ledger ledger;
    private final Pins pins;
    private final ClassDrains drains;
    private final Proposals proposals;
    private final Scaler scaler;

    Undo(Ledger ledger, Pins pins, ClassDrains drains, Proposals proposals, Scaler scaler) {
        this.ledger = ledger;
        this.pins = pins;
        this.drains = drains;
        this.proposals = proposals;
        this.scaler = scaler;
    }

    /**
     * Scales a class back from {@code to} to {@code from} (the undo of an approval), only while its
     * replicas are still {@code to} and nothing (freeze, override, drain) holds it; journaled first.
     */
    Outcome revert(String className, int from, int to, String reason, Instant now) {
        Outcome held = pins.heldByHand(className);
        if (held != null) {
            return held;
        }
        WorkloadClass cls = ledger.cls(className);
        if (cls != null && cls.pooled()) {
            return revertPools(cls, from, reason, now);
        }
        if (drains.of(className).active()) {
            return Outcome.refused(Outcome.Why.HELD, className + " is draining; cancel the drain first");
        }
        Ledger.Read w = ledger.read(cls);
        if (w.refusal() != null) {
            return w.refusal();
        }
        if (w.get().specReplicas() != to) {
            return Outcome.refused(Outcome.Why.MOVED, className + ": replicas moved from " + to + " to "
                    + w.get().specReplicas() + " since; nothing to take back");
        }
        proposals.withdraw(className, now, "the operator scaled back");
        Actuation a = scaler.apply(cls, w.get(), to, from, Precedence.Cause.APPROVED, reason,
                "scaled back by the operator", null);
        return Scaler.outcome(a, className, className + ": " + to + " → " + from);
    }

    /**
     * Scales a class placed across pools back (decision 0029): each pool to its replicas before the class's last
     * approval, only while every pool is still where that approval left it (else {@code MOVED}, naming the pool,
     * and nothing is written); each pool's write journaled as any pool's is ({@link Scaler#applyPools}).
     */
    private Outcome revertPools(WorkloadClass cls, int from, String reason, Instant now) {
        String className = cls.name();
        List<PoolPlacement.PoolChange> done = proposals.approvedPools(className);
        int before = 0;
        for (PoolPlacement.PoolChange c : done == null ? List.<PoolPlacement.PoolChange>of() : done) {
            before += c.from();
        }
        if (done == null || before != from) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, className + ": no approval from " + from
                    + " replicas across its pools to take back");
        }
        List<PoolPlacement.PoolChange> back = new ArrayList<>();
        StringBuilder words = new StringBuilder();
        int after = 0;
        for (PoolPlacement.PoolChange c : done) {
            Optional<WorkloadState> w;
            try {
                w = ledger.cluster.workloads().workload(c.target());
            } catch (RuntimeException e) {
                return Outcome.refused(Outcome.Why.CLUSTER, "could not read " + c.target() + ": " + e.getMessage());
            }
            if (w.isEmpty()) {
                return Outcome.refused(Outcome.Why.CLUSTER, "workload " + c.target() + " (pool " + c.pool()
                        + ") not found");
            }
            int actual = w.get().specReplicas();
            if (actual != c.to()) {
                proposals.forgetApproved(className);
                return Outcome.refused(Outcome.Why.MOVED, className + ": pool " + c.pool() + " moved from " + c.to()
                        + " to " + actual + " replicas since the approval; nothing taken back");
            }
            after += c.to();
            back.add(new PoolPlacement.PoolChange(c.pool(), c.target(), c.to(), c.from(), w.get().resourceVersion(),
                    c.pool() + ": back to " + c.from() + ", as before the approval"));
            words.append(words.length() == 0 ? "" : ", ").append(c.pool()).append(' ').append(c.from());
        }
        proposals.withdraw(className, now, "the operator scaled back");
        proposals.forgetApproved(className);
        Actuation a = scaler.applyPools(cls, back, Precedence.Cause.APPROVED, reason, "scaled back by the operator",
                null);
        return Scaler.outcome(a, className, className + ": " + after + " → " + from + " (" + words + ")");
    }

    /**
     * Undoes an earlier action: runs {@code inverse} (which journals its own change first, as
     * usual) and, once it succeeded, journals {@link Kind#UNDONE} saying what was undone, which is
     * also posted to the team timeline. An inverse that is refused journals nothing.
     */
    CompletableFuture<Outcome> undo(String className, String what, Supplier<CompletableFuture<Outcome>> inverse) {
        return inverse.get().thenApply(o -> {
            if (!o.ok()) {
                return o instanceof Outcome.Refused r ? Outcome.refused(r.why(), "not undone (" + what + "): "
                        + o.message()) : Outcome.failed("not undone (" + what + "): " + o.message());
            }
            boolean journaled = ledger.tryAppend(ledger.record(ledger.clock.instant(), Kind.UNDONE, className)
                    .reason(what).detail(o.message()));
            return journaled ? Outcome.ok("Undone: " + what + " (" + o.message() + ")")
                    : Outcome.refused(Outcome.Why.UNJOURNALED, "undone (" + o.message()
                    + "), but the undo itself was not journaled");
        });
    }
}
