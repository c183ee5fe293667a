package io.headroom.journalfile;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import io.headroom.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sealing segments and snapshots: opening reads the snapshot and the tail, the history keeps
 * everything with its chain checked across segments, and a crash at any step of sealing loses no
 * record and no state.
 */
class JournalRotationTest {
    static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

    /** A clock the test moves. */
    static final class MovingClock extends Clock {
        Instant now;

        MovingClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    final MovingClock clock = new MovingClock(T0);

    FileJournal.Options small() {
        return FileJournal.Options.builder().clock(clock).maxSegmentBytes(2_000).build();
    }

    static List<Path> segments(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().matches("journal\\.jsonl\\.\\d{12}-\\d{12}\\.\\d+"))
                    .sorted().toList();
        }
    }

    static List<Long> seqs(List<JournalRecord> records) {
        return records.stream().map(JournalRecord::seq).toList();
    }

    /** What the state read should be: the history, compacted. */
    static List<Long> compacted(List<JournalRecord> history) {
        Compaction c = new Compaction();
        history.forEach(r -> c.add(new Line(r, new byte[0])));
        return c.live().stream().map(l -> l.record().seq()).toList();
    }

    @Test
    void atTheSizeLimitASegmentIsSealedAndOpeningReadsTheSnapshotAndTheTail(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f, small())) {
            for (int i = 1; i <= 60; i++) {
                j.append(JournalCrashProbe.record(i, T0.plusSeconds(i)));
            }
        }
        assertTrue(segments(dir).size() >= 3, "sealed: " + segments(dir));
        assertTrue(Files.size(f) < 2_000 + 400, "the active file stays small");
        try (FileJournal j = FileJournal.open(f, small())) {
            Journal.Replay history = j.history();
            assertEquals(List.of(), history.warnings(), "the chain holds across segments");
            assertEquals(LongStream.rangeClosed(1, 60).boxed().toList(), seqs(history.records()), "nothing lost");
            Journal.Replay state = j.replay();
            assertEquals(List.of(), state.warnings());
            assertEquals(compacted(history.records()), compacted(state.records()),
                    "the state read holds what the whole history does");
            assertTrue(state.records().size() < 25, "and much shorter: " + state.records().size());
            assertEquals(61, j.append(JournalCrashProbe.record(61, T0.plusSeconds(61))).seq());
        }
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                assertEquals(PrivateFiles.FILE, Files.getPosixFilePermissions(p), p.toString());
            }
        }
    }

    @Test
    void aNewDayStartsANewSegment(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        FileJournal.Options daily = FileJournal.Options.builder().clock(clock).build();
        try (FileJournal j = FileJournal.open(f, daily)) {
            j.append(JournalCrashProbe.record(10, T0));
            j.append(JournalCrashProbe.record(11, T0.plusSeconds(60)));
            assertTrue(segments(dir).isEmpty());
            clock.now = T0.plus(Duration.ofDays(1));
            j.append(JournalCrashProbe.record(12, clock.now));
            assertEquals(1, segments(dir).size(), "yesterday's records sealed");
            assertTrue(segments(dir).get(0).getFileName().toString().startsWith("journal.jsonl.000000000001-000000000002."));
            assertEquals(List.of(1L, 2L, 3L), seqs(j.history().records()));
            assertEquals(List.of(), j.history().warnings());
        }
    }

    @Test
    void historyFromATimeOnReadsOnlyTheSegmentsThatMayHoldIt(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        FileJournal.Options daily = FileJournal.Options.builder().clock(clock).build();
        try (FileJournal j = FileJournal.open(f, daily)) {
            for (int day = 0; day < 3; day++) {
                clock.now = T0.plus(Duration.ofDays(day));
                for (int i = 0; i < 5; i++) {
                    j.append(JournalCrashProbe.record(day * 5 + i + 1, clock.now.plusSeconds(i)));
                }
            }
        }
        List<Path> sealed = segments(dir);
        assertEquals(2, sealed.size());
        Files.writeString(sealed.get(0), "not even json\n", java.nio.file.StandardOpenOption.APPEND);
        try (FileJournal j = FileJournal.open(f, daily)) {
            Journal.Replay lastDay = j.history(T0.plus(Duration.ofDays(2)));
            assertEquals(List.of(11L, 12L, 13L, 14L, 15L), seqs(lastDay.records()));
            assertEquals(List.of(), lastDay.warnings(), "the first day's segment was not even read");
            assertTrue(j.history().warnings().stream().anyMatch(w -> w.contains("unreadable JSON")),
                    "the whole history reads it");
        }
    }

    @Test
    void alteringOrRemovingASealedSegmentShowsInTheHistory(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f, small())) {
            for (int i = 1; i <= 60; i++) {
                j.append(JournalCrashProbe.record(i, T0.plusSeconds(i)));
            }
        }
        List<Path> sealed = segments(dir);
        Path first = sealed.get(0);
        List<String> lines = Files.readAllLines(first);
        lines.set(1, lines.get(1).replace("probe", "mallory"));
        Files.write(first, lines);
        Files.delete(sealed.get(1));
        try (FileJournal j = FileJournal.open(f, small())) {
            List<String> w = j.history().warnings();
            assertTrue(w.stream().anyMatch(x -> x.startsWith(first.getFileName() + ": line 2: checksum mismatch")), w.toString());
            assertTrue(w.stream().anyMatch(x -> x.contains("are missing")), "the removed segment's records: " + w);
        }
    }

    @Test
    void aDamagedSnapshotIsReportedAndStateIsReadFromEverySegment(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        List<Long> expected;
        try (FileJournal j = FileJournal.open(f, small())) {
            for (int i = 1; i <= 60; i++) {
                j.append(JournalCrashProbe.record(i, T0.plusSeconds(i)));
            }
            expected = compacted(j.replay().records());
        }
        Path snapshot = dir.resolve("journal.jsonl.snapshot");
        String s = Files.readString(snapshot);
        Files.writeString(snapshot, s.replace("incident", "accident"));
        try (FileJournal j = FileJournal.open(f, small())) {
            Journal.Replay r = j.replay();
            assertTrue(r.warnings().stream().anyMatch(w -> w.contains("snapshot") && w.contains("damaged")),
                    r.warnings().toString());
            assertEquals(expected, compacted(r.records()), "the same state, read the long way");
        }
    }

    @Test
    void aLargeJournalFromBeforeRotationIsSealedOnOpen(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("journal.jsonl");
        try (FileJournal j = FileJournal.open(f, FileJournal.Options.builder().clock(clock)
                .maxSegmentBytes(Long.MAX_VALUE).build())) {
            for (int i = 1; i <= 60; i++) {
                j.append(JournalCrashProbe.record(i, T0.plusSeconds(i)));
            }
        }
        assertTrue(segments(dir).isEmpty());
        try (FileJournal j = FileJournal.open(f, small())) {
            assertEquals(1, segments(dir).size(), "sealed at once");
            assertEquals(0, Files.size(f));
            assertEquals(60, j.history().records().size());
        }
    }

    // ------------------------------------------------------------------ crashes while sealing

    @ParameterizedTest
    @ValueSource(strings = {"snapshot-written", "segment-sealed", "snapshot-installed", "active-created"})
    void aCrashAtAnyStepOfSealingLosesNoRecordAndNoState(String step, @TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        List<Long> durable = new ArrayList<>();
        Process p;
        try (ChildJvm probe = ChildJvm.start(JournalCrashProbe.class, f.toString(), step)) {
            p = probe.process();
            for (String line = probe.readLine(); line != null; line = probe.readLine()) {
                if (line.startsWith("APPENDED ")) {
                    durable.add(Long.parseLong(line.substring(9)));
                }
            }
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        }
        assertEquals(7, p.exitValue(), "the probe crashed at " + step);
        assertFalse(durable.isEmpty());

        try (FileJournal j = FileJournal.open(f, FileJournal.Options.builder().maxSegmentBytes(1500).build())) {
            Journal.Replay history = j.history();
            assertEquals(List.of(), history.warnings(), "after a crash at " + step);
            assertEquals(durable, seqs(history.records()), "every record that was durable, once, in order");
            Journal.Replay state = j.replay();
            assertEquals(compacted(history.records()), compacted(state.records()), "the state is whole");
            long next = durable.get(durable.size() - 1) + 1;
            assertEquals(next, j.append(JournalCrashProbe.record((int) next, Instant.now())).seq());
            assertEquals(List.of(), j.history().warnings(), "and the chain goes on");
        }
        assertFalse(Files.exists(dir.resolve("journal.jsonl.snapshot.tmp")), "the half-made snapshot is gone");
    }
}
