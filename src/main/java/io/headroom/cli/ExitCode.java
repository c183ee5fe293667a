package io.headroom.cli;

/** Exit codes of the command line (the launcher's too). */
public final class ExitCode {
    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;

    private ExitCode() {
    }
}
