package io.headroom.ui.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.history.SeriesBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The age chart's rules as data, without the toolkit (issue 11): objective in range, gaps found. */
class AgeChartRulesTest {

    private static final double T = 1_800_000_000;

    @Test
    void theObjectiveIsInsideTheRangeWhetherTheDataAreFarBelowOrFarAboveIt() {
        double[] below = ValueRange.of(0, 4, List.of(300.0), 6);
        assertTrue(below[0] <= 0 && below[1] > 300, "data at 0–4 s, objective 300 s: " + below[0] + ".." + below[1]);
        double[] above = ValueRange.of(2_000, 9_000, List.of(60.0), 6);
        assertTrue(above[0] < 60 && above[1] >= 9_000, "data far above: " + above[0] + ".." + above[1]);
        double[] none = ValueRange.of(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, List.of(120.0), 6);
        assertTrue(none[0] < 120 && none[1] > 120, "no data yet: the objective still shows");
        double[] exact = ValueRange.of(0, 120, List.of(120.0), 6);
        assertTrue(exact[1] > 120, "an age at the objective leaves room above the line: " + exact[1]);
        double[] plain = ValueRange.of(0, 10, List.of(), 6);
        assertTrue(plain[1] < 20, "without a reference the data set the range: " + plain[1]);
    }

    private static SeriesBuffer every15s(double from, double to, double value) {
        SeriesBuffer b = new SeriesBuffer(10_000);
        for (double t = from; t <= to; t += 15) {
            b.append(t, value);
        }
        return b;
    }

    @Test
    void aRunOfUnknownTicksIsOneGapFromTheLastKnownToTheNextKnownSample() {
        SeriesBuffer b = new SeriesBuffer(100);
        for (int i = 0; i <= 40; i++) {
            b.append(T + 15 * i, i >= 10 && i < 20 ? Double.NaN : 30);
        }
        List<Gaps.Gap> gaps = Gaps.find(b, T, T + 600, 37.5);
        assertEquals(List.of(new Gaps.Gap(T + 135, T + 300, false)), gaps);
    }

    @Test
    void aStretchWithoutAnySampleIsAGapButTheTickSpacingIsNot() {
        SeriesBuffer b = every15s(T, T + 300, 5);
        for (double t = T + 900; t <= T + 1200; t += 15) {
            b.append(t, 5); // the console was closed for ten minutes
        }
        assertEquals(List.of(new Gaps.Gap(T + 300, T + 900, false)), Gaps.find(b, T, T + 1200, 37.5));
        assertTrue(Gaps.find(every15s(T, T + 1200, 5), T, T + 1200, 37.5).isEmpty(), "15 s apart is continuous");
    }

    @Test
    void anOutageStillGoingOnReachesTheRightEdgeAndIsCurrent() {
        SeriesBuffer b = every15s(T, T + 600, 20);
        for (double t = T + 615; t <= T + 900; t += 15) {
            b.append(t, Double.NaN); // Prometheus unreachable: the loop ticks, no age
        }
        List<Gaps.Gap> gaps = Gaps.find(b, T, T + 900, 37.5);
        assertEquals(List.of(new Gaps.Gap(T + 600, T + 900, true)), gaps);

        SeriesBuffer stalled = every15s(T, T + 600, 20); // no ticks at all since
        assertEquals(List.of(new Gaps.Gap(T + 600, T + 900, true)), Gaps.find(stalled, T, T + 900, 37.5));
        assertTrue(Gaps.find(stalled, T, T + 620, 37.5).isEmpty(), "the newest sample a tick ago is not an outage");
    }

    @Test
    void anOldGapIsClippedToTheWindowAndNotCurrentWhenDataCameBack() {
        SeriesBuffer b = every15s(T, T + 300, 1);
        for (double t = T + 315; t <= T + 3000; t += 15) {
            b.append(t, Double.NaN);
        }
        b.append(T + 3015, 1);
        List<Gaps.Gap> gaps = Gaps.find(b, T + 1000, T + 2000, 37.5);
        assertEquals(List.of(new Gaps.Gap(T + 1000, T + 2000, false)), gaps,
                "the window lies inside an outage that ended later: shaded, not marked current");
    }

    @Test
    void beforeTheFirstSampleThereIsNoHistoryNotAGap() {
        SeriesBuffer b = every15s(T + 3000, T + 3600, 1);
        assertTrue(Gaps.find(b, T, T + 3600, 37.5).isEmpty());
        assertFalse(Gaps.find(new SeriesBuffer(4), T, T + 60, 37.5).iterator().hasNext(), "empty: nothing to shade");
    }
}
