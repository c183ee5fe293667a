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

    static final Instant STARTED = T0.minusSeconds(60);
    static final Instant DEADLINE = T0.plusSeconds(240);

    static ReplaceStep.Stopped stopped(Instant evictedAt, boolean loweredBack) {
        return new ReplaceStep.Stopped("d1", "payments", 2, "hung", STARTED, DEADLINE, evictedAt, loweredBack);
    }

    static PodState young(String name, boolean ready) {
        return new PodState(name, "Running", ready, T0.minusSeconds(30), null, "node-1");
    }

    /**
     * Issue 27 item 3: a replacement a console stopped in, taken up by the next one from what the journal says
     * (evicted? lowered back?) and what the cluster shows now. It goes on where it can, or ends saying where
     * replicas stand and what became of the hung pod; the pods at its start are not known, so the replacement is
     * there once as many pods besides the hung one are ready as ran before.
     */
    @Test
    void aReplacementAConsoleStoppedInGoesOnWhereItCanAndEndsHonestlyWhereItCannot() {
        DrainStep.Step waiting = ReplaceStep.resume(stopped(null, false), w(3, pod("hung", true), pod("ok", true),
                young("new", false)), LOAD, T0);
        assertEquals(DrainPhase.REPLACING, waiting.drain().phase(), waiting.drain().detail());
        assertEquals("resumed after the console stopped: 3 replicas include the one asked for to replace hung (drain"
                + " d1), which still runs; waiting for a replacement of hung to be ready", waiting.drain().detail());
        assertEquals(List.of(), waiting.actions());
        assertEquals(STARTED, waiting.drain().startedAt());
        assertEquals(DEADLINE, waiting.drain().deadline());
        DrainStep.Step starting = DrainStep.observe(waiting.drain(), w(3, pod("hung", true), pod("ok", true),
                young("new", false)), LOAD, T0.plusSeconds(5));
        assertEquals(DrainPhase.REPLACING, starting.drain().phase(), "one ready pod besides the hung one: not yet");
        assertEquals("waiting for a replacement of hung to be ready: new starting", starting.drain().detail());
        DrainStep.Step ready = DrainStep.observe(waiting.drain(), w(3, pod("hung", true), pod("ok", true),
                young("new", true)), LOAD, T0.plusSeconds(10));
        assertEquals(List.of(new DrainAction.Evict("hung")), ready.actions(), "two ready besides it, as ran before");
        assertEquals("new", ready.drain().replace().replacement(), "the youngest");

        DrainStep.Step lowering = ReplaceStep.resume(stopped(T0.minusSeconds(5), false), w(3, pod("ok", true),
                young("new", true)), LOAD, T0);
        assertEquals(DrainPhase.EVICTING, lowering.drain().phase());
        assertEquals(List.of(new DrainAction.Scale(2, "rv3", 3)), lowering.actions(), "evicted: replicas back");
        assertEquals(DrainPhase.COMPLETED, ReplaceStep.scaled(lowering.drain(), ScaleResult.applied(2), T0).drain()
                .phase());

        record Case(String what, ReplaceStep.Stopped s, WorkloadState w, Instant now, DrainPhase phase, String detail) {
        }
        for (Case c : List.of(
                new Case("lowered back before it stopped", stopped(T0.minusSeconds(9), true), w(2, pod("ok", true),
                        young("new", true)), T0, DrainPhase.COMPLETED, "the console stopped during the replacement of"
                        + " hung, after hung was evicted (its 4 jobs in flight go back to the queue unfinished) and"
                        + " replicas were lowered back to 2"),
                new Case("evicted, someone else scaled", stopped(T0.minusSeconds(9), false), w(5, pod("ok", true)), T0,
                        DrainPhase.COMPLETED, "the console stopped during the replacement of hung, after hung was"
                        + " evicted (its 4 jobs in flight go back to the queue unfinished); replicas are 5, as someone"
                        + " else set them meanwhile: left as they are"),
                new Case("the hung pod went away", stopped(null, false), w(3, pod("ok", true), young("new", true)), T0,
                        DrainPhase.INTERRUPTED, "the console stopped during the replacement of hung, and hung went away"
                        + " meanwhile (not by Headroom); nothing evicted; replicas stay 3 (the replacement asked for):"
                        + " the decision takes the extra one back"),
                new Case("the scale-up never landed", stopped(null, false), w(2, pod("hung", true), pod("ok", true)),
                        T0, DrainPhase.INTERRUPTED, "the console stopped during the replacement of hung before its"
                        + " replacement was there: replicas are 2, nothing evicted, hung left running"),
                new Case("someone else scaled", stopped(null, false), w(6, pod("hung", true), pod("ok", true)), T0,
                        DrainPhase.INTERRUPTED, "the console stopped during the replacement of hung, and replicas were"
                        + " changed to 6 by someone else meanwhile; nothing evicted, hung left running; replicas are 6"),
                new Case("past the deadline", stopped(null, false), w(3, pod("hung", true), pod("ok", true),
                        young("new", true)), DEADLINE, DrainPhase.TIMED_OUT, "the console stopped during the"
                        + " replacement of hung and its deadline passed before it started again; nothing evicted, hung"
                        + " left running; replicas stay 3 (the replacement asked for): the decision takes the extra"
                        + " one back"))) {
            DrainStep.Step s = ReplaceStep.resume(c.s(), c.w(), LOAD, c.now());
            assertEquals(c.phase(), s.drain().phase(), c.what() + ": " + s.drain().detail());
            assertEquals(c.detail(), s.drain().detail(), c.what());
            assertEquals(List.of(), s.actions(), c.what() + ": nothing more to do");
            assertEquals(c.now(), s.drain().endedAt(), c.what());
        }
    }

    @Test
    void theHungPodIsReadBackFromTheJournalsStartRecordAndAPlainDrainNamesNone() {
        Drain d = replacing();
        String detail = ReplaceStep.startedDetail(d) + "hung (not making progress)";
        assertEquals("hung", ReplaceStep.replacedPod(detail));
        assertEquals(null, ReplaceStep.replacedPod("a (idle); b (2 in flight)"));
        assertEquals(null, ReplaceStep.replacedPod(null));
        assertEquals(null, ReplaceStep.replacedPod("replace two words: x"), "one word, the pod's name, or nothing");
    }
}
