package io.headroom.ui.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.session.KedaImport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The row of a found ScaledObject in the guided import, as its view-model words it (no toolkit needed). */
class KedaImportSummaryTest {

    @Test
    void aRowSaysWhatItBecomesWhatIsLeftToFillAndHowManyNotesLieBeyond() {
        KedaImport.Found f = new KedaImport.Found("orders", "Deployment shop/orders", "queueLength; 1..10",
                List.of("arrivalRate", "meanService"), "yaml", "paused in KEDA at 3 replicas",
                List.of("first note", "second note", "third note"));
        assertEquals("orders  →  Deployment shop/orders   [PAUSED IN KEDA AT 3 REPLICAS]\n   queueLength; 1..10"
                + "\n   to fill in: arrivalRate, meanService"
                + "\n   2 note(s) on what KEDA and Headroom do differently (hover, or read them in the saved file)",
                KedaImportViewModel.summary(f));
    }

    @Test
    void aPlainRowIsOneNameAndWhatItBecomes() {
        KedaImport.Found f = new KedaImport.Found("mail", "Deployment shop/mail", "queueLength; 1..4", List.of(),
                "yaml", null, List.of("one note"));
        assertEquals("mail  →  Deployment shop/mail\n   queueLength; 1..4", KedaImportViewModel.summary(f));
    }
}
