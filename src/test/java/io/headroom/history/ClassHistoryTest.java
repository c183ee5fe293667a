package io.headroom.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.history.ClassHistory.Series;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClassHistoryTest {

    /** A point whose arrival rate is {@code rate} and replicas {@code replicas}; the rest unknown. */
    static double[] row(double rate, double replicas) {
        double[] r = new double[ClassHistory.SERIES];
        Arrays.fill(r, Double.NaN);
        r[Series.ARRIVAL_RATE.ordinal()] = rate;
        r[Series.REPLICAS.ordinal()] = replicas;
        return r;
    }

    @Test
    void aDayAtTheTickIsTheCapacityAndItsBytesAreBounded() {
        assertEquals(5_761, ClassHistory.capacityFor(Duration.ofSeconds(15)));
        assertEquals(17_281, ClassHistory.capacityFor(Duration.ofSeconds(5)));
        assertEquals(8L * 5_761 * 12, ClassHistory.bytesFor(5_761));
        assertTrue(ClassHistory.bytesFor(ClassHistory.capacityFor(Duration.ofSeconds(15))) < 600_000);
        assertThrows(IllegalArgumentException.class, () -> ClassHistory.capacityFor(Duration.ZERO));
    }

    @Test
    void whenFullTheOldestPointGoesAndEverySeriesWrapsWithTheTimes() {
        ClassHistory h = new ClassHistory("orders", 4);
        for (int i = 0; i < 7; i++) {
            assertTrue(h.append(100 + 5 * i, row(i, 10 + i)));
        }
        assertEquals(4, h.size());
        assertEquals(115, h.firstTime());
        assertEquals(130, h.lastTime());
        for (int i = 0; i < 4; i++) {
            assertEquals(3 + i, h.value(Series.ARRIVAL_RATE, i));
            assertEquals(13 + i, h.value(Series.REPLICAS, i));
            assertTrue(Double.isNaN(h.value(Series.OLDEST_AGE, i)), "unknown stays NaN, never 0");
        }
        assertFalse(h.append(120, row(99, 99)), "a late point is refused");
        assertFalse(h.append(Double.NaN, row(99, 99)));
        assertEquals(130, h.lastTime());
    }

    @Test
    void aWindowIsACopyOfTheWrappedPointsInIt() {
        ClassHistory h = new ClassHistory("orders", 5);
        for (int i = 0; i < 8; i++) {
            h.append(10 * i, row(i, i));
        }
        ClassHistory.Window w = h.window(35, 65);
        assertEquals(3, w.size());
        assertEquals(40, w.times()[0]);
        assertEquals(60, w.times()[2]);
        assertEquals(5, w.values(Series.ARRIVAL_RATE)[1]);
        assertEquals(20, w.seconds());
        ClassHistory.Window last = h.last(15);
        assertEquals(2, last.size(), "60 and 70");
        h.append(80, row(8, 8));
        assertEquals(5, w.values(Series.ARRIVAL_RATE)[1], "a copy: later appends do not change it");
        assertEquals(0, new ClassHistory("x", 2).last(60).size());
    }

    @Test
    void backfillGoesUnderTheLivePointsAndNeverOverwritesThem() {
        ClassHistory h = new ClassHistory("orders", 10);
        h.append(100, row(7, 3));
        h.append(105, row(8, 3));
        double[] times = {80, 85, 90, 95, 100, 105};
        double[] rates = {1, 2, 3, 4, 99, 99};
        int inserted = h.backfill(times, Map.of(Series.ARRIVAL_RATE, rates));
        assertEquals(4, inserted);
        assertEquals(6, h.size());
        assertEquals(80, h.firstTime());
        assertEquals(4, h.value(Series.ARRIVAL_RATE, 3));
        assertEquals(7, h.value(Series.ARRIVAL_RATE, 4), "the live point, not the backfilled 99");
        assertTrue(Double.isNaN(h.value(Series.REPLICAS, 0)), "a series the past did not give is NaN");
        assertEquals(3, h.value(Series.REPLICAS, 4));
        assertTrue(h.append(110, row(9, 4)), "live appends go on after a backfill");
        assertEquals(110, h.lastTime());
    }

    @Test
    void aBackfillLargerThanTheRingKeepsTheNewestPastAndAllLivePoints() {
        ClassHistory h = new ClassHistory("orders", 4);
        for (int i = 0; i < 6; i++) { // wraps first, so the backfill must unwrap it
            h.append(100 + i, row(i, 1));
        }
        double[] times = new double[50];
        double[] rates = new double[50];
        for (int i = 0; i < 50; i++) {
            times[i] = 40 + i;
            rates[i] = -i;
        }
        assertEquals(0, h.backfill(times, Map.of(Series.ARRIVAL_RATE, rates)), "the ring is full of live points");
        assertEquals(102, h.firstTime());
        ClassHistory roomy = new ClassHistory("orders", 6);
        roomy.append(100, row(5, 1));
        roomy.append(101, row(6, 1));
        assertEquals(4, roomy.backfill(times, Map.of(Series.ARRIVAL_RATE, rates)));
        assertEquals(86, roomy.firstTime(), "the newest 4 of the past: 86..89");
        assertEquals(-49, roomy.value(Series.ARRIVAL_RATE, 3));
        assertEquals(5, roomy.value(Series.ARRIVAL_RATE, 4));
        assertEquals(101, roomy.lastTime());
    }

    @Test
    void downsamplingAWrappedSeriesKeepsItsExtremesAndGaps() {
        ClassHistory h = new ClassHistory("orders", 1000);
        for (int i = 0; i < 1500; i++) { // wraps: holds 500..1499
            double rate = i == 700 ? 1000 : i == 900 ? -1000 : i >= 1200 && i < 1300 ? Double.NaN : i % 7;
            h.append(i, row(rate, 1));
        }
        Downsampler ds = new Downsampler();
        int n = h.downsample(Series.ARRIVAL_RATE, 500, 1499, 20, ds);
        assertTrue(n > 0 && n <= 80, "at most 4 points per column: " + n);
        assertEquals(1000, ds.max());
        assertEquals(-1000, ds.min());
        boolean gap = false;
        for (int i = 0; i < n; i++) {
            gap |= Double.isNaN(ds.value(i)) && ds.time(i) >= 1200 && ds.time(i) < 1300;
            assertTrue(i == 0 || ds.time(i) >= ds.time(i - 1), "in time order");
        }
        assertTrue(gap, "the 100 s without data is drawn as a gap");
        h.downsample(Series.ARRIVAL_RATE, 0, 400, 20, ds);
        assertTrue(Double.isNaN(ds.max()), "a window before the data has no value inside it");
        assertEquals(0, new ClassHistory("x", 2).downsample(Series.ARRIVAL_RATE, 0, 10, 5, ds));
    }

    @Test
    void theRingsGrowAsPointsArriveAndWrapOnlyOnceFull() {
        ClassHistory h = new ClassHistory("orders", 1000);
        assertEquals(ClassHistory.INITIAL_POINTS, h.allocated(), "a class without a past costs little");
        assertEquals(1000, h.capacity());
        for (int i = 0; i < 300; i++) {
            h.append(i, row(i, 1));
        }
        assertEquals(300, h.size());
        assertTrue(h.allocated() >= 300 && h.allocated() < 1000, "grown to what it holds: " + h.allocated());
        for (int i = 0; i < 300; i++) {
            assertEquals(i, h.value(Series.ARRIVAL_RATE, i), "nothing lost across the growth");
        }
        for (int i = 300; i < 2500; i++) {
            h.append(i, row(i, 1));
        }
        assertEquals(1000, h.allocated(), "never past the capacity");
        assertEquals(1000, h.size());
        assertEquals(1500, h.firstTime(), "full, the oldest go");
        for (int i = 0; i < 1000; i++) {
            assertEquals(1500 + i, h.value(Series.ARRIVAL_RATE, i));
        }
    }

    @Test
    void aBackfillLargerThanTheRoomMadeSoFarGrowsTheRings() {
        ClassHistory h = new ClassHistory("orders", 500);
        h.append(10_000, row(-1, 1));
        double[] times = new double[800];
        double[] rates = new double[800];
        for (int i = 0; i < times.length; i++) {
            times[i] = i;
            rates[i] = i;
        }
        assertEquals(499, h.backfill(times, Map.of(Series.ARRIVAL_RATE, rates)), "the newest past that fits");
        assertEquals(500, h.size());
        assertEquals(301, h.firstTime());
        assertEquals(799, h.value(Series.ARRIVAL_RATE, 498));
        assertEquals(-1, h.value(Series.ARRIVAL_RATE, 499), "the live point kept");
        Downsampler ds = new Downsampler();
        assertTrue(h.downsample(Series.ARRIVAL_RATE, 301, 10_000, 10, ds) > 0);
        assertEquals(799, ds.max());
        assertEquals(-1, ds.min());
    }

    @Test
    void aBackfillASeriesAtATimeEndsAsOneOfAllSeriesAtOnce() {
        double[] grid = new double[300];
        double[] rates = new double[300];
        double[] replicas = new double[300];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = 1000 + 5 * i;
            rates[i] = i < 100 ? Double.NaN : i; // Prometheus knew the rate only later
            replicas[i] = 3;
        }
        ClassHistory together = new ClassHistory("orders", 1000);
        ClassHistory apart = new ClassHistory("orders", 1000);
        for (ClassHistory h : List.of(together, apart)) {
            h.append(2495, row(-1, 9)); // the first live tick, at the grid's last step
        }
        assertEquals(299, together.backfill(Arrays.copyOf(grid, 299), Map.of(Series.ARRIVAL_RATE,
                Arrays.copyOf(rates, 299), Series.REPLICAS, Arrays.copyOf(replicas, 299))));
        int added = apart.backfillSeries(grid, Series.ARRIVAL_RATE, rates);
        added += apart.backfillSeries(grid, Series.REPLICAS, replicas);
        assertEquals(299, added, "the grid's steps before the live point, added once");
        assertEquals(together.size(), apart.size());
        for (int i = 0; i < apart.size(); i++) {
            assertEquals(together.time(i), apart.time(i));
            for (Series s : Series.values()) {
                assertEquals(together.value(s, i), apart.value(s, i), s + " at " + i);
            }
        }
        assertEquals(-1, apart.value(Series.ARRIVAL_RATE, 299), "the live point is never written");
        assertEquals(9, apart.value(Series.REPLICAS, 299));
    }

    @Test
    void aSeriesWithNoValueAddsNothingAndTakesNoRoom() {
        ClassHistory h = new ClassHistory("new-queue", 5_000);
        double[] grid = new double[4_000];
        double[] none = new double[4_000];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = i;
            none[i] = Double.NaN;
        }
        assertEquals(0, h.backfillSeries(grid, Series.QUEUE_LENGTH, none));
        assertEquals(0, h.size());
        assertEquals(ClassHistory.INITIAL_POINTS, h.allocated());
    }
}
