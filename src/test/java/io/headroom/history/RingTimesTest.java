package io.headroom.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one binary search both rings use, on a ring that has wrapped and holds equal times. */
class RingTimesTest {

    // Oldest at physical 4, wrapping after 6: logically 1, 2, 2, 2, 5, 8 (slot 3 is free).
    private static final double[] TIMES = {2, 5, 8, 0, 1, 2, 2};
    private static final int HEAD = 4;

    @ParameterizedTest(name = "t={0} in {1} times: first at or after {2}, first after {3}")
    @CsvSource({
            "0,   6, 0, 0",
            "0.5, 6, 0, 0",
            "1,   6, 0, 1",
            "2,   6, 1, 4",
            "3,   6, 4, 4",
            "8,   6, 5, 6",
            "9,   6, 6, 6",
            "2,   0, 0, 0", // an empty ring
    })
    void bothBoundsCountLogicalIndexesFromTheOldest(double t, int size, int lower, int upper) {
        assertEquals(lower, RingTimes.lowerBound(TIMES, HEAD, size, t), "lowerBound");
        assertEquals(upper, RingTimes.upperBound(TIMES, HEAD, size, t), "upperBound");
    }
}
