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
        String noScreen = noDisplay(System.getenv(), System.getProperty("os.name"), System.getProperty("glass.platform"));
        if (noScreen != null) {
            System.err.println(noScreen);
            System.exit(ExitCode.FAILED);
        }
        try {
            // Loaded only here: the command line's classes never link the console's.
            io.headroom.ui.Console.launch(Cli.consoleOptions(args));
        } catch (UnsupportedOperationException e) {
            // JavaFX's word for a display it could not open ("Unable to open DISPLAY"): said in one line.
            if (String.valueOf(e.getMessage()).contains("DISPLAY")) {
                System.err.println(NO_SCREEN.formatted("the display " + System.getenv("DISPLAY") + " does not answer"));
                System.exit(ExitCode.FAILED);
            }
            throw e;
        }
    }

    private static final String NO_SCREEN = "headroom: the console needs a screen and %s; run it on a desktop, with "
            + "ssh -X, or under xvfb-run (the commands, headroom help, need none)";

    /** Null where a window can open (a display is named, not Linux, or Monocle); else the line to print. */
    static String noDisplay(java.util.Map<String, String> env, String os, String glassPlatform) {
        boolean named = !env.getOrDefault("DISPLAY", "").isBlank() || !env.getOrDefault("WAYLAND_DISPLAY", "").isBlank();
        if (named || os == null || !os.toLowerCase(java.util.Locale.ROOT).contains("linux") || glassPlatform != null) {
            return null;
        }
        return NO_SCREEN.formatted("none is set (DISPLAY is empty)");
    }
}
