package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Signals;
import org.junit.jupiter.api.Test;

/** History goes under the live points, never over them, and gaps stay gaps. */
class ClassSeriesBackfillTest {

    @Test
    void historyBeforeTheFirstLivePointIsPutUnderneath() {
        ClassSeries cs = new ClassSeries();
        cs.oldestAge.append(1000, 42);
        cs.oldestAge.append(1005, 43);
        assertTrue(cs.backfill(Signals.OLDEST_AGE, new double[] {900, 950, 1000, 1005},
                new double[] {10, Double.NaN, 99, 99}));
        assertEquals(4, cs.oldestAge.size());
        assertEquals(900, cs.oldestAge.time(0));
        assertTrue(Double.isNaN(cs.oldestAge.value(1)), "a gap in history stays a gap");
        assertEquals(42, cs.oldestAge.value(2), "live data wins where both exist");
        assertEquals(43, cs.oldestAge.value(3));
    }

    @Test
    void backfillWithoutLiveDataTakesEverything() {
        ClassSeries cs = new ClassSeries();
        assertTrue(cs.backfill(Signals.ARRIVAL_RATE, new double[] {1, 2, 3}, new double[] {0.5, 0.6, 0.7}));
        assertEquals(3, cs.arrivalRate.size());
        assertFalse(cs.backfill(Signals.DEPENDENCY, new double[] {1}, new double[] {1}), "not charted");
    }
}
