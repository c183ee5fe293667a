package io.headroom.loop;

import static io.headroom.loop.LoopFakes.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Measured pod start-up (creation → ready) for D_eff, and the oldest pod still starting. */
class PodStartupTest {

    static PodState started(String name, Instant created, double seconds) {
        return new PodState(name, "Running", true, created, null, "node-1", null, null,
                created.plusMillis(Math.round(seconds * 1000)));
    }

    static PodState starting(String name, Instant created) {
        return new PodState(name, "Pending", false, created, null, "node-1");
    }

    @Test
    void theMedianOfThePodsThatShowBothTimes() {
        assertEquals(20.0, PodStartup.measure(List.of(started("a", T0, 10), started("b", T0.plusSeconds(1), 20),
                started("c", T0.plusSeconds(2), 90))), 1e-9, "odd count: the middle one, not the mean");
        assertEquals(15.0, PodStartup.measure(List.of(started("a", T0, 10), started("b", T0.plusSeconds(1), 20))),
                1e-9, "even count: the mean of the middle two");
    }

    @Test
    void onlyTheNewestTenCount() {
        List<PodState> pods = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pods.add(started("old-" + i, T0.plusSeconds(i), 300)); // an old image, slow to pull
        }
        for (int i = 0; i < PodStartup.NEWEST; i++) {
            pods.add(started("new-" + i, T0.plusSeconds(100 + i), 12));
        }
        assertEquals(12.0, PodStartup.measure(pods), 1e-9);
    }

    @Test
    void unknownWhenNoPodShowsItsStartUp() {
        PodState readyAtUnknown = new PodState("x", "Running", true, T0, null, "node-1");
        PodState readyBeforeCreated = new PodState("y", "Running", true, T0, null, "node-1", null, null,
                T0.minusSeconds(5));
        assertTrue(Double.isNaN(PodStartup.measure(List.of())));
        assertTrue(Double.isNaN(PodStartup.measure(List.of(readyAtUnknown, readyBeforeCreated, starting("z", T0)))),
                "a clock skew is no start-up time");
    }

    @Test
    void startingSinceIsTheOldestPodNotReadyAndNotTerminating() {
        PodState terminating = new PodState("t", "Running", false, T0.minusSeconds(500), T0, "node-1");
        assertEquals(T0.minusSeconds(40), PodStartup.startingSince(List.of(started("r", T0.minusSeconds(900), 5),
                terminating, starting("s1", T0.minusSeconds(10)), starting("s2", T0.minusSeconds(40)))));
        assertNull(PodStartup.startingSince(List.of(started("r", T0, 5), terminating)), "nothing is starting");
    }
}
