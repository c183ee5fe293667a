package io.headroom.cli;

/** Exit codes of the command line. */
final class ExitCode {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private ExitCode() {
    }
}
