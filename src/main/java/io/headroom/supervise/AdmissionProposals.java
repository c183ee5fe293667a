package io.headroom.supervise;

import io.headroom.decision.AdmissionVerdict;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Admission proposals read back from the journal after a restart (pure): a tightening proposed
 * ({@code ADMISSION_PROPOSED}) and not answered since (no {@code ADMISSION_PUBLISHING}, {@code ADMISSION_REJECTED}
 * with its id, nor a later proposal for its class) awaits the operator again, as scaling proposals do. The
 * proposed verdict rides in the record's detail ({@link #detail}), in words a person reads too.
 */
final class AdmissionProposals {
    private static final Pattern DETAIL = Pattern.compile(
            "proposed: (OPEN|THROTTLE|CLOSED)(?: at ([0-9.]+(?:E-?[0-9]+)?) jobs/s)?(?:, new work to (\\S+))?");
    private static final Pattern ID = Pattern.compile("a-([0-9]+)");

    private AdmissionProposals() {
    }

    /** What is pending per class, the highest proposal number journaled, and what could not be read back. */
    record Restored(Map<String, ClassAdmission.Pending> pending, int counter, List<String> warnings) {
    }

    /** "proposed: THROTTLE at 2.5 jobs/s", "proposed: CLOSED, new work to mail": the verdict a proposal asks for. */
    static String detail(AdmissionVerdict v) {
        return "proposed: " + v.state() + (v.state() == AdmissionVerdict.State.THROTTLE ? " at " + v.rate() + " jobs/s"
                : "") + (v.degradeTo() != null ? ", new work to " + v.degradeTo() : "");
    }

    static Restored restore(List<JournalRecord> records) {
        Map<String, JournalRecord> open = new LinkedHashMap<>();
        int counter = 0;
        for (JournalRecord r : records) {
            String id = r.proposalId();
            if (id != null) {
                Matcher m = ID.matcher(id);
                if (m.matches()) {
                    counter = Math.max(counter, Integer.parseInt(m.group(1)));
                }
            }
            if (r.className() == null) {
                continue;
            }
            if (r.kind() == Kind.ADMISSION_PROPOSED) {
                open.put(r.className(), r); // a later proposal supersedes the class's earlier one
            } else if ((r.kind() == Kind.ADMISSION_PUBLISHING || r.kind() == Kind.ADMISSION_REJECTED) && id != null
                    && open.containsKey(r.className()) && id.equals(open.get(r.className()).proposalId())) {
                open.remove(r.className());
            }
        }
        Map<String, ClassAdmission.Pending> pending = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        open.forEach((cls, r) -> {
            AdmissionVerdict v = verdict(r);
            if (v == null) {
                warnings.add(cls + ": the admission tightening " + r.proposalId() + " proposed before the restart ("
                        + r.reason() + ") could not be read back from the journal; dropped: the next tick decides"
                        + " admission again and proposes it anew if it still holds");
            } else {
                pending.put(cls, new ClassAdmission.Pending(r.proposalId(), v, r.at()));
            }
        });
        return new Restored(pending, counter, warnings);
    }

    private static AdmissionVerdict verdict(JournalRecord r) {
        if (r.detail() == null || r.proposalId() == null) {
            return null;
        }
        Matcher m = DETAIL.matcher(r.detail());
        if (!m.matches()) {
            return null;
        }
        AdmissionVerdict.State s = AdmissionVerdict.State.valueOf(m.group(1));
        double rate = s == AdmissionVerdict.State.THROTTLE && m.group(2) != null ? Double.parseDouble(m.group(2))
                : s == AdmissionVerdict.State.CLOSED ? 0 : Double.NaN;
        if (s == AdmissionVerdict.State.THROTTLE && !Double.isFinite(rate)) {
            return null;
        }
        String reason = r.reason() == null ? "" : r.reason();
        int colon = reason.indexOf(": ");
        return new AdmissionVerdict(s, rate, colon >= 0 ? reason.substring(colon + 2) : reason, m.group(3), 0, Double.NaN);
    }
}
