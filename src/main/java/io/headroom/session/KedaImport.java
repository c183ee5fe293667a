package io.headroom.session;

import io.headroom.decision.SignalName;
import io.headroom.config.UntrustedText;
import io.headroom.kube.Contexts;
import io.headroom.kube.ImportedClass;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.KubeContext;
import io.headroom.kube.ScaledObjectImport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The first run's guided import from KEDA (what {@code headroom import-keda} does, for the console):
 * the kubeconfig's contexts with their namespaces to pick from, the ScaledObjects found in one
 * namespace with what each becomes, and a new workloads file holding them. Every method may block
 * (kubeconfig, network, disk): call them off the FX thread. Names and queries come from the cluster
 * and are shown and written with their control characters removed, never obeyed.
 */
public final class KedaImport {
    /**
     * A kubeconfig context and the namespace it names (null: none; the dialog then asks).
     *
     * @param problems why it cannot be opened, each {@code FILE:LINE: what is wrong}; empty when it can
     */
    public record Context(String name, String namespace, String server, boolean current, List<String> problems) {
        public Context {
            problems = List.copyOf(problems);
        }

        /** Nothing keeps it from being opened. */
        public boolean usable() {
            return problems.isEmpty();
        }
    }

    /**
     * One ScaledObject and what it becomes.
     *
     * @param name    the class's name (the ScaledObject's)
     * @param target  what it scales, {@code Deployment shop/orders}
     * @param becomes one line: the signals it brings and the policy's bounds
     * @param toFill  the required signals KEDA has no counterpart for (left as comments in the file)
     * @param yaml    the workloads-file entry
     * @param paused  KEDA's pause in a few words ("paused in KEDA at 3 replicas"), or null when KEDA scales it
     * @param notes   what did not map one to one, one sentence each (also comments in {@code yaml})
     */
    public record Found(String name, String target, String becomes, List<String> toFill, String yaml, String paused,
                        List<String> notes) {
        public Found {
            toFill = List.copyOf(toFill);
            notes = List.copyOf(notes);
        }
    }

    /**
     * What a namespace held: the ScaledObjects that became classes, those that could not, each as
     * {@code namespace/name: why}, and what is unsafe about the context they were read through (TLS
     * verification off, plain http: the same sentences the commands print).
     */
    public record Findings(List<Found> found, List<String> skipped, List<String> warnings) {
        public Findings {
            found = List.copyOf(found);
            skipped = List.copyOf(skipped);
            warnings = List.copyOf(warnings);
        }
    }

    private final Supplier<Contexts> contexts;

    public KedaImport(Supplier<Contexts> contexts) {
        this.contexts = contexts;
    }

    /** The kubeconfig's contexts (with their problems), the current one first; empty without a kubeconfig. */
    public List<Context> contexts() {
        Contexts all = contexts.get();
        String current = all.current().map(KubeContext::name).orElse(null);
        List<Context> out = new ArrayList<>();
        for (KubeContext c : all.list()) {
            Context ctx = new Context(c.name(), c.namespace(), c.server(), c.name().equals(current), c.problems());
            if (ctx.current()) {
                out.add(0, ctx);
            } else {
                out.add(ctx);
            }
        }
        return out;
    }

    /**
     * The ScaledObjects of {@code namespace} in {@code context}: a bad one is listed with its reason and
     * the others found; throws with a plain, secret-free reason when the namespace cannot be read (a
     * context with problems is refused with them, as the console refuses it).
     */
    public Findings find(String context, String namespace) {
        Contexts all = contexts.get();
        if (all.get(context).isEmpty()) {
            throw new IllegalArgumentException(all.noSuchContext(context));
        }
        ScaledObjectImport.Listing listing;
        List<String> warnings;
        try (KubeConnection conn = all.open(context)) {
            warnings = conn.warnings().stream().map(w -> UntrustedText.line(w, 1000)).toList();
            listing = ScaledObjectImport.listIn(conn, namespace);
        }
        List<Found> out = new ArrayList<>();
        for (ImportedClass c : listing.imported()) {
            List<String> toFill = new ArrayList<>();
            for (SignalName s : io.headroom.config.WorkloadsFile.REQUIRED_SIGNALS) {
                if (!c.signals().containsKey(s)) {
                    toFill.add(s.id());
                }
            }
            String becomes = "signals " + String.join(", ", c.signals().keySet().stream().sorted().map(SignalName::id).toList())
                    + (c.grouped().isEmpty() ? "" : " (" + c.grouped().size() + " grouped)")
                    + "; replicas " + c.policy().minReplicas() + "–" + c.policy().maxReplicas()
                    + (c.policy().scheduledFloors().isEmpty() ? "" : "; " + c.policy().scheduledFloors().size()
                    + " scheduled floor(s) in " + c.policy().timeZone().getId());
            out.add(new Found(UntrustedText.line(c.name(), 200),
                    UntrustedText.line(c.target().kind() + " " + c.target().namespace() + "/" + c.target().name(), 300),
                    UntrustedText.line(becomes, 500), toFill, UntrustedText.lines(c.toYaml()),
                    c.pause() == null ? null : c.pause().label(),
                    c.notes().stream().map(n -> UntrustedText.line(n, 2000)).toList()));
        }
        List<String> skipped = listing.skipped().stream().map(k -> UntrustedText.line(k.line(), 1000)).toList();
        return new Findings(out, skipped, warnings);
    }

    /**
     * A workloads file: the Prometheus to read, then every entry found (and, as comments, the objects
     * skipped and why). It does not load until the signals KEDA does not know are filled in (the
     * console then lists them as {@code FILE:LINE} errors).
     */
    public static String workloadsFile(String prometheusUrl, String context, String namespace, List<Found> found,
                                       List<String> skipped) {
        StringBuilder b = new StringBuilder();
        b.append("# Imported from KEDA in ").append(UntrustedText.line(context + "/" + namespace, 300))
                .append(" by the Headroom console: review, fill the commented signals, then reload.\n");
        for (String k : skipped) {
            b.append("# skipped ").append(UntrustedText.line(k, 1000)).append('\n');
        }
        b.append("prometheus:\n  url: \"").append(prometheusUrl.replace("\\", "\\\\").replace("\"", "\\\""))
                .append("\"\n");
        b.append("classes:\n");
        for (Found f : found) {
            b.append(f.yaml());
            if (!f.yaml().endsWith("\n")) {
                b.append('\n');
            }
        }
        return b.toString();
    }

    /** Writes a new file (never over an existing one), the user's alone, its directory created. */
    public static void save(Path file, String text) throws IOException {
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }
}
