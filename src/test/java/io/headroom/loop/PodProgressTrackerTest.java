package io.headroom.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.cluster.PodState;
import io.headroom.metrics.PodProgress;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodProgressTrackerTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    static PodState ready(String name) {
        return new PodState(name, "Running", true, T0.minusSeconds(3600), null, "n1");
    }

    @Test
    void theClockRunsFromTheLastMoveOfTheCounterWhileThePodHoldsWork() {
        PodProgressTracker t = new PodProgressTracker();
        List<PodState> pods = List.of(ready("a"), ready("b"));
        assertEquals(Map.of("a", T0, "b", T0),
                t.update(pods, Map.of("a", new PodProgress(2, 10), "b", new PodProgress(1, 5)), T0),
                "first sight dates both from now: nothing older is known");
        Map<String, Instant> later = t.update(pods, Map.of("a", new PodProgress(2, 10), "b", new PodProgress(1, 6)),
                T0.plusSeconds(15));
        assertEquals(Map.of("a", T0, "b", T0.plusSeconds(15)), later, "b finished a job: its clock restarts");
        assertEquals(Map.of("a", T0), t.update(pods, Map.of("a", new PodProgress(4, 10), "b", new PodProgress(0, 6)),
                T0.plusSeconds(30)), "b holds nothing now: no clock for it");
    }

    @Test
    void podsNotReadyTerminatingDrainingOrUnmeasuredNeverCount() {
        PodProgressTracker t = new PodProgressTracker();
        List<PodState> pods = List.of(
                new PodState("starting", "Pending", false, T0, null, "n1"),
                new PodState("leaving", "Running", true, T0.minusSeconds(60), T0, "n1"),
                new PodState("drained", "Running", true, T0.minusSeconds(60), null, "n1", null, "drain-1"),
                ready("unknown"), ready("nocounter"));
        Map<String, PodProgress> progress = Map.of("starting", new PodProgress(1, 0), "leaving", new PodProgress(3, 0),
                "drained", new PodProgress(2, 0), "nocounter", new PodProgress(2, Double.NaN));
        assertEquals(Map.of(), t.update(pods, progress, T0));
    }

    @Test
    void aPodThatGoesAwayIsForgotten() {
        PodProgressTracker t = new PodProgressTracker();
        t.update(List.of(ready("a")), Map.of("a", new PodProgress(1, 3)), T0);
        t.update(List.of(), Map.of(), T0.plusSeconds(15));
        assertEquals(Map.of("a", T0.plusSeconds(30)),
                t.update(List.of(ready("a")), Map.of("a", new PodProgress(1, 3)), T0.plusSeconds(30)),
                "a pod seen again starts a new clock");
    }
}
