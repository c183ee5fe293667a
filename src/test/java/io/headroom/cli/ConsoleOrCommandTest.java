package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The launcher decides console or command line; the command line's compiled classes refer to
 * nothing of the console or of JavaFX, so {@code headroom simulate} never links the toolkit.
 */
class ConsoleOrCommandTest {

    @Test
    void whatOpensTheConsoleAndWhatRunsACommand() {
        assertTrue(Cli.opensConsole(new String[0]));
        assertTrue(Cli.opensConsole(new String[] {"console"}));
        assertTrue(Cli.opensConsole(new String[] {"console", "--speed=10"}));
        assertTrue(Cli.opensConsole(new String[] {"--speed=10", "--seed=3"}));
        assertFalse(Cli.opensConsole(new String[] {"--help"}));
        assertFalse(Cli.opensConsole(new String[] {"help"}));
        assertFalse(Cli.opensConsole(new String[] {"simulate", "--scenario", "x.yaml"}));
        assertArrayEquals(new String[] {"--speed=10"}, Cli.consoleOptions(new String[] {"console", "--speed=10"}));
        assertArrayEquals(new String[] {"--seed=1"}, Cli.consoleOptions(new String[] {"--seed=1"}));
    }

    @Test
    void consoleOptionsAreCheckedBeforeAnyWindow() {
        assertNull(Cli.consoleUsageError(new String[] {"console", "--speed=60", "--seed=7"}));
        String bad = Cli.consoleUsageError(new String[] {"console", "--speed=fast"});
        assertTrue(bad.startsWith("headroom: --speed must be a number, got 'fast'"), bad);
        assertTrue(bad.contains("usage: headroom [console]"), bad);
    }

    /** Issue 28: {@code ./headroom --config bad.yaml}, with a space as {@code plan} takes it, opens that file. */
    @Test
    void aConsoleOptionsValueMayFollowItWithASpace(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("bad.yaml"), "classes: 12\n");
        assertNull(Cli.consoleUsageError(new String[] {"--config", file.toString()}));
        assertArrayEquals(new String[] {"--config=" + file, "--speed=10"},
                Cli.consoleOptions(new String[] {"--config", file.toString(), "--speed", "10"}));
        assertArrayEquals(new String[] {"--seed=3", "--journal=j.jsonl"},
                Cli.consoleOptions(new String[] {"console", "--seed", "3", "--journal=j.jsonl"}));
        String missing = Cli.consoleUsageError(new String[] {"--config"});
        assertTrue(missing.startsWith("headroom: '--config' needs a value"), missing);
        String next = Cli.consoleUsageError(new String[] {"--config", "--speed=10"});
        assertTrue(next.startsWith("headroom: '--config' needs a value"), next);
    }

    /** Issue 30: {@code ./headroom --sandbox placement} (or admission) opens that sandbox; a wrong word is refused. */
    @Test
    void theSandboxOptionNamesWhichSandboxAndIsCheckedBeforeAnyWindow() {
        assertArrayEquals(new String[] {"--sandbox=placement", "--speed=10"},
                Cli.consoleOptions(new String[] {"--sandbox", "placement", "--speed", "10"}));
        assertNull(Cli.consoleUsageError(new String[] {"--sandbox", "placement"}));
        assertNull(Cli.consoleUsageError(new String[] {"console", "--sandbox=admission"}));
        assertNull(Cli.consoleUsageError(new String[] {"--sandbox=plain"}));
        String bad = Cli.consoleUsageError(new String[] {"--sandbox", "pools"});
        assertTrue(bad.startsWith("headroom: --sandbox must be plain, admission or placement, got 'pools'"), bad);
        assertTrue(bad.contains("[--sandbox=plain|admission|placement]"), "the usage names it: " + bad);
        String both = Cli.consoleUsageError(new String[] {"--sandbox=placement", "--config=examples/workloads.yaml"});
        assertTrue(both.startsWith("headroom: --sandbox and --config exclude each other"), both);
    }

    @Test
    void theCommandLineRefusesConsoleArgumentsInsteadOfOpeningAWindow() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(new String[] {"--speed=10"}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(ExitCode.USAGE, code);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("launcher"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void noCompiledCommandLineClassRefersToTheConsoleOrJavaFx() throws IOException {
        Path cli = Path.of("target/classes/io/headroom/cli");
        List<String> offenders = new ArrayList<>();
        int seen = 0;
        try (Stream<Path> files = Files.list(cli)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                seen++;
                // Class names in the constant pool are UTF-8 internal names: javafx/…, io/headroom/ui/….
                String pool = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
                if (pool.contains("javafx/") || pool.contains("io/headroom/ui/")) {
                    offenders.add(f.getFileName().toString());
                }
            }
        }
        assertTrue(seen >= 5, "the check sees the compiled command line: " + seen);
        assertEquals(List.of(), offenders);
        String main = new String(Files.readAllBytes(Path.of("target/classes/io/headroom/Main.class")),
                StandardCharsets.ISO_8859_1);
        assertTrue(main.contains("io/headroom/ui/Console"), "the check would see such a reference");
    }
}
