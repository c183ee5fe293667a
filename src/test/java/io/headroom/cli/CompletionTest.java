package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completion scripts the build writes (what {@code package} runs: {@link Completion#main}), run
 * in the shells they are for: bash completes every subcommand and a subcommand's options; zsh finds
 * {@code _headroom} on its fpath and hands {@code headroom} to the same functions.
 */
class CompletionTest {

    /** Every subcommand of the command line, from the model that parses it. */
    static Set<String> subcommands() {
        PrintStream none = new PrintStream(PrintStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        Set<String> names = new TreeSet<>(Cli.commandLine(InputStream.nullInputStream(), none, none)
                .getSubcommands().keySet());
        assertTrue(names.containsAll(List.of("simulate", "plan", "whatif", "import-keda", "export-keda", "contexts",
                "help")),
                names.toString());
        return names;
    }

    @Test
    void theBashScriptCompletesEverySubcommandAndTheirOptions(@TempDir Path dir) throws Exception {
        Completion.main(new String[] {dir.toString()});
        Path bash = dir.resolve("headroom");
        String script = Files.readString(bash);
        for (String name : subcommands()) {
            assertTrue(script.contains(name), "the script names " + name);
        }
        // As bash calls it on TAB: the words so far, the index of the one being completed.
        String words = shell("bash", "-c", "source \"$1\" 2>/dev/null; COMP_WORDS=(headroom \"\"); COMP_CWORD=1;"
                + " _complete_headroom 2>/dev/null; echo \"${COMPREPLY[@]}\";"
                + " COMP_WORDS=(headroom whatif --); COMP_CWORD=2; _complete_headroom 2>/dev/null;"
                + " echo \"${COMPREPLY[@]}\";"
                + " COMP_WORDS=(headroom sim); COMP_CWORD=1; _complete_headroom 2>/dev/null; echo \"${COMPREPLY[@]}\"",
                "bash", bash.toString());
        List<String> lines = words.lines().toList();
        assertEquals(3, lines.size(), words);
        assertEquals(subcommands(), new TreeSet<>(Arrays.asList(lines.get(0).split(" "))), "headroom TAB");
        assertTrue(Arrays.asList(lines.get(1).split(" ")).containsAll(List.of("--config", "--scenario", "--class",
                "--set", "--window", "--keda-list-length", "--json")), "headroom whatif --TAB: " + lines.get(1));
        assertEquals("simulate", lines.get(2), "headroom sim TAB");
    }

    @Test
    void theZshScriptIsFoundOnFpathAndHandsHeadroomToTheBashFunctions(@TempDir Path dir) throws Exception {
        Completion.main(new String[] {dir.toString()});
        String zsh = Files.readString(dir.resolve("_headroom"));
        assertTrue(zsh.startsWith("#compdef headroom\n"), "zsh loads it for headroom from its fpath");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/zsh")) || Files.isExecutable(Path.of("/bin/zsh")),
                "zsh is not installed here: only the script's text is checked");
        String out = shell("zsh", "-f", "-c", "fpath=(\"$1\" $fpath); autoload -U compinit && compinit -u -D;"
                + " print -r -- \"before=${_comps[headroom]}\"; _headroom >/dev/null 2>&1;"
                + " print -r -- \"after=${_comps[headroom]}\"; whence -w _complete_headroom", "zsh", dir.toString());
        assertTrue(out.contains("before=_headroom"), "compinit found _headroom for headroom: " + out);
        assertTrue(out.contains("after=_bash_complete -F _complete_headroom"), "then the bash functions: " + out);
        assertTrue(out.contains("_complete_headroom: function"), out);
    }

    private static String shell(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the shell ended");
        assertEquals(0, p.exitValue(), new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
        return new String(out, StandardCharsets.UTF_8);
    }
}
