package io.headroom.journalfile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens journal segments on a disk that can fill up: once {@link #room} bytes are used, a write
 * writes what still fits and the next one fails with ENOSPC's message, as a full filesystem does.
 */
final class FullDiskChannels implements FileJournal.Channels {
    private long room = Long.MAX_VALUE;
    /** Whether a force reaches the disk; off, forces are only counted (a test about anything but durability). */
    private volatile boolean durable = true;
    private final java.util.concurrent.atomic.AtomicLong forces = new java.util.concurrent.atomic.AtomicLong();

    /**
     * Forces are counted, not carried out: for a test of thousands of appends that is about what the
     * journal keeps at hand, not about durability (FileJournalTest and the crash tests keep real forces).
     */
    FullDiskChannels withoutForcing() {
        durable = false;
        return this;
    }

    /** How many times the journal asked for its writes to be forced to disk. */
    long forces() {
        return forces.get();
    }

    synchronized void room(long bytes) {
        room = bytes;
    }

    synchronized void unlimited() {
        room = Long.MAX_VALUE;
    }

    @Override
    public FileChannel open(Path file) throws IOException {
        return new Channel(FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE));
    }

    private synchronized int take(int wanted) throws IOException {
        if (room <= 0) {
            throw new IOException("No space left on device");
        }
        int n = (int) Math.min(wanted, room);
        room -= n;
        return n;
    }

    private final class Channel extends FileChannel {
        private final FileChannel d;

        Channel(FileChannel d) {
            this.d = d;
        }

        private int limited(ByteBuffer src, long position) throws IOException {
            int n = take(src.remaining());
            ByteBuffer part = src.duplicate();
            part.limit(part.position() + n);
            int written = position < 0 ? d.write(part) : d.write(part, position);
            src.position(src.position() + written);
            return written;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return limited(src, -1);
        }

        @Override
        public int write(ByteBuffer src, long position) throws IOException {
            return limited(src, position);
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
            long total = 0;
            for (int i = offset; i < offset + length; i++) {
                total += write(srcs[i]);
            }
            return total;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return d.read(dst);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
            return d.read(dsts, offset, length);
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            return d.read(dst, position);
        }

        @Override
        public long position() throws IOException {
            return d.position();
        }

        @Override
        public FileChannel position(long newPosition) throws IOException {
            d.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return d.size();
        }

        @Override
        public FileChannel truncate(long size) throws IOException {
            d.truncate(size);
            return this;
        }

        @Override
        public void force(boolean metaData) throws IOException {
            forces.incrementAndGet();
            if (durable) {
                d.force(metaData);
            }
        }

        @Override
        public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
            return d.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
            throw new IOException("not supported by the test channel");
        }

        @Override
        public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
            return d.map(mode, position, size);
        }

        @Override
        public FileLock lock(long position, long size, boolean shared) throws IOException {
            return d.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(long position, long size, boolean shared) throws IOException {
            return d.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            d.close();
        }
    }
}
