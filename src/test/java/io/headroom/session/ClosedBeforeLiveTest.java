package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A console closed while its session warms up (the window closed in its first seconds): the warm-up stops, the
 * session never goes live, nothing is journaled as opened, and nothing is logged as a failure (it logged "the
 * session failed to start" with a RejectedExecutionException's stack before).
 */
class ClosedBeforeLiveTest {

    @Test
    void aSessionClosedDuringItsWarmUpStopsQuietlyAndNeverGoesLive() throws Exception {
        Logger log = Logger.getLogger(Session.class.getName());
        List<LogRecord> severe = new CopyOnWriteArrayList<>();
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    severe.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(h);
        MemoryJournal journal = new MemoryJournal();
        try {
            Session s = Session.sandbox(7, Instant.parse("2026-12-01T10:00:00Z"), Duration.ofMinutes(1), journal);
            // A long warm-up (a week of simulated ticks): the window closes while it runs.
            var live = s.startAsync(Duration.ofDays(7));
            long t0 = System.nanoTime();
            s.close();
            live.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "the close does not wait out the warm-up");
            assertEquals(List.of(), severe.stream().map(r -> r.getLevel() + " " + r.getMessage()).toList(),
                    "nothing logged as a failure");
            assertTrue(journal.replay().records().stream().noneMatch(r -> r.kind() == JournalRecord.Kind.CONSOLE_OPENED),
                    "never went live: " + journal.replay().records());
        } finally {
            log.removeHandler(h);
        }
    }
}
