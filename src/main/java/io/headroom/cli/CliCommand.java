package io.headroom.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * A subcommand of the command line: picocli parses and checks its options (and the files they
 * name, see {@link InputFiles}) before {@link #execute} runs; {@link Cli} gives it the streams.
 */
abstract class CliCommand implements Callable<Integer> {
    @Option(names = {"-h", "--help"}, usageHelp = true, hidden = true, description = "this help")
    boolean help;

    @Spec
    CommandSpec spec;

    InputStream in = System.in;
    PrintStream out = System.out;
    PrintStream err = System.err;

    void streams(InputStream in, PrintStream out, PrintStream err) {
        this.in = in;
        this.out = out;
        this.err = err;
    }

    /** A usage error found after parsing (a rule between options): exit code 2, said as picocli's own. */
    ParameterException usageError(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /**
     * Says each warning on standard error, {@code headroom NAME: warning: …}, at once (before the command
     * sends anything): what is unsafe about a connection is said by every command the same way.
     */
    void warn(java.util.List<String> warnings) {
        for (String w : warnings) {
            err.println("headroom " + spec.name() + ": warning: " + io.headroom.config.UntrustedText.line(w, 1000));
        }
        err.flush();
    }

    /** Runs the command on its parsed options; returns its {@link ExitCode}. */
    abstract int execute();

    @Override
    public final Integer call() {
        return execute();
    }
}
