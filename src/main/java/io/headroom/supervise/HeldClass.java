package io.headroom.supervise;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A class the operator holds by hand (frozen, globally or alone; overridden; or in auto mode): what a
 * console that exits must hand back or keep. Immutable.
 *
 * @param freeze   the freeze that covers the class (the global one first), or null
 * @param global   true when {@code freeze} is the freeze of everything
 * @param override the pin, or null
 * @param auto     true in auto mode (Headroom scales without asking: nobody does once the console is gone)
 */
public record HeldClass(String className, Freeze freeze, boolean global, ReplicaOverride override, boolean auto) {

    /** What holds the class, in words: "frozen until 14:05 (incident 812) · pinned to 6 · auto". */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (freeze != null) {
            parts.add((global ? "frozen with everything" : "frozen") + " until " + Precedence.HHMM.format(freeze.until())
                    + (freeze.reason() == null || freeze.reason().isBlank() ? "" : " (" + freeze.reason() + ")"));
        }
        if (override != null) {
            parts.add("pinned to " + override.replicas() + " until " + Precedence.HHMM.format(override.until())
                    + (override.reason() == null || override.reason().isBlank() ? "" : " (" + override.reason() + ")"));
        }
        if (auto) {
            parts.add("auto mode");
        }
        return String.join(" · ", parts);
    }

    /** When what holds it ends on its own: the later of the freeze's and the pin's ends; null in auto mode alone. */
    public Instant until() {
        Instant u = null;
        if (freeze != null) {
            u = freeze.until();
        }
        if (override != null && (u == null || override.until().isAfter(u))) {
            u = override.until();
        }
        return u;
    }
}
