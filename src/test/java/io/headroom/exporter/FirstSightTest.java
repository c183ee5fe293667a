package io.headroom.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The oldest age both brokers export: the head's own enqueue time where it carries one, else first sight. */
class FirstSightTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void anEnqueueTimeWinsAndAHeadWithoutOneAgesFromWhenItWasFirstSeen() {
        FirstSight sight = new FirstSight();
        assertEquals(90.0, sight.age("q", "job-1", T0.minusSeconds(90), T0), 1e-9, "from the enqueue time");
        assertEquals(0.0, sight.age("q", "job-2", null, T0.plusSeconds(5)), 1e-9, "a new head, first seen now");
        assertEquals(20.0, sight.age("q", "job-2", null, T0.plusSeconds(25)), 1e-9, "the same head, 20 s later");
        assertEquals(0.0, sight.age("q", "job-3", T0.plusSeconds(40), T0.plusSeconds(30)), 1e-9,
                "an enqueue time ahead of the exporter's clock is no negative age");
        assertEquals(0.0, sight.age("q", null, null, T0.plusSeconds(60)), 1e-9, "an empty queue");
    }
}
