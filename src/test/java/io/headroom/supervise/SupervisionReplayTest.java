package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journalfile.FileJournal;
import io.headroom.journal.Journal;
import io.headroom.journalfile.JournalFixtures;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading the journal back into supervised mode's state. A journal whose old segments were sealed
 * is read from its snapshot and tail: the state must be exactly what the whole history gives.
 */
class SupervisionReplayTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final List<String> NAMES = List.of("orders", "reports", "billing");
    static final Map<String, WorkloadClass> CLASSES = new LinkedHashMap<>();

    static {
        for (String n : NAMES) {
            CLASSES.put(n, new WorkloadClass(n, new WorkloadRef("sandbox", "default", "Deployment", n),
                    Policy.builder().build()));
        }
    }

    /**
     * A random but plausible story: freezes, overrides, modes, proposals and their fates, drains and their steps
     * (a replacement's scales and eviction: how far an unfinished one got must survive a snapshot), scales.
     */
    static JournalRecord next(SplittableRandom rnd, int i, long[] ids) {
        Instant at = T0.plusSeconds(i * 20L);
        String cls = rnd.nextInt(10) == 0 ? null : NAMES.get(rnd.nextInt(NAMES.size()));
        String ctx = rnd.nextInt(12) == 0 ? "elsewhere" : "sandbox";
        Instant until = at.plusSeconds(60 + rnd.nextInt(7200));
        JournalRecord base;
        switch (rnd.nextInt(cls == null ? 3 : 19)) {
            case 0 -> base = JournalRecord.of(at, Kind.FROZEN, "alice", ctx, cls).reason("incident " + i).until(until);
            case 1 -> base = JournalRecord.of(at, Kind.UNFROZEN, "alice", ctx, cls).reason("over");
            case 2 -> base = JournalRecord.of(at, Kind.FREEZE_EXPIRED, "alice", ctx, cls).reason("ran out");
            case 3 -> base = JournalRecord.of(at, Kind.OVERRIDE_SET, "bob", ctx, cls).change(null, 1 + rnd.nextInt(9))
                    .reason("pin").until(until);
            case 4 -> base = JournalRecord.of(at, Kind.OVERRIDE_CLEARED, "bob", ctx, cls).change(null, 3).reason("unpin");
            case 5 -> base = JournalRecord.of(at, Kind.MODE_CHANGED, "bob", ctx, cls)
                    .detail(Mode.values()[rnd.nextInt(3)].name());
            case 6, 7 -> base = JournalRecord.of(at, Kind.PROPOSED, "alice", ctx, cls).change(3, 4 + rnd.nextInt(5))
                    .proposal(cls + "-" + (++ids[0])).until(until).detail("wants more");
            case 8 -> base = JournalRecord.of(at, Kind.SUPERSEDED, "alice", ctx, cls).change(3, 4 + rnd.nextInt(5))
                    .proposal(cls + "-" + ids[0]).until(until).detail("wants even more");
            case 9 -> base = JournalRecord.of(at, List.of(Kind.APPROVED, Kind.REJECTED, Kind.WITHDRAWN, Kind.EXPIRED)
                    .get(rnd.nextInt(4)), "alice", ctx, cls).change(3, 5).proposal(cls + "-" + ids[0]);
            case 10 -> base = JournalRecord.of(at, Kind.DRAIN_STARTED, "alice", ctx, cls).change(4, 2)
                    .proposal(cls + "-drain-" + (++ids[1]) + "-ab12").until(until);
            case 11 -> base = JournalRecord.of(at, Kind.DRAIN_ENDED, "alice", ctx, cls).change(4, 2)
                    .proposal(cls + "-drain-" + (ids[1] - rnd.nextInt(2)) + "-ab12").reason("COMPLETED");
            case 12 -> base = JournalRecord.of(at, Kind.SCALING, "alice", ctx, cls).change(3, 6).reason("auto");
            case 13 -> base = JournalRecord.of(at, Kind.APPLIED, "alice", ctx, cls).change(3, 6).reason("auto");
            case 14 -> base = JournalRecord.of(at, Kind.FAILED, "alice", ctx, cls).change(3, 6).reason("auto");
            case 15 -> base = JournalRecord.of(at, List.of(Kind.SCALING, Kind.APPLIED, Kind.POD_EVICTED,
                    Kind.DRAIN_RESUMED).get(rnd.nextInt(4)), "alice", ctx, cls).change(4, 5)
                    .proposal(cls + "-drain-" + ids[1] + "-ab12").detail("a drain's step");
            case 16 -> base = JournalRecord.of(at, Kind.HANDING_BACK, "alice", ctx, cls).reason("handed back at exit");
            case 17 -> base = JournalRecord.of(at, rnd.nextBoolean() ? Kind.HANDED_BACK : Kind.HAND_BACK_REFUSED, "alice",
                    ctx, cls).reason("handed back at exit");
            default -> base = JournalRecord.of(at, Kind.DRAIN_UNMARKED, "alice", ctx, cls).detail("pod-1");
        }
        return base;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void aSnapshotAndItsTailRestoreWhatTheWholeHistoryDoes(long seed, @TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        SplittableRandom rnd = new SplittableRandom(seed);
        long[] ids = {0, 0};
        int n = 600;
        // Written without fsync: this is about what a snapshot and its tail restore, not durability.
        try (FileJournal j = JournalFixtures.openWithoutForcing(f, 4_000)) {
            for (int i = 1; i <= n; i++) {
                j.append(next(rnd, i, ids));
            }
        }
        Instant now = T0.plusSeconds(n * 20L).plus(Duration.ofMinutes(30));
        try (FileJournal j = JournalFixtures.open(f, 4_000)) {
            Journal.Replay state = j.replay();
            Journal.Replay history = j.history();
            assertEquals(n, history.records().size());
            assertTrue(state.records().size() < n / 3, "read from a snapshot: " + state.records().size());
            try (var files = Files.list(dir)) {
                assertTrue(files.filter(p -> p.getFileName().toString().matches("journal\\.jsonl\\.\\d{12}-.*"))
                        .count() > 5, "many sealed segments");
            }
            SupervisionReplay.Restored fromState = SupervisionReplay.replay(state, CLASSES, "sandbox", now);
            SupervisionReplay.Restored fromHistory = SupervisionReplay.replay(history, CLASSES, "sandbox", now);
            assertEquals(fromHistory, fromState);
            assertTrue(fromState.proposalCounter() > 0 && fromState.drainCounter() > 0, "ids go on after a restart");
        }
    }

    @Test
    void aScaleWhoseOutcomeWasNeverWrittenIsReported() {
        MemoryJournal j = new MemoryJournal();
        j.append(JournalRecord.of(T0, Kind.SCALING, "alice", "sandbox", "orders").change(3, 7).reason("auto"));
        j.append(JournalRecord.of(T0, Kind.SCALING, "alice", "sandbox", "reports").change(2, 4).reason("auto"));
        j.append(JournalRecord.of(T0, Kind.APPLIED, "alice", "sandbox", "reports").change(2, 4).reason("auto"));
        SupervisionReplay.Restored r = SupervisionReplay.replay(j.replay(), CLASSES, "sandbox", T0);
        assertEquals(1, r.warnings().size(), r.warnings().toString());
        assertTrue(r.warnings().get(0).startsWith("orders: the console stopped while scaling 3 → 7 (record 1)"),
                r.warnings().get(0));
    }

    @Test
    void aHandBackWhoseOutcomeWasNeverWrittenIsReportedAndLiftsNothing() {
        MemoryJournal j = new MemoryJournal();
        j.append(JournalRecord.of(T0, Kind.FROZEN, "alice", "sandbox", "orders").reason("incident 812")
                .until(T0.plusSeconds(3600)));
        j.append(JournalRecord.of(T0, Kind.HANDING_BACK, "alice", "sandbox", "orders").reason("handed back at exit"));
        j.append(JournalRecord.of(T0, Kind.HANDING_BACK, "alice", "sandbox", "reports").reason("handed back at exit"));
        j.append(JournalRecord.of(T0, Kind.HAND_BACK_REFUSED, "alice", "sandbox", "reports").reason("HTTP 500"));
        j.append(JournalRecord.of(T0, Kind.HANDING_BACK, "alice", "sandbox", null).node("node-1").reason("uncordon"));
        SupervisionReplay.Restored r = SupervisionReplay.replay(j.replay(), CLASSES, "sandbox", T0);
        assertEquals(1, r.warnings().size(), r.warnings().toString());
        assertTrue(r.warnings().get(0).startsWith("orders: the console stopped while handing it back (record 2)"),
                r.warnings().get(0));
        assertEquals("incident 812", r.classes().get("orders").freeze().reason(), "nothing lifted without its record");
    }

    @Test
    void anotherClustersRecordsAndExpiredStateAreLeftOut() {
        MemoryJournal j = new MemoryJournal();
        j.append(JournalRecord.of(T0, Kind.FROZEN, "alice", "elsewhere", "orders").reason("theirs")
                .until(T0.plusSeconds(3600)));
        j.append(JournalRecord.of(T0, Kind.FROZEN, "alice", "sandbox", null).reason("over by now")
                .until(T0.plusSeconds(60)));
        j.append(JournalRecord.of(T0, Kind.MODE_CHANGED, "alice", "sandbox", "billing").detail("AUTO"));
        SupervisionReplay.Restored r = SupervisionReplay.replay(j.replay(), CLASSES, "sandbox", T0.plusSeconds(120));
        assertNull(r.classes().get("orders").freeze(), "another cluster's freeze");
        assertNull(r.freezeAll(), "expired while the console was down");
        assertEquals(Mode.AUTO, r.classes().get("billing").mode());
    }
}
