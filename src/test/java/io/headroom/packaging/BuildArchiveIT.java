package io.headroom.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * After {@code mvn package}: the build made its CDS archive ({@code scripts/cds-archive}, headless, in the
 * package phase) and {@code ./headroom} maps it on the first run, instead of writing one as that run exits.
 */
class BuildArchiveIT {
    private static final Path ROOT = Path.of("").toAbsolutePath();

    @Test
    void theBuildFolderLauncherMapsTheArchiveTheBuildMade() throws Exception {
        Path jsa = ROOT.resolve("target/headroom.jsa");
        assertTrue(Files.size(jsa) > 0, "mvn package made no archive (see its \"cds:\" line)");
        assertTrue(Files.isRegularFile(ROOT.resolve("target/headroom.jsa.stamp")), "the archive has no stamp");
        ProcessBuilder p = new ProcessBuilder(ROOT.resolve("headroom").toString(), "--version").redirectErrorStream(true);
        // (the class-loading log names where each class came from; Main is one the training runs loaded)
        p.environment().put("HEADROOM_JAVA_OPTS", "-Xlog:class+load=info:stdout");
        Process run = p.start();
        String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(run.waitFor(120, TimeUnit.SECONDS), "./headroom --version did not finish");
        assertEquals(0, run.exitValue(), out);
        assertTrue(out.lines().anyMatch(l -> l.endsWith("io.headroom.Main source: shared objects file (top)")
                        || l.endsWith("io.headroom.Main source: shared objects file")),
                "io.headroom.Main not from the archive:\n" + out.lines().filter(l -> l.contains("io.headroom.Main"))
                        .findFirst().orElse(out));
    }
}
