package io.headroom.journalfile;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The records that still shape state ({@link Compaction}) through record {@code through}, written
 * when a segment is sealed: opening reads this and the segments after it, not the whole history.
 * A header names the last record it covers and its chain sum (the next segment chains on from
 * it) and a checksum over the lines; each line keeps its own checksum as it was journaled.
 */
final class Snapshot {
    /** A snapshot as read: the records it covers end at {@code through}, whose sum is {@code sum}. */
    record Read(long through, String sum, List<Line> lines) {
    }

    /** The snapshot file is there but cannot be trusted. */
    static final class Damaged extends Exception {
        Damaged(String message) {
            super(message);
        }
    }

    private Snapshot() {
    }

    static byte[] encode(long through, String sum, List<Line> lines) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (Line l : lines) {
            body.writeBytes(l.raw());
            body.write('\n');
        }
        byte[] b = body.toByteArray();
        ObjectNode h = Codec.JSON.createObjectNode();
        h.put("snapshot", 1);
        h.put("through", through);
        h.put("sum", sum);
        h.put("records", lines.size());
        h.put("check", digest(b));
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + 200);
        out.writeBytes((h.toString() + "\n").getBytes(StandardCharsets.UTF_8));
        out.writeBytes(b);
        return out.toByteArray();
    }

    /** The snapshot file's bytes, or null when there is none. */
    static byte[] bytes(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    /** The snapshot in {@code all} (a snapshot file's bytes), or null when there is none; no MAC checked. */
    static Read read(byte[] all) throws Damaged {
        return read(all, null);
    }

    /**
     * The snapshot in {@code all}, or null when there is none; every record {@code key} keys must carry its
     * MAC (a snapshot rewritten with a record added and every checksum recomputed is damaged, not state).
     */
    static Read read(byte[] all, JournalKey key) throws Damaged {
        if (all == null) {
            return null;
        }
        int nl = indexOf(all, 0);
        if (nl < 0) {
            throw new Damaged("no header");
        }
        JsonNode h;
        try {
            h = Codec.JSON.readTree(new String(all, 0, nl, StandardCharsets.UTF_8));
        } catch (tools.jackson.core.JacksonException e) {
            throw new Damaged("unreadable header");
        }
        if (h.path("snapshot").asInt(0) != 1) {
            throw new Damaged("unknown format");
        }
        byte[] body = java.util.Arrays.copyOfRange(all, nl + 1, all.length);
        if (!digest(body).equals(h.path("check").asString(""))) {
            throw new Damaged("its checksum does not match (altered or cut short)");
        }
        List<Line> lines = new ArrayList<>();
        int start = 0;
        while (start < body.length) {
            int end = indexOf(body, start);
            if (end < 0) {
                throw new Damaged("a line without its end");
            }
            byte[] raw = java.util.Arrays.copyOfRange(body, start, end);
            start = end + 1;
            try {
                ObjectNode node = (ObjectNode) Codec.JSON.readTree(new String(raw, StandardCharsets.UTF_8));
                String sum = node.path("sum").asString("");
                String prev = node.path("prev").asString("");
                ObjectNode b = node.deepCopy();
                b.remove("sum");
                b.remove("prev");
                if (!sum.equals(Codec.checksum(prev, b))) {
                    throw new Damaged("a record in it was altered");
                }
                String mac = b.has("mac") ? b.remove("mac").asString("") : null;
                if (key != null && key.keys(b.path("seq").asLong(-1)) && (mac == null || !key.verifies(prev, b, mac))) {
                    throw new Damaged("record " + b.path("seq").asLong(0L) + " in it does not carry the journal's key");
                }
                lines.add(new Line(Codec.fromJson(node), raw));
            } catch (RuntimeException e) {
                throw new Damaged("an unreadable record: " + e.getMessage());

            }
        }
        if (lines.size() != h.path("records").asInt(-1)) {
            throw new Damaged("it holds " + lines.size() + " records, its header says " + h.path("records"));
        }
        return new Read(h.path("through").asLong(0L), h.path("sum").asString(""), lines);
    }

    private static int indexOf(byte[] a, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static String digest(byte[] b) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }
}
