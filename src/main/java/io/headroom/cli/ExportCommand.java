package io.headroom.cli;

import io.headroom.config.ClassConfig;
import io.headroom.config.ConfigException;
import io.headroom.config.UntrustedText;
import io.headroom.config.WorkloadsFile;
import io.headroom.kube.ScaledObjectExport;
import java.io.IOException;
import java.io.PrintStream;
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
        return "usage: headroom export-keda --config FILE --class NAME [--out FILE]\n"
                + "  Prints the class's policy as a KEDA ScaledObject: min/max, cooldown, polling interval, HPA\n"
                + "  behaviour, fallback, a Prometheus trigger that reproduces the slot estimate, scheduled floors as\n"
                + "  cron triggers; what KEDA cannot express is listed as comments. --out writes a new file.";
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        Path config = null;
        String cls = null;
        Path target = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-h") || a.equals("--help")) {
                out.println(usage());
                return ExitCode.OK;
            }
            if (i + 1 >= args.size() || !List.of("--config", "--class", "--out").contains(a)) {
                err.println("headroom export-keda: unexpected '" + UntrustedText.line(a, 100) + "'\n" + usage());
                return ExitCode.USAGE;
            }
            String v = args.get(++i);
            switch (a) {
                case "--config" -> config = Path.of(v);
                case "--class" -> cls = v;
                default -> target = Path.of(v);
            }
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
        String yaml;
        try {
            yaml = ScaledObjectExport.of(c.name(), c.target(), c.policy(), c.queries(),
                    file.prometheus().url().toString()).toYaml();
        } catch (IllegalArgumentException e) {
            err.println("headroom export-keda: " + c.name() + ": " + e.getMessage());
            return ExitCode.USAGE;
        }
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
}
