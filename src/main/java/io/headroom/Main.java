package io.headroom;

import io.headroom.cli.Cli;

/**
 * The launcher: {@code headroom} with no arguments opens the console; {@code headroom simulate …}
 * runs the command line. It does not extend Application, so JavaFX can load from the classpath.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        int code = Cli.run(args, System.out, System.err);
        if (code != Cli.CONSOLE_STARTED) {
            System.exit(code);
        }
    }
}
