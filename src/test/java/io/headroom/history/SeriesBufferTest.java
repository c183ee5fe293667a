package io.headroom.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SeriesBufferTest {

    @Test
    void keepsSamplesInOrderBelowCapacity() {
        SeriesBuffer b = new SeriesBuffer(4);
        b.append(10, 1);
        b.append(11, 2);

        assertEquals(2, b.size());
        assertEquals(10, b.time(0));
        assertEquals(2, b.value(1));
        assertEquals(10, b.firstTime());
        assertEquals(11, b.lastTime());
    }

    @Test
    void wrapsAroundOverwritingTheOldest() {
        SeriesBuffer b = new SeriesBuffer(4);
        for (int i = 0; i < 10; i++) {
            b.append(i, i * 10);
        }

        assertEquals(4, b.size());
        for (int i = 0; i < 4; i++) {
            assertEquals(6 + i, b.time(i), "time " + i);
            assertEquals((6 + i) * 10, b.value(i), "value " + i);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> b.time(4));
    }

    @Test
    void keepsNaNAsNoDataNotZero() {
        SeriesBuffer b = new SeriesBuffer(3);
        b.append(1, 5);
        b.append(2, Double.NaN);

        assertTrue(Double.isNaN(b.value(1)));
    }

    @Test
    void dropsLateSamplesAndNaNTimesButAcceptsEqualTimes() {
        SeriesBuffer b = new SeriesBuffer(4);
        assertTrue(b.append(5, 1));
        assertTrue(b.append(5, 2));
        assertFalse(b.append(4, 3));
        assertFalse(b.append(Double.NaN, 3));

        assertEquals(2, b.size());
    }

    @Test
    void findsWindowsByBinarySearchAcrossTheWrap() {
        SeriesBuffer b = new SeriesBuffer(8);
        // 0..11 into 8 slots: holds 4..11 with the physical start in the middle of the arrays.
        for (int i = 0; i < 12; i++) {
            b.append(i, i);
        }

        assertEquals(new SeriesBuffer.IndexRange(2, 5), b.indexRange(6, 8)); // times 6, 7, 8
        assertEquals(new SeriesBuffer.IndexRange(2, 4), b.indexRange(5.5, 7.5));
        assertEquals(new SeriesBuffer.IndexRange(0, 8), b.indexRange(-100, 100));
        assertTrue(b.indexRange(12, 20).isEmpty());
        assertTrue(b.indexRange(0, 3).isEmpty());
        assertEquals(-1, b.indexAtOrBefore(3.9));
        assertEquals(3, b.indexAtOrBefore(7.5)); // time 7
        assertEquals(7, b.indexAtOrBefore(99));
    }

    @Test
    void windowSearchIncludesEveryDuplicateTime() {
        SeriesBuffer b = new SeriesBuffer(8);
        double[] times = {1, 2, 2, 2, 3};
        for (double t : times) {
            b.append(t, 0);
        }

        assertEquals(1, b.lowerBound(2));
        assertEquals(4, b.upperBound(2));
        assertEquals(3, b.indexRange(2, 2).length());
    }

    @Test
    void clearEmptiesButKeepsCapacity() {
        SeriesBuffer b = new SeriesBuffer(2);
        b.append(1, 1);
        b.append(2, 2);
        b.append(3, 3);
        b.clear();

        assertEquals(0, b.size());
        assertTrue(Double.isNaN(b.lastTime()));
        assertTrue(b.append(0, 1)); // an earlier time is fine after a clear
        assertEquals(2, b.capacity());
    }

    @Test
    void appendToMovesAWrappedBatchOldestFirstAndSkipsWhatIsLate() {
        SeriesBuffer batch = new SeriesBuffer(3);
        for (int t = 1; t <= 5; t++) {
            batch.append(t, t * 10); // wraps: holds 3, 4, 5
        }
        SeriesBuffer dest = new SeriesBuffer(8);
        dest.append(4, 0);
        assertTrue(batch.appendTo(dest), "4 and 5 are not late");
        assertEquals(3, dest.size());
        assertEquals(4, dest.time(1));
        assertEquals(40, dest.value(1));
        assertEquals(50, dest.value(2));
        assertFalse(new SeriesBuffer(2).appendTo(dest), "an empty batch moves nothing");
    }

    @Test
    void rejectsNonPositiveCapacity() {
        assertThrows(IllegalArgumentException.class, () -> new SeriesBuffer(0));
    }
}
