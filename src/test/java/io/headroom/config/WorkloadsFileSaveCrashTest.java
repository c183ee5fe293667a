package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.testing.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A console killed while it saves a policy into its workloads file (issue 27 item 4), for real: a second
 * JVM saving through a symbolic link is killed (SIGKILL) at each step of the save. Whatever the step,
 * the file holds the old text or the new, whole, with its mode; the link is still a link; the backup is
 * never empty or partial; and the next start removes the temp file the killed save left.
 */
class WorkloadsFileSaveCrashTest {
    static final String PREVIOUS_BACKUP = "# the backup of an earlier save\n";

    static List<String> steps() {
        return FileSave.STEPS;
    }

    /** team/workloads.yaml (0664) behind the link w.yaml, with a backup from an earlier save. */
    static Path setUp(Path dir) throws Exception {
        Path real = Files.createDirectories(dir.resolve("team")).resolve("workloads.yaml");
        Files.writeString(real, WorkloadsFileEditTest.FILE);
        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-rw-r--"));
        Files.writeString(real.resolveSibling("workloads.yaml.bak"), PREVIOUS_BACKUP);
        return Files.createSymbolicLink(dir.resolve("w.yaml"), Path.of("team/workloads.yaml"));
    }

    @Test
    void aSaveThatIsNotKilledGoesThroughEveryStepInOrder(@TempDir Path dir) throws Exception {
        Path link = setUp(dir);
        List<String> reached = new ArrayList<>();
        try (ChildJvm probe = ChildJvm.start(WorkloadsFileSaveProbe.class, link.toString(), "none")) {
            for (String line = probe.readLine(); line != null; line = probe.readLine()) {
                if (line.startsWith("STEP ")) {
                    reached.add(line.substring(5));
                } else {
                    assertEquals("SAVED", line);
                }
            }
            assertTrue(probe.process().waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, probe.process().exitValue());
        }
        assertEquals(FileSave.STEPS, reached);
        assertTrue(Files.readString(link).contains("maxReplicas: 25"));
    }

    @ParameterizedTest
    @MethodSource("steps")
    void aKillAtAnyStepLeavesTheOldTextOrTheNewWholeAndTheNextStartCleansUp(String step, @TempDir Path dir)
            throws Exception {
        Path link = setUp(dir);
        Path real = dir.resolve("team/workloads.yaml");
        String old = WorkloadsFileEditTest.FILE;
        String edited = WorkloadsFileEdit.edit("w.yaml", old, ConfigTree.Format.YAML, "payments",
                WorkloadsFileEditTest.policyOf(link, "payments"),
                WorkloadsFileEditTest.policyOf(link, "payments").toBuilder().maxReplicas(25).build());
        try (ChildJvm probe = ChildJvm.start(WorkloadsFileSaveProbe.class, link.toString(), step)) {
            String line = probe.readLine();
            while (line != null && !line.startsWith("AT ")) {
                line = probe.readLine();
            }
            assertEquals("AT " + step, line, "the save reached " + step);
            probe.process().destroyForcibly(); // SIGKILL, there
            assertTrue(probe.process().waitFor(60, TimeUnit.SECONDS));
        }

        assertTrue(Files.isSymbolicLink(link), "the link is still a link");
        String now = Files.readString(real);
        assertTrue(now.equals(old) || now.equals(edited), "killed at " + step + ", the file is whole:\n" + now);
        assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(real)), "its mode");
        String backup = Files.readString(real.resolveSibling("workloads.yaml.bak"));
        assertTrue(backup.equals(PREVIOUS_BACKUP) || backup.equals(old),
                "killed at " + step + ", the backup is the earlier one or the old text, whole: '" + backup + "'");
        if (now.equals(edited)) {
            assertEquals(old, backup, "once the file has the new text, the backup has the old");
        }

        // The next start: what the killed save left is cleaned, once it is older than a save takes.
        FileSave.cleanStale(link, Instant.now().plus(FileSave.STALE_AFTER).plusSeconds(1));
        for (Path d : List.of(dir, real.getParent())) {
            try (Stream<Path> files = Files.list(d)) {
                Set<String> names = Set.copyOf(files.map(f -> f.getFileName().toString()).toList());
                assertTrue(names.stream().noneMatch(n -> n.contains(".headroom-")), d + " after a kill at " + step
                        + ": " + names);
            }
        }
        // And the next save works.
        WorkloadsFileEdit.save(link, "payments", WorkloadsFileEditTest.policyOf(link, "payments"),
                WorkloadsFileEditTest.policyOf(link, "payments").toBuilder().maxReplicas(30).build());
        assertFalse(Files.isRegularFile(link, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.readString(real).contains("maxReplicas: 30"));
    }
}
