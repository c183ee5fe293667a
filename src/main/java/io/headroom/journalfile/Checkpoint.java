package io.headroom.journalfile;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * The last record written (its number and checksum), kept beside the journal so that records
 * deleted from its end are noticed: the chain alone cannot tell a shortened journal from a short
 * one. Two fixed-size slots are overwritten in turn, each with its own CRC: a crash mid-write
 * spoils at most one, and overwriting needs no new disk blocks, so a full disk does not stop it.
 */
final class Checkpoint implements Closeable {
    static final int SLOT = 128;
    private static final Pattern FORMAT = Pattern.compile(
            "\\{\"seq\":(\\d{1,18}),\"sum\":\"([0-9a-f]{32})\",\"crc\":\"([0-9a-f]{8})\"}");

    /** The record last written. */
    record Mark(long seq, String sum) {
    }

    private final FileChannel ch;
    private final boolean existed;

    private Checkpoint(FileChannel ch, boolean existed) {
        this.ch = ch;
        this.existed = existed;
    }

    static Checkpoint open(Path file) throws IOException {
        return open(file, PrivateFiles::open);
    }

    /** The same, opening the file through {@code channels} (tests count forces instead of doing them). */
    static Checkpoint open(Path file, FileJournal.Channels channels) throws IOException {
        boolean existed = Files.exists(file);
        FileChannel ch = channels.open(file);
        if (ch.size() < 2L * SLOT) {
            ByteBuffer blank = ByteBuffer.wrap(blankSlots());
            ch.write(blank, 0); // reserve both slots now, while there is room
            ch.force(true);
        }
        return new Checkpoint(ch, existed);
    }

    /** Whether the file was there before this open (a journal with records but no checkpoint is suspicious). */
    boolean existed() {
        return existed;
    }

    /** The newest valid slot, or null when there is none. */
    Mark read() throws IOException {
        ByteBuffer b = ByteBuffer.allocate(2 * SLOT);
        ch.read(b, 0);
        String text = new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1);
        Mark best = null;
        for (int slot = 0; slot < 2; slot++) {
            if (text.length() < (slot + 1) * SLOT) {
                break;
            }
            Matcher m = FORMAT.matcher(text.substring(slot * SLOT, (slot + 1) * SLOT).trim());
            if (m.matches() && crc(m.group(1), m.group(2)).equals(m.group(3))) {
                long seq = Long.parseLong(m.group(1));
                if (best == null || seq > best.seq()) {
                    best = new Mark(seq, m.group(2));
                }
            }
        }
        return best;
    }

    /** Records {@code seq} as the last one written, forced to disk. */
    void write(long seq, String sum) throws IOException {
        String body = "{\"seq\":" + seq + ",\"sum\":\"" + sum + "\",\"crc\":\"" + crc(Long.toString(seq), sum) + "\"}";
        StringBuilder s = new StringBuilder(body);
        while (s.length() < SLOT - 1) {
            s.append(' ');
        }
        s.append('\n');
        ByteBuffer b = ByteBuffer.wrap(s.toString().getBytes(StandardCharsets.ISO_8859_1));
        long at = (seq % 2) * SLOT;
        while (b.hasRemaining()) {
            ch.write(b, at + b.position());
        }
        ch.force(false);
    }

    private static String crc(String seq, String sum) {
        CRC32 c = new CRC32();
        c.update((seq + ":" + sum).getBytes(StandardCharsets.ISO_8859_1));
        return String.format("%08x", c.getValue());
    }

    private static byte[] blankSlots() {
        byte[] b = new byte[2 * SLOT];
        java.util.Arrays.fill(b, (byte) ' ');
        b[SLOT - 1] = '\n';
        b[2 * SLOT - 1] = '\n';
        return b;
    }

    @Override
    public void close() throws IOException {
        ch.close();
    }
}
