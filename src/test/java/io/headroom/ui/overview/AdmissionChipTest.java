package io.headroom.ui.overview;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.supervise.ClassAdmission;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 30: a row says a class's admission in one chip. A class that publishes admission, OPEN for its producers,
 * still showed the decision's old advice ("ADMISSION CLOSED") beside it, contradicting what producers read.
 */
class AdmissionChipTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static List<String> chips(ClassRow row) {
        return row.badgesProperty().get().states().stream().map(ClassRow.StateChip::text).toList();
    }

    @Test
    void aPublishingClassShowsWhatItDecidedNotTheDecisionsAdvice() {
        ClassRow row = new ClassRow("orders", "ctx");
        row.admissionClosedProperty().set("the backlog outgrows the ready replicas");
        assertEquals(List.of("ADMISSION CLOSED"), chips(row), "the advice, while nothing is published");

        AdmissionVerdict open = AdmissionVerdict.open("6 replicas ready in ~90 s drain the backlog within the objective");
        ClassAdmission publishing = new ClassAdmission("orders", new AdmissionPolicy(true,
                AdmissionPolicy.OnMissing.CLOSE, null), open, AdmissionEntry.of("orders", open, T0, T0.plusSeconds(60),
                "ana"), null, "");
        AdmissionChip.apply(row, publishing);
        assertEquals(List.of(), chips(row), "OPEN for its producers: no chip, and not the advice's CLOSED");
        assertTrue(row.badgesProperty().get().detail().isEmpty() || !row.badgesProperty().get().detail()
                .contains("admission closed"), row.badgesProperty().get().detail());

        AdmissionChip.apply(row, new ClassAdmission("orders", AdmissionPolicy.DEFAULT, open, null, null, ""));
        assertEquals(List.of("ADMISSION CLOSED"), chips(row), "a class that does not publish keeps the advice");
    }
}
