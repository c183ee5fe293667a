package io.headroom.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.decision.AdmissionVerdict.State;
import io.headroom.supervise.ClassAdmission;
import io.headroom.supervise.Mode;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 30 in the sandbox: intake-api's producers obey what the console publishes. During its burst
 * admission tightens, the producers hold jobs back and retry them, and the queue stays protected.
 */
class SandboxAdmissionTest {

    static final String CLS = SandboxCatalog.ADMISSION_CLASS;

    @Test
    void intakeApisProducersObeyThePublishedAdmissionDuringItsBurst() throws Exception {
        try (SandboxConsole c = SandboxConsole.openWithAdmission(7).supervised()) {
            c.session().supervisor().setMode(CLS, Mode.AUTO).get(10, TimeUnit.SECONDS);
            SandboxCluster cluster = c.session().loop().cluster().adapter(SandboxCluster.class).orElseThrow();
            ProducerGate gate = cluster.world().producers(CLS).orElseThrow();
            assertEquals(ProducerGate.Mode.OBEY, gate.view().mode());
            c.run(Duration.ofSeconds(195)); // the burst starts at 200 s of each period
            assertEquals(State.OPEN, c.session().supervisor().admission(CLS).published().state(), "open before it");
            boolean tightened = c.runUntil(() -> {
                ClassAdmission a = c.session().supervisor().admission(CLS);
                return a != null && a.published() != null && a.published().state() != State.OPEN;
            }, Duration.ofSeconds(60));
            assertTrue(tightened, "admission tightened during the burst");
            AdmissionEntry published = c.session().supervisor().admission(CLS).published();
            assertNotEquals(State.OPEN, gate.view().state(), "the producers read what was published: " + published);
            c.run(Duration.ofSeconds(30));
            ProducerGate.View v = gate.view();
            assertTrue(v.jobsRejected() > 0, "jobs held back: " + v);
            // THE WORK strip says how many the producers hold back (their gauge, read as a signal).
            io.headroom.supervise.JobStates work = c.overview.rows().stream().filter(r -> r.name().equals(CLS))
                    .findFirst().orElseThrow().workProperty().get();
            assertEquals(gate.view().held(), work.admissionHeld(), "the strip's count is the producers' " + work);
            assertTrue(work.admissionHeld() > 0);
            assertTrue(work.admissionWords().endsWith(work.admissionHeld() + " held back by admission"));
            // Protected: the admitted jobs' age stays near the 30 s objective while capacity starts.
            double worst = 0;
            for (int i = 0; i < 36; i++) { // to 400 s: the burst and its drain
                c.tick(1);
                worst = Math.max(worst, cluster.world().measure(CLS).orElseThrow().oldestAgeSeconds());
            }
            assertTrue(worst < 30, "oldest admitted job " + worst + " s against the 30 s objective");
        }
    }
}
