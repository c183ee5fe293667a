package io.headroom.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The one binary search both rings use, on a ring that has wrapped and holds equal times. */
class RingTimesTest {

    // Oldest at physical 4, wrapping after 6: logically 1, 2, 2, 2, 5, 8 (slot 3 is free).
    private static final double[] TIMES = {2, 5, 8, 0, 1, 2, 2};
    private static final int HEAD = 4;
    private static final int SIZE = 6; // 1, 2, 2, 2, 5, 8

    @Test
    void lowerBoundIsTheFirstAtOrAfter() {
        assertEquals(0, RingTimes.lowerBound(TIMES, HEAD, SIZE, 0.5));
        assertEquals(1, RingTimes.lowerBound(TIMES, HEAD, SIZE, 2));
        assertEquals(4, RingTimes.lowerBound(TIMES, HEAD, SIZE, 3));
        assertEquals(6, RingTimes.lowerBound(TIMES, HEAD, SIZE, 9));
    }

    @Test
    void upperBoundIsTheFirstAfter() {
        assertEquals(1, RingTimes.upperBound(TIMES, HEAD, SIZE, 1));
        assertEquals(4, RingTimes.upperBound(TIMES, HEAD, SIZE, 2));
        assertEquals(6, RingTimes.upperBound(TIMES, HEAD, SIZE, 8));
        assertEquals(0, RingTimes.upperBound(TIMES, HEAD, SIZE, 0));
    }

    @Test
    void anEmptyRingAnswersZero() {
        assertEquals(0, RingTimes.lowerBound(TIMES, HEAD, 0, 2));
        assertEquals(0, RingTimes.upperBound(TIMES, HEAD, 0, 2));
    }
}
