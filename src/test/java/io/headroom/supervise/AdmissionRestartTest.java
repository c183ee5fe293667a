package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 30: a tightening of admission proposed before a restart was forgotten by the next console, which proposed
 * it again under the same id ("a-1": the numbering started over), so the journal held two proposals a-1. Now it is
 * restored from the journal, as scaling proposals are: it awaits approval under its id, and approving it publishes
 * what was proposed; one answered before the restart is not restored, and the numbering goes on.
 */
class AdmissionRestartTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final String CLS = "orders";
    final ManualClock clock = new ManualClock(T0);
    final MemoryJournal journal = new MemoryJournal();
    final SandboxWorld world;
    final SandboxCluster cluster;
    final WorkloadClass cls;

    AdmissionRestartTest() {
        SandboxClassSpec spec = SandboxClassSpec.builder(CLS).baseRate(2).service(SandboxClassSpec.ServiceTime.constant(1))
                .concurrency(2).startupSeconds(90).initialReplicas(2).build();
        world = new SandboxWorld(List.of(spec), 3, T0);
        cluster = new SandboxCluster(world, clock);
        cls = new WorkloadClass(CLS, spec.target(), Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30)
                .pollIntervalSeconds(15).startupSeconds(90).maxAgeSeconds(30.0).expectedServiceSeconds(1.0).build());
    }

    /** A console on the journal so far (restored from it, as a start does), ticked once at T0. */
    Supervisor console() {
        Supervisor s = new Supervisor(List.of(cls), cluster.ports(), journal, clock, Runnable::run, "alice",
                Duration.ofMinutes(5));
        s.setAdmissionPolicies(Map.of(CLS, AdmissionPolicy.onMissing(true, "conservative")));
        s.restore(journal.replay());
        new ControlLoop(List.of(cls), cluster.ports(), new SandboxMetrics(world, clock), s, clock).tick();
        return s;
    }

    List<JournalRecord> proposed() {
        return journal.replay().records().stream().filter(r -> r.kind() == Kind.ADMISSION_PROPOSED).toList();
    }

    @Test
    void aTighteningProposedBeforeARestartAwaitsApprovalUnderItsIdAndApprovingPublishesIt() throws Exception {
        Supervisor before = console(); // no completion seen yet: the conservative throttle, proposed
        ClassAdmission.Pending p = before.admission(CLS).pending();
        assertNotNull(p, "proposed");
        assertEquals(AdmissionVerdict.State.THROTTLE, p.verdict().state());

        Supervisor after = console();
        ClassAdmission.Pending back = after.admission(CLS).pending();
        assertNotNull(back, "restored");
        assertEquals(p.id(), back.id());
        assertEquals(p.verdict().rate(), back.verdict().rate(), 1e-9);
        assertEquals(p.since(), back.since());
        assertEquals(1, proposed().size(), "not proposed again: " + proposed());

        assertTrue(after.approveAdmission(CLS).get().ok());
        assertEquals(AdmissionVerdict.State.THROTTLE, cluster.ports().admissions().published(cls.target(), CLS)
                .orElseThrow().state());
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == Kind.ADMISSION_PUBLISHED
                && p.id().equals(r.proposalId())));
    }

    @Test
    void aProposalAnsweredBeforeTheRestartIsNotRestoredAndTheNumberingGoesOn() throws Exception {
        Supervisor before = console();
        String first = before.admission(CLS).pending().id();
        assertTrue(before.rejectAdmission(CLS, "not now").get().ok());

        Supervisor after = console(); // the rejection is not remembered: the rule proposes it anew
        ClassAdmission.Pending again = after.admission(CLS).pending();
        assertNotNull(again);
        assertTrue(!again.id().equals(first), "a new id, not " + first + " twice");
        assertEquals(2, proposed().size());
        assertEquals(2, proposed().stream().map(JournalRecord::proposalId).distinct().count(), "ids unique in the journal");
        assertNull(cluster.ports().admissions().published(cls.target(), CLS).orElse(null));
    }
}
