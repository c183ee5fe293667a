package io.headroom.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A replace drain's ends, as pure steps: each says whether the hung pod was evicted and where replicas stand. */
class ReplaceStepTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final WorkloadRef REF = new WorkloadRef("dev", "payments", "Deployment", "worker");
    static final Map<String, Double> LOAD = Map.of("hung", 4.0, "ok", 1.0);

    static PodState pod(String name, boolean ready) {
        return new PodState(name, "Running", ready, T0.minusSeconds(600), null, "node-1");
    }

    static WorkloadState w(int replicas, PodState... pods) {
        return new WorkloadState(REF, replicas, replicas, "rv" + replicas, List.of(pods), T0);
    }

    /** Planned and the replacement asked for (2 → 3): phase REPLACING. */
    static Drain replacing() {
        ReplaceStep.Start s = ReplaceStep.plan("d1", "payments", w(2, pod("hung", true), pod("ok", true)), "hung", LOAD,
                Duration.ofMinutes(5), T0);
        assertEquals(List.of(new DrainAction.Scale(3, "rv2", 2)), s.step().actions());
        return ReplaceStep.scaled(s.step().drain(), ScaleResult.of(ScaleResult.Outcome.APPLIED, 3, "ok"), T0).drain();
    }

    @Test
    void refusedWhereThereIsNoHungWorkerToReplace() {
        assertTrue(ReplaceStep.plan("d", "p", w(2, pod("hung", false), pod("ok", true)), "hung", LOAD,
                Duration.ofMinutes(5), T0).refusal().contains("not ready"));
        assertTrue(ReplaceStep.plan("d", "p", w(2, pod("ok", true)), "hung", LOAD, Duration.ofMinutes(5), T0)
                .refusal().contains("not a pod of"));
    }

    @Test
    void noReplacementReadyByTheDeadlineEvictsNothing() {
        Drain d = replacing();
        assertEquals(DrainPhase.REPLACING, d.phase());
        DrainStep.Step s = DrainStep.observe(d, w(3, pod("hung", true), pod("ok", true), pod("new", false)), LOAD,
                T0.plusSeconds(60));
        assertEquals(DrainPhase.REPLACING, s.drain().phase());
        assertEquals(List.of(), s.actions());
        s = DrainStep.observe(s.drain(), w(3, pod("hung", true), pod("ok", true), pod("new", false)), LOAD,
                T0.plusSeconds(300));
        assertEquals(DrainPhase.TIMED_OUT, s.drain().phase());
        assertEquals("no replacement of hung was ready by the deadline (new still starting); nothing evicted, hung left"
                + " running; replicas stay 3 (the replacement asked for): the decision takes the extra one back",
                s.drain().detail());
        assertEquals(List.of(), s.actions(), "no marks to remove, nothing to evict");
    }

    @Test
    void cancellableUntilTheEvictionIsAcceptedNotAfter() {
        Drain d = replacing();
        DrainStep.Step s = DrainStep.observe(d, w(3, pod("hung", true), pod("ok", true), pod("new", true)), LOAD,
                T0.plusSeconds(30));
        assertEquals(List.of(new DrainAction.Evict("hung")), s.actions());
        Drain evicting = ReplaceStep.evicted(s.drain(), EvictionResult.refusedByBudget("pdb", 0, "needs 2"),
                T0.plusSeconds(30)).drain();
        assertTrue(evicting.cancellable());
        assertEquals(DrainPhase.INTERRUPTED, DrainStep.cancel(evicting, "cancelled by ana", T0.plusSeconds(31))
                .drain().phase());
        DrainStep.Step accepted = ReplaceStep.evicted(s.drain(), EvictionResult.evicted(), T0.plusSeconds(30));
        assertEquals(List.of(new DrainAction.Scale(2, "rv3", 3)), accepted.actions(), "replicas back, conditionally");
        assertSame(accepted.drain(), DrainStep.cancel(accepted.drain(), "too late", T0.plusSeconds(31)).drain());
        Drain failedBack = ReplaceStep.scaled(accepted.drain(), ScaleResult.of(ScaleResult.Outcome.CONFLICT, 4,
                "moved"), T0.plusSeconds(31)).drain();
        assertEquals(DrainPhase.COMPLETED, failedBack.phase());
        assertEquals("replaced hung by new: hung evicted (its 4 jobs in flight go back to the queue unfinished);"
                + " replicas stay 3, lowering them back failed (moved): the decision takes the extra one back",
                failedBack.detail());
    }

    @Test
    void theHungPodGoingAwayMeanwhileIsAnInterruptionNotAnEviction() {
        Drain d = replacing();
        DrainStep.Step s = DrainStep.observe(d, w(3, pod("ok", true)), LOAD, T0.plusSeconds(30));
        assertEquals(DrainPhase.INTERRUPTED, s.drain().phase());
        assertTrue(s.drain().detail().startsWith("pod hung went away during the replacement (not by Headroom);"
                + " nothing evicted"), s.drain().detail());
    }

    /**
     * Issue 27 item 2: after the scale-up, a view of the version it was conditioned on ("rv2") is from before it,
     * however long ago; the count from before at a newer version was put back by someone else: interrupted at
     * once, and the end says where replicas really are.
     */
    @Test
    void replicasPutBackAfterTheScaleUpAreSomeoneElsesAndAViewFromBeforeItIsNot() {
        Drain d = replacing();
        DrainStep.Step lagging = DrainStep.observe(d, w(2, pod("hung", true), pod("ok", true)), LOAD, T0.plusSeconds(120));
        assertEquals(DrainPhase.REPLACING, lagging.drain().phase(), lagging.drain().detail());

        WorkloadState back = new WorkloadState(REF, 2, 2, "rv9", List.of(pod("hung", true), pod("ok", true)), T0);
        DrainStep.Step s = DrainStep.observe(d, back, LOAD, T0.plusSeconds(10));
        assertEquals(DrainPhase.INTERRUPTED, s.drain().phase(), s.drain().detail());
        assertEquals("replicas changed to 2 by someone else while waiting for the replacement; nothing evicted, hung"
                + " left running; replicas are 2, as someone else set them", s.drain().detail());
    }
}
