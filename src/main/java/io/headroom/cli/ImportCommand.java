package io.headroom.cli;

import io.headroom.config.UntrustedText;
import io.headroom.kube.Contexts;
import io.headroom.kube.ImportedClass;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.ScaledObjectImport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code headroom import-keda --context C --namespace N [--kubeconfig FILE] [--out FILE]}: turns
 * the KEDA ScaledObjects of a namespace into workloads-file entries to review and save.
 */
final class ImportCommand {
    private ImportCommand() {
    }

    static String usage() {
        return "usage: headroom import-keda --context CONTEXT --namespace NS [--kubeconfig FILE] [--out FILE]\n"
                + "  Prints each ScaledObject of NS as a workloads-file class entry (for the file's classes: list),\n"
                + "  with notes; required signals KEDA does not know are left as comments to fill in.\n"
                + "  --out writes a new file instead (never overwrites).";
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        String context = null;
        String namespace = null;
        Path kubeconfig = null;
        Path target = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-h") || a.equals("--help")) {
                out.println(usage());
                return ExitCode.OK;
            }
            if (i + 1 >= args.size() || !List.of("--context", "--namespace", "--kubeconfig", "--out").contains(a)) {
                err.println("headroom import-keda: unexpected '" + UntrustedText.line(a, 100) + "'\n" + usage());
                return ExitCode.USAGE;
            }
            String v = args.get(++i);
            switch (a) {
                case "--context" -> context = v;
                case "--namespace" -> namespace = v;
                case "--kubeconfig" -> kubeconfig = Path.of(v);
                default -> target = Path.of(v);
            }
        }
        if (context == null || namespace == null) {
            err.println("headroom import-keda: --context and --namespace are required\n" + usage());
            return ExitCode.USAGE;
        }
        if (target != null && Files.exists(target)) {
            err.println("headroom import-keda: " + target + " exists; choose another --out (nothing is overwritten)");
            return ExitCode.USAGE;
        }
        Contexts contexts = kubeconfig != null ? Contexts.load(List.of(kubeconfig)) : Contexts.fromEnvironment();
        if (contexts.get(context).isEmpty()) {
            err.println(UntrustedText.line("headroom import-keda: no context '" + context + "' in " + contexts.files(), 1000));
            return ExitCode.USAGE;
        }
        List<ImportedClass> imported;
        try (KubeConnection conn = contexts.open(context)) {
            imported = ScaledObjectImport.listIn(conn, namespace);
        } catch (RuntimeException e) {
            // The cluster's words: shown, never obeyed (no escape sequence reaches the terminal).
            err.println("headroom import-keda: " + UntrustedText.line(String.valueOf(e.getMessage()), 500));
            return ExitCode.FAILED;
        }
        if (imported.isEmpty()) {
            err.println(UntrustedText.line("headroom import-keda: no ScaledObject in " + context + "/" + namespace, 500));
            return ExitCode.FAILED;
        }
        List<String> blocks = new ArrayList<>();
        for (ImportedClass c : imported) {
            blocks.add(c.toYaml());
        }
        // Names and queries come from the cluster: line breaks stay (it is YAML), control characters do not.
        String text = "# " + imported.size() + " class(es) imported from KEDA in " + context + "/" + namespace
                + ": paste under classes: in a workloads file, review, fill the commented signals.\n"
                + String.join("\n", blocks);
        text = UntrustedText.lines(text);
        if (target == null) {
            out.print(text);
        } else {
            try {
                Files.writeString(target, text);
            } catch (IOException e) {
                err.println("headroom import-keda: could not write " + target + ": " + e.getMessage());
                return ExitCode.FAILED;
            }
            out.println("wrote " + imported.size() + " class(es) to " + target);
        }
        return ExitCode.OK;
    }
}
