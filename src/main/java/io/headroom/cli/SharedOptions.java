package io.headroom.cli;

import io.headroom.config.ConfigException;
import io.headroom.config.WorkloadsFile;
import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Options several commands take with the same meaning, checks and help, declared once and mixed in
 * ({@code @Mixin}): the workloads file, the kubeconfig and the file to write.
 */
final class SharedOptions {
    private SharedOptions() {
    }

    /** {@code --config FILE}: the workloads file a command reads its classes from. */
    static final class WorkloadsFileOption {
        @Option(names = "--config", required = true, paramLabel = "FILE", converter = InputFiles.ConfigFile.class,
                description = "the workloads file")
        Path path;

        /** The file as its reader reads it; null once the reader's problem is said on {@code err} (exit 2). */
        WorkloadsFile read(PrintStream err) {
            try {
                return WorkloadsFile.read(path);
            } catch (ConfigException e) {
                err.println(e.getMessage());
                return null;
            }
        }
    }

    /** {@code --kubeconfig FILE}: this kubeconfig alone, read by {@link CliCommand#contexts}. */
    static final class KubeconfigOption {
        @Option(names = "--kubeconfig", paramLabel = "FILE", converter = InputFiles.ReadableFile.class,
                description = "this kubeconfig alone (else $KUBECONFIG, else ~/.kube/config)")
        Path path;
    }

    /** {@code --out FILE}: a new file to write instead of printing, by {@link CliCommand#printOrWrite}. */
    static final class OutFileOption {
        @Option(names = "--out", paramLabel = "FILE", converter = InputFiles.NewFile.class,
                description = "writes a new file instead (never overwrites)")
        Path path;
    }
}
