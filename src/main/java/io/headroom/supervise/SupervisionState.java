package io.headroom.supervise;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of everything supervised mode holds, for the UI. Immutable.
 *
 * @param warnings       what could not be trusted when the journal was read back (bad lines, records
 *                       missing, a scale whose outcome was never written)
 * @param journalFailure why the journal cannot be written now, or null when it can: while it is set,
 *                       nothing is scaled, proposed or changed (the UI shows it as an error)
 */
public record SupervisionState(Instant at, Freeze freezeAll, Map<String, ClassSupervision> classes,
                               List<Proposal> pending, List<String> warnings, String journalFailure) {
    public SupervisionState {
        classes = Map.copyOf(classes);
        pending = List.copyOf(pending);
        warnings = List.copyOf(warnings);
    }

    public ClassSupervision of(String className) {
        return classes.get(className);
    }

    /** True when nothing may actuate {@code className} right now. */
    public boolean frozen(String className) {
        ClassSupervision c = classes.get(className);
        return freezeAll != null || c != null && c.freeze() != null;
    }

    /**
     * The classes held by hand at {@code now}, in no particular order: frozen (alone or with
     * everything), overridden or in auto mode. What expired by {@code now} does not count.
     */
    public List<HeldClass> heldByHand(Instant now) {
        List<HeldClass> out = new java.util.ArrayList<>();
        Freeze all = freezeAll != null && freezeAll.activeAt(now) ? freezeAll : null;
        for (ClassSupervision c : classes.values()) {
            Freeze own = c.freeze() != null && c.freeze().activeAt(now) ? c.freeze() : null;
            Freeze f = all != null ? all : own;
            ReplicaOverride o = c.override() != null && c.override().activeAt(now) ? c.override() : null;
            boolean auto = c.mode() == Mode.AUTO;
            if (f != null || o != null || auto) {
                out.add(new HeldClass(c.className(), f, all != null, o, auto));
            }
        }
        return out;
    }

    /** The same snapshot with the freezes (and the journal's health) as they are now. */
    SupervisionState withFreezes(Freeze all, Map<String, Freeze> byClass, String failure) {
        Map<String, ClassSupervision> next = new LinkedHashMap<>();
        classes.forEach((name, c) -> next.put(name, c.withFreeze(byClass.get(name))));
        return new SupervisionState(at, all, next, pending, warnings, failure);
    }
}
