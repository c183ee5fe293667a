package io.headroom.drain;

import static io.headroom.drain.DrainPlannerTest.DEPLOY;
import static io.headroom.drain.DrainPlannerTest.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A drain of 3 → 1 replicas taking out pods a and b; c stays. */
class DrainStepTest {
    static final String ID = "worker-d1";

    static Drain started() {
        WorkloadState w = DrainPlannerTest.workload(DEPLOY, 3, DrainPlannerTest.pod("a", true, 9),
                DrainPlannerTest.pod("b", true, 8), DrainPlannerTest.pod("c", true, 7));
        return DrainPlannerTest.plan(w, Map.of("a", 1.0, "b", 0.0, "c", 5.0), 1).drain();
    }

    static Drain waiting() {
        DrainStep.Step s = DrainStep.marked(started(), new PodMarks.Result(List.of("b", "a"), List.of()), T0);
        assertEquals(DrainPhase.WAITING, s.drain().phase());
        return s.drain();
    }

    /** The workload with a and b marked by this drain (unless listed in {@code unmarked}). */
    static WorkloadState now(int replicas, List<String> terminating, List<String> absent, List<String> unmarked) {
        List<PodState> pods = new ArrayList<>();
        for (String n : List.of("a", "b", "c")) {
            if (absent.contains(n)) {
                continue;
            }
            boolean marked = !n.equals("c") && !unmarked.contains(n);
            pods.add(new PodState(n, "Running", true, T0, terminating.contains(n) ? T0 : null, "n1",
                    marked ? PodMarks.DRAIN_DELETION_COST : null, marked ? ID : null));
        }
        return new WorkloadState(DEPLOY, replicas, pods.size(), "8", pods, T0);
    }

    static WorkloadState now(int replicas) {
        return now(replicas, List.of(), List.of(), List.of());
    }

    /** Both marked pods idle on two looks: replicas are being lowered. */
    static Drain scaling() {
        Drain once = DrainStep.observe(waiting(), now(3), Map.of("a", 0.0, "b", 0.0), T0.plusSeconds(3)).drain();
        DrainStep.Step s = DrainStep.observe(once, now(3), Map.of("a", 0.0, "b", 0.0), T0.plusSeconds(8));
        assertEquals(DrainPhase.SCALING, s.drain().phase(), s.drain().detail());
        return s.drain();
    }

    @Test
    void waitsForTheMarkedPodsThenScalesThenCompletesWhenExactlyThoseWent() {
        Drain d = waiting();
        Instant t1 = T0.plusSeconds(30);
        DrainStep.Step s = DrainStep.observe(d, now(3), Map.of("a", 1.0, "b", 0.0, "c", 9.0), t1);
        assertEquals(DrainPhase.WAITING, s.drain().phase());
        assertEquals(List.of(), s.actions(), "a still has a job");
        assertEquals("waiting for a (1 in flight); b idle", s.drain().detail());

        s = DrainStep.observe(s.drain(), now(3), Map.of("a", 0.0, "b", 0.0, "c", 9.0), t1.plusSeconds(15));
        assertEquals(DrainPhase.WAITING, s.drain().phase(), "idle once is not enough");
        assertEquals("every marked pod is idle; confirming on the next look", s.drain().detail());
        assertEquals(List.of(), s.actions());
        s = DrainStep.observe(s.drain(), now(3), Map.of("a", 0.0, "b", 0.0, "c", 9.0), t1.plusSeconds(20));
        assertEquals(DrainPhase.SCALING, s.drain().phase());
        assertEquals(List.of(new DrainAction.Scale(1, "8")), s.actions(), "only if nobody moved the workload");

        s = DrainStep.scaled(s.drain(), ScaleResult.applied(1), t1.plusSeconds(16));
        assertEquals(DrainPhase.SCALING, s.drain().phase());
        s = DrainStep.observe(s.drain(), now(1, List.of("a"), List.of("b"), List.of()), Map.of(), t1.plusSeconds(20));
        assertEquals(DrainPhase.COMPLETED, s.drain().phase());
        assertEquals("removed b, a; replicas 3 → 1", s.drain().detail());
        assertEquals(List.of(), s.actions());
        assertEquals(t1.plusSeconds(20), s.drain().endedAt());
    }

    @Test
    void theDeadlineEndsItTimedOutNamingWhatStillRanAndScalesNothing() {
        Drain d = waiting();
        DrainStep.Step s = DrainStep.observe(d, now(3), Map.of("a", 2.0, "b", 0.0), d.deadline());
        assertEquals(DrainPhase.TIMED_OUT, s.drain().phase());
        assertEquals("still running at the deadline: a (2 in flight); nothing scaled, marks removed",
                s.drain().detail());
        assertEquals(List.of(new DrainAction.Unmark(List.of("b", "a"), ID)), s.actions());
    }

    @Test
    void unknownJobsAreNotIdle() {
        DrainStep.Step s = DrainStep.observe(waiting(), now(3), Map.of("b", 0.0), T0.plusSeconds(5));
        assertEquals(DrainPhase.WAITING, s.drain().phase(), "a's jobs are unknown: it may be busy");
        assertEquals("waiting for a (in flight unknown); b idle", s.drain().detail());
    }

    @Test
    void someoneElseScalingOrRemovingAPodOrAMarkInterrupts() {
        DrainStep.Step moved = DrainStep.observe(waiting(), now(5), Map.of(), T0.plusSeconds(5));
        assertEquals(DrainPhase.INTERRUPTED, moved.drain().phase());
        assertTrue(moved.drain().detail().startsWith("replicas changed from 3 to 5 by someone else"));
        assertEquals(List.of(new DrainAction.Unmark(List.of("b", "a"), ID)), moved.actions());

        DrainStep.Step gone = DrainStep.observe(waiting(), now(3, List.of(), List.of("a"), List.of()), Map.of(),
                T0.plusSeconds(5));
        assertEquals(DrainPhase.INTERRUPTED, gone.drain().phase());
        assertTrue(gone.drain().detail().startsWith("pod a went away during the drain"));
        assertEquals(List.of(new DrainAction.Unmark(List.of("b"), ID)), gone.actions(), "only pods that still exist");

        DrainStep.Step notYet = DrainStep.observe(waiting(), now(3, List.of(), List.of(), List.of("b")), Map.of(),
                T0.plusSeconds(5));
        assertEquals(DrainPhase.WAITING, notYet.drain().phase(), "a watch cache lags the write: not removed, not there yet");
        assertEquals("waiting for the marks to show on b", notYet.drain().detail());
        Drain shown = DrainStep.observe(waiting(), now(3), Map.of("a", 1.0), T0.plusSeconds(5)).drain();
        DrainStep.Step unmarked = DrainStep.observe(shown, now(3, List.of(), List.of(), List.of("b")), Map.of(),
                T0.plusSeconds(10));
        assertEquals(DrainPhase.INTERRUPTED, unmarked.drain().phase());
        assertTrue(unmarked.drain().detail().startsWith("the drain mark was removed from pod b"));
        DrainStep.Step never = DrainStep.observe(waiting(), now(3, List.of(), List.of(), List.of("b")), Map.of(),
                waiting().deadline());
        assertEquals(DrainPhase.TIMED_OUT, never.drain().phase());
        assertTrue(never.drain().detail().startsWith("the marks never showed on b"), never.drain().detail());
    }

    @Test
    void cancellingUnmarksUntilReplicasWereLoweredThenItIsTooLate() {
        DrainStep.Step c = DrainStep.cancel(waiting(), "cancelled by the operator", T0.plusSeconds(3));
        assertEquals(DrainPhase.INTERRUPTED, c.drain().phase());
        assertEquals("cancelled by the operator; nothing scaled, marks removed", c.drain().detail());
        assertEquals(List.of(new DrainAction.Unmark(List.of("b", "a"), ID)), c.actions());

        DrainStep.Step late = DrainStep.cancel(scaling(), "cancelled", T0.plusSeconds(9));
        assertEquals(DrainPhase.SCALING, late.drain().phase());
        assertEquals(List.of(), late.actions());
    }

    @Test
    void failuresToMarkOrScaleEndFailedAndCleanUp() {
        DrainStep.Step partial = DrainStep.marked(started(),
                new PodMarks.Result(List.of("b"), List.of("a: forbidden")), T0);
        assertEquals(DrainPhase.FAILED, partial.drain().phase());
        assertEquals("could not mark a: forbidden; marks removed again from b", partial.drain().detail());
        assertEquals(List.of(new DrainAction.Unmark(List.of("b", "a"), ID)), partial.actions(),
                "every pod asked for: a request that failed on our side may still have landed");

        DrainStep.Step refused = DrainStep.scaled(scaling(), ScaleResult.of(ScaleResult.Outcome.CONFLICT, 3,
                "moved"), T0.plusSeconds(9));
        assertEquals(DrainPhase.FAILED, refused.drain().phase());
        assertEquals(List.of(new DrainAction.Unmark(List.of("b", "a"), ID)), refused.actions());
    }

    @Test
    void whenTheClusterRemovesOtherPodsTheEndSaysSo() {
        Drain scaling = DrainStep.scaled(scaling(), ScaleResult.applied(1), T0.plusSeconds(9)).drain();
        DrainStep.Step s = DrainStep.observe(scaling, now(1, List.of("b", "c"), List.of(), List.of()), Map.of(),
                T0.plusSeconds(10));
        assertEquals(DrainPhase.COMPLETED, s.drain().phase());
        assertTrue(s.drain().detail().contains("the cluster removed c instead of a"), s.drain().detail());
        assertEquals(List.of(new DrainAction.Unmark(List.of("a"), ID)), s.actions());
        assertNull(waiting().endedAt());
    }

    @Test
    void aWorkerThatTurnsUnreadyWithJobsStillRunningIsNotIdle() {
        List<PodState> pods = new ArrayList<>(now(3).pods());
        PodState a = pods.get(0);
        pods.set(0, new PodState(a.name(), "Running", false, a.createdAt(), null, a.node(), a.deletionCost(),
                a.drainId()));
        WorkloadState w = new WorkloadState(DEPLOY, 3, 2, "8", pods, T0);
        DrainStep.Step s = DrainStep.observe(waiting(), w, Map.of("a", 3.0, "b", 0.0), T0.plusSeconds(5));
        assertEquals(DrainPhase.WAITING, s.drain().phase());
        assertEquals("waiting for a (3 in flight); b idle", s.drain().detail());
    }

    @Test
    void idleCountsOnlyOnceTheWorkersHadTimeToSeeTheirMarks() {
        WorkloadState w = DrainPlannerTest.workload(DEPLOY, 3, DrainPlannerTest.pod("a", true, 9),
                DrainPlannerTest.pod("b", true, 8), DrainPlannerTest.pod("c", true, 7));
        Drain d = assertInstanceOf(DrainPlanner.Plan.class, DrainPlanner.plan(ID, "c", w, Map.of("a", 0.0, "b", 0.0,
                "c", 1.0), 1, Duration.ofMinutes(5), Duration.ofSeconds(60), T0)).drain();
        d = DrainStep.marked(d, new PodMarks.Result(d.podNames(), List.of()), T0).drain();
        // The numbers say idle from the start, but may describe the time before the marks.
        DrainStep.Step s = DrainStep.observe(d, now(3), Map.of("a", 0.0, "b", 0.0), T0.plusSeconds(30));
        assertEquals(DrainPhase.WAITING, s.drain().phase());
        assertEquals("every marked pod looks idle; giving the workers 30 s more to see their marks",
                s.drain().detail());
        s = DrainStep.observe(s.drain(), now(3), Map.of("a", 0.0, "b", 0.0), T0.plusSeconds(60));
        assertEquals(DrainPhase.WAITING, s.drain().phase(), "the first look after the grace starts the count");
        s = DrainStep.observe(s.drain(), now(3), Map.of("a", 1.0, "b", 0.0), T0.plusSeconds(65));
        assertNull(s.drain().idleSince(), "a job picked up late resets it");
        s = DrainStep.observe(s.drain(), now(3), Map.of("a", 0.0, "b", 0.0), T0.plusSeconds(70));
        s = DrainStep.observe(s.drain(), now(3), Map.of("a", 0.0, "b", 0.0), T0.plusSeconds(75));
        assertEquals(DrainPhase.SCALING, s.drain().phase());
    }

    @Test
    void someoneResettingTheDeletionCostInterrupts() {
        List<PodState> pods = new ArrayList<>(now(3).pods());
        PodState a = pods.get(0);
        pods.set(0, new PodState(a.name(), "Running", true, a.createdAt(), null, a.node(), 0, a.drainId()));
        Drain shown = DrainStep.observe(waiting(), now(3), Map.of("a", 1.0), T0.plusSeconds(5)).drain();
        DrainStep.Step s = DrainStep.observe(shown, new WorkloadState(DEPLOY, 3, 3, "8", pods, T0), Map.of(),
                T0.plusSeconds(10));
        assertEquals(DrainPhase.INTERRUPTED, s.drain().phase());
        assertTrue(s.drain().detail().startsWith("the deletion cost of pod a was changed by someone else (0)"));
    }

    @Test
    void afterScalingItWaitsForThePodsFromTheScaleNotFromTheDeadline() {
        Drain scaled = DrainStep.scaled(scaling(), ScaleResult.applied(1), T0.plusSeconds(9)).drain();
        assertEquals(T0.plusSeconds(9), scaled.scaledAt());
        Instant patience = T0.plusSeconds(9).plus(DrainStep.REMOVAL_PATIENCE);
        assertEquals(DrainPhase.SCALING, DrainStep.observe(scaled, now(1), Map.of(), patience).drain().phase());
        DrainStep.Step late = DrainStep.observe(scaled, now(1), Map.of(), patience.plusSeconds(1));
        assertEquals(DrainPhase.TIMED_OUT, late.drain().phase());
        assertEquals(List.of(new DrainAction.Unmark(List.of("b", "a"), ID)), late.actions());
        DrainStep.Step unread = DrainStep.observe(scaled, null, Map.of(), patience.plusSeconds(1));
        assertEquals(DrainPhase.TIMED_OUT, unread.drain().phase(), "an unreadable workload does not hang it");
        assertEquals(DrainPhase.SCALING, DrainStep.observe(scaled, null, Map.of(), T0.plusSeconds(20)).drain().phase());
    }

    /**
     * Issue 27 item 2: after its own scale, a read whose version is the one the guarded scale was conditioned on
     * ("8") is from before the write, however long ago the write was: the drain's own write not seen yet (a
     * watch that lags), not someone else's. A read of a newer version showing another count than the drain's is
     * someone else's at once, even the count from before. A view that never catches up ends the drain when the
     * pods would have had to go ({@link DrainStep#REMOVAL_PATIENCE}), saying so.
     */
    @Test
    void aReadFromBeforeTheDrainsOwnScaleIsWaitedOutAndANewerOneIsJudgedAtOnce() {
        Drain scaled = DrainStep.scaled(scaling(), ScaleResult.applied(1), T0.plusSeconds(9)).drain();
        DrainStep.Step lagging = DrainStep.observe(scaled, now(3), Map.of(), T0.plusSeconds(90));
        assertEquals(DrainPhase.SCALING, lagging.drain().phase(), lagging.drain().detail());
        assertEquals(List.of(), lagging.actions(), "the marks stay while the ReplicaSet controller picks the pods");
        assertEquals("replicas lowered to 1; the cluster's view is from before that write (resourceVersion 8),"
                + " waiting for it to show it", lagging.drain().detail());

        DrainStep.Step back = DrainStep.observe(scaled, version(now(3), "9"), Map.of(), T0.plusSeconds(10));
        assertEquals(DrainPhase.INTERRUPTED, back.drain().phase(), "a newer version with the old count: set back");
        assertEquals("replicas changed to 3 by someone else after the drain lowered them to 1", back.drain().detail());
        assertEquals(List.of(new DrainAction.Unmark(List.of("b", "a"), ID)), back.actions());
        DrainStep.Step other = DrainStep.observe(scaled, version(now(4), "9"), Map.of(), T0.plusSeconds(10));
        assertEquals(DrainPhase.INTERRUPTED, other.drain().phase(), "a count that is neither: someone else's at once");

        Instant patience = T0.plusSeconds(9).plus(DrainStep.REMOVAL_PATIENCE);
        assertEquals(DrainPhase.SCALING, DrainStep.observe(scaled, now(3), Map.of(), patience).drain().phase());
        DrainStep.Step never = DrainStep.observe(scaled, now(3), Map.of(), patience.plusSeconds(1));
        assertEquals(DrainPhase.TIMED_OUT, never.drain().phase());
        assertEquals("replicas were lowered to 1, but the cluster's view still showed 3 from before that write"
                + " 2 min later; marks removed", never.drain().detail());
        assertEquals(List.of(new DrainAction.Unmark(List.of("b", "a"), ID)), never.actions());
    }

    /**
     * Where the workload has a generation, it orders reads: a status update moves the resourceVersion, not the
     * generation, so a read at the generation the write was conditioned on is still from before it. A write
     * retried on a fresh read (a conflict) is judged from that read's version.
     */
    @Test
    void theGenerationOrdersReadsThatAResourceVersionCannot() {
        WorkloadState fresh = version(now(3), "11", 4);
        Drain scaled = DrainStep.scaled(scaling(), ScaleResult.applied(1), fresh, T0.plusSeconds(9)).drain();
        assertEquals(new WorkloadVersion("11", 4), scaled.scaledFrom(), "rebased on the read the write followed");

        DrainStep.Step statusOnly = DrainStep.observe(scaled, version(now(3), "12", 4), Map.of(), T0.plusSeconds(60));
        assertEquals(DrainPhase.SCALING, statusOnly.drain().phase(), "a status update: the spec is from before");
        DrainStep.Step older = DrainStep.observe(scaled, version(now(3), "8", 3), Map.of(), T0.plusSeconds(60));
        assertEquals(DrainPhase.SCALING, older.drain().phase(), "older than the read the write followed");
        DrainStep.Step back = DrainStep.observe(scaled, version(now(3), "13", 6), Map.of(), T0.plusSeconds(10));
        assertEquals(DrainPhase.INTERRUPTED, back.drain().phase(), "a newer spec with the old count: set back");
        DrainStep.Step ours = DrainStep.observe(scaled, version(now(1), "13", 5), Map.of(), T0.plusSeconds(10));
        assertEquals(DrainPhase.SCALING, ours.drain().phase(), "the drain's own write, its pods not gone yet");
        assertEquals(List.of(), ours.actions());
    }

    static WorkloadState version(WorkloadState w, String resourceVersion, long generation) {
        return new WorkloadState(w.ref(), w.specReplicas(), w.readyReplicas(), resourceVersion, w.pods(), w.observedAt(),
                generation);
    }

    static WorkloadState version(WorkloadState w, String resourceVersion) {
        return new WorkloadState(w.ref(), w.specReplicas(), w.readyReplicas(), resourceVersion, w.pods(), w.observedAt());
    }
}
