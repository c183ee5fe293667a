package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.FreeText;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongFunction;

/** Journals for tests and benchmarks outside this package: small segments, or a large file written fast. */
public final class JournalFixtures {
    private JournalFixtures() {
    }

    /** A journal that seals a segment every {@code maxSegmentBytes}. */
    public static FileJournal open(Path file, long maxSegmentBytes) throws IOException {
        return FileJournal.open(file, FileJournal.Options.builder().maxSegmentBytes(maxSegmentBytes).build());
    }

    /**
     * The same, with the journal's forces (segments and checkpoint) counted but not carried out: for a test of many appends
     * that is about what is read back, not about durability (FileJournalTest and the crash tests keep
     * real forces). 600 fsynced appends took 0.7 s quiet and 3-5 s on a loaded disk.
     */
    public static FileJournal openWithoutForcing(Path file, long maxSegmentBytes) throws IOException {
        return FileJournal.open(file, FileJournal.Options.builder().maxSegmentBytes(maxSegmentBytes)
                .channels(new FullDiskChannels().withoutForcing())
                .checkpoints(new FullDiskChannels().withoutForcing()).build());
    }

    /**
     * Writes records 1..n straight into one file (no force per record, no sealing), chained and
     * checkpointed as the journal writes them: a large journal in seconds, as one written before
     * segments existed would look.
     */
    public static void writeOneFile(Path file, long n, LongFunction<JournalRecord> record) throws IOException {
        PrivateFiles.createParent(file);
        String prev = Codec.GENESIS;
        try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            for (long i = 1; i <= n; i++) {
                Codec.Encoded line = Codec.encode(FreeText.clean(record.apply(i)).withSeq(i), prev, null);
                out.write(line.line());
                prev = line.sum();
            }
        }
        try (Checkpoint c = Checkpoint.open(file.resolveSibling(file.getFileName() + ".checkpoint"))) {
            c.write(n, prev);
        }
    }
}
