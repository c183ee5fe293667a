package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saving a policy into the workloads file as a careful editor saves (issue 27 item 4): through a
 * symbolic link to the file it names, the file's mode, owner and group kept, the backup as whole as
 * the file, and no temp file left behind for long.
 */
class WorkloadsFileSaveTest {
    @TempDir
    Path dir;

    static Policy edited(Path p) throws ConfigException {
        Policy original = WorkloadsFileEditTest.policyOf(p, "payments");
        return original.toBuilder().maxReplicas(25).build();
    }

    @Test
    void aSymlinkedFileIsWrittenThroughToItsTargetAndTheLinkStaysALink() throws Exception {
        Path real = Files.createDirectories(dir.resolve("team")).resolve("workloads.yaml");
        Files.writeString(real, WorkloadsFileEditTest.FILE);
        Path link = Files.createSymbolicLink(dir.resolve("workloads.yaml"), Path.of("team/workloads.yaml"));
        Path link2 = Files.createSymbolicLink(dir.resolve("current.yaml"), link.getFileName()); // a chain of two

        WorkloadsFileEdit.Saved saved = WorkloadsFileEdit.save(link2, "payments",
                WorkloadsFileEditTest.policyOf(link2, "payments"), edited(link2));

        assertTrue(Files.isSymbolicLink(link) && Files.isSymbolicLink(link2), "the links are still links");
        assertEquals(Path.of("team/workloads.yaml"), Files.readSymbolicLink(link));
        String now = Files.readString(real);
        assertTrue(now.contains("maxReplicas: 25"), "the real file has the edit:\n" + now);
        assertEquals(now, saved.text());
        assertEquals(real.toRealPath(), saved.file(), "the save says which file it wrote");
        assertEquals(WorkloadsFileEditTest.FILE, Files.readString(real.resolveSibling("workloads.yaml.bak")),
                "the backup is beside the file it backs up");
        assertEquals(real.resolveSibling("workloads.yaml.bak"), saved.backup());
        assertFalse(Files.exists(dir.resolve("current.yaml.bak")) || Files.exists(dir.resolve("workloads.yaml.bak")),
                "no backup beside the links");
        assertEquals(25, WorkloadsFileEditTest.policyOf(link2, "payments").maxReplicas());
    }

    @Test
    void theFilesModeOwnerAndGroupAreKeptAndTheBackupHasThemToo() throws Exception {
        Path p = dir.resolve("workloads.yaml");
        Files.writeString(p, WorkloadsFileEditTest.FILE);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-rw-r--"));
        PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class);
        boolean root = "root".equals(System.getProperty("user.name"));
        UserPrincipal owner = view.readAttributes().owner();
        GroupPrincipal group = view.readAttributes().group();
        if (root) { // only root can give a file away: then the file belongs to someone else, as on a shared host
            UserPrincipalLookupService users = p.getFileSystem().getUserPrincipalLookupService();
            owner = users.lookupPrincipalByName("1000");
            group = users.lookupPrincipalByGroupName("1000");
            view.setOwner(owner);
            view.setGroup(group);
        }

        WorkloadsFileEdit.save(p, "payments", WorkloadsFileEditTest.policyOf(p, "payments"), edited(p));

        for (Path f : List.of(p, dir.resolve("workloads.yaml.bak"))) {
            PosixFileAttributeView after = Files.getFileAttributeView(f, PosixFileAttributeView.class);
            assertEquals("rw-rw-r--", PosixFilePermissions.toString(after.readAttributes().permissions()), f.toString());
            assertEquals(owner, after.readAttributes().owner(), f + ": owner");
            assertEquals(group, after.readAttributes().group(), f + ": group");
        }
        assertTrue(Files.readString(p).contains("maxReplicas: 25"));
    }

    @Test
    void aSaveLeavesNoTempFileBehind() throws Exception {
        Path p = dir.resolve("workloads.yaml");
        Files.writeString(p, WorkloadsFileEditTest.FILE);
        WorkloadsFileEdit.save(p, "payments", WorkloadsFileEditTest.policyOf(p, "payments"), edited(p));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of("workloads.yaml", "workloads.yaml.bak"),
                    files.map(f -> f.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void staleTempFilesOfOursAreCleanedAndNothingElse() throws Exception {
        Path p = dir.resolve("workloads.yaml");
        Files.writeString(p, WorkloadsFileEditTest.FILE);
        Instant now = Instant.parse("2030-01-01T12:00:00Z");
        FileTime old = FileTime.from(now.minus(FileSave.STALE_AFTER).minusSeconds(1));
        FileTime fresh = FileTime.from(now.minusSeconds(5));
        List<String> ours = List.of(".workloads.yaml.headroom-123.tmp", ".workloads.yaml.bak.headroom-77.tmp",
                ".headroom-4567.tmp"); // the last: the name saves used before
        List<String> kept = List.of(".other.yaml.headroom-123.tmp", ".workloads.yaml.headroom-x.tmp", "notes.tmp",
                ".headroom-4567.tmp.keep", "workloads.yaml.bak");
        for (String n : ours) {
            Files.setLastModifiedTime(Files.writeString(dir.resolve(n), "half"), old);
        }
        for (String n : kept) {
            Files.setLastModifiedTime(Files.writeString(dir.resolve(n), "theirs"), old);
        }
        Path young = Files.writeString(dir.resolve(".workloads.yaml.headroom-999.tmp"), "a save under way");
        Files.setLastModifiedTime(young, fresh);

        List<Path> removed = FileSave.cleanStale(p, now);

        assertEquals(ours.stream().sorted().toList(), removed.stream().map(f -> f.getFileName().toString()).sorted().toList());
        for (String n : ours) {
            assertFalse(Files.exists(dir.resolve(n)), n);
        }
        for (String n : kept) {
            assertTrue(Files.exists(dir.resolve(n)), n + " is not ours: kept");
        }
        assertTrue(Files.exists(young), "a save under way (another console's, seconds old) is left alone");
    }

    @Test
    void staleTempFilesAreCleanedBesideTheLinksTarget() throws Exception {
        Path real = Files.createDirectories(dir.resolve("team")).resolve("workloads.yaml");
        Files.writeString(real, WorkloadsFileEditTest.FILE);
        Path link = Files.createSymbolicLink(dir.resolve("w.yaml"), real);
        Path tmp = Files.writeString(real.resolveSibling(".workloads.yaml.headroom-5.tmp"), "half");
        Instant now = Instant.parse("2030-01-01T12:00:00Z");
        Files.setLastModifiedTime(tmp, FileTime.from(now.minus(Duration.ofHours(1))));
        assertEquals(List.of(tmp), FileSave.cleanStale(link, now));
    }

    @Test
    void aFileWhoseOwnerCannotBeKeptIsRewrittenInPlaceAfterItsBackupIsWhole() throws Exception {
        // Not root, and the file is someone else's (group-writable on a shared host): renamed, it would be ours.
        Path p = dir.resolve("workloads.yaml");
        Files.writeString(p, "old text\n");
        Object inode = Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).fileKey();
        List<String> steps = new java.util.ArrayList<>();
        FileSave.save(p, "old text\n", "new text\n", steps::add, (tmp, like) -> false);
        assertEquals("new text\n", Files.readString(p));
        assertEquals(inode, Files.readAttributes(p, java.nio.file.attribute.BasicFileAttributes.class).fileKey(),
                "the same file, written in place: its owner stays");
        assertEquals("old text\n", Files.readString(dir.resolve("workloads.yaml.bak")));
        assertTrue(steps.indexOf("written") > steps.indexOf("backup-written") && steps.indexOf("backup-written") >= 0,
                "the backup was written before the file was touched: " + steps);
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.count(), "no temp file left");
        }
    }
}
