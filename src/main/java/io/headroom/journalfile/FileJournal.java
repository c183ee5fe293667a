package io.headroom.journalfile;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalException;
import io.headroom.journal.FreeText;
import tools.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The journal as files of JSON lines. Each line carries a checksum over its own content and the
 * previous line's checksum, so an altered or removed record is reported on replay; a checkpoint
 * beside the journal (the last record's number and checksum) tells when records were removed from
 * its end. Every append is forced to disk before it returns; a write that fails (a full disk) is
 * cut back, so the next record starts on a clean line. Lines are decoded one by one: a bad one is
 * set aside with a warning and costs only itself. A torn last line (a crash mid-write) is moved
 * aside to a {@code .torn-…} file.
 *
 * <p>The active file is sealed into a segment once a day or at 64 MB, and a snapshot of the
 * records that still shape state is written then: opening reads the snapshot and the segments
 * after it, never the whole history; the chain runs on across segments, so {@link #history()}
 * still verifies it all. Sealing is crash-safe at every step (see {@link #rotate}).
 *
 * <p>Each record also carries an HMAC under the journal's own key, kept beside it ({@link JournalKey}):
 * a line forged with a recomputed checksum is named on replay and never acted on; records written
 * before the key (an older journal) are read as they were, by their chain.
 *
 * <p>A lock file beside the journal is held while it is open: two consoles (two processes, or
 * two windows of one) cannot write one journal. All files are the user's alone ({@link PrivateFiles}).
 */
public final class FileJournal implements Journal {
    private static final Logger LOG = Logger.getLogger(FileJournal.class.getName());
    static final String GENESIS = Codec.GENESIS;
    /**
     * Lock files this JVM holds. A second open in this process is refused before it opens a
     * descriptor on the lock file: on POSIX systems closing any descriptor of a file drops every
     * lock the process holds on it.
     */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    /** How a segment's channel is opened; tests inject one that fails like a full disk. */
    interface Channels {
        FileChannel open(Path file) throws IOException;
    }

    /** Told each step of sealing a segment as it is done; tests end the process there to crash it. */
    interface RotationSteps {
        void reached(String step) throws IOException;
    }

    /**
     * @param maxSegmentBytes the active file is sealed once it reaches this size
     * @param clock           the day, for daily sealing, and the time in the names of files set aside
     * @param tail            how many appended records are kept at hand for {@link #appendedAfter} ({@value #TAIL})
     * @param checkpoints     opens the checkpoint file (apart from {@code channels}: a full disk does not stop it)
     */
    record Options(long maxSegmentBytes, Clock clock, Channels channels, RotationSteps steps, int tail,
                   Channels checkpoints) {
        static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

        static Options defaults() {
            return builder().build();
        }

        /** Options to set one by one: each names one option, so a new option is added in one place. */
        static Builder builder() {
            return new Builder();
        }

        static final class Builder {
            private long maxSegmentBytes = DEFAULT_SEGMENT_BYTES;
            private Clock clock = Clock.systemUTC();
            private Channels channels = PrivateFiles::open;
            private RotationSteps steps = step -> { };
            private int tail = TAIL;
            private Channels checkpoints = PrivateFiles::open;

            private Builder() {
            }

            Builder maxSegmentBytes(long max) {
                this.maxSegmentBytes = max;
                return this;
            }

            Builder clock(Clock c) {
                this.clock = c;
                return this;
            }

            Builder channels(Channels c) {
                this.channels = c;
                return this;
            }

            Builder steps(RotationSteps s) {
                this.steps = s;
                return this;
            }

            /** Keeps {@code n} records at hand: a test of the window appends a few dozen, not thousands, each forced. */
            Builder tail(int n) {
                this.tail = n;
                return this;
            }

            Builder checkpoints(Channels c) {
                this.checkpoints = c;
                return this;
            }

            Options build() {
                return new Options(maxSegmentBytes, clock, channels, steps, tail, checkpoints);
            }
        }
    }

    private final Path file;
    private final Path dir;
    private final String base;
    private final Options options;
    private final Path lockKey;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final List<String> openWarnings = new ArrayList<>();
    private Checkpoint checkpoint;
    /** The key every new record is written under; read or made at start. */
    private JournalKey key;
    /** The active file; null after a seal that could not open the next one (the next append tries again). */
    private FileChannel active;
    /** Bytes of whole records in the active file: a failed write is cut back to this. */
    private long goodSize;
    /** Numbering goes on from here: at least the last record in the files (more when records were removed). */
    private long lastSeq;
    /** The last record in the files, and its checksum (the next line chains to it). */
    private long lastRecordSeq;
    private String lastSum = GENESIS;
    private long activeFirstSeq = -1;
    private LocalDate activeDay;
    /** The records that shape state, kept as they are appended: sealing writes them without reading back. */
    private Compaction live = new Compaction();
    private volatile String failure;
    private boolean closed;
    /** The newest records this process appended, for a live view's next page ({@link #appendedAfter}). */
    private final java.util.ArrayDeque<JournalRecord> tail = new java.util.ArrayDeque<>();
    /** How many appended records a console keeps at hand for {@link #appendedAfter}. */
    static final int TAIL = 4096;

    private FileJournal(Path file, Options options, Path lockKey, FileChannel lockChannel, FileLock lock) {
        this.file = file;
        this.dir = file.getParent();
        this.base = file.getFileName().toString();
        this.options = options;
        this.lockKey = lockKey;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Opens (creating) the journal at {@code file}, repairing a torn tail. */
    public static FileJournal open(Path file) throws IOException {
        return open(file, Options.defaults());
    }

    static FileJournal open(Path file, Options options) throws IOException {
        Path abs = file.toAbsolutePath();
        PrivateFiles.createDirectories(abs.getParent());
        String lockName = abs.getFileName() + ".lock";
        Path key = abs.getParent().toRealPath().resolve(lockName);
        if (!HELD.add(key)) {
            throw new IOException("journal " + file + " is in use by another Headroom console (in this process)");
        }
        FileChannel lc = null;
        try {
            lc = PrivateFiles.open(abs.resolveSibling(lockName));
            FileLock lock = lc.tryLock();
            if (lock == null) {
                throw new IOException("journal " + file + " is in use by another Headroom console");
            }
            FileJournal j = new FileJournal(abs, options, key, lc, lock);
            try {
                j.start();
            } catch (IOException | RuntimeException e) {
                j.close();
                throw e;
            }
            return j;
        } catch (IOException | RuntimeException e) {
            if (lc != null && lc.isOpen()) {
                lc.close();
            }
            HELD.remove(key);
            throw e;
        }
    }

    /** Where the journal lives by default: {@code $XDG_STATE_HOME/headroom} or {@code ~/.local/state/headroom}. */
    public static Path defaultDirectory() {
        String state = System.getenv("XDG_STATE_HOME");
        Path base = state != null && !state.isBlank() ? Path.of(state)
                : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("headroom");
    }

    public Path file() {
        return file;
    }

    private Path sibling(String suffix) {
        return dir.resolve(base + suffix);
    }

    private Path snapshotFile() {
        return sibling(".snapshot");
    }

    private Path snapshotTmp() {
        return sibling(".snapshot.tmp");
    }

    /** Recovers what a crash left, reads where the journal stands, compares with the checkpoint. */
    private void start() throws IOException {
        // A seal that crashed before installing its snapshot: the segments are the truth, the half-made
        // snapshot is not needed.
        Files.deleteIfExists(snapshotTmp());
        openActive();
        repairTail();
        goodSize = active.size();
        checkpoint = Checkpoint.open(sibling(".checkpoint"), options.checkpoints());
        Checkpoint.Mark mark = checkpoint.read();
        try {
            key = JournalKey.read(keyFile());
        } catch (IOException e) {
            warn("the journal's key " + keyFile().getFileName() + " cannot be used (" + e.getMessage() + "): a new"
                    + " one is made, and the records before it are checked by their chain only");
            key = null;
        }
        Scan s;
        try (View v = view(Reading.STATE)) {
            s = scan(v, Reading.STATE, live::add, mark, Long.MIN_VALUE);
        }
        lastRecordSeq = s.verifier().lastSeq();
        lastSum = s.verifier().lastSum();
        lastSeq = Math.max(lastRecordSeq, s.verifier().lastSeenSeq());
        activeFirstSeq = s.activeFirstSeq();
        activeDay = s.activeFirstAt() == null ? null : LocalDate.ofInstant(s.activeFirstAt(), ZoneOffset.UTC);
        setAside(s.verifier().bad());
        // What opening found stays reported for this session, even once its segment is sealed.
        s.verifier().warnings().forEach(this::warn);
        if (mark == null) {
            if (lastRecordSeq > 0 && !checkpoint.existed()) {
                warn("no checkpoint was found beside the journal (first opened by this version, or deleted):"
                        + " records removed from its end before now cannot be detected");
            }
        } else if (mark.seq() > lastSeq) {
            warn("the journal ends at record " + lastSeq + ", but record " + mark.seq() + " was written (the"
                    + " checkpoint beside it says so): " + Verifier.missing(lastSeq + 1, mark.seq())
                    + " (deleted or cut off); what they recorded, a lifted freeze or a cleared override, is not"
                    + " replayed");
            lastSeq = mark.seq(); // number on from there: the gap stays visible
        }
        if (lastRecordSeq > 0 && (mark == null || mark.seq() < lastRecordSeq)) {
            checkpoint.write(lastRecordSeq, lastSum);
        }
        if (key == null) {
            keyFrom(s.verifier());
        }
        if (rotationDue()) {
            try {
                rotate();
            } catch (IOException e) {
                LOG.warning("could not seal the journal segment " + file + ": " + e.getMessage());
                if (active == null) {
                    openActive();
                }
            }
        }
    }

    private Path keyFile() {
        return sibling(".key");
    }

    /**
     * Makes the journal's key, for every record from the next on. A journal whose records carry MACs
     * lost its key: said, since those records can no longer be told from forgeries. One from before
     * keys is noted once, in the log.
     */
    private void keyFrom(Verifier read) throws IOException {
        long from = lastSeq + 1;
        key = JournalKey.create(keyFile(), from);
        if (read.lastKeyed() > 0) {
            warn("the journal's key (" + keyFile().getFileName() + ") was missing: "
                    + (read.firstKeyed() == read.lastKeyed() ? "record " + read.firstKeyed()
                    : "records " + read.firstKeyed() + "–" + read.lastKeyed())
                    + " can no longer be told from forgeries (their checksums still chain); a new key keys every"
                    + " record from " + from + " on");
        } else if (lastRecordSeq > 0) {
            LOG.info("journal " + file + " is keyed from record " + from + " on; the records before it were written"
                    + " before keys and are checked by their chain only");
        }
    }

    private void warn(String message) {
        if (!openWarnings.contains(message)) {
            openWarnings.add(message);
            LOG.warning(message);
        }
    }

    private void openActive() throws IOException {
        active = options.channels().open(file);
        PrivateFiles.restrict(file);
        PrivateFiles.syncDirectory(dir);
        goodSize = active.size();
        activeFirstSeq = -1;
        activeDay = null;
    }

    @Override
    public synchronized JournalRecord append(JournalRecord record) {
        if (closed) {
            throw new JournalException("the journal " + file + " is closed");
        }
        JournalRecord r = FreeText.clean(record).withSeq(lastSeq + 1);
        Codec.Encoded line = Codec.encode(r, lastSum, key);
        try {
            if (active == null) {
                openActive();
            } else if (active.size() != goodSize) {
                cutBack(); // what a failed write left
            }
            if (rotationDue()) {
                try {
                    rotate();
                } catch (IOException e) {
                    LOG.warning("could not seal the journal segment " + file + " (it grows on): " + e.getMessage());
                    if (active == null) {
                        throw e;
                    }
                }
            }
            ByteBuffer buf = ByteBuffer.wrap(line.line());
            long at = goodSize;
            while (buf.hasRemaining()) {
                at += active.write(buf, at);
            }
            active.force(false); // durable before the action is taken and reported
        } catch (IOException e) {
            try {
                cutBack();
            } catch (IOException again) {
                e.addSuppressed(again); // the next append cuts back first
            }
            failure = "could not write the journal " + file + ": " + e.getMessage();
            LOG.warning(failure);
            throw new JournalException(failure, e);
        }
        goodSize += line.line().length;
        live.add(new Line(r, java.util.Arrays.copyOf(line.line(), line.line().length - 1)));
        lastSeq = r.seq();
        lastRecordSeq = r.seq();
        lastSum = line.sum();
        tail.addLast(r);
        if (tail.size() > options.tail()) {
            tail.removeFirst();
        }
        if (activeFirstSeq < 0) {
            activeFirstSeq = r.seq();
            activeDay = today();
        }
        failure = null;
        try {
            checkpoint.write(r.seq(), line.sum());
        } catch (IOException e) {
            // The record itself is durable; only the detection of a later truncation is weaker for now.
            LOG.warning("could not update the journal's checkpoint: " + e.getMessage());
        }
        return r;
    }

    /** Removes what a failed write left after the last whole record. */
    private void cutBack() throws IOException {
        if (active != null && active.size() != goodSize) {
            active.truncate(goodSize);
            active.force(true);
        }
    }

    /**
     * The records appended after {@code seq} from those kept at hand: empty when some of them are no
     * longer kept (appended before this journal was opened, or more than {@link Options#tail()} ({@value #TAIL}) ago).
     */
    @Override
    public synchronized Optional<List<JournalRecord>> appendedAfter(long seq) {
        if (closed) {
            return Optional.empty();
        }
        if (seq >= lastRecordSeq) {
            return Optional.of(List.of());
        }
        JournalRecord first = tail.peekFirst();
        if (first == null || first.seq() > seq + 1) {
            return Optional.empty();
        }
        List<JournalRecord> after = new ArrayList<>();
        for (JournalRecord r : tail) {
            if (r.seq() > seq) {
                after.add(r);
            }
        }
        return Optional.of(after);
    }

    @Override
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    private LocalDate today() {
        return LocalDate.ofInstant(options.clock().instant(), ZoneOffset.UTC);
    }

    private boolean rotationDue() {
        return active != null && goodSize > 0 && (goodSize >= options.maxSegmentBytes()
                || activeDay != null && !activeDay.equals(today()));
    }

    /**
     * Seals the active file into a segment and snapshots the state, in an order that a crash at
     * any step cannot lose a record or the state: (1) the new snapshot goes to a temporary file;
     * (2) the active file is renamed to its segment name; (3) the snapshot replaces the old one;
     * (4) a new active file starts, chained to the sealed one. Opening reads the snapshot and every
     * segment after the record it covers: before (3) that is the old snapshot and the new segment.
     * The snapshot's records are those kept as they were appended: sealing reads nothing back.
     */
    private void rotate() throws IOException {
        long first = activeFirstSeq > 0 ? activeFirstSeq : lastRecordSeq + 1;
        PrivateFiles.write(snapshotTmp(), Snapshot.encode(lastRecordSeq, lastSum, live.live()));
        options.steps().reached("snapshot-written");
        Path sealed = dir.resolve(Segments.name(base, first, lastRecordSeq, options.clock().millis()));
        Files.move(file, sealed, StandardCopyOption.ATOMIC_MOVE);
        PrivateFiles.syncDirectory(dir);
        FileChannel old = active;
        active = null;
        old.close();
        options.steps().reached("segment-sealed");
        Files.move(snapshotTmp(), snapshotFile(), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        PrivateFiles.syncDirectory(dir);
        options.steps().reached("snapshot-installed");
        openActive();
        options.steps().reached("active-created");
        LOG.info("journal segment sealed: " + sealed.getFileName());
    }

    /**
     * Records to restore state from: the snapshot's and those after it, with what could not be
     * read. The files are taken in a moment under the lock and read outside it: a long read never
     * holds up an append (a freeze), and a seal meanwhile does not disturb it.
     */
    @Override
    public Replay replay() {
        List<JournalRecord> records = new ArrayList<>();
        try (View v = view(Reading.STATE)) {
            Scan s = scan(v, Reading.STATE, l -> records.add(l.record()), null, Long.MIN_VALUE);
            return new Replay(records, merged(s.verifier().warnings()));
        } catch (IOException e) {
            throw new JournalException("could not read the journal " + file + ": " + e.getMessage(), e);
        }
    }

    /** Every record in every segment, the chain checked across them all. */
    @Override
    public Replay history() {
        return history(null);
    }

    /** The records at or after {@code since} (all when null), read from the segments that may hold them. */
    @Override
    public Replay history(Instant since) {
        List<JournalRecord> records = new ArrayList<>();
        try (View v = view(Reading.HISTORY)) {
            long sinceMillis = since == null ? Long.MIN_VALUE : since.toEpochMilli();
            Scan s = scan(v, Reading.HISTORY, l -> {
                if (since == null || !l.record().at().isBefore(since)) {
                    records.add(l.record());
                }
            }, null, sinceMillis);
            return new Replay(records, merged(s.verifier().warnings()));
        } catch (IOException e) {
            throw new JournalException("could not read the journal " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The journal's files at one moment: the snapshot's bytes, the sealed segments, and the active
     * file through its own read-only descriptor with its size then. Sealed bytes and the active
     * file's first {@code activeSize} bytes never change, so reading them later is reading that
     * moment. (The lock is on the lock file, which no read touches.)
     */
    private record View(byte[] snapshot, List<Segments.Sealed> sealed, FileChannel active, long activeSize)
            implements AutoCloseable {
        @Override
        public void close() throws IOException {
            if (active != null) {
                active.close();
            }
        }
    }

    private synchronized View view(Reading reading) throws IOException {
        if (closed) {
            throw new IOException("the journal is closed");
        }
        byte[] snap = reading == Reading.STATE ? Snapshot.bytes(snapshotFile()) : null;
        FileChannel ch = this.active == null ? null : FileChannel.open(file, StandardOpenOption.READ);
        return new View(snap, Segments.list(dir, base), ch, goodSize);
    }

    private List<String> merged(List<String> found) {
        java.util.LinkedHashSet<String> all = new java.util.LinkedHashSet<>(openWarnings);
        all.addAll(found);
        return new ArrayList<>(all);
    }

    /** What a scan found; {@code activeFirstSeq} is -1 when the active file holds no record. */
    private record Scan(Verifier verifier, long activeFirstSeq, Instant activeFirstAt) {
    }

    /** What a scan reads: the state (snapshot and what follows it) or the history (segments). */
    private enum Reading { STATE, HISTORY }

    /**
     * Reads the records of {@code view} in order into {@code sink}. STATE: the snapshot, the segments
     * after the record it covers, the active file. HISTORY: the segments sealed at or after
     * {@code sealedSince} (epoch ms; chained on from the one before), then the active file.
     */
    private Scan scan(View view, Reading reading, Consumer<Line> sink, Checkpoint.Mark mark, long sealedSince)
            throws IOException {
        List<Segments.Sealed> sealed = view.sealed();
        Verifier v;
        long after = -1;
        List<String> pre = new ArrayList<>();
        Snapshot.Read snap = null;
        if (reading == Reading.STATE) {
            try {
                snap = Snapshot.read(view.snapshot(), key);
            } catch (Snapshot.Damaged e) {
                pre.add("the snapshot " + snapshotFile().getFileName() + " is damaged (" + e.getMessage()
                        + "): state is read from every segment instead");
            }
        }
        if (snap != null) {
            v = new Verifier(base, snap.sum(), snap.through(), sink);
            snap.lines().forEach(sink);
            after = snap.through();
        } else {
            Segments.Sealed skipped = null;
            for (Segments.Sealed s : sealed) {
                if (s.sealedAtMillis() < sealedSince) {
                    skipped = s;
                }
            }
            // History from a time on starts after the last segment sealed before it, chained on from there.
            v = skipped == null ? new Verifier(base, GENESIS, 0, sink) : new Verifier(base, null, skipped.last(), sink);
            after = skipped == null ? -1 : skipped.last();
        }
        v.warnings().addAll(pre);
        v.key(key);
        if (mark != null) {
            v.expect(mark.seq(), mark.sum());
        }
        for (Segments.Sealed s : sealed) {
            if (after >= 0 && s.last() <= after) {
                continue;
            }
            v.segment(s.file().getFileName().toString());
            try (FileChannel ch = FileChannel.open(s.file(), StandardOpenOption.READ)) {
                LineReader.read(ch, ch.size(), v::line);
            }
        }
        v.segment(null);
        if (view.active() != null) {
            LineReader.read(view.active(), view.activeSize(), v::line);
        }
        return new Scan(v, v.segmentFirstSeq(), v.segmentFirstAt());
    }

    /** Bad lines are kept in a {@code .bad} file beside their segment, for a human to read. */
    private void setAside(List<Verifier.Bad> bad) {
        Map<String, ByteArrayOutputStream> bySegment = new LinkedHashMap<>();
        for (Verifier.Bad b : bad) {
            ByteArrayOutputStream out = bySegment.computeIfAbsent(b.segment() == null ? base : b.segment(),
                    k -> new ByteArrayOutputStream());
            out.writeBytes(b.raw());
            out.write('\n');
        }
        for (Map.Entry<String, ByteArrayOutputStream> e : bySegment.entrySet()) {
            Path aside = dir.resolve(e.getKey() + ".bad");
            try {
                PrivateFiles.write(aside, e.getValue().toByteArray());
            } catch (IOException ex) {
                LOG.warning("could not set bad journal lines aside in " + aside + ": " + ex.getMessage());
            }
        }
    }

    /** A crash mid-write leaves a last line without its newline: move it aside, keep the rest. */
    private void repairTail() throws IOException {
        long size = active.size();
        if (size == 0) {
            return;
        }
        ByteBuffer last = ByteBuffer.allocate(1);
        active.read(last, size - 1);
        if (last.get(0) == '\n') {
            return;
        }
        // Find the last newline; everything after it is the torn record.
        long pos = size - 1;
        ByteBuffer one = ByteBuffer.allocate(1);
        while (pos > 0) {
            one.clear();
            active.read(one, pos - 1);
            if (one.get(0) == '\n') {
                break;
            }
            pos--;
        }
        ByteBuffer torn = ByteBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 16, size - pos));
        active.read(torn, pos);
        Path aside = sibling(".torn-" + options.clock().millis());
        PrivateFiles.write(aside, java.util.Arrays.copyOf(torn.array(), torn.position()));
        active.truncate(pos);
        active.force(true);
        warn("the last record was torn (a crash while writing?): " + (size - pos) + " bytes moved to "
                + aside.getFileName() + "; the records before it are intact");
    }

    static ObjectNode toJson(JournalRecord r) {
        return Codec.toJson(r);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (active != null) {
                active.close();
            }
            if (checkpoint != null) {
                checkpoint.close();
            }
            lock.release();
            lockChannel.close();
        } catch (IOException e) {
            LOG.warning("closing the journal: " + e.getMessage());
        } finally {
            HELD.remove(lockKey);
        }
    }
}
