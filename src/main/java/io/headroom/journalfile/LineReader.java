package io.headroom.journalfile;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a segment's lines as bytes, with positional reads: the channel's position is not moved
 * and no second descriptor is opened on the journal (closing one would drop this process's lock
 * on some systems). Decoding is left to the caller, line by line, so one bad byte costs one line.
 */
final class LineReader {
    private static final int CHUNK = 1 << 20;

    /** Receives each line (without its newline), numbered from 1. */
    interface Sink {
        void line(int number, byte[] bytes);
    }

    private LineReader() {
    }

    /** Every line in the first {@code limit} bytes of {@code ch}; a last line without its newline counts too. */
    static void read(FileChannel ch, long limit, Sink sink) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(CHUNK);
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        long pos = 0;
        int number = 0;
        while (pos < limit) {
            buf.clear();
            if (limit - pos < CHUNK) {
                buf.limit((int) (limit - pos));
            }
            int n = ch.read(buf, pos);
            if (n <= 0) {
                break;
            }
            pos += n;
            byte[] a = buf.array();
            int start = 0;
            for (int i = 0; i < n; i++) {
                if (a[i] == '\n') {
                    line.write(a, start, i - start);
                    sink.line(++number, line.toByteArray());
                    line.reset();
                    start = i + 1;
                }
            }
            line.write(a, start, n - start);
        }
        if (line.size() > 0) {
            sink.line(++number, line.toByteArray());
        }
    }
}
