package io.headroom.supervise;

import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord.Kind;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the operator holds a class with: freezes (one class's or everything's, in {@link Freezes}, which any
 * thread may set) and pins ({@link ReplicaOverride}, loop thread only). Each is journaled before it changes,
 * except a freeze, which stops actions: it holds in memory even when its record cannot be written.
 */
final class Pins {
    private static final Outcome.Why UNKNOWN = Outcome.Why.NOT_FOUND;
    private final Ledger ledger;
    final Freezes freezes = new Freezes();
    private final Map<String, ReplicaOverride> overrides = new LinkedHashMap<>();

    Pins(Ledger ledger) {
        this.ledger = ledger;
    }

    ReplicaOverride override(String className) {
        return overrides.get(className);
    }

    Freeze covering(String className) {
        return freezes.covering(className);
    }

    /**
     * Runs {@code body} under the freezes' lock, which a freeze holds while it is journaled and applied: what
     * {@code body} reads of the journal and sets of the freezes is never between a freeze's two steps.
     */
    <T> T atomically(java.util.function.Supplier<T> body) {
        synchronized (freezes) {
            return body.get();
        }
    }

    void restore(Freeze all, Map<String, SupervisionReplay.ClassState> classes) {
        synchronized (freezes) {
            freezes.set(null, all);
            classes.forEach((name, c) -> freezes.set(name, c.freeze()));
        }
        classes.forEach((name, c) -> {
            if (ledger.knows(name) && c.override() != null) {
                overrides.put(name, c.override());
            }
        });
    }

    /** Why the class may not be changed by hand now (unknown, or a freeze or a pin holds it), or null. */
    Outcome heldByHand(String className) {
        if (!ledger.knows(className) || ledger.cls(className) == null) {
            return Outcome.refused(UNKNOWN, "unknown class " + className);
        }
        Freeze f = freezes.covering(className);
        if (f != null) {
            return Outcome.refused(Outcome.Why.HELD, className + " is frozen (" + f.reason() + "); unfreeze first");
        }
        ReplicaOverride o = overrides.get(className);
        if (o != null) {
            return Outcome.refused(Outcome.Why.HELD, className + " is pinned to " + o.replicas()
                    + "; clear the override first");
        }
        return null;
    }

    /**
     * Drops freezes and pins that have run out. An expiry follows from the time already journaled, so it
     * happens even when its record cannot be written (a restart drops the same things).
     */
    void expire(Instant now, Modes modes) {
        synchronized (freezes) {
            Freeze all = freezes.all();
            if (all != null && !all.activeAt(now)) {
                ledger.tryAppend(ledger.record(now, Kind.FREEZE_EXPIRED, null).reason(all.reason()));
                freezes.set(null, null);
            }
            freezes.byClass().forEach((name, f) -> {
                if (!f.activeAt(now)) {
                    ledger.tryAppend(ledger.record(now, Kind.FREEZE_EXPIRED, name).reason(f.reason()));
                    freezes.set(name, null);
                }
            });
        }
        for (Map.Entry<String, ReplicaOverride> e : List.copyOf(overrides.entrySet())) {
            if (!e.getValue().activeAt(now)) {
                String next = "override ended; " + modes.of(e.getKey()).name().toLowerCase() + " mode takes over";
                ledger.tryAppend(ledger.record(now, Kind.OVERRIDE_EXPIRED, e.getKey())
                        .change(null, e.getValue().replicas()).reason(next));
                ledger.did(e.getKey(), LastAction.Kind.OVERRIDE_ENDED, next);
                overrides.remove(e.getKey());
            }
        }
    }

    /** Freezes a class, or everything ({@code className} null); any thread. The outcome says if it is journaled. */
    Outcome freeze(String className, Duration ttl, String reason) {
        Instant now = ledger.clock.instant();
        Freeze f = new Freeze(reason, now.plus(ttl), ledger.user, now);
        String notJournaled = null;
        int inFlight;
        synchronized (freezes) {
            try {
                ledger.journal.append(ledger.record(now, Kind.FROZEN, className).reason(reason).until(f.until()));
            } catch (JournalException e) {
                notJournaled = e.getMessage();
            }
            freezes.set(className, f);
            inFlight = freezes.inFlight();
        }
        String what = (className == null ? "everything" : className) + " frozen until "
                + Precedence.HHMM.format(f.until());
        String flight = inFlight == 0 ? "" : "; " + inFlight + (inFlight == 1 ? " write was" : " writes were")
                + " already under way and may still land";
        return notJournaled == null ? Outcome.ok(what + flight)
                : Outcome.refused(Outcome.Why.UNJOURNALED, what + " in memory only: not journaled (" + notJournaled
                + "), so it will not survive a restart" + flight);
    }

    /** Lifts a freeze on one class, or the global one when {@code className} is null; journaled first. */
    Outcome unfreeze(String className, String reason, Instant now) {
        String what = className == null ? "global freeze" : className + " freeze";
        synchronized (freezes) {
            if (className == null ? freezes.all() == null : freezes.of(className) == null) {
                return Outcome.refused(UNKNOWN, className == null ? "nothing is frozen globally"
                        : className + " is not frozen");
            }
            try {
                ledger.journal.append(ledger.record(now, Kind.UNFROZEN, className).reason(reason));
            } catch (JournalException e) {
                return Ledger.unjournaled(what + " not lifted, ", e);
            }
            freezes.set(className, null);
        }
        return Outcome.ok(what + " lifted");
    }

    /** Holds a class like a freeze while it is handed back (in memory only), or lets it go ({@code hold} null). */
    void handingBack(String className, Freeze hold) {
        freezes.handingBack(className, hold);
    }

    /** Pins a class to {@code replicas} until {@code until}, journaled first (the caller checked it may be). */
    Outcome pin(String className, int replicas, Instant until, String reason, Instant now) {
        try {
            ledger.journal.append(ledger.record(now, Kind.OVERRIDE_SET, className).change(null, replicas)
                    .reason(reason).until(until));
        } catch (JournalException e) {
            return Ledger.unjournaled(className + ": override not set, ", e);
        }
        overrides.put(className, new ReplicaOverride(replicas, until, reason, ledger.user, now));
        return Outcome.ok(className + " pinned to " + replicas + " until " + Precedence.HHMM.format(until));
    }

    Outcome unpin(String className, String reason, Mode mode, Instant now) {
        ReplicaOverride o = overrides.get(className);
        if (o == null) {
            return Outcome.refused(UNKNOWN, className + " has no override");
        }
        try {
            ledger.journal.append(ledger.record(now, Kind.OVERRIDE_CLEARED, className).change(null, o.replicas())
                    .reason(reason));
        } catch (JournalException e) {
            return Ledger.unjournaled(className + ": override not cleared, ", e);
        }
        overrides.remove(className);
        return Outcome.ok(className + " override cleared; " + mode.name().toLowerCase() + " mode takes over");
    }
}
