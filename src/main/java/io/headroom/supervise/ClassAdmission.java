package io.headroom.supervise;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.AdmissionVerdict;
import java.time.Instant;

/**
 * One class's admission as the console shows it (design.md §2b): what this tick decided, what this console
 * last published for producers, a tightening awaiting the operator, and why nothing was written when it was not.
 *
 * @param decided   this tick's verdict (null before the first tick)
 * @param published what this console last wrote (null: nothing yet, or not published)
 * @param pending   a tightening proposed in supervised mode, or null
 * @param note      why the decided verdict is not what producers read, in words ("" when it is)
 */
public record ClassAdmission(String className, AdmissionPolicy policy, AdmissionVerdict decided,
                             AdmissionEntry published, Pending pending, String note) {

    /** A tightening of admission awaiting the operator (approve or reject). */
    public record Pending(String id, AdmissionVerdict verdict, Instant since) {
    }

    public ClassAdmission {
        note = note == null ? "" : note;
    }
}
