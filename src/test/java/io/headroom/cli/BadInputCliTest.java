package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A bad workloads or scenario file, run through the real command-line entry: exit code 2 and
 * {@code FILE:LINE: field: message} on stderr, nothing on stdout, no stack trace, before any work.
 */
class BadInputCliTest {

    /** Every line of the report: FILE:LINE: then a message. */
    static final Pattern LOCATED = Pattern.compile("^[^:\\s]+:[1-9][0-9]*: \\S.*$");

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static void assertRefused(Run r, String expectedStart) {
        assertEquals(2, r.code(), r.err() + r.out());
        assertEquals("", r.out(), "nothing ran");
        assertFalse(r.err().isBlank());
        for (String line : r.err().strip().split("\n")) {
            assertTrue(LOCATED.matcher(line).matches(), "not FILE:LINE: …: " + line);
            assertFalse(line.contains("Exception"), line);
        }
        assertTrue(r.err().startsWith(expectedStart), "expected " + expectedStart + "…, got\n" + r.err());
    }

    static final String WORKLOADS = """
            prometheus:
              url: http://127.0.0.1:9
            classes:
              - name: q
                context: dev
                target: {name: w}
                signals:
                  queueLength: sum(q_len)
                  oldestAge: max(q_age)
                  arrivalRate: sum(rate(q_in[1m]))
                  meanService: "8"
                policy:
                  pollIntervalSeconds: 15
            """;

    static final String SCENARIO = """
            name: s
            durationSeconds: 600
            tickSeconds: 15
            classes:
              - name: c
                arrival: {baseRate: 5}
                service: {distribution: exponential, meanSeconds: 1}
                initialBacklog: 10
            """;

    @ParameterizedTest(name = "plan: {0}")
    @CsvSource(delimiter = '|', textBlock = """
            poll every nanosecond | 'pollIntervalSeconds: 15'       | 'pollIntervalSeconds: 1e-9'                     | w.yaml:13: classes[0].policy.pollIntervalSeconds: must be at least 1, got 1e-9
            second document       | 'pollIntervalSeconds: 15'       | 'pollIntervalSeconds: 15\\n---\\nprometheus: {url: http://evil}' | w.yaml:15: a second YAML document starts here
            alias to nothing      | 'sum(q_len)'                    | '*q'                                            | w.yaml:8: classes[0].signals.queueLength: alias *q names no anchor defined before it
            escape in a value     | 'name: q'                       | 'name: "q\\e[2J"'                                | w.yaml:4: classes[0].name: contains a control character (U+001B)
            token in clear text   | 'url: http://127.0.0.1:9'       | 'url: http://prometheus.example.internal:9\\n  bearerTokenEnv: TOKEN' | w.yaml:3: prometheus.bearerTokenEnv: a credential would go in clear text
            """)
    void planRefusesABadWorkloadsFile(String name, String from, String to, String expected, @TempDir Path dir)
            throws Exception {
        String text = WORKLOADS.replace(from, to.replace("\\n", "\n"));
        assertFalse(text.equals(WORKLOADS));
        Path f = dir.resolve("w.yaml");
        Files.writeString(f, text);
        assertRefused(run("plan", "--config", f.toString(), "--once"), expected);
    }

    @ParameterizedTest(name = "simulate: {0}")
    @CsvSource(delimiter = '|', textBlock = """
            duration 1e12   | 'durationSeconds: 600' | 'durationSeconds: 1e12' | s.yaml:2: durationSeconds: must be at most 2592000, got 1e12
            tick 1e-6       | 'tickSeconds: 15'      | 'tickSeconds: 1e-6'     | s.yaml:3: tickSeconds: must be at least 1, got 1e-6
            base rate 1e9   | 'baseRate: 5'          | 'baseRate: 1e9'         | s.yaml:6: classes[0].arrival.baseRate: must be at most 10000, got 1e9
            backlog 2e9     | 'initialBacklog: 10'   | 'initialBacklog: 2e9'   | s.yaml:8: classes[0].initialBacklog: must be at most 1000000, got 2e9
            two documents   | 'name: s'              | 'name: s\\n...\\n---\\nname: t' | s.yaml:4: a second YAML document starts here
            """)
    void simulateRefusesABadScenario(String name, String from, String to, String expected, @TempDir Path dir)
            throws Exception {
        String text = SCENARIO.replace(from, to.replace("\\n", "\n"));
        assertFalse(text.equals(SCENARIO));
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        assertRefused(run("simulate", "--scenario", f.toString()), expected);
    }

    @Test
    void aFiftyMegabyteCommentIsRefusedByItsSizeBeforeParsing(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("w.yaml");
        byte[] comment = new byte[50 * 1024 * 1024];
        java.util.Arrays.fill(comment, (byte) 'x');
        comment[0] = '#';
        Files.write(f, (WORKLOADS).getBytes(StandardCharsets.UTF_8));
        Files.write(f, comment, java.nio.file.StandardOpenOption.APPEND);
        assertRefused(run("plan", "--config", f.toString(), "--once"), "w.yaml:1: the file is ");
        Path s = dir.resolve("s.yaml");
        Files.copy(f, s);
        assertRefused(run("simulate", "--scenario", s.toString()), "s.yaml:1: the file is ");
    }

    @Test
    void notUtf8ADirectoryAndASymlinkLoopAreLocated(@TempDir Path dir) throws Exception {
        Path latin1 = dir.resolve("w.yaml");
        Files.write(latin1, WORKLOADS.replace("name: q", "name: caf\u00e9").getBytes(StandardCharsets.ISO_8859_1));
        assertRefused(run("plan", "--config", latin1.toString(), "--once"), "w.yaml:4: not UTF-8 text");

        Path d = Files.createDirectory(dir.resolve("d.yaml"));
        assertRefused(run("plan", "--config", d.toString(), "--once"), "d.yaml:1: is a directory, not a file");
        assertRefused(run("simulate", "--scenario", d.toString()), "d.yaml:1: is a directory, not a file");
        Run console = run("--config=" + d);
        assertEquals(2, console.code(), "the console is not opened on a directory");
        assertTrue(console.err().startsWith("headroom: --config: d.yaml:1: is a directory, not a file"), console.err());

        Path a = dir.resolve("a.yaml");
        Path b = dir.resolve("b.yaml");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        assertRefused(run("plan", "--config", a.toString(), "--once"), "a.yaml:1: cannot be read: a loop of symbolic links");
        assertRefused(run("simulate", "--scenario", a.toString()), "a.yaml:1: cannot be read: a loop of symbolic links");
        assertRefused(run("simulate", "--scenario", dir.resolve("none.yaml").toString()), "none.yaml:1: no such file");
    }

    /** Issue 27 item 7: another extension was refused with exit 2 and no line, unlike every other file problem. */
    @Test
    void aFileOfAnotherTypeIsLocatedToo(@TempDir Path dir) throws Exception {
        Path txt = Files.writeString(dir.resolve("w.txt"), WORKLOADS);
        assertRefused(run("plan", "--config", txt.toString(), "--once"),
                "w.txt:1: unknown file type; use .yaml, .yml or .json");
        assertRefused(run("export-keda", "--config", txt.toString(), "--class", "q"),
                "w.txt:1: unknown file type; use .yaml, .yml or .json");
        assertRefused(run("simulate", "--scenario", txt.toString()), "w.txt:1: unknown file type");
        Run console = run("--config=" + txt);
        assertEquals(2, console.code());
        assertTrue(console.err().startsWith("headroom: --config: w.txt:1: unknown file type"), console.err());
    }

    @Test
    void aCommandLineWithEscapesIsEchoedHarmlessly() {
        Run r = run("\u001b]0;pwned\u0007");
        assertEquals(2, r.code());
        assertFalse(r.err().contains("\u001b"), r.err());
        Run replicas = run("plan", "--config", "examples/workloads.yaml", "--once", "--replicas", "payments=4294967296");
        assertEquals(2, replicas.code());
        assertTrue(replicas.err().contains("--replicas needs class=N with N a whole number in 0..100000"), replicas.err());
    }
}
