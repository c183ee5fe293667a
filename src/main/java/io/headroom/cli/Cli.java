package io.headroom.cli;

import io.headroom.ui.HeadroomApp;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import javafx.application.Application;

/** Dispatches the command line: no command opens the console, otherwise a subcommand runs. */
public final class Cli {
    /** Returned when the console ran (the JVM exits when its window closes). */
    public static final int CONSOLE_STARTED = -1;

    private Cli() {
    }

    public static int run(String[] argv, PrintStream out, PrintStream err) {
        List<String> args = Arrays.asList(argv);
        if (args.isEmpty() || args.get(0).startsWith("--") && !args.get(0).equals("--help")) {
            Application.launch(HeadroomApp.class, argv);
            return CONSOLE_STARTED;
        }
        String command = args.get(0);
        List<String> rest = args.subList(1, args.size());
        return switch (command) {
            case "simulate" -> SimulateCommand.run(rest, out, err);
            case "help", "-h", "--help" -> {
                out.println(usage());
                yield ExitCode.OK;
            }
            default -> {
                err.println("headroom: unknown command '" + command + "'\n" + usage());
                yield ExitCode.USAGE;
            }
        };
    }

    static String usage() {
        return """
                usage: headroom [--speed=N] [--seed=N]       open the console (the built-in sandbox when nothing is configured)
                       headroom simulate --scenario FILE [--json]   run a scenario faster than real time
                       headroom help""";
    }
}
