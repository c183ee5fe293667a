package io.headroom;

import io.headroom.cli.Cli;
import io.headroom.cli.ExitCode;

/**
 * The launcher: {@code headroom} with no arguments (or {@code headroom console}, or console options
 * alone) opens the console; {@code headroom simulate …} and the other commands run the command line,
 * which never loads JavaFX. It does not extend Application, so JavaFX can load from the classpath.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        LoadedSecrets.guardLogging(); // a credential a server quotes never reaches the log either
        if (!Cli.opensConsole(args)) {
            System.exit(Cli.run(args, System.out, System.err));
        }
        String problem = Cli.consoleUsageError(args);
        if (problem != null) {
            System.err.println(problem);
            System.exit(ExitCode.USAGE);
        }
        // Loaded only here: the command line's classes never link the console's.
        io.headroom.ui.Console.launch(Cli.consoleOptions(args));
    }
}
