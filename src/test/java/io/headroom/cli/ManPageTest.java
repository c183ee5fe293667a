package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The manual page is generated from the model that parses the command line: every command and option is in it. */
class ManPageTest {

    @Test
    void everyCommandAndOptionIsOnThePage(@TempDir Path dir) throws Exception {
        ManPage.main(new String[] {dir.toString()});
        String page = Files.readString(dir.resolve("headroom.1"));
        assertTrue(page.startsWith(".TH HEADROOM 1 "), page);
        assertTrue(page.contains(".SH NAME\nheadroom \\- "), page);
        PrintStream none = new PrintStream(PrintStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        CommandLine root = Cli.commandLine(InputStream.nullInputStream(), none, none);
        int options = 0;
        for (CommandLine sub : root.getSubcommands().values()) {
            String name = sub.getCommandName();
            if (name.equals("help") || name.equals("version") || name.equals("console")) {
                continue;
            }
            assertTrue(page.contains(".SS " + ManPage.text(name) + "\n"), name);
            for (OptionSpec o : sub.getCommandSpec().options()) {
                if (!o.hidden()) {
                    assertTrue(page.contains("\\fB" + ManPage.text(String.join(", ", o.names()))), name + " " + o.longestName());
                    options++;
                }
            }
        }
        assertTrue(options > 20, "the commands' options: " + options);
        // The console's own options are in the synopsis, --sandbox among them (issue 30).
        assertTrue(page.contains(ManPage.text("[--sandbox=plain|admission|placement]")), page);
        // roff: no line starts with a control character it did not mean, and no raw ${sys:…} left
        assertTrue(page.lines().filter(l -> l.startsWith(".") || l.startsWith("'"))
                .allMatch(l -> l.matches("\\.(TH|SH|SS|PP|TP|nf|fi)( .*)?")), page);
        assertTrue(!page.contains("${"), "variables resolved");
        assertEquals("\\e\\-x \\[u2192]", ManPage.text("\\-x →"));

        // groff reads it without a warning, where it is installed (as man and lintian read it)
        if (java.util.stream.Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(d -> Files.isExecutable(Path.of(d, "groff")))) {
            Process p = new ProcessBuilder("groff", "-man", "-ww", "-z", dir.resolve("headroom.1").toString())
                    .redirectErrorStream(true).start();
            String warnings = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor());
            assertEquals("", warnings);
        }
    }
}
