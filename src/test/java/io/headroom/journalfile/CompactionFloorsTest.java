package io.headroom.journalfile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a compacted journal keeps of forecast floors (issue 29): the pending proposal and the floor held, which a
 * restart restores; nothing of a floor that ended or a proposal decided.
 */
class CompactionFloorsTest {
    static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");

    static JournalRecord r(long seq, Kind kind, String cls, String id) {
        return JournalRecord.of(T0.plusSeconds(seq), kind, "alice", "ctx", cls).proposal(id).withSeq(seq);
    }

    static List<Long> kept(List<JournalRecord> records) {
        Compaction c = new Compaction();
        records.forEach(x -> c.add(new Line(x, new byte[0])));
        return c.live().stream().map(l -> l.record().seq()).toList();
    }

    @Test
    void aPendingProposalAndAHeldFloorAreKeptWhatEndedIsNot() {
        List<JournalRecord> all = new ArrayList<>();
        all.add(r(1, Kind.FORECAST_FLOOR_PROPOSED, "a", "a-floor-1"));
        all.add(r(2, Kind.FORECAST_FLOOR_APPROVED, "a", "a-floor-1"));
        all.add(r(3, Kind.FORECAST_FLOOR_PROPOSED, "b", "b-floor-1"));
        all.add(r(4, Kind.FORECAST_FLOOR_PROPOSED, "c", "c-floor-1"));
        all.add(r(5, Kind.FORECAST_FLOOR_REJECTED, "c", "c-floor-1"));
        all.add(r(6, Kind.FORECAST_FLOOR_APPROVED, "d", "d-floor-1"));
        all.add(r(7, Kind.FORECAST_FLOOR_LAPSED, "d", "d-floor-1"));
        assertEquals(List.of(2L, 3L), kept(all), "a's floor held, b's proposal pending; c decided, d lapsed");
        all.add(r(8, Kind.FORECAST_FLOOR_CANCELLED, "a", "a-floor-1"));
        all.add(r(9, Kind.FORECAST_FLOOR_WITHDRAWN, "b", "b-floor-1"));
        assertEquals(List.of(), kept(all));
    }
}
