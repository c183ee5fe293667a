package io.headroom.journalfile;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Files only their owner may read: the journal and everything beside it, the settings, exports.
 * Files are created {@code 0600} and directories Headroom creates {@code 0700}; a file of ours
 * found looser is tightened. A directory that already existed is left as it is (it may be the
 * user's own, or {@code /tmp}). Where the filesystem has no POSIX permissions, nothing is changed.
 */
public final class PrivateFiles {
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private PrivateFiles() {
    }

    /** Creates {@code dir} and any missing parents, each {@code 0700}. */
    public static void createDirectories(Path dir) throws IOException {
        Path abs = dir.toAbsolutePath();
        List<Path> missing = new ArrayList<>();
        for (Path p = abs; p != null && !Files.exists(p); p = p.getParent()) {
            missing.add(0, p);
        }
        for (Path p : missing) {
            try {
                if (POSIX) {
                    Files.createDirectory(p, PosixFilePermissions.asFileAttribute(DIRECTORY));
                    Files.setPosixFilePermissions(p, DIRECTORY); // whatever the umask took away or left
                } else {
                    Files.createDirectory(p);
                }
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // created meanwhile by someone else: theirs, leave it
            }
        }
    }

    /** The parent of {@code file}, created private when missing. */
    public static void createParent(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            createDirectories(parent);
        }
    }

    /** Makes an existing file of ours {@code 0600}. */
    public static void restrict(Path file) throws IOException {
        if (POSIX && Files.exists(file)) {
            Set<PosixFilePermission> now = Files.getPosixFilePermissions(file);
            if (!now.equals(FILE)) {
                Files.setPosixFilePermissions(file, FILE);
            }
        }
    }

    /** Opens (creating {@code 0600} when missing) a file for reading and writing. */
    public static FileChannel open(Path file, StandardOpenOption... more) throws IOException {
        Set<StandardOpenOption> options = new java.util.HashSet<>(List.of(StandardOpenOption.CREATE,
                StandardOpenOption.READ, StandardOpenOption.WRITE));
        options.addAll(List.of(more));
        FileChannel ch = POSIX ? FileChannel.open(file, options, attributes()) : FileChannel.open(file, options);
        try {
            restrict(file);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return ch;
    }

    /** Writes {@code bytes} as the whole of {@code file}, {@code 0600}, forced to disk. */
    public static void write(Path file, byte[] bytes) throws IOException {
        createParent(file);
        try (FileChannel ch = open(file, StandardOpenOption.TRUNCATE_EXISTING)) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
    }

    /**
     * Replaces {@code file} with {@code bytes} atomically (a private temporary file, forced, then
     * renamed over it): a crash leaves the old file or the new one, never half of one.
     */
    public static void writeAtomically(Path file, byte[] bytes) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        write(tmp, bytes);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        syncDirectory(file.toAbsolutePath().getParent());
    }

    /** Makes a rename or a new file in {@code dir} durable (where the platform allows opening a directory). */
    static void syncDirectory(Path dir) {
        if (dir == null || !POSIX) {
            return;
        }
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // Some filesystems refuse to fsync a directory; the rename itself is still atomic.
        }
    }

    private static FileAttribute<?>[] attributes() {
        return new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)};
    }
}
