package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** What-if's load read from the domain history: replicas as counted, not capacity over slots. */
class LoadHistoryTest {

    static ClassHistory history(int points) {
        ClassHistory h = new ClassHistory("orders", 1000);
        for (int i = 0; i < points; i++) {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = i;
            row[Series.MEAN_SERVICE.ordinal()] = i % 3 == 0 ? Double.NaN : 2;
            row[Series.QUEUE_LENGTH.ordinal()] = i < 62 ? Double.NaN : 40 + i; // unknown at the window's start
            row[Series.REPLICAS.ordinal()] = 5 + i / 10;
            h.append(1_796_000_000 + 5.0 * i, row);
        }
        return h;
    }

    @Test
    void theLastSecondsOfTheHistoryWithTheFirstKnownQueueAndReplicas() {
        LoadHistory l = LoadHistory.of(history(100), 180);
        assertEquals(37, l.times().length, "180 s at 5 s, both ends");
        assertEquals(180, l.seconds());
        assertEquals(63, l.arrivalRate()[0]);
        assertEquals(99, l.arrivalRate()[36]);
        assertEquals(11, l.replicasAtStart(), "the workload's count at the start (5 + 63 / 10)");
        assertEquals(40 + 63, l.queueAtStart());
        assertEquals(2, l.typicalServiceSeconds());
        LoadHistory early = LoadHistory.of(history(64), 10_000);
        assertEquals(40 + 62, early.queueAtStart(), "the first known queue, not 0");
    }

    @Test
    void noHistoryIsAnEmptyLoadThatReplayRefuses() {
        LoadHistory none = LoadHistory.of(null, 600);
        assertArrayEquals(new double[0], none.times());
        assertThrows(IllegalArgumentException.class, () -> Replay.compare(none, Policy.defaults(), Policy.defaults(), 1));
        assertEquals(0, LoadHistory.of(new ClassHistory("x", 10), 600).times().length);
    }
}
