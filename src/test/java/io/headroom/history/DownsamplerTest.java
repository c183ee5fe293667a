package io.headroom.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DownsamplerTest {

    private final Downsampler ds = new Downsampler();

    @Test
    void outputIsBoundedByFourPointsPerColumn() {
        SeriesBuffer b = noisy(100_000, 1);

        for (int columns : new int[] {1, 7, 200, 1000}) {
            int n = ds.run(b, 0, 100_000, columns);
            assertTrue(n <= 4 * columns, columns + " columns gave " + n + " points");
            assertTrue(n > 0);
        }
    }

    @Test
    void keepsEveryColumnsExtremes() {
        SeriesBuffer b = noisy(50_000, 2);
        int columns = 300;
        double t0 = 10_000;
        double t1 = 40_000;

        ds.run(b, t0, t1, columns);

        // Brute force: min and max of every column must appear in the output at their own times.
        double width = (t1 - t0) / columns;
        for (int c = 0; c < columns; c++) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < b.size(); i++) {
                double t = b.time(i);
                if (t >= t0 + c * width && t < t0 + (c + 1) * width) {
                    lo = Math.min(lo, b.value(i));
                    hi = Math.max(hi, b.value(i));
                }
            }
            assertTrue(contains(lo), "column " + c + " min " + lo);
            assertTrue(contains(hi), "column " + c + " max " + hi);
        }
    }

    @Test
    void reportsTheWindowsExtremesAndOrdersPointsByTime() {
        SeriesBuffer b = new SeriesBuffer(1000);
        for (int i = 0; i < 1000; i++) {
            b.append(i, i == 500 ? 1e6 : i == 501 ? -1e6 : 1);
        }

        int n = ds.run(b, 100, 900, 50);

        assertEquals(1e6, ds.max());
        assertEquals(-1e6, ds.min());
        for (int i = 1; i < n; i++) {
            assertTrue(ds.time(i) >= ds.time(i - 1), "ordered at " + i);
        }
    }

    @Test
    void keepsGapsAsNaNNeverAsZero() {
        SeriesBuffer b = new SeriesBuffer(10_000);
        for (int i = 0; i < 10_000; i++) {
            boolean scrapeOutage = i >= 4_000 && i < 6_000;
            b.append(i, scrapeOutage ? Double.NaN : 50 + (i % 7));
        }

        int n = ds.run(b, 0, 10_000, 100);

        int gapMarkers = 0;
        for (int i = 0; i < n; i++) {
            double v = ds.value(i);
            if (Double.isNaN(v)) {
                gapMarkers++;
                // The marker sits where the outage starts: a step line must stop there.
                assertEquals(4_000, ds.time(i));
            } else {
                assertTrue(v >= 50, "no zero filled in for missing data: " + v);
                assertFalse(ds.time(i) >= 4_000 && ds.time(i) < 6_000, "no data inside the gap");
            }
        }
        assertEquals(1, gapMarkers, "one marker per outage, however many columns it spans");
        assertEquals(50, ds.min());
    }

    @Test
    void keepsAGapBetweenTwoAdjacentColumns() {
        SeriesBuffer b = new SeriesBuffer(16);
        b.append(0, 1);
        b.append(1, Double.NaN);
        b.append(2, 3);

        int n = ds.run(b, 0, 3, 3); // one sample per column

        assertEquals(3, n);
        assertTrue(Double.isNaN(ds.value(1)));
    }

    @Test
    void passesSparseDataThroughUnchanged() {
        SeriesBuffer b = new SeriesBuffer(16);
        for (int i = 0; i < 10; i++) {
            b.append(i * 10, i);
        }

        int n = ds.run(b, 0, 90, 800);

        assertEquals(10, n);
        for (int i = 0; i < n; i++) {
            assertEquals(i * 10, ds.time(i));
            assertEquals(i, ds.value(i));
        }
    }

    @Test
    void includesOneNeighbourEachSideSoLinesReachTheEdges() {
        SeriesBuffer b = new SeriesBuffer(16);
        for (int i = 0; i < 10; i++) {
            b.append(i * 10, i);
        }

        int n = ds.run(b, 25, 65, 100);

        assertEquals(20, ds.time(0));
        assertEquals(70, ds.time(n - 1));
        assertEquals(3, ds.min(), "neighbours do not count towards the window's range");
        assertEquals(6, ds.max());
    }

    @Test
    void emptyInputsGiveNoPoints() {
        assertEquals(0, ds.run(new SeriesBuffer(4), 0, 10, 100));
        SeriesBuffer b = new SeriesBuffer(4);
        b.append(1, 1);
        assertEquals(0, ds.run(b, 0, 10, 0));
        assertEquals(0, ds.run(b, 10, 10, 100));
        assertTrue(Double.isNaN(ds.min()));
    }

    @Test
    void worksOnAWrappedBuffer() {
        SeriesBuffer b = new SeriesBuffer(100);
        for (int i = 0; i < 250; i++) {
            b.append(i, i);
        }

        ds.run(b, 150, 249, 10);

        assertEquals(150, ds.min());
        assertEquals(249, ds.max());
    }

    private boolean contains(double value) {
        for (int i = 0; i < ds.size(); i++) {
            if (ds.value(i) == value) {
                return true;
            }
        }
        return false;
    }

    private static SeriesBuffer noisy(int n, long seed) {
        Random random = new Random(seed);
        SeriesBuffer b = new SeriesBuffer(n);
        for (int i = 0; i < n; i++) {
            b.append(i, random.nextGaussian() * 100);
        }
        return b;
    }
}
