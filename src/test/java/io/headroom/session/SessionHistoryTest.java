package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The session records every tick of its loop into the domain history, from the warm-up on. */
class SessionHistoryTest {

    @Test
    void theWarmUpTicksAreEveryClasssHistory() {
        try (Session s = Session.sandbox(7, Instant.parse("2026-11-30T10:00:00Z"), Duration.ofMinutes(10),
                new MemoryJournal())) {
            s.warmUp(Duration.ofMinutes(5));
            long ticks = Duration.ofMinutes(5).toMillis() / s.tick().toMillis() + 1;
            for (WorkloadClass c : s.loop().classes()) {
                ClassHistory h = s.history().find(c.name());
                assertEquals(ticks, h.size(), c.name());
                assertEquals(ClassHistory.capacityFor(s.tick()), h.capacity(), "a day at the session's tick");
                assertTrue(h.value(Series.REPLICAS, h.size() - 1) >= 0, "replicas recorded as a count");
            }
            assertEquals(s.loop().classes().size(), s.history().classNames().size());
        }
    }
}
