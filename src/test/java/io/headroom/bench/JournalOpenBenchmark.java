package io.headroom.bench;

import io.headroom.journalfile.FileJournal;
import io.headroom.journal.Journal;
import io.headroom.journalfile.JournalFixtures;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What opening a large journal costs: the time and heap to open it and read its state back (what
 * a console does on start), for one journal of N records (default 1,000,000) as one file, the way
 * every journal was before segments ("before"), and the same journal once sealed into a segment
 * with a snapshot ("after": right after a seal, and at worst with a tail just under the 64 MB at
 * which the next seal comes). Not a test: {@code scripts/bench JournalOpenBenchmark [records]}.
 */
public final class JournalOpenBenchmark {

    /** A plausible mix: proposals with explanations, approvals, intents and outcomes, freezes, modes. */
    static JournalRecord record(long i, Instant at) {
        String cls = "class-" + (i % 20);
        return switch ((int) (i % 6)) {
            case 0 -> JournalRecord.of(at, Kind.PROPOSED, "alice", "prod", cls).change(3, 5).proposal(cls + "-" + i)
                    .until(at.plusSeconds(300)).detail("backlog 120 jobs at 14.2/s × 1.8 s per job / 0.7 utilisation"
                            + " → 5 replicas; ceiling 40 (maxReplicas) not binding; oldest age 38 s over 30 s target");
            case 1 -> JournalRecord.of(at, Kind.APPROVED, "alice", "prod", cls).change(3, 5).proposal(cls + "-" + (i - 1));
            case 2 -> JournalRecord.of(at, Kind.SCALING, "alice", "prod", cls).change(3, 5).reason("approved");
            case 3 -> JournalRecord.of(at, Kind.APPLIED, "alice", "prod", cls).change(3, 5).reason("approved")
                    .detail("scaled");
            case 4 -> JournalRecord.of(at, i % 12 == 4 ? Kind.FROZEN : Kind.UNFROZEN, "bob", "prod", cls)
                    .reason("incident " + i).until(at.plusSeconds(3600));
            default -> JournalRecord.of(at, Kind.MODE_CHANGED, "bob", "prod", cls).detail("SUPERVISED")
                    .reason("AUTO → SUPERVISED");
        };
    }

    public static void main(String[] args) throws Exception {
        long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        Path dir = Files.createTempDirectory("headroom-journal-bench");
        try {
            Path file = dir.resolve("journal.jsonl");
            Instant now = Instant.now();
            long t0 = System.nanoTime();
            JournalFixtures.writeOneFile(file, n, i -> record(i, now));
            System.out.printf("journal open benchmark: %,d records, %,d MB in one file (written in %.1f s)%n", n,
                    Files.size(file) >> 20, (System.nanoTime() - t0) / 1e9);

            // before: one file, read whole on every start
            measure("before (one file)", () -> JournalFixtures.open(file, Long.MAX_VALUE));

            // the first open with segments seals the old file once
            long s0 = System.nanoTime();
            try (FileJournal j = FileJournal.open(file)) {
                System.out.printf("  first open with segments: %.1f s (seals the old file once: %s)%n",
                        (System.nanoTime() - s0) / 1e9, sizes(dir));
            }
            // after: the snapshot and the tail, right after a seal (empty) ...
            measure("after, tail empty", () -> FileJournal.open(file));
            // ... and at worst, a tail just under the 64 MB at which it is sealed
            Path worst = dir.resolve("worst").resolve("journal.jsonl");
            long perRecord = Math.max(1, Files.size(file.resolveSibling(sealedName(dir))) / n);
            long tail = (63L << 20) / perRecord;
            JournalFixtures.writeOneFile(worst, tail, i -> record(i, now));
            measure("after, tail 63 MB", () -> FileJournal.open(worst));
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    interface Opener {
        FileJournal open() throws IOException;
    }

    /** Opens and replays (what a console's start does), with the wall time and the heap it took. */
    static void measure(String name, Opener opener) throws IOException {
        System.gc(); // what earlier runs left is not this one's peak
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
        long base = usedHeap();
        long start = System.nanoTime();
        try (FileJournal j = opener.open()) {
            double openSeconds = (System.nanoTime() - start) / 1e9;
            Journal.Replay r = j.replay();
            double total = (System.nanoTime() - start) / 1e9;
            long peak = peakHeap();
            System.gc();
            long retained = usedHeap() - base;
            System.out.printf("  %-24s open %6.2f s, open + replay %6.2f s, %,9d records replayed, heap peak %,6d MB,"
                    + " retained %,6d MB%n", name, openSeconds, total, r.records().size(), peak >> 20, retained >> 20);
        }
    }

    private static long usedHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    private static String sealedName(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(x -> x.matches("journal\\.jsonl\\.\\d{12}-.*"))
                    .findFirst().orElse("journal.jsonl");
        }
    }

    private static String sizes(Path dir) throws IOException {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString();
                if (name.equals("journal.jsonl") || name.contains(".snapshot") || name.matches("journal\\.jsonl\\.\\d{12}-.*")) {
                    b.append(b.length() == 0 ? "" : ", ").append(name.replaceAll("\\.\\d{12}-\\d{12}\\.\\d+$", ".<segment>"))
                            .append(' ').append(Files.size(p) >> 20).append(" MB");
                }
            }
        }
        return b.toString();
    }

    private JournalOpenBenchmark() {
    }
}
