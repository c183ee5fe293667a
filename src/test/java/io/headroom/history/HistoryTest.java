package io.headroom.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A fleet's histories share a memory budget: a day each when it fits, the same shorter past for all when not. */
class HistoryTest {
    static final long GIB = 1L << 30;

    @Test
    void aFewClassesKeepADay() {
        History h = History.forClasses(Duration.ofSeconds(15), 5, GIB);
        assertEquals(ClassHistory.capacityFor(Duration.ofSeconds(15)), h.capacity());
        assertEquals(ClassHistory.SPAN, h.span());
    }

    @Test
    void aFleetOverTheBudgetKeepsTheSameShorterPastForEveryClass() {
        History h = History.forClasses(Duration.ofSeconds(15), 5_000, GIB);
        // 1 GiB / 5,000 classes = 214,748 bytes a class; 96 bytes a point → 2,236 points.
        assertEquals(2_236, h.capacity());
        assertEquals(Duration.ofSeconds(15 * 2_235), h.span(), "9 h 18 m 45 s");
        assertTrue(5_000 * ClassHistory.bytesFor(h.capacity()) <= GIB, "within the budget when every class is full");
        assertEquals(2_236, h.of("fleet-04999").capacity());
    }

    @Test
    void noBudgetStillKeepsTwoPoints() {
        assertEquals(2, History.forClasses(Duration.ofSeconds(15), 5_000, 0).capacity());
    }
}
