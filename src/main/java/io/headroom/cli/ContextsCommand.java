package io.headroom.cli;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import io.headroom.config.ConfigException.Problem;
import io.headroom.config.UntrustedText;
import io.headroom.kube.Contexts;
import io.headroom.kube.KubeContext;
import io.headroom.kube.Kubeconfig;
import io.headroom.kube.KubeconfigValidation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code headroom contexts [--kubeconfig FILE] [--json]}: the kubeconfig's contexts as
 * {@code kubectl config get-contexts} lists them (CURRENT, NAME, CLUSTER, AUTHINFO, NAMESPACE), read and
 * checked as client-go reads them, with a PROBLEMS column: why the console would refuse to open a
 * context, each problem with its file and line. Lists whatever it can (exit 0, problems or not); never
 * runs an exec plugin, never prints a secret.
 */
@Command(name = "contexts", sortOptions = false, sortSynopsis = false,
        header = "the kubeconfig's contexts as kubectl lists them, with their problems",
        description = {"Lists the contexts of $KUBECONFIG (else ~/.kube/config, or --kubeconfig FILE alone) as"
                + " kubectl config get-contexts does, merged and checked as client-go does. PROBLEMS says why the"
                + " console would refuse a context (file and line each); problems of the files themselves go to"
                + " standard error. Exit code 0 whenever it can list, problems or not."})
final class ContextsCommand extends CliCommand {
    @Mixin
    SharedOptions.KubeconfigOption kubeconfig;

    @Option(names = "--json", description = "one JSON object: the files read, every context with its problems")
    boolean json;

    ContextsCommand() {
    }

    /**
     * @param environment the kubeconfig's contexts when no --kubeconfig is given (tests give their own)
     * @param env the environment (the plain-http allowance is read from it, with --kubeconfig too)
     */
    ContextsCommand(Supplier<Contexts> environment, java.util.function.UnaryOperator<String> env) {
        super(environment, env);
    }

    @Override
    int execute() {
        Contexts contexts = contexts(kubeconfig.path);
        Kubeconfig k = contexts.kubeconfig();
        List<String> fileProblems = fileProblems(contexts);
        if (json) {
            out.println(json(contexts, fileProblems));
        } else {
            out.print(table(contexts.list()));
            for (String p : fileProblems) {
                err.println("headroom contexts: " + p);
            }
            for (KubeContext c : contexts.list()) {
                warn(contexts.warnings(c.name())); // what --json lists under "warnings"
            }
            if (contexts.list().isEmpty()) {
                err.println("headroom contexts: no context in " + k.sources().origin() + " ("
                        + UntrustedText.line(String.join(", ", k.sources().files().stream().map(Path::toString)
                        .toList()), 1000) + ")");
            }
        }
        out.flush();
        err.flush();
        return ExitCode.OK;
    }

    /**
     * What is wrong beyond single contexts: files that cannot be read (every context is refused then,
     * as kubectl does), a current-context naming none, missing files of a list, entries no context uses.
     */
    static List<String> fileProblems(Contexts contexts) {
        Kubeconfig k = contexts.kubeconfig();
        List<String> out = new ArrayList<>();
        for (Problem p : k.loadProblems()) {
            out.add(p.toString());
        }
        List<Path> missing = k.missingFiles();
        if (!missing.isEmpty() && k.sources().explicit() == null) {
            out.add("kubeconfig file" + (missing.size() == 1 ? "" : "s") + " not found (skipped, as kubectl does): "
                    + String.join(", ", missing.stream().map(Path::toString).toList()));
        }
        if (!k.isEmpty()) {
            for (Problem p : KubeconfigValidation.validate(k)) {
                String line = p.toString();
                if (contexts.list().stream().noneMatch(c -> c.problems().contains(line))) {
                    out.add(line);
                }
            }
        }
        return out;
    }

    /** kubectl's table (its tab writer: columns padded to the widest cell plus three spaces), PROBLEMS last. */
    static String table(List<KubeContext> contexts) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"CURRENT", "NAME", "CLUSTER", "AUTHINFO", "NAMESPACE", "PROBLEMS"});
        for (KubeContext c : contexts) {
            rows.add(new String[] {c.current() ? "*" : "", safe(c.name()), safe(c.cluster()), safe(c.user()),
                safe(c.namespaceGiven()), c.problems().isEmpty() ? "" : UntrustedText.line(
                        String.join("; ", c.problems()), 4000)});
        }
        int[] width = new int[6];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].codePointCount(0, r[i].length()));
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                line.append(r[i]);
                if (i < r.length - 1) {
                    line.append(" ".repeat(width[i] - r[i].codePointCount(0, r[i].length()) + 3));
                }
            }
            sb.append(line.toString().stripTrailing()).append('\n');
        }
        return sb.toString();
    }

    private static String json(Contexts contexts, List<String> fileProblems) {
        Kubeconfig k = contexts.kubeconfig();
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("source", k.sources().origin());
        ArrayNode files = root.putArray("files");
        for (Kubeconfig.FileStatus s : k.files()) {
            ObjectNode o = files.addObject();
            o.put("path", s.path().toString());
            o.put("state", s.state().name().toLowerCase(java.util.Locale.ROOT));
            ArrayNode ps = o.putArray("problems");
            s.problems().forEach(p -> ps.add(p.toString()));
        }
        if (contexts.current().isPresent()) {
            root.put("current", contexts.current().get().name());
        } else {
            root.putNull("current");
        }
        ArrayNode list = root.putArray("contexts");
        for (KubeContext c : contexts.list()) {
            ObjectNode o = list.addObject();
            o.put("name", c.name());
            o.put("current", c.current());
            o.put("cluster", c.cluster());
            o.put("authinfo", c.user());
            o.put("namespace", c.namespaceGiven());
            if (c.server() == null) {
                o.putNull("server");
            } else {
                o.put("server", c.server());
            }
            o.put("auth", c.auth());
            o.put("file", c.file());
            o.put("line", c.line());
            o.put("usable", c.usable());
            ArrayNode ps = o.putArray("problems");
            c.problems().forEach(ps::add);
            ArrayNode ws = o.putArray("warnings");
            contexts.warnings(c.name()).forEach(ws::add);
        }
        ArrayNode ps = root.putArray("problems");
        fileProblems.forEach(ps::add);
        try {
            // Names and messages come from the files: JSON escapes their control characters.
            return JsonMapper.builder().configureForJackson2().enable(SerializationFeature.INDENT_OUTPUT).build().writeValueAsString(root);
        } catch (tools.jackson.core.JacksonException e) {
            throw new IllegalStateException("could not write the contexts as JSON", e);
        }
    }

    private static String safe(String s) {
        return s == null ? "" : UntrustedText.line(s, 200);
    }
}
