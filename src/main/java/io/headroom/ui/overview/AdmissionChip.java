package io.headroom.ui.overview;

import io.headroom.decision.AdmissionVerdict;
import io.headroom.supervise.ClassAdmission;

/**
 * A row's admission chip (design.md §2b, issue 30): the admission decided for the class's producers when it is
 * not OPEN, "THROTTLE 2.5/s" or "CLOSED", marked "proposed" while the tightening waits for the operator;
 * its tooltip says why and what producers read now. Only for a class that publishes admission (or whose
 * entry is still there); the others keep the decision's advice (ADMISSION CLOSED), which a class that publishes
 * never shows, OPEN or not.
 */
final class AdmissionChip {
    private AdmissionChip() {
    }

    /** The chip's words for {@code a}, empty when none is shown. */
    static String text(ClassAdmission a) {
        if (!shown(a)) {
            return "";
        }
        return a.decided().label() + (a.pending() != null ? " proposed" : "");
    }

    /**
     * The tooltip: the reason, then what producers read; for every class that publishes (OPEN too), so that the
     * row never falls back to the decision's advice for it: one place says a class's admission.
     */
    static String detail(ClassAdmission a) {
        if (!publishes(a)) {
            return "";
        }
        String read = a.published() == null ? "nothing published yet" : "producers read " + a.published().label();
        return "admission " + a.decided().label() + ": " + a.decided().reason() + " (" + read
                + (a.pending() != null ? "; the tightening awaits approval" : "") + ")";
    }

    static void apply(ClassRow row, ClassAdmission a) {
        String text = text(a);
        if (!text.equals(row.admissionProperty().get())) {
            row.admissionProperty().set(text);
        }
        String detail = detail(a);
        if (!detail.equals(row.admissionDetailProperty().get())) {
            row.admissionDetailProperty().set(detail);
        }
    }

    private static boolean shown(ClassAdmission a) {
        return publishes(a) && a.decided().state() != AdmissionVerdict.State.OPEN;
    }

    /** Decided for producers: a class that publishes, or whose entry is still there. */
    private static boolean publishes(ClassAdmission a) {
        return a != null && a.decided() != null && (a.policy().publish() || a.published() != null);
    }
}
