package io.headroom.decision;

import java.time.Instant;
import java.util.List;

/**
 * The outcome of one tick for one class, as data: every term with its number, the binding
 * ceiling, the reasons and a one-line explanation. The UI, the journal, the CLI and the tests all
 * read this record; nobody re-derives it.
 *
 * @param estimatedSlots {@code ceil((incoming + backlog) / u)}, null when telemetry was unusable
 * @param slotReplicas {@code ceil(slots / k)}, null when telemetry was unusable
 * @param ageReplicas the age term, null when the age is within the objective (or unknown)
 * @param recommendedReplicas the estimate after min/max, before ceilings and behaviours
 * @param bindingCeiling the name of the ceiling that capped the decision, null when none did
 * @param telemetryMissing a required input was missing or stale (replicas held, or only the age term acted)
 * @param governorLimit the concurrency governor's replica limit this tick, null when it imposes none
 * @param memory the memory to pass to the next tick
 */
public record Decision(
        String className,
        Instant at,
        int currentReplicas,
        int readyReplicas,
        int desiredReplicas,
        double incomingSlots,
        double backlogSlots,
        Integer estimatedSlots,
        Integer slotReplicas,
        Integer ageReplicas,
        int recommendedReplicas,
        List<CeilingResult> ceilings,
        String bindingCeiling,
        boolean stalled,
        boolean telemetryMissing,
        Integer governorLimit,
        List<InputStatus> inputs,
        List<Term> terms,
        List<Reason> reasons,
        Admission admission,
        String explanation,
        ClassMemory memory,
        List<String> stuckPods) {

    public Decision {
        ceilings = List.copyOf(ceilings);
        inputs = List.copyOf(inputs);
        terms = List.copyOf(terms);
        reasons = List.copyOf(reasons);
        stuckPods = stuckPods == null ? List.of() : List.copyOf(stuckPods);
    }

    /** True when the decision asks for a different replica count than the current one. */
    public boolean wantsChange() {
        return desiredReplicas != currentReplicas;
    }

    public boolean has(Reason.Code code) {
        for (Reason r : reasons) {
            if (r.code() == code) {
                return true;
            }
        }
        return false;
    }

    /** The term with that name, or null. */
    public Term term(String name) {
        for (Term t : terms) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    /** The input with that signal name, or null. */
    public InputStatus input(SignalName name) {
        for (InputStatus s : inputs) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }
}
