package io.headroom.cli;

import io.headroom.BuildInfo;
import io.headroom.config.UntrustedText;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * The command line's subcommands. Whether the arguments open the console instead is
 * {@link #opensConsole}; {@code io.headroom.Main} decides, so nothing here links JavaFX.
 */
public final class Cli {

    private Cli() {
    }

    /** True for the console: no arguments, {@code console [options]}, or console options alone ({@code --speed=10}). */
    public static boolean opensConsole(String[] argv) {
        return argv.length == 0 || argv[0].equals("console")
                || argv[0].startsWith("--") && !argv[0].equals("--help") && !argv[0].equals("--version");
    }

    /** The console's options, without the {@code console} word. */
    public static String[] consoleOptions(String[] argv) {
        return argv.length > 0 && argv[0].equals("console") ? Arrays.copyOfRange(argv, 1, argv.length) : argv;
    }

    /** Checks the console's options before any window opens: null when fine, else the message to print. */
    public static String consoleUsageError(String[] argv) {
        String problem = consoleArgumentProblem(Arrays.asList(consoleOptions(argv)));
        return problem == null ? null : "headroom: " + UntrustedText.line(problem, 1000) + "\n" + usage();
    }

    /** Runs a subcommand and returns its exit code (the console is not one: see {@link #opensConsole}). */
    public static int run(String[] argv, PrintStream out, PrintStream err) {
        return run(argv, System.in, out, err);
    }

    /** @param in answers a command's questions (export-keda --apply asks before writing) */
    public static int run(String[] argv, java.io.InputStream in, PrintStream out, PrintStream err) {
        List<String> args = Arrays.asList(argv);
        if (opensConsole(argv)) {
            String problem = consoleUsageError(argv);
            err.println(problem != null ? problem : "headroom: the console opens from the launcher (io.headroom.Main)\n"
                    + usage());
            return ExitCode.USAGE;
        }
        String command = args.get(0);
        List<String> rest = args.subList(1, args.size());
        return switch (command) {
            case "simulate" -> SimulateCommand.run(rest, out, err);
            case "import-keda" -> ImportCommand.run(rest, out, err);
            case "export-keda" -> ExportCommand.run(rest, in, io.headroom.kube.Contexts::fromEnvironment, out, err);
            case "plan" -> PlanCommand.run(rest, out, err);
            case "whatif" -> WhatIfCommand.run(rest, out, err);
            case "version", "--version", "-V" -> {
                out.println(BuildInfo.current().line());
                yield ExitCode.OK;
            }
            case "help", "-h", "--help" -> {
                out.println(usage());
                yield ExitCode.OK;
            }
            default -> {
                err.println("headroom: unknown command '" + UntrustedText.line(command, 100) + "'\n" + usage());
                yield ExitCode.USAGE;
            }
        };
    }

    /** Checks the console's options before any window opens; null when they are fine. */
    static String consoleArgumentProblem(List<String> args) {
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2) {
                return "'" + a + "' needs a value, e.g. --speed=10";
            }
            switch (kv[0]) {
                case "--speed" -> {
                    try {
                        double v = Double.parseDouble(kv[1]);
                        if (!io.headroom.session.Launcher.SPEEDS.contains(v)) {
                            return "--speed must be 1, 10 or 60 (times real time, as the speed buttons offer), got "
                                    + kv[1];
                        }
                    } catch (NumberFormatException e) {
                        return "--speed must be a number, got '" + kv[1] + "'";
                    }
                }
                case "--seed" -> {
                    try {
                        Long.parseLong(kv[1]);
                    } catch (NumberFormatException e) {
                        return "--seed must be a whole number, got '" + kv[1] + "'";
                    }
                }
                case "--journal", "--settings" -> {
                    if (kv[1].isBlank()) {
                        return kv[0] + " needs a file path";
                    }
                }
                case "--config" -> {
                    try {
                        // The file itself (a directory, a loop, too large, not UTF-8) is refused here, located;
                        // its content is checked by the console, which opens the sandbox when it is wrong.
                        io.headroom.config.ConfigTree.formatOf(java.nio.file.Path.of(kv[1]));
                        io.headroom.config.ConfigTree.readText(java.nio.file.Path.of(kv[1]));
                    } catch (io.headroom.config.ConfigException e) {
                        return "--config: " + e.getMessage();
                    } catch (java.nio.file.InvalidPathException e) {
                        return "--config: not a file path";
                    }
                }
                default -> {
                    return "unknown option '" + kv[0] + "'";
                }
            }
        }
        return null;
    }

    public static String usage() {
        return """
                usage: headroom [console] [--config=WORKLOADS.yaml] [--speed=N] [--seed=N] [--journal=FILE] [--settings=FILE]
                                                   open the console: the workloads file (or the one chosen in
                                                   Settings), else the built-in sandbox
                       headroom simulate --scenario FILE [--json]   run a scenario faster than real time
                       headroom plan --config FILE [--once] [--json] [--replicas class=N ...]
                                                                    the decision per class from live Prometheus data
                       headroom whatif (--config FILE | --scenario FILE) --class NAME --set maxReplicas=8 [--set k=v ...]
                                       [--window 1h] [--json]
                                                   replay the class's recent load (Prometheus, or a scenario's
                                                   simulated load) under its live and an
                                                   edited policy, and KEDA's rule: the What-if window's comparison
                       headroom import-keda --context C --namespace N [--kubeconfig FILE] [--out FILE]
                                                   ScaledObjects → workloads-file entries to review
                       headroom export-keda --config FILE --class NAME [--out FILE | --apply [--yes]]
                                                   a class's policy → a KEDA ScaledObject to review, or to
                                                   apply after a server-side dry run and its diff
                       headroom --version                print version, commit and build time
                       headroom help""";
    }
}
