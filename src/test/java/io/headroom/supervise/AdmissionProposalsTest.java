package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.AdmissionVerdict;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Admission proposals read back from the journal (pure): what is pending, superseded, answered or unreadable. */
class AdmissionProposalsTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static JournalRecord proposed(String cls, String id, AdmissionVerdict v) {
        return JournalRecord.of(T0, Kind.ADMISSION_PROPOSED, "alice", "dev", cls).reason(v.label() + ": " + v.reason())
                .detail(AdmissionProposals.detail(v)).proposal(id);
    }

    @Test
    void theLastUnansweredProposalOfEachClassIsPendingAndOneWithoutItsVerdictIsDroppedWithAWarning() {
        AdmissionVerdict throttle = new AdmissionVerdict(AdmissionVerdict.State.THROTTLE, 2.75, "throttled", null, 4, 90);
        AdmissionVerdict closed = new AdmissionVerdict(AdmissionVerdict.State.CLOSED, 0, "closed", "cheap", 0, Double.NaN);
        List<JournalRecord> records = List.of(
                proposed("orders", "a-1", throttle),
                proposed("orders", "a-2", closed), // supersedes a-1
                proposed("mail", "a-3", throttle),
                JournalRecord.of(T0, Kind.ADMISSION_REJECTED, "alice", "dev", "mail").proposal("a-3"),
                JournalRecord.of(T0, Kind.ADMISSION_PROPOSED, "alice", "dev", "old").reason("THROTTLE 1/s: from before")
                        .proposal("a-7")); // journaled before the verdict rode in the detail
        AdmissionProposals.Restored r = AdmissionProposals.restore(records);
        assertEquals(7, r.counter());
        assertEquals(List.of("orders"), List.copyOf(r.pending().keySet()));
        ClassAdmission.Pending p = r.pending().get("orders");
        assertEquals("a-2", p.id());
        assertEquals(AdmissionVerdict.State.CLOSED, p.verdict().state());
        assertEquals("cheap", p.verdict().degradeTo());
        assertEquals(1, r.warnings().size(), r.warnings().toString());
        assertTrue(r.warnings().get(0).startsWith("old: the admission tightening a-7 proposed before the restart"),
                r.warnings().get(0));
        assertEquals(2.75, AdmissionProposals.restore(List.of(proposed("x", "a-1", throttle))).pending().get("x")
                .verdict().rate(), 1e-12);
    }
}
