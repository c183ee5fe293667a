package io.headroom.cli;

import io.headroom.config.UntrustedText;
import io.headroom.kube.Contexts;
import io.headroom.kube.ImportedClass;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.ScaledObjectImport;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code headroom import-keda --context C --namespace N [--kubeconfig FILE] [--out FILE]}: turns
 * the KEDA ScaledObjects of a namespace into workloads-file entries to review and save.
 */
@Command(name = "import-keda", sortOptions = false, sortSynopsis = false,
        header = "ScaledObjects → workloads-file entries to review",
        description = {"Prints each ScaledObject of NS as a workloads-file class entry (for the file's classes: "
                + "list), with a note on every field that does not map one to one and on KEDA's pause annotations; "
                + "required signals KEDA does not know are left as comments to fill in.",
            "A ScaledObject that cannot become a class is named on standard error with the reason, and the others "
                    + "are imported (exit 0; exit 1 when none could be)."})
final class ImportCommand extends CliCommand {
    @Option(names = "--context", required = true, paramLabel = "CONTEXT", description = "the kubeconfig context")
    String context;

    @Option(names = "--namespace", required = true, paramLabel = "NS", description = "the namespace to read")
    String namespace;

    @Mixin
    SharedOptions.KubeconfigOption kubeconfig;

    @Mixin
    SharedOptions.OutFileOption target;

    ImportCommand() {
    }

    /** @param env the environment (the plain-http allowance and $KUBECONFIG are read from it) */
    ImportCommand(java.util.function.UnaryOperator<String> env) {
        super(env);
    }

    @Override
    int execute() {
        Contexts contexts = contexts(kubeconfig.path);
        if (contexts.get(context).isEmpty()) {
            err.println(UntrustedText.line("headroom import-keda: " + contexts.noSuchContext(context), 1000));
            return ExitCode.USAGE;
        }
        ScaledObjectImport.Listing listing;
        try (KubeConnection conn = contexts.open(context)) {
            warn(conn.warnings()); // before the first request carries the credentials
            listing = ScaledObjectImport.listIn(conn, namespace);
        } catch (RuntimeException e) {
            // The cluster's words: shown, never obeyed (no escape sequence reaches the terminal).
            err.println("headroom import-keda: " + UntrustedText.line(String.valueOf(e.getMessage()), 500));
            return ExitCode.FAILED;
        }
        List<ImportedClass> imported = listing.imported();
        // A bad object is named with its reason; the others are imported all the same.
        for (ScaledObjectImport.Skipped k : listing.skipped()) {
            err.println("headroom import-keda: skipped " + UntrustedText.line(k.line(), 1000));
        }
        for (ImportedClass c : imported) {
            if (c.pause() != null) {
                err.println("headroom import-keda: " + UntrustedText.line(c.target().namespace() + "/" + c.name() + " is "
                        + c.pause().label() + ": keep its class in observe mode until the pause is lifted", 500));
            }
        }
        if (imported.isEmpty()) {
            err.println(UntrustedText.line("headroom import-keda: no ScaledObject in " + context + "/" + namespace
                    + (listing.skipped().isEmpty() ? "" : " could be imported"), 500));
            return ExitCode.FAILED;
        }
        List<String> blocks = new ArrayList<>();
        for (ImportedClass c : imported) {
            blocks.add(c.toYaml());
        }
        StringBuilder head = new StringBuilder("# " + imported.size() + " class(es) imported from KEDA in " + context + "/"
                + namespace + ": paste under classes: in a workloads file, review, fill the commented signals.\n");
        for (ScaledObjectImport.Skipped k : listing.skipped()) {
            head.append("# skipped ").append(k.line().replace("\n", " ")).append('\n');
        }
        // Names and queries come from the cluster: line breaks stay (it is YAML), control characters do not.
        String text = UntrustedText.lines(head + String.join("\n", blocks));
        return printOrWrite(text, target.path, "wrote " + imported.size() + " class(es) to " + target.path);
    }
}
