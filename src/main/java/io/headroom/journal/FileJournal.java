package io.headroom.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.logging.Logger;

/**
 * The journal as a file of JSON lines. Each line carries a checksum over its own content and
 * the previous line's checksum, so an altered or removed record is reported on replay. Every
 * append is forced to disk before it returns. A torn last line (a crash mid-write) is moved
 * aside to a {@code .torn-…} file with a warning and never corrupts the records before it.
 * The file is locked: two consoles cannot write one journal.
 */
public final class FileJournal implements Journal {
    private static final Logger LOG = Logger.getLogger(FileJournal.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String GENESIS = "0".repeat(32);

    private final Path file;
    private final FileChannel channel;
    private final FileLock lock;
    private final List<String> openWarnings = new ArrayList<>();
    private String lastSum = GENESIS;
    private long lastSeq;

    private FileJournal(Path file, FileChannel channel, FileLock lock) {
        this.file = file;
        this.channel = channel;
        this.lock = lock;
    }

    /** How a segment's channel is opened; tests inject one that fails like a full disk. */
    interface Channels {
        FileChannel open(Path file) throws IOException;
    }

    /**
     * @param maxSegmentBytes the active segment is sealed once it reaches this size
     * @param clock           decides the day, for daily rotation
     */
    record Options(long maxSegmentBytes, java.time.Clock clock, Channels channels) {
        static final long DEFAULT_SEGMENT_BYTES = 64L << 20;

        static Options defaults() {
            return new Options(DEFAULT_SEGMENT_BYTES, java.time.Clock.systemUTC(),
                    f -> FileChannel.open(f, StandardOpenOption.CREATE, StandardOpenOption.READ,
                            StandardOpenOption.WRITE));
        }

        Options withChannels(Channels c) {
            return new Options(maxSegmentBytes, clock, c);
        }

        Options withMaxSegmentBytes(long max) {
            return new Options(max, clock, channels);
        }

        Options withClock(java.time.Clock c) {
            return new Options(maxSegmentBytes, c, channels);
        }
    }

    /** Opens (creating) the journal at {@code file}, repairing a torn tail. */
    public static FileJournal open(Path file) throws IOException {
        return open(file, Options.defaults());
    }

    static FileJournal open(Path file, Options options) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        FileChannel ch = options.channels().open(file);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException e) {
            lock = null; // held by this very process (a second console window)
        }
        if (lock == null) {
            ch.close();
            throw new IOException("journal " + file + " is in use by another Headroom console");
        }
        FileJournal j = new FileJournal(file, ch, lock);
        j.repairTail();
        Replay r = j.replay();
        if (!r.records().isEmpty()) {
            j.lastSeq = r.records().get(r.records().size() - 1).seq();
        }
        return j;
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

    @Override
    public synchronized JournalRecord append(JournalRecord record) {
        JournalRecord r = Redactor.redact(record).withSeq(++lastSeq);
        ObjectNode body = toJson(r);
        String sum = checksum(lastSum, body);
        body.put("prev", lastSum);
        body.put("sum", sum);
        byte[] line = (body.toString() + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            ByteBuffer buf = ByteBuffer.wrap(line);
            channel.position(channel.size());
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
            channel.force(false); // durable before the action is reported done
        } catch (IOException e) {
            lastSeq--;
            throw new UncheckedIOException("could not write the journal " + file, e);
        }
        lastSum = sum;
        return r;
    }

    @Override
    public synchronized Replay replay() {
        List<JournalRecord> records = new ArrayList<>();
        List<String> warnings = new ArrayList<>(openWarnings);
        String prev = GENESIS;
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the journal " + file, e);
        }
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int n = i + 1;
            if (line.isBlank()) {
                continue;
            }
            ObjectNode node;
            try {
                JsonNode parsed = JSON.readTree(line);
                if (!(parsed instanceof ObjectNode o)) {
                    warnings.add("line " + n + ": not a journal record; skipped");
                    continue;
                }
                node = o;
            } catch (IOException e) {
                warnings.add("line " + n + ": unreadable JSON; skipped");
                continue;
            }
            String sum = node.path("sum").asText("");
            String linePrev = node.path("prev").asText("");
            ObjectNode body = node.deepCopy();
            body.remove("sum");
            body.remove("prev");
            if (!sum.equals(checksum(linePrev, body))) {
                warnings.add("line " + n + ": checksum mismatch: the record was altered; not replayed");
                continue;
            }
            if (!linePrev.equals(prev)) {
                warnings.add("line " + n + ": chain broken: a record before it was altered or removed");
            }
            prev = sum;
            try {
                records.add(fromJson(node));
            } catch (RuntimeException e) {
                warnings.add("line " + n + ": " + e.getMessage() + "; skipped");
            }
        }
        lastSum = prev;
        return new Replay(records, warnings);
    }

    /** A crash mid-write leaves a last line without its newline: move it aside, keep the rest. */
    private void repairTail() throws IOException {
        long size = channel.size();
        if (size == 0) {
            return;
        }
        ByteBuffer last = ByteBuffer.allocate(1);
        channel.read(last, size - 1);
        if (last.get(0) == '\n') {
            return;
        }
        // Find the last newline; everything after it is the torn record.
        long pos = size - 1;
        ByteBuffer one = ByteBuffer.allocate(1);
        while (pos > 0) {
            one.clear();
            channel.read(one, pos - 1);
            if (one.get(0) == '\n') {
                break;
            }
            pos--;
        }
        ByteBuffer torn = ByteBuffer.allocate((int) (size - pos));
        channel.read(torn, pos);
        Path aside = file.resolveSibling(file.getFileName() + ".torn-" + Instant.now().toEpochMilli());
        Files.write(aside, torn.array());
        channel.truncate(pos);
        channel.force(true);
        String msg = "the last record was torn (a crash while writing?): " + (size - pos)
                + " bytes moved to " + aside.getFileName() + "; the records before it are intact";
        openWarnings.add(msg);
        LOG.warning(msg);
    }

    static String checksum(String prev, ObjectNode body) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(prev.getBytes(StandardCharsets.UTF_8));
            md.update((byte) '\n');
            md.update(body.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    static ObjectNode toJson(JournalRecord r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("seq", r.seq());
        o.put("at", r.at().toString());
        o.put("kind", r.kind().name());
        o.put("user", r.user());
        putText(o, "context", r.context());
        putText(o, "class", r.className());
        if (r.before() != null) {
            o.put("before", r.before());
        }
        if (r.after() != null) {
            o.put("after", r.after());
        }
        putText(o, "reason", r.reason());
        putText(o, "detail", r.detail());
        putText(o, "proposal", r.proposalId());
        if (r.until() != null) {
            o.put("until", r.until().toString());
        }
        return o;
    }

    static JournalRecord fromJson(JsonNode o) {
        return new JournalRecord(o.path("seq").asLong(), Instant.parse(o.path("at").asText()),
                JournalRecord.Kind.valueOf(o.path("kind").asText()), o.path("user").asText(),
                text(o, "context"), text(o, "class"), integer(o, "before"), integer(o, "after"), text(o, "reason"),
                text(o, "detail"), text(o, "proposal"), o.hasNonNull("until") ? Instant.parse(o.get("until").asText())
                        : null);
    }

    private static void putText(ObjectNode o, String field, String value) {
        if (value != null) {
            o.put(field, value);
        }
    }

    private static String text(JsonNode o, String field) {
        return o.hasNonNull(field) ? o.get(field).asText() : null;
    }

    private static Integer integer(JsonNode o, String field) {
        return o.hasNonNull(field) ? o.get(field).asInt() : null;
    }

    @Override
    public synchronized void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            LOG.warning("closing the journal: " + e.getMessage());
        }
    }
}
