package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/** The numbers in a decision's words (moved here from DecisionEngineTest with Figures). */
class FiguresTest {

    @ParameterizedTest(name = "{0} → {1}")
    @org.junit.jupiter.params.provider.CsvSource({"0.5, 0.5", "8, 8", "11.428, 11.4", "240, 240", "1234.56, 1235",
            "0.0123, 0.0123", "0.7, 0.7", "-2.5, -2.5", "2.04, 2.04", "10.96, 11", "0.1, 0.1", "99.95, 100",
            "-0.001, -0.001", "0.00004, 0.00004"})
    void numbersReadAsAnOperatorExpects(double v, String expected) {
        assertEquals(expected, Figures.fmt(v));
    }

    @Test
    void aNumberAboutToBeRoundedUpShowsWhy() {
        assertEquals("11.4", Figures.fmtBeforeCeil(11.428));
        assertEquals("11.004", Figures.fmtBeforeCeil(11.0043));
        assertEquals("12", Figures.fmtBeforeCeil(12.0));
    }
}
