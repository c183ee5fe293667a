package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.BuildInfo;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An incident report names the build that acted: going live writes the build into the journal. */
class ConsoleOpenedRecordTest {

    @Test
    void goingLiveJournalsTheBuildAndWhoOpenedTheConsoleOnce() throws Exception {
        MemoryJournal journal = new MemoryJournal();
        try (Session s = Session.sandbox(7, Instant.parse("2026-12-01T10:00:00Z"), Duration.ofMinutes(1), journal)) {
            assertEquals(List.of(), journal.replay().records(), "nothing of the warm-up is journaled");
            s.startAsync(Duration.ofMinutes(1)).get(60, TimeUnit.SECONDS);
            List<JournalRecord> opened = journal.replay().records().stream()
                    .filter(r -> r.kind() == JournalRecord.Kind.CONSOLE_OPENED).toList();
            assertEquals(1, opened.size(), journal.replay().records().toString());
            JournalRecord r = opened.get(0);
            assertEquals(BuildInfo.current().line(), r.detail());
            assertEquals(s.supervisor().user(), r.user());
            assertEquals(s.loop().cluster().contextName(), r.context());
            assertTrue(!r.at().isBefore(Instant.parse("2026-12-01T10:00:00Z")), "at the live clock's start: " + r.at());
        }
    }
}
