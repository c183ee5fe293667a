package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** About one point per pixel column, a nice step, at least 1 s, never over 11,000 points. */
class HistoryStepTest {

    @ParameterizedTest(name = "{0} s over {1} px → {2} s")
    @CsvSource(textBlock = """
            900,    1000,  1
            900,    2000,  1
            900,     300,  5
            900,     100,  10
            3600,   1000,  5
            3600,    720,  5
            3600,    240,  15
            21600,  1000,  30
            43200,  1000,  60
            86400,  1000,  120
            86400,  1920,  60
            86400,   600,  300
            86400, 10000,  10
            86400, 50000,  10
            86400,     1,  86400
            604800,    1,  604800
            0,       800,  1
            """)
    void stepsForWindowsFrom15MinutesTo24Hours(long windowSeconds, int pixels, long expectedStep) {
        Duration step = HistoryStep.choose(Duration.ofSeconds(windowSeconds), pixels);
        assertEquals(Duration.ofSeconds(expectedStep), step);
        long points = HistoryStep.points(windowSeconds, step.toSeconds());
        assertTrue(points <= PrometheusClient.MAX_POINTS, points + " points");
        // About one point per pixel: never more points than columns (plus the closing point).
        assertTrue(step.toSeconds() == 1 || points <= pixels + 1 || pixels > PrometheusClient.MAX_POINTS,
                points + " points for " + pixels + " px");
    }

    @ParameterizedTest
    @CsvSource({"0", "-5"})
    void aWidthBelowOnePixelIsRefused(int pixels) {
        assertThrows(IllegalArgumentException.class, () -> HistoryStep.choose(Duration.ofHours(1), pixels));
    }
}
