package io.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cli.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom} where no window can open (an ssh session, a container): one line in plain words that
 * says what to do, not JavaFX's stack trace. Two real launcher processes: no display named at all, and a
 * display named that does not answer.
 */
class MissingDisplayTest {

    record Run(int code, String err) {
    }

    static Run console(Path dir, String display) throws Exception {
        List<String> command = List.of(java(), "-cp", launcherClassPath(), Main.class.getName(),
                "--settings=" + dir.resolve("settings.json"), "--journal=" + dir.resolve("journal.jsonl"));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("DISPLAY");
        pb.environment().remove("WAYLAND_DISPLAY");
        if (display != null) {
            pb.environment().put("DISPLAY", display);
        }
        Path err = dir.resolve("err.txt");
        Process p = pb.redirectErrorStream(false).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher ends by itself");
        return new Run(p.exitValue(), Files.readString(err));
    }

    /** The Java running the tests. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The tests' class path as ./headroom and the package lay it out: JavaFX's platform jars after the rest. */
    static String launcherClassPath() {
        List<String> cp = List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator));
        List<String> ordered = new java.util.ArrayList<>(cp.stream().filter(e -> !e.contains("openjfx")).toList());
        ordered.addAll(cp.stream().filter(e -> e.contains("openjfx")).toList());
        return String.join(java.io.File.pathSeparator, ordered);
    }

    static void saysItInOneLine(Run r) {
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), "one line:\n" + r.err());
        String line = lines.get(0);
        assertTrue(line.startsWith("headroom: "), line);
        assertTrue(line.contains("xvfb-run"), "says how to run without a screen: " + line);
        assertFalse(line.contains("Exception") || line.contains("java."), "no Java words: " + line);
        assertEquals(ExitCode.FAILED, r.code());
    }

    @Test
    void withoutADisplayTheConsoleSaysSoInOneLine(@TempDir Path dir) throws Exception {
        saysItInOneLine(console(dir, null));
    }

    @Test
    void withADisplayThatDoesNotAnswerTheConsoleSaysSoInOneLine(@TempDir Path dir) throws Exception {
        saysItInOneLine(console(dir, ":987"));
    }
}
