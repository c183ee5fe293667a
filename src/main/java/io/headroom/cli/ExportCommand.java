package io.headroom.cli;

import io.headroom.config.ClassConfig;
import io.headroom.config.UntrustedText;
import io.headroom.config.WorkloadsFile;
import io.headroom.kube.Contexts;
import io.headroom.kube.HolderIdentity;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.ScaledObjectApply;
import io.headroom.kube.ScaledObjectExport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.function.Supplier;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code headroom export-keda --config FILE --class NAME [--out FILE | --apply [--yes]]}: a class's policy
 * as a KEDA ScaledObject to review (and apply with kubectl, or with --apply), with what KEDA cannot
 * express as comments.
 */
@Command(name = "export-keda", sortOptions = false, sortSynopsis = false,
        header = {"a class's policy → a KEDA ScaledObject to review, or to apply after a server-side dry run and "
                + "its diff"},
        description = {"Prints the class's policy as a KEDA ScaledObject: min/max, cooldown, polling interval, HPA "
                + "behaviour, the fallback as KEDA's currentReplicasIfHigher (with a floor) or currentReplicas, a "
                + "Prometheus trigger that reproduces the slot estimate, scheduled floors as cron triggers; what KEDA "
                + "cannot express is listed as comments, and the class rides along in a headroom.io/class annotation "
                + "so that import-keda gives it back.",
            "--apply writes it to the class's cluster: a server-side dry run first, then the difference against the "
                    + "live ScaledObject, then a question (--yes answers it); nothing is written if the live object "
                    + "changed after the difference was shown. An Event on the ScaledObject says who."})
final class ExportCommand extends CliCommand {
    @Mixin
    SharedOptions.WorkloadsFileOption config;

    @Option(names = "--class", required = true, paramLabel = "NAME", description = "the class to export")
    String cls;

    @Mixin
    SharedOptions.OutFileOption target;

    @Option(names = "--apply", description = "writes it to the class's cluster, after a dry run and its diff")
    boolean apply;

    @Option(names = "--yes", description = "answers the question of --apply")
    boolean yes;

    @Option(names = "--kubeconfig", paramLabel = "FILE", converter = InputFiles.ReadableFile.class,
            description = "with --apply: the kubeconfig (else $KUBECONFIG, else ~/.kube/config)")
    Path kubeconfig;

    ExportCommand() {
    }

    /**
     * @param contexts the kubeconfig's contexts when no --kubeconfig is given (tests give their own)
     * @param env the environment (the plain-http allowance is read from it, with --kubeconfig too)
     */
    ExportCommand(Supplier<Contexts> contexts, java.util.function.UnaryOperator<String> env) {
        super(contexts, env);
    }

    @Override
    int execute() {
        if (apply && target.path != null || yes && !apply || kubeconfig != null && !apply) {
            // Rules between options, said as picocli says its own usage errors.
            throw usageError(apply && target.path != null
                    ? "--apply and --out exclude each other" : yes ? "--yes only goes with --apply"
                    : "--kubeconfig only goes with --apply");
        }
        WorkloadsFile file = config.read(err);
        if (file == null) {
            return ExitCode.USAGE;
        }
        String wanted = cls;
        ClassConfig c = file.classes().stream().filter(x -> x.name().equals(wanted)).findFirst().orElse(null);
        if (c == null) {
            err.println("headroom export-keda: no class '" + UntrustedText.line(cls, 100) + "' in " + config.path + " (it has "
                    + String.join(", ", file.classes().stream().map(ClassConfig::name).toList()) + ")");
            return ExitCode.USAGE;
        }
        ScaledObjectExport.Export export;
        try {
            export = ScaledObjectExport.of(c.name(), c.target(), c.policy(), c.queries(), c.grouped(),
                    file.prometheus().url().toString());
        } catch (IllegalArgumentException e) {
            err.println("headroom export-keda: " + c.name() + ": " + e.getMessage());
            return ExitCode.USAGE;
        }
        String objectName = ScaledObjectExport.objectName(c.name());
        if (!objectName.equals(c.name())) {
            err.println("headroom export-keda: " + ScaledObjectExport.nameNote(c.name(), objectName));
        }
        if (apply) {
            Contexts ctx = contexts(kubeconfig);
            return apply(c, export, ctx);
        }
        return printOrWrite(export.toYaml(), target.path, "headroom export-keda: wrote " + target.path);
    }

    private int apply(ClassConfig c, ScaledObjectExport.Export export, Contexts contexts) {
        String context = c.target().context();
        if (contexts.get(context).isEmpty()) {
            err.println(UntrustedText.line("headroom export-keda: " + contexts.noSuchContext(context), 1000));
            return ExitCode.USAGE;
        }
        for (String n : export.notes()) {
            out.println("# " + n);
        }
        try (KubeConnection conn = contexts.open(context)) {
            warn(conn.warnings()); // before the dry run carries the credentials
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
