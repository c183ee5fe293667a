package io.headroom.ui.supervise;

import io.headroom.decision.CeilingResult;
import io.headroom.decision.Decision;
import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Freeze;
import java.util.ArrayList;
import java.util.List;

/**
 * What an action would cross before the operator commits it, and what applies when overlays
 * conflict (freeze beats override beats mode, as {@code supervise/Precedence} decides). Plain
 * values in, sentences out: no nodes, no toolkit.
 */
public final class ActionWarnings {
    private ActionWarnings() {
    }

    /**
     * Why pinning {@code replicas} deserves a second look: above a ceiling or the dependency
     * guard's limit (from the class's latest decision), or a freeze that wins over the pin.
     *
     * @param d    the class's latest decision, or null when there is none yet
     * @param all  the global freeze, or null
     */
    public static List<String> override(String className, ClassSupervision c, Freeze all, Decision d, int replicas) {
        List<String> out = new ArrayList<>();
        if (d != null) {
            for (CeilingResult ceiling : d.ceilings()) {
                if (replicas > ceiling.limit()) {
                    out.add(replicas + " is above the " + ceiling.name() + " ceiling of " + ceiling.limit()
                            + " replicas");
                }
            }
            if (d.governorLimit() != null && replicas > d.governorLimit()) {
                out.add(replicas + " is above the dependency guard's limit of " + d.governorLimit()
                        + " replicas (the dependency is saturated)");
            }
        }
        Freeze f = all != null ? all : c == null ? null : c.freeze();
        if (f != null) {
            out.add((all != null ? "every class" : className) + " is frozen until "
                    + SupervisionViewModel.HHMM.format(f.until()) + " (" + f.reason() + "): a freeze beats an"
                    + " override, so " + replicas + " applies only once the freeze ends");
        }
        return out;
    }

    /** Why draining to {@code to} deserves a second look (below what the decision wants), or null. */
    public static String drain(String className, Decision d, int to) {
        if (d == null || to >= d.desiredReplicas()) {
            return null;
        }
        return "The decision for " + className + " wants " + d.desiredReplicas() + " replicas. Draining to " + to
                + " takes away capacity the queue needs: the next tick will propose " + to + " → "
                + d.desiredReplicas() + " again.";
    }

    /**
     * What actually acts on the class when overlays conflict, or null when at most one applies:
     * "frozen: the pin to 10 waits until the freeze ends".
     */
    public static String applies(ClassSupervision c, Freeze all) {
        if (c == null) {
            return null;
        }
        Freeze f = all != null ? all : c.freeze();
        if (f != null && c.override() != null) {
            return "frozen (freeze beats pin): the pin to " + c.override().replicas() + " waits until "
                    + SupervisionViewModel.HHMM.format(f.until());
        }
        if (f != null && c.mode() == io.headroom.supervise.Mode.AUTO) {
            return "frozen (freeze beats auto): nothing is applied until " + SupervisionViewModel.HHMM.format(f.until());
        }
        if (c.override() != null && c.mode() == io.headroom.supervise.Mode.AUTO) {
            return "pinned to " + c.override().replicas() + " (override beats auto)";
        }
        return null;
    }
}
