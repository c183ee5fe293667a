package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.session.Launcher;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The console's speed is one of the speed buttons' values; anything else is refused before any window (issue 11). */
class ConsoleSpeedTest {

    @Test
    void theSpeedButtonsValuesAreAccepted() {
        for (String s : List.of("1", "10", "60", "60.0")) {
            assertNull(Cli.consoleUsageError(new String[] {"--speed=" + s}), s);
        }
    }

    @Test
    void anyOtherSpeedIsRefusedSayingWhichAreAllowed() {
        for (String s : List.of("7", "0", "-1", "1000", "0.5", "NaN")) {
            String problem = Cli.consoleUsageError(new String[] {"console", "--speed=" + s});
            assertTrue(problem != null && problem.startsWith("headroom: --speed must be 1, 10 or 60"), s + ": " + problem);
            assertTrue(problem.contains("got " + s), problem);
        }
        assertThrows(IllegalArgumentException.class, () -> Launcher.Options.of(Map.of("speed", "7")),
                "a console started another way (tests, the app's own parameters) refuses it too");
    }

    @Test
    void theLauncherExitsWithTwoAndNoWindowForSpeedSeven() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.headroom.Main",
                "--speed=7").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher returned");
        assertEquals(2, p.exitValue(), err);
        assertTrue(err.startsWith("headroom: --speed must be 1, 10 or 60"), err);
        assertTrue(err.contains("got 7"), err);
        assertTrue(err.contains("usage: headroom [console]"), err);
    }
}
