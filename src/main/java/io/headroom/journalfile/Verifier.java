package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.FreeText;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks journal lines one by one, across segments: each must be UTF-8 JSON whose checksum covers
 * its content and the previous line's checksum, with sequence numbers that neither skip nor
 * repeat, and (from the key's first record on) a MAC under the journal's key ({@link JournalKey}):
 * a record with a recomputed checksum but no valid MAC is named as forged. Lines that fail are
 * reported (with their segment and number) and not replayed; the rest go to the sink. A bad line
 * never costs more than itself.
 */
final class Verifier {
    private static final Pattern SEQ = Pattern.compile("\"seq\"\\s*:\\s*(\\d{1,18})");

    /** A line that could not be decoded, kept to be set aside for a human. */
    record Bad(String segment, int number, byte[] raw) {
    }

    private final Consumer<Line> sink;
    private final String activeName;
    /** The journal's key; null: MACs are not checked (none yet, or it was lost). */
    private JournalKey key;
    /** The first and last records seen carrying a MAC (-1: none), to say what a lost key leaves unchecked. */
    private long firstKeyed = -1;
    private long lastKeyed = -1;
    private final List<String> warnings = new ArrayList<>();
    private final List<Bad> bad = new ArrayList<>();
    private String prev;
    private long lastSeenSeq;
    private long lastSeq;
    private String lastSum;
    private long expectSeq = -1;
    private String expectSum;
    // The segment being read: its label (null for the active one) and the records it held.
    private String label;
    private long segmentFirstSeq = -1;
    private long segmentLastSeq = -1;
    private java.time.Instant segmentFirstAt;

    /**
     * Starts after a record {@code seq} whose sum was {@code prev} (0 and {@link Codec#GENESIS} at the start).
     * {@code activeName} is the active segment's file name, for where its bad lines are set aside.
     */
    Verifier(String activeName, String prev, long seq, Consumer<Line> sink) {
        this.activeName = activeName;
        this.prev = prev;
        this.lastSum = prev;
        this.lastSeenSeq = seq;
        this.lastSeq = seq;
        this.sink = sink;
    }

    /** Checks every record {@code key} keys for its MAC. */
    void key(JournalKey k) {
        this.key = k;
    }

    /** Warns unless the record numbered {@code seq} has the sum {@code sum} (the checkpoint's). */
    void expect(long seq, String sum) {
        this.expectSeq = seq;
        this.expectSum = sum;
    }

    /** The next lines are the segment named {@code segment}; null for the active one (its lines say only "line N"). */
    void segment(String segment) {
        label = segment;
        segmentFirstSeq = -1;
        segmentLastSeq = -1;
        segmentFirstAt = null;
    }

    void line(int n, byte[] raw) {
        if (isBlank(raw)) {
            return;
        }
        String where = (label == null ? "" : label + ": ") + "line " + n;
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(raw)).toString();
        } catch (CharacterCodingException e) {
            setAside(n, raw, where + ": not valid UTF-8");
            return;
        }
        ObjectNode node;
        try {
            JsonNode parsed = Codec.JSON.readTree(text);
            if (!(parsed instanceof ObjectNode o)) {
                setAside(n, raw, where + ": not a journal record");
                return;
            }
            node = o;
        } catch (tools.jackson.core.JacksonException e) {
            setAside(n, raw, where + ": unreadable JSON");
            return;
        }
        long seq = node.path("seq").asLong(-1);
        sequence(seq, where);
        String sum = node.path("sum").asString("");
        String linePrev = node.path("prev").asString("");
        node.remove("sum"); // what the checksum covers: the record without its chain fields
        node.remove("prev");
        if (!sum.equals(Codec.checksum(linePrev, node))) {
            warnings.add(where + ": checksum mismatch: the record was altered; not replayed");
            return;
        }
        if (prev != null && !linePrev.equals(prev)) {
            warnings.add(where + ": chain broken: a record before it was altered or removed");
        }
        String mac = node.has("mac") ? node.remove("mac").asString("") : null;
        if (mac != null && seq >= 0) {
            firstKeyed = firstKeyed < 0 ? seq : firstKeyed;
            lastKeyed = seq;
        }
        if (key != null && key.keys(seq) && (mac == null || !key.verifies(linePrev, node, mac))) {
            // Anyone can recompute a checksum; only this console's key makes the MAC. Never acted on.
            warnings.add(where + ": record " + seq + " (" + FreeText.clean(node.path("kind").asString("?") + " "
                    + node.path("class").asString(""), 200).strip() + ") does not carry this journal's key ("
                    + (mac == null ? "no MAC): forged or written by another program" : "its MAC does not verify):"
                    + " forged or altered") + "; not replayed");
            return;
        }
        prev = sum;
        JournalRecord r;
        try {
            r = Codec.fromJson(node);
        } catch (RuntimeException e) {
            warnings.add(where + ": " + e.getMessage() + "; skipped");
            return;
        }
        if (seq == expectSeq && !sum.equals(expectSum)) {
            warnings.add("record " + seq + " is not the one last written (the checkpoint beside the journal"
                    + " has another checksum): it was replaced");
        }
        lastSeq = r.seq();
        lastSum = sum;
        if (segmentFirstSeq < 0) {
            segmentFirstSeq = r.seq();
            segmentFirstAt = r.at();
        }
        segmentLastSeq = r.seq();
        sink.accept(new Line(r, raw));
    }

    private void sequence(long seq, String where) {
        if (seq < 0) {
            return;
        }
        if (seq > lastSeenSeq + 1) {
            warnings.add(missing(lastSeenSeq + 1, seq - 1) + " (before " + where + ")");
        } else if (seq <= lastSeenSeq) {
            warnings.add(where + ": record " + seq + " comes again or out of order (two consoles wrote one"
                    + " journal?)");
        }
        lastSeenSeq = Math.max(lastSeenSeq, seq);
    }

    static String missing(long from, long to) {
        return from == to ? "record " + from + " is missing" : "records " + from + "–" + to + " are missing";
    }

    private void setAside(int n, byte[] raw, String what) {
        bad.add(new Bad(label, n, raw));
        // Keep the numbering honest when the number is still legible.
        Matcher m = SEQ.matcher(new String(raw, StandardCharsets.ISO_8859_1));
        if (m.find()) {
            long seq = Long.parseLong(m.group(1));
            lastSeenSeq = Math.max(lastSeenSeq, seq);
        }
        warnings.add(what + "; set aside in " + (label == null ? activeName : label) + ".bad" + ", not replayed");
    }

    private static boolean isBlank(byte[] raw) {
        for (byte b : raw) {
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    List<String> warnings() {
        return warnings;
    }

    List<Bad> bad() {
        return bad;
    }

    /** The first record seen carrying a MAC, or -1. */
    long firstKeyed() {
        return firstKeyed;
    }

    /** The last record seen carrying a MAC, or -1. */
    long lastKeyed() {
        return lastKeyed;
    }

    /** The last good record's number (or the starting one). */
    long lastSeq() {
        return lastSeq;
    }

    /** The highest number seen on any line, good or not. */
    long lastSeenSeq() {
        return lastSeenSeq;
    }

    /** The sum the next record chains to. */
    String lastSum() {
        return lastSum;
    }

    long segmentFirstSeq() {
        return segmentFirstSeq;
    }

    long segmentLastSeq() {
        return segmentLastSeq;
    }

    java.time.Instant segmentFirstAt() {
        return segmentFirstAt;
    }
}
