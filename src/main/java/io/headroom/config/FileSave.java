package io.headroom.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Saving a file the operator keeps, as a careful editor saves it (issue 27): through symbolic links to
 * the file they name (the links stay links), with that file's mode, owner and group; the new text is
 * written to a temp file beside it, forced to disk, renamed over it and the directory forced too, so a
 * crash at any moment leaves the old text or the new, whole. The backup ({@code NAME.bak}, beside the
 * real file) is written the same way before the file is touched. A save killed half way may leave its
 * temp file ({@code .NAME.headroom-N.tmp}); {@link #cleanStale} removes those of ours older than
 * {@link #STALE_AFTER} at the next start. When the owner cannot be kept (not root, and the file belongs
 * to someone else), the file is rewritten in place instead, once its backup is on disk (as vim does).
 */
public final class FileSave {

    /** Told as a save reaches each of {@link #STEPS} (a crash test stops the process there). */
    @FunctionalInterface
    public interface Steps {
        void reached(String step) throws IOException;

        Steps NONE = step -> { };
    }

    /** The steps of a save, in order. */
    public static final List<String> STEPS = List.of("backup-written", "backup-synced", "backup-renamed",
            "written", "synced", "renamed", "directory-synced");

    /** A temp file this old is no save's under way: a save takes milliseconds. */
    public static final Duration STALE_AFTER = Duration.ofMinutes(2);

    /** Our temp files: {@code .NAME.headroom-N.tmp} (and {@code .headroom-N.tmp}, as saves named them before). */
    private static final String TEMP_PREFIX = ".headroom-";
    private static final String TEMP_SUFFIX = ".tmp";
    private static final Pattern LEGACY_TEMP = Pattern.compile("\\.headroom-[0-9]+\\.tmp");

    private FileSave() {
    }

    /** Where a save of {@code named} writes: the file itself, through every symbolic link. */
    public static Path target(Path named) throws IOException {
        return named.toRealPath();
    }

    /** The backup of {@code target} (the real file): {@code NAME.bak} beside it. */
    public static Path backupOf(Path target) {
        return target.resolveSibling(target.getFileName() + ".bak");
    }

    /**
     * Keeps {@code before} as the backup of {@code target}, then writes {@code text} over it, as the class
     * says. {@code target} is the real file ({@link #target}).
     */
    public static void save(Path target, String before, String text, Steps steps) throws IOException {
        save(target, before, text, steps, FileSave::keepOwner);
    }

    /** Gives a temp file the owner and group of the file it replaces; false when this process may not. */
    interface Owners {
        boolean keep(Path tmp, PosixFileAttributes like) throws IOException;
    }

    static void save(Path target, String before, String text, Steps steps, Owners owners) throws IOException {
        PosixFileAttributes like = attributes(target);
        write(backupOf(target), before.getBytes(StandardCharsets.UTF_8), like, "backup-", steps, owners);
        write(target, text.getBytes(StandardCharsets.UTF_8), like, "", steps, owners);
    }

    /** Writes {@code text} over {@code target} (the real file) alone, keeping its mode and owner: no backup. */
    public static void replace(Path target, String text) throws IOException {
        write(target, text.getBytes(StandardCharsets.UTF_8), attributes(target), "", Steps.NONE, FileSave::keepOwner);
    }

    private static PosixFileAttributes attributes(Path file) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        return view == null ? null : view.readAttributes();
    }

    private static void write(Path file, byte[] bytes, PosixFileAttributes like, String step, Steps steps,
                              Owners owners) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = like == null ? Files.createTempFile(dir, "." + file.getFileName() + TEMP_PREFIX, TEMP_SUFFIX)
                : Files.createTempFile(dir, "." + file.getFileName() + TEMP_PREFIX, TEMP_SUFFIX,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        boolean done = false;
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                writeAll(ch, bytes);
                steps.reached(step + "written");
                boolean owned = like == null || owners.keep(tmp, like);
                if (!owned && step.isEmpty()) {
                    // Renamed, the file would become ours: rewritten in place it stays its owner's (its backup,
                    // already whole on disk, may be ours).
                    Files.delete(tmp);
                    inPlace(file, bytes);
                    done = true;
                    return;
                }
                if (like != null) {
                    Files.setPosixFilePermissions(tmp, like.permissions());
                }
                ch.force(true);
            }
            steps.reached(step + "synced");
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            done = true;
            steps.reached(step + "renamed");
            forceDirectory(dir);
            if (step.isEmpty()) {
                steps.reached("directory-synced");
            }
        } finally {
            if (!done) {
                Files.deleteIfExists(tmp);
            }
        }
    }

    /** The owner and group of {@code like} given to {@code tmp}; false when this process may not. */
    private static boolean keepOwner(Path tmp, PosixFileAttributes like) throws IOException {
        PosixFileAttributeView view = Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
        PosixFileAttributes mine = view.readAttributes();
        try {
            if (!mine.owner().equals(like.owner())) {
                view.setOwner(like.owner());
            }
            if (!mine.group().equals(like.group())) {
                view.setGroup(like.group());
            }
            return true;
        } catch (FileSystemException notPermitted) {
            return false;
        }
    }

    private static void inPlace(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            writeAll(ch, bytes);
            ch.force(true);
        }
    }

    private static void writeAll(FileChannel ch, byte[] bytes) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    /** The rename made durable: the directory's entry forced to disk (where the platform lets a directory be opened). */
    private static void forceDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (FileSystemException | UnsupportedOperationException notOnThisPlatform) {
            // Windows cannot open a directory; its rename is durable by itself (MoveFileEx).
        }
    }

    /**
     * Removes the temp files a killed save of {@code named} left beside the file it names (and beside
     * the link itself), those of ours only, by name, and only once older than {@link #STALE_AFTER} at
     * {@code now} (a save under way in another console is left alone).
     *
     * @return what was removed
     */
    public static List<Path> cleanStale(Path named, Instant now) {
        List<Path> removed = new ArrayList<>();
        List<Path> files = new ArrayList<>(List.of(named.toAbsolutePath()));
        try {
            Path real = target(named);
            if (!files.contains(real)) {
                files.add(real);
            }
        } catch (IOException gone) {
            // nothing to follow: the link's own directory is still looked at
        }
        for (Path f : files) {
            String name = f.getFileName().toString();
            Pattern ours = Pattern.compile("\\." + Pattern.quote(name) + "(?:\\.bak)?" + Pattern.quote(TEMP_PREFIX)
                    + "[0-9]+" + Pattern.quote(TEMP_SUFFIX));
            try (DirectoryStream<Path> dir = Files.newDirectoryStream(f.getParent(), "*" + TEMP_SUFFIX)) {
                for (Path t : dir) {
                    String n = t.getFileName().toString();
                    if ((ours.matcher(n).matches() || LEGACY_TEMP.matcher(n).matches())
                            && Files.isRegularFile(t, LinkOption.NOFOLLOW_LINKS)
                            && Files.getLastModifiedTime(t, LinkOption.NOFOLLOW_LINKS).toInstant()
                            .isBefore(now.minus(STALE_AFTER))
                            && Files.deleteIfExists(t)) {
                        removed.add(t);
                    }
                }
            } catch (NoSuchFileException gone) {
                // no directory, nothing left in it
            } catch (IOException e) {
                // Clean-up is a courtesy: a directory that cannot be listed keeps its temp files.
            }
        }
        return removed;
    }
}
