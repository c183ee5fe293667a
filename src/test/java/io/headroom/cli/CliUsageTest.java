package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Help and usage errors generated from each command's declaration (picocli): every command is in the
 * summary with its options, errors say {@code headroom CMD: …} with exit code 2 and run nothing, and the
 * files a command is given are checked once, while its options are parsed.
 */
class CliUsageTest {

    static SimulateCommandTest.Run run(String... args) {
        return SimulateCommandTest.run(args);
    }

    @Test
    void theSummaryHasEveryCommandsSynopsisAndEachCommandItsOptions() {
        String usage = Cli.usage();
        for (String line : new String[] {"usage: headroom [console] [--config=WORKLOADS.yaml] [--speed=N]",
            "headroom simulate --scenario FILE [--baseline RULE]... [--json]",
            "headroom plan --config FILE [--once] [--json] [--replicas class=N]...",
            "headroom whatif (--config FILE | --scenario FILE) --class NAME [--set key=value]...",
            "headroom import-keda --context CONTEXT --namespace NS [--kubeconfig FILE] [--out FILE]",
            "headroom export-keda --config FILE --class NAME [--out FILE] [--apply] [--yes] [--kubeconfig FILE]",
            "headroom contexts [--kubeconfig FILE] [--json]",
            "headroom --version", "headroom help [COMMAND]"}) {
            assertTrue(usage.contains(line), "the summary has '" + line + "':\n" + usage);
        }
        SimulateCommandTest.Run help = run("help");
        assertEquals(0, help.code());
        assertEquals(usage, help.out().strip());
        assertEquals(usage, run("-h").out().strip());

        for (String[] args : new String[][] {{"help", "plan"}, {"plan", "--help"}, {"plan", "-h"}}) {
            SimulateCommandTest.Run plan = run(args);
            assertEquals(0, plan.code(), String.join(" ", args));
            assertTrue(plan.out().contains("usage: headroom plan --config FILE [--once]"), plan.out());
            assertTrue(plan.out().contains("--replicas class=N   the current replicas of a class"), plan.out());
            assertEquals("", plan.err());
        }
    }

    @Test
    void helpConsoleSaysHowToOpenTheConsole() {
        // The summary's first line is "headroom [console] …": help on that word answers as on the others.
        SimulateCommandTest.Run help = run("help", "console");
        assertEquals(0, help.code(), help.err());
        assertEquals("", help.err());
        assertTrue(help.out().contains("usage: headroom [console] [--config=WORKLOADS.yaml] [--speed=N]"), help.out());
        assertTrue(help.out().contains("open the console"), help.out());
    }

    @Test
    void usageErrorsNameTheCommandAndRunNothing() {
        SimulateCommandTest.Run typo = run("simulate", "--scenario", "examples/scenarios/burst.yaml", "--jsn");
        assertEquals(ExitCode.USAGE, typo.code());
        assertEquals("", typo.out(), "nothing simulated");
        assertTrue(typo.err().startsWith("headroom simulate: unknown argument '--jsn'; did you mean --json?\n"
                + "usage: headroom simulate --scenario FILE"), typo.err());

        SimulateCommandTest.Run missing = run("import-keda", "--context", "prod");
        assertEquals(ExitCode.USAGE, missing.code());
        assertTrue(missing.err().startsWith("headroom import-keda: --namespace NS is required\n"), missing.err());
        SimulateCommandTest.Run both = run("import-keda");
        assertTrue(both.err().startsWith("headroom import-keda: --context CONTEXT and --namespace NS are required"),
                both.err());

        SimulateCommandTest.Run noValue = run("plan", "--config");
        assertEquals(ExitCode.USAGE, noValue.code());
        assertTrue(noValue.err().startsWith("headroom plan: --config FILE is required"), noValue.err());

        SimulateCommandTest.Run unknown = run("simulat");
        assertEquals(ExitCode.USAGE, unknown.code());
        assertTrue(unknown.err().startsWith("headroom: unknown command 'simulat'; did you mean simulate"),
                unknown.err());

        SimulateCommandTest.Run applyAndOut = run("export-keda", "--config", "examples/workloads.yaml", "--class",
                "enrichment", "--apply", "--out", "x.yaml");
        assertEquals(ExitCode.USAGE, applyAndOut.code());
        assertTrue(applyAndOut.err().startsWith("headroom export-keda: --apply and --out exclude each other"),
                applyAndOut.err());
    }

    @Test
    void filesAreCheckedWhileTheOptionsAreParsed(@TempDir Path dir) throws Exception {
        Path d = Files.createDirectory(dir.resolve("kube"));
        SimulateCommandTest.Run kubeDir = run("import-keda", "--context", "prod", "--namespace", "shop",
                "--kubeconfig", d.toString());
        assertEquals(ExitCode.USAGE, kubeDir.code());
        assertEquals("headroom import-keda: " + d + ": is a directory, not a file\n", kubeDir.err());
        SimulateCommandTest.Run kubeNone = run("import-keda", "--context", "prod", "--namespace", "shop",
                "--kubeconfig", dir.resolve("none").toString());
        assertTrue(kubeNone.err().endsWith("none: no such file\n"), kubeNone.err());

        Path taken = Files.writeString(dir.resolve("taken.yaml"), "mine");
        SimulateCommandTest.Run out = run("import-keda", "--context", "prod", "--namespace", "shop", "--out",
                taken.toString());
        assertEquals(ExitCode.USAGE, out.code());
        assertTrue(out.err().startsWith("headroom import-keda: " + taken + " exists; choose another --out"), out.err());
        assertEquals("mine", Files.readString(taken), "nothing is overwritten");

        // A workloads file the reader refuses is said as the reader says it, located, for every command.
        Path notYaml = Files.writeString(dir.resolve("w.txt"), "x");
        for (String[] args : new String[][] {{"plan", "--config", notYaml.toString()},
            {"export-keda", "--config", notYaml.toString(), "--class", "q"},
            {"whatif", "--config", notYaml.toString(), "--class", "q"}}) {
            SimulateCommandTest.Run r = run(args);
            assertEquals(ExitCode.USAGE, r.code(), args[0]);
            assertEquals("w.txt:1: unknown file type; use .yaml, .yml or .json\n", r.err(), args[0]);
            assertFalse(r.err().contains("headroom"), r.err());
        }
    }
}
