package io.headroom.supervise;

import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord.Kind;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Each class's mode (supervised, auto, observe): journaled before it changes. Loop thread only. */
final class Modes {
    private final Ledger ledger;
    private final Map<String, Mode> modes = new HashMap<>();

    Modes(Ledger ledger) {
        this.ledger = ledger;
    }

    Mode of(String className) {
        return modes.getOrDefault(className, Mode.SUPERVISED);
    }

    void restore(String className, Mode mode) {
        modes.put(className, mode);
    }

    Outcome set(String className, Mode mode, Instant now) {
        if (!ledger.knows(className)) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "unknown class " + className);
        }
        Mode was = of(className);
        if (was == mode) {
            return Outcome.ok(className + " is already " + mode.name().toLowerCase());
        }
        try {
            ledger.journal.append(ledger.record(now, Kind.MODE_CHANGED, className).detail(mode.name())
                    .reason(was.name() + " → " + mode.name()));
        } catch (JournalException e) {
            return Ledger.unjournaled(className + " stays " + was.name().toLowerCase() + ", ", e);
        }
        modes.put(className, mode);
        return Outcome.ok(className + " is now " + mode.name().toLowerCase());
    }
}
