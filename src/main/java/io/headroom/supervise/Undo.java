package io.headroom.supervise;

import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.Actuation;
import io.headroom.loop.WorkloadClass;
import java.time.Instant;
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
            return Outcome.refused(Outcome.Why.INVALID, className + " is placed across pools: scaling back one"
                    + " count is not placing it; pin a count with an override instead");
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
