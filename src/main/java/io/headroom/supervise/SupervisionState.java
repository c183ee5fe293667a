package io.headroom.supervise;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A snapshot of everything supervised mode holds, for the UI. Immutable. */
public record SupervisionState(Instant at, Freeze freezeAll, Map<String, ClassSupervision> classes,
                               List<Proposal> pending, List<String> warnings,
                               String journalFailure) {
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
}
