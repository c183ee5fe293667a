package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.prometheus.NoDataReason;
import org.junit.jupiter.api.Test;

/** Missing data said in words, never as a reason code or an exception's class name (issue 11). */
class PlainWordsTest {

    @Test
    void theRawTextsOfTheIssueReadAsSentences() {
        assertEquals("Prometheus cannot be reached (nothing answers at 127.0.0.1:9)",
                PlainWords.reason("NoData[reason=UNREACHABLE, message=ConnectException: Failed to connect to /127.0.0.1:9]"));
        assertEquals("Prometheus cannot be reached (nothing answers at 127.0.0.1:9)",
                PlainWords.reason("UNREACHABLE: java.net.ConnectException: Failed to connect to /127.0.0.1:9"));
        assertEquals("Prometheus did not answer in time (no answer within the tick deadline of 1.500 s)",
                PlainWords.reason("TIMEOUT: no answer within the tick deadline of 1.500 s"));
        assertEquals("no series matches the query", PlainWords.reason("EMPTY_RESULT: "));
    }

    @Test
    void everyReasonCodeHasWords() {
        for (NoDataReason r : NoDataReason.values()) {
            String words = PlainWords.reason(r.name() + ": x");
            assertFalse(words.contains(r.name()), r + " → " + words);
            assertTrue(words.endsWith("(x)"), words);
        }
    }

    /** Issue 26 item 5: a sentence from elsewhere (the metrics source's summary, a decision's explanation). */
    @Test
    void aSentenceFromElsewhereSaysItsCodesInWordsWithoutClassNamesAndWhole() {
        String explanation = "queueLength missing (UNREACHABLE: ConnectException: Failed to connect to /127.0.0.1:9),"
                + " arrivalRate missing (UNREACHABLE: ConnectException: Failed to connect to /127.0.0.1:9) → hold 2";
        assertEquals("queueLength missing (Prometheus cannot be reached: nothing answers at 127.0.0.1:9), arrivalRate"
                + " missing (Prometheus cannot be reached: nothing answers at 127.0.0.1:9) → hold 2",
                PlainWords.sentence(explanation), "whole, not cut at a tooltip's length");
        assertEquals("http://p:9090/ · 3 requests, 3 failed\nlast failure: Prometheus did not answer in time",
                PlainWords.sentence("http://p:9090/ · 3 requests, 3 failed\nlast failure: TIMEOUT"));
        assertEquals("", PlainWords.sentence(null));
    }

    @Test
    void otherTextIsOnlyCleaned() {
        assertEquals("stale: newest sample 40 s old", PlainWords.reason("stale: newest sample 40 s old"));
        assertEquals("Read timed out", PlainWords.reason("java.net.SocketTimeoutException: Read timed out"));
        assertEquals("failed without a message", PlainWords.reason("java.io.IOException"));
        assertEquals(160, PlainWords.reason("x".repeat(500)).length());
        assertEquals("no reason given", PlainWords.reason(null));
    }
}
