package io.headroom.cli;

import io.headroom.config.ClassConfig;
import io.headroom.config.ConfigException;
import io.headroom.config.UntrustedText;
import io.headroom.config.WorkloadsFile;
import io.headroom.kube.Contexts;
import io.headroom.kube.HolderIdentity;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.ScaledObjectApply;
import io.headroom.kube.ScaledObjectExport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.Supplier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code headroom export-keda --config FILE --class NAME [--out FILE]}: a class's policy as a KEDA
 * ScaledObject to review (and apply with kubectl), with what KEDA cannot express as comments.
 */
final class ExportCommand {
    private ExportCommand() {
    }

    static String usage() {
        return "usage: headroom export-keda --config FILE --class NAME [--out FILE | --apply [--yes] [--kubeconfig FILE]]\n"
                + "  Prints the class's policy as a KEDA ScaledObject: min/max, cooldown, polling interval, HPA\n"
                + "  behaviour, fallback, a Prometheus trigger that reproduces the slot estimate, scheduled floors as\n"
                + "  cron triggers; what KEDA cannot express is listed as comments. --out writes a new file.\n"
                + "  --apply writes it to the class's cluster: a server-side dry run first, then the difference\n"
                + "  against the live ScaledObject, then a question (--yes answers it); nothing is written if the\n"
                + "  live object changed after the difference was shown. An Event on the ScaledObject says who.";
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        return run(args, System.in, Contexts::fromEnvironment, out, err);
    }

    /**
     * @param in       answers the apply question
     * @param contexts the kubeconfig contexts when no --kubeconfig is given
     */
    static int run(List<String> args, InputStream in, Supplier<Contexts> contexts, PrintStream out, PrintStream err) {
        Path config = null;
        String cls = null;
        Path target = null;
        Path kubeconfig = null;
        boolean apply = false;
        boolean yes = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-h") || a.equals("--help")) {
                out.println(usage());
                return ExitCode.OK;
            }
            if (a.equals("--apply") || a.equals("--yes")) {
                apply |= a.equals("--apply");
                yes |= a.equals("--yes");
                continue;
            }
            if (i + 1 >= args.size() || !List.of("--config", "--class", "--out", "--kubeconfig").contains(a)) {
                err.println("headroom export-keda: unexpected '" + UntrustedText.line(a, 100) + "'\n" + usage());
                return ExitCode.USAGE;
            }
            String v = args.get(++i);
            switch (a) {
                case "--config" -> config = Path.of(v);
                case "--class" -> cls = v;
                case "--kubeconfig" -> kubeconfig = Path.of(v);
                default -> target = Path.of(v);
            }
        }
        if (apply && target != null || yes && !apply || kubeconfig != null && !apply) {
            err.println("headroom export-keda: " + (apply && target != null ? "--apply and --out exclude each other"
                    : yes ? "--yes only goes with --apply" : "--kubeconfig only goes with --apply") + "\n" + usage());
            return ExitCode.USAGE;
        }
        if (config == null || cls == null) {
            err.println("headroom export-keda: --config and --class are required\n" + usage());
            return ExitCode.USAGE;
        }
        if (target != null && Files.exists(target)) {
            err.println("headroom export-keda: " + target + " exists; choose another --out (nothing is overwritten)");
            return ExitCode.USAGE;
        }
        WorkloadsFile file;
        try {
            file = WorkloadsFile.read(config);
        } catch (ConfigException e) {
            err.println(e.getMessage());
            return ExitCode.USAGE;
        }
        String wanted = cls;
        ClassConfig c = file.classes().stream().filter(x -> x.name().equals(wanted)).findFirst().orElse(null);
        if (c == null) {
            err.println("headroom export-keda: no class '" + UntrustedText.line(cls, 100) + "' in " + config + " (it has "
                    + String.join(", ", file.classes().stream().map(ClassConfig::name).toList()) + ")");
            return ExitCode.USAGE;
        }
        ScaledObjectExport.Export export;
        try {
            export = ScaledObjectExport.of(c.name(), c.target(), c.policy(), c.queries(),
                    file.prometheus().url().toString());
        } catch (IllegalArgumentException e) {
            err.println("headroom export-keda: " + c.name() + ": " + e.getMessage());
            return ExitCode.USAGE;
        }
        if (apply) {
            Contexts ctx = kubeconfig != null ? Contexts.load(List.of(kubeconfig)) : contexts.get();
            return apply(c, export, ctx, yes, in, out, err);
        }
        String yaml = export.toYaml();
        if (target == null) {
            out.print(yaml);
            out.flush();
            return ExitCode.OK;
        }
        try {
            Files.writeString(target, yaml, java.nio.file.StandardOpenOption.CREATE_NEW);
        } catch (IOException e) {
            err.println("headroom export-keda: cannot write " + target + ": " + e.getMessage());
            return ExitCode.FAILED;
        }
        out.println("headroom export-keda: wrote " + target);
        return ExitCode.OK;
    }

    private static int apply(ClassConfig c, ScaledObjectExport.Export export, Contexts contexts, boolean yes,
                             InputStream in, PrintStream out, PrintStream err) {
        String context = c.target().context();
        if (contexts.get(context).isEmpty()) {
            err.println(UntrustedText.line("headroom export-keda: no context '" + context + "' in " + contexts.files(), 1000));
            return ExitCode.USAGE;
        }
        for (String n : export.notes()) {
            out.println("# " + n);
        }
        try (KubeConnection conn = contexts.open(context)) {
            for (String w : conn.warnings()) {
                err.println("headroom export-keda: warning: " + UntrustedText.line(w, 500));
            }
            ScaledObjectApply.Plan plan = ScaledObjectApply.plan(conn.once(), export.object());
            // Field values come from the cluster: shown, never obeyed.
            out.println(UntrustedText.lines(plan.diff()));
            if (plan.unchanged()) {
                return ExitCode.OK;
            }
            if (!yes) {
                out.print("Apply this to " + context + "? [y/N] ");
                out.flush();
                String answer = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
                if (answer == null || !answer.strip().equalsIgnoreCase("y") && !answer.strip().equalsIgnoreCase("yes")) {
                    out.println("headroom export-keda: nothing applied");
                    return ExitCode.FAILED;
                }
            }
            ScaledObjectApply.Outcome o = ScaledObjectApply.apply(conn.once(), plan, HolderIdentity.current(), Instant.now());
            if (o instanceof ScaledObjectApply.Outcome.Applied a) {
                out.println("headroom export-keda: applied " + plan.namespace() + "/" + plan.name() + " in " + context
                        + " (resourceVersion " + a.resourceVersion() + ")");
                if (a.event() != null) {
                    err.println("headroom export-keda: " + UntrustedText.line(a.event(), 500));
                }
                return ExitCode.OK;
            }
            String why = o instanceof ScaledObjectApply.Outcome.Changed ch ? ch.message()
                    : ((ScaledObjectApply.Outcome.Refused) o).message();
            err.println("headroom export-keda: " + UntrustedText.line(why, 1000));
            return ExitCode.FAILED;
        } catch (IOException | RuntimeException e) {
            err.println("headroom export-keda: " + UntrustedText.line(String.valueOf(e.getMessage()), 500));
            return ExitCode.FAILED;
        }
    }
}
