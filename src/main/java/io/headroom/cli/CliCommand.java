package io.headroom.cli;

import io.headroom.kube.Contexts;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
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

    /** The environment: $KUBECONFIG, $HOME, the plain-http allowance, a source's secrets (tests give their own). */
    final UnaryOperator<String> env;
    private final Supplier<Contexts> environmentContexts;

    CliCommand() {
        this(System::getenv);
    }

    CliCommand(UnaryOperator<String> env) {
        this(() -> Contexts.fromEnvironment(env), env);
    }

    /** @param environmentContexts the kubeconfig's contexts as the environment finds them, when no file is named */
    CliCommand(Supplier<Contexts> environmentContexts, UnaryOperator<String> env) {
        this.environmentContexts = environmentContexts;
        this.env = env;
    }

    /**
     * The kubeconfig's contexts: {@code kubeconfig} alone where the command was given one (--kubeconfig FILE),
     * else as the environment finds them ($KUBECONFIG, else ~/.kube/config); the plain-http allowance from
     * the environment either way.
     */
    Contexts contexts(Path kubeconfig) {
        return kubeconfig != null ? Contexts.explicit(kubeconfig, env) : environmentContexts.get();
    }

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

    /**
     * Prints {@code text}, or writes it to {@code target} (--out FILE) as a new file and says {@code wrote}: never
     * over a file, not even one that appeared after --out was checked. Returns the {@link ExitCode}.
     */
    int printOrWrite(String text, Path target, String wrote) {
        if (target == null) {
            out.print(text);
            out.flush();
            return ExitCode.OK;
        }
        try {
            Files.writeString(target, text, StandardOpenOption.CREATE_NEW);
        } catch (FileAlreadyExistsException e) {
            err.println("headroom " + spec.name() + ": cannot write " + target + ": it exists now (nothing is overwritten)");
            return ExitCode.FAILED;
        } catch (IOException e) {
            err.println("headroom " + spec.name() + ": cannot write " + target + ": " + e.getMessage());
            return ExitCode.FAILED;
        }
        out.println(wrote);
        return ExitCode.OK;
    }

    /** Runs the command on its parsed options; returns its {@link ExitCode}. */
    abstract int execute();

    @Override
    public final Integer call() {
        return execute();
    }
}
