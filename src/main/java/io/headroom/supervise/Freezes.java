package io.headroom.supervise;

import java.util.HashMap;
import java.util.Map;

/**
 * The freezes in force, and the gate every cluster write of the supervisor passes. Thread-safe:
 * a freeze is set from its own thread while the loop thread may be stuck in a write, and a write
 * starts only through {@link #begin}, which says no once a freeze covers the class. Callers that
 * journal a freeze change do it while holding this object's monitor, so the journal and the
 * memory change in the same order.
 */
final class Freezes {
    private Freeze all;
    private final Map<String, Freeze> byClass = new HashMap<>();
    /** Classes being handed back: no write of the console's may put back what the hand-back removes. */
    private final Map<String, Freeze> handingBack = new HashMap<>();
    private int writesInFlight;

    synchronized Freeze all() {
        return all;
    }

    synchronized Freeze of(String className) {
        return byClass.get(className);
    }

    /** The freeze that stops {@code className} now (the global one first, then a hand-back under way), or null. */
    synchronized Freeze covering(String className) {
        if (all != null || className == null) {
            return all;
        }
        Freeze f = byClass.get(className);
        return f != null ? f : handingBack.get(className);
    }

    /**
     * Holds {@code className} like a freeze, in memory only, while it is handed back ({@code hold}), or
     * lets it go again (null): never journaled, never shown as a freeze of the operator's.
     */
    synchronized void handingBack(String className, Freeze hold) {
        if (hold == null) {
            handingBack.remove(className);
        } else {
            handingBack.put(className, hold);
        }
    }

    synchronized Map<String, Freeze> byClass() {
        return Map.copyOf(byClass);
    }

    /** Sets (or with null lifts) the freeze of {@code className}, or the global one when it is null. */
    synchronized void set(String className, Freeze f) {
        if (className == null) {
            all = f;
        } else if (f == null) {
            byClass.remove(className);
        } else {
            byClass.put(className, f);
        }
    }

    /**
     * A cluster write for {@code className} may start: null, and it counts as in flight until
     * {@link #end}; or the freeze that forbids it (and nothing starts).
     */
    synchronized Freeze begin(String className) {
        Freeze f = covering(className);
        if (f == null) {
            writesInFlight++;
        }
        return f;
    }

    synchronized void end() {
        writesInFlight--;
    }

    /** Writes that passed the gate before now and have not returned (e.g. stuck behind a 429). */
    synchronized int inFlight() {
        return writesInFlight;
    }
}
