package io.headroom.config;

import io.headroom.decision.SignalName;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.Policy;
import io.headroom.decision.Signals;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A workloads file: where Prometheus is and, per class, its scale target, the PromQL of each signal
 * and its policy. The whole file is validated before anything runs; every problem is reported
 * together as {@code FILE:LINE: path: message}. The format is documented in
 * {@code examples/README-workloads.md}.
 *
 * @param source the file's name as the operator knows it (for messages)
 */
public record WorkloadsFile(String source, PrometheusEndpoint prometheus, List<ClassConfig> classes) {
    /** A drain's deadline when {@code drain:} gives none. */
    static final double DEFAULT_DRAIN_SECONDS = 300;
    /** The longest deadline a drain may have: a day. */
    static final double MAX_DRAIN_SECONDS = 86_400;


    /** The optional signal that gives current replicas when no cluster is configured. */
    public static final SignalName REPLICAS = Signals.REPLICAS;

    /** Signals a class must define. */
    public static final List<SignalName> REQUIRED_SIGNALS = List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE,
            Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE);

    /** Signals a class may define. */
    public static final List<SignalName> OPTIONAL_SIGNALS = List.of(Signals.QUEUED_SERVICE, Signals.IN_FLIGHT,
            Signals.COMPLETION_RATE, Signals.DEPENDENCY, Signals.POD_MEMORY, REPLICAS);

    /** Longest per-request timeout accepted. */
    static final int MAX_TIMEOUT_SECONDS = 300;
    /** Shortest per-request timeout accepted. */
    static final double MIN_TIMEOUT_SECONDS = 0.1;
    /** The shortest drain deadline. */
    static final double MIN_DRAIN_SECONDS = 1;
    /**
     * The most classes one file may hold: twice the 5,000 of a large fleet (issue 26), whose grouped
     * queries stay one request per distinct query a tick (docs/benchmarks.md, "A fleet of 5,000 classes").
     */
    public static final int MAX_CLASSES = 10_000;

    public WorkloadsFile {
        classes = List.copyOf(classes);
    }

    /** The class with that name. */
    public Optional<ClassConfig> classConfig(String name) {
        return classes.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** The signal name a ceiling's query becomes: {@code ceiling:<name>:budget} or {@code …:perReplica}. */
    public static SignalName ceilingSignal(String ceilingName, String side) {
        return SignalName.of("ceiling:" + ceilingName + ":" + side);
    }

    /** Reads and validates a file; relative paths inside it are relative to its directory. */
    public static WorkloadsFile read(Path path) throws ConfigException {
        Path dir = path.toAbsolutePath().getParent();
        return read(ConfigTree.parse(path), dir);
    }

    /** Reads text; {@code file} names it in messages, {@code baseDir} anchors relative paths. */
    public static WorkloadsFile read(String file, String text, ConfigTree.Format format, Path baseDir)
            throws ConfigException {
        return read(ConfigTree.parse(file, text, format), baseDir);
    }

    static WorkloadsFile read(ConfigNode root, Path baseDir) throws ConfigException {
        ConfigErrors errors = new ConfigErrors();
        Fields f = Fields.of(root, errors);
        PrometheusEndpoint endpoint = null;
        Fields prom = f.object("prometheus");
        if (prom == null) {
            if (!f.has("prometheus")) {
                f.missing("prometheus");
            }
        } else {
            endpoint = prometheus(prom, baseDir);
        }
        List<ClassConfig> classes = f.namedList("classes", "class", MAX_CLASSES, c -> readClass(c), ClassConfig::name);
        f.finish();
        errors.throwIfAny();
        return new WorkloadsFile(root.file(), endpoint, classes);
    }

    // ------------------------------------------------------------ prometheus

    static PrometheusEndpoint prometheus(Fields p, Path baseDir) {
        int before = p.errors().count();
        URI url = null;
        String urlText = p.requiredString("url");
        if (urlText != null) {
            url = url(p, urlText);
        }
        String tokenFile = p.string("bearerTokenFile");
        String tokenEnv = p.string("bearerTokenEnv");
        SecretRef token = null;
        if (tokenFile != null && tokenEnv != null) {
            p.error("bearerTokenEnv", "give either bearerTokenFile or bearerTokenEnv, not both");
        } else if (tokenFile != null) {
            token = existingFile(p, "bearerTokenFile", tokenFile, baseDir).map(SecretRef::file).orElse(null);
        } else if (tokenEnv != null) {
            token = envName(p, "bearerTokenEnv", tokenEnv) ? SecretRef.env(tokenEnv) : null;
        }
        PrometheusEndpoint.BasicAuth basic = null;
        Fields b = p.object("basicAuth");
        if (b != null) {
            basic = basicAuth(b, baseDir);
            if (token != null || tokenFile != null || tokenEnv != null) {
                p.error("basicAuth", "give either a bearer token or basicAuth, not both");
            }
        }
        Path ca = null;
        String caText = p.string("caFile");
        if (caText != null) {
            ca = existingFile(p, "caFile", caText, baseDir).orElse(null);
        }
        boolean insecure = bool(p, "insecureSkipVerify");
        if (insecure && ca != null) {
            p.error("insecureSkipVerify", "cannot be combined with caFile: either verify against the CA or skip verification");
        }
        if (url != null && "http".equals(url.getScheme()) && (ca != null || insecure)) {
            p.error(ca != null ? "caFile" : "insecureSkipVerify", "applies only to an https url");
        }
        // A bearer token or password over plain http can be read by anyone on the way: only to this
        // machine, or when the file says so out loud.
        boolean clearTextAllowed = bool(p, "allowInsecureCredentials");
        if (url != null && "http".equals(url.getScheme())) {
            boolean credentials = tokenFile != null || tokenEnv != null || p.has("basicAuth");
            if (credentials && !clearTextAllowed && PrometheusEndpoint.clearText(url, true)) {
                p.error(tokenFile != null ? "bearerTokenFile" : tokenEnv != null ? "bearerTokenEnv" : "basicAuth",
                        PrometheusEndpoint.clearTextProblem(url));
            }
        } else if (url != null && clearTextAllowed) {
            p.error("allowInsecureCredentials", "applies only to an http url");
        }
        double timeout = p.number("timeoutSeconds", PrometheusEndpoint.DEFAULT_TIMEOUT.toSeconds());
        if (!(timeout > 0 && timeout <= MAX_TIMEOUT_SECONDS)) {
            p.error("timeoutSeconds", "must be in (0, " + MAX_TIMEOUT_SECONDS + "], got " + num(timeout));
        } else {
            p.within("timeoutSeconds", timeout, MIN_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS);
        }
        p.finish();
        if (p.errors().count() > before) {
            return null;
        }
        URI u = url;
        SecretRef t = token;
        PrometheusEndpoint.BasicAuth ba = basic;
        Path c = ca;
        boolean i = insecure;
        boolean allow = clearTextAllowed;
        Duration d = Duration.ofMillis(Math.round(timeout * 1000));
        return p.build(() -> new PrometheusEndpoint(u, t, ba, c, i, d, allow));
    }

    /** An optional true/false field; anything else is recorded. */
    private static boolean bool(Fields p, String key) {
        Optional<ConfigNode> node = p.get(key);
        if (node.isEmpty()) {
            return false;
        }
        if (node.get() instanceof ConfigNode.ScalarNode s
                && (s.token() == tools.jackson.core.JsonToken.VALUE_TRUE
                || s.token() == tools.jackson.core.JsonToken.VALUE_FALSE)) {
            return s.token() == tools.jackson.core.JsonToken.VALUE_TRUE;
        }
        p.error(key, "expected true or false, got " + node.get().describe());
        return false;
    }

    static URI url(Fields p, String text) {
        URI url;
        try {
            url = new URI(text.strip());
        } catch (URISyntaxException e) {
            p.error("url", "not a URL: " + e.getReason());
            return null;
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            p.error("url", "must start with http:// or https://, got \"" + text + "\"");
            return null;
        }
        if (url.getHost() == null || url.getHost().isEmpty()) {
            p.error("url", "needs a host, got \"" + text + "\"");
            return null;
        }
        if (url.getRawUserInfo() != null) {
            // Credentials in a URL end up in logs and title bars; they belong in basicAuth.
            p.error("url", "must not contain credentials; use basicAuth with passwordFile or passwordEnv");
            return null;
        }
        if (url.getRawQuery() != null || url.getRawFragment() != null) {
            p.error("url", "must not have a query or fragment; give the server's base URL");
            return null;
        }
        return url;
    }

    static PrometheusEndpoint.BasicAuth basicAuth(Fields b, Path baseDir) {
        int before = b.errors().count();
        String user = b.requiredString("username");
        if (user != null && user.isEmpty()) {
            b.error("username", "must not be empty");
        } else if (user != null && user.indexOf(':') >= 0) {
            b.error("username", "must not contain ':' (basic auth puts it between the user name and the password)");
        }
        String file = b.string("passwordFile");
        String env = b.string("passwordEnv");
        SecretRef password = null;
        if (file != null && env != null) {
            b.error("passwordEnv", "give either passwordFile or passwordEnv, not both");
        } else if (file != null) {
            password = existingFile(b, "passwordFile", file, baseDir).map(SecretRef::file).orElse(null);
        } else if (env != null) {
            password = envName(b, "passwordEnv", env) ? SecretRef.env(env) : null;
        } else if (b.isMap()) {
            b.error("passwordFile", "basicAuth needs passwordFile or passwordEnv (a password is never written in the file)");
        }
        b.finish();
        if (b.errors().count() > before) {
            return null;
        }
        SecretRef pw = password;
        return b.build(() -> new PrometheusEndpoint.BasicAuth(user, pw));
    }

    private static Optional<Path> existingFile(Fields f, String key, String text, Path baseDir) {
        if (text.isBlank()) {
            f.error(key, "must not be blank");
            return Optional.empty();
        }
        Path p = Path.of(text);
        if (!p.isAbsolute() && baseDir != null) {
            p = baseDir.resolve(p);
        }
        p = p.normalize();
        if (!Files.isRegularFile(p)) {
            f.error(key, "no such file: " + p);
            return Optional.empty();
        }
        if (!Files.isReadable(p)) {
            f.error(key, "cannot read " + p);
            return Optional.empty();
        }
        return Optional.of(p);
    }

    private static boolean envName(Fields f, String key, String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            f.error(key, "must be an environment variable name, got \"" + name + "\"");
            return false;
        }
        return true;
    }

    // ------------------------------------------------------------ classes

    static ClassConfig readClass(Fields c) {
        int before = c.errors().count();
        String name = c.requiredString("name");
        if (name != null && name.isBlank()) {
            c.error("name", "must not be blank");
        }
        String context = c.requiredString("context");
        if (context != null && context.isBlank()) {
            c.error("context", "must not be blank");
        }
        String namespace = c.string("namespace");
        WorkloadRef target = null;
        Fields t = c.object("target");
        if (t == null) {
            if (!c.has("target") && !c.has("pools")) {
                c.missing("target");
            }
        } else {
            target = target(t, context, namespace);
        }
        if (t != null && c.has("pools")) {
            c.error("pools", "give either target or pools, not both");
        }
        List<ClassPool> pools = PoolsReader.read(c, context, namespace);
        if (target == null && !pools.isEmpty()) {
            target = pools.get(0).target();
        }

        Map<SignalName, String> queries = new LinkedHashMap<>();
        for (ClassPool pool : pools) {
            if (pool.failedAcquisitionsQuery() != null) { // read each tick with the class's signals (decision 0029)
                queries.put(pool.failedAcquisitions(), pool.failedAcquisitionsQuery());
            }
        }
        Map<SignalName, GroupedQuery> grouped = new LinkedHashMap<>();
        String podInFlight = null;
        String podCompleted = null;
        Fields s = c.object("signals");
        if (s == null) {
            if (!c.has("signals")) {
                c.missing("signals");
            }
        } else {
            for (SignalName signal : REQUIRED_SIGNALS) {
                if (!s.has(signal.id())) {
                    s.missing(signal.id());
                } else {
                    signal(s, signal, queries, grouped);
                }
            }
            for (SignalName signal : OPTIONAL_SIGNALS) {
                signal(s, signal, queries, grouped);
            }
            // Per pod (several series): not a tick query, so not in `queries`.
            if (s.get(Signals.POD_IN_FLIGHT.id()).orElse(null) instanceof ConfigNode.MapNode) {
                s.error(Signals.POD_IN_FLIGHT.id(), "is one series per pod, read only by drains: give its PromQL"
                        + " (sum by (pod) (…)), not a grouped query");
            } else {
                podInFlight = PolicyReader.query(s, Signals.POD_IN_FLIGHT.id());
            }
            if (s.get(Signals.POD_COMPLETED.id()).orElse(null) instanceof ConfigNode.MapNode) {
                s.error(Signals.POD_COMPLETED.id(), "is one series per pod: give its PromQL (sum by (pod) (…)), not a"
                        + " grouped query");
            } else {
                podCompleted = PolicyReader.query(s, Signals.POD_COMPLETED.id());
            }
            s.finish();
        }

        java.time.Duration drain = null;
        Fields dr = c.object("drain");
        if (dr != null) {
            double seconds = dr.number("deadlineSeconds", DEFAULT_DRAIN_SECONDS);
            if (!(seconds > 0) || seconds > MAX_DRAIN_SECONDS) {
                dr.error("deadlineSeconds", "must be in (0, " + (long) MAX_DRAIN_SECONDS + "], got " + seconds);
            } else if (dr.within("deadlineSeconds", seconds, MIN_DRAIN_SECONDS, MAX_DRAIN_SECONDS)) {
                drain = java.time.Duration.ofMillis(Math.round(seconds * 1000));
            }
            dr.finish();
            if (podInFlight == null && s != null) {
                c.error("drain", "draining on scale-down needs a podInFlight signal (jobs in flight per pod):"
                        + " without it no drain can tell when a pod is idle");
            }
        }

        Policy policy = Policy.defaults();
        Optional<ConfigNode> policyNode = c.get("policy");
        if (policyNode.isPresent()) {
            Map<SignalName, String> ceilingQueries = new LinkedHashMap<>();
            policy = PolicyReader.read(policyNode.get(), c.errors(), Policy.defaults(), (ceiling, side, q) -> {
                SignalName signal = ceilingSignal(ceiling, side);
                ceilingQueries.put(signal, q);
                return signal;
            });
            queries.putAll(ceilingQueries);
            if (policy != null) {
                checkCeilingSignals(policyNode.get(), queries, c.errors());
            }
        }
        AdmissionPolicy admission = admission(c);
        c.finish();
        if (c.errors().count() > before || policy == null || target == null) {
            return null;
        }
        Policy p = policy;
        WorkloadRef w = target;
        String perPod = podInFlight;
        String perPodCompleted = podCompleted;
        java.time.Duration drainDeadline = drain;
        return c.build(() -> new ClassConfig(name, w, queries, p, perPod, drainDeadline, grouped, perPodCompleted,
                admission, pools));
    }

    /** A {@code target: {kind?, name}} in the class's context and namespace, or null (the problems recorded). */
    static WorkloadRef target(Fields t, String context, String namespace) {
        String kind = t.string("kind");
        if (kind != null && !kind.equals("Deployment") && !kind.equals("StatefulSet")) {
            t.error("kind", "must be Deployment or StatefulSet, got \"" + kind + "\"");
        }
        String targetName = t.requiredString("name");
        t.finish();
        if (targetName == null || context == null) {
            return null;
        }
        return t.build(() -> new WorkloadRef(context, namespace, kind, targetName));
    }

    /**
     * {@code admission: {publish: true, onMissingTelemetry: close | conservative | degrade:<class>}}: a block
     * publishes unless it says {@code publish: false}; without one the class's admission is shown, not written.
     */
    static AdmissionPolicy admission(Fields c) {
        Fields a = c.object("admission");
        if (a == null) {
            return AdmissionPolicy.DEFAULT;
        }
        boolean publish = !a.has("publish") || bool(a, "publish");
        String choice = a.string("onMissingTelemetry");
        AdmissionPolicy out = new AdmissionPolicy(publish, AdmissionPolicy.OnMissing.CONSERVATIVE, null);
        if (choice != null) {
            try {
                out = AdmissionPolicy.onMissing(publish, choice);
            } catch (IllegalArgumentException e) {
                a.error("onMissingTelemetry", e.getMessage());
            }
        }
        a.finish();
        return out;
    }

    /**
     * One signal: its own PromQL (a string), or a grouped query
     * {@code {grouped: PROMQL, by: LABEL, value: VALUE}} shared with other classes. Absent: nothing.
     */
    static void signal(Fields s, SignalName signal, Map<SignalName, String> queries,
                       Map<SignalName, GroupedQuery> grouped) {
        Optional<ConfigNode> node = s.get(signal.id());
        if (node.isEmpty() || !(node.get() instanceof ConfigNode.MapNode)) {
            String q = PolicyReader.query(s, signal.id());
            if (q != null) {
                queries.put(signal, q);
            }
            return;
        }
        Fields g = Fields.of(node.get(), s.errors());
        int before = g.errors().count();
        String promql = PolicyReader.query(g, "grouped");
        if (promql == null && !g.has("grouped")) {
            g.missing("grouped");
        }
        String by = g.requiredString("by");
        if (by != null) {
            String problem = GroupedQuery.labelProblem(by);
            if (problem != null) {
                g.error("by", problem);
            }
        }
        String value = null;
        Optional<ConfigNode> v = g.get("value");
        if (v.isEmpty()) {
            g.missing("value");
        } else if (v.get() instanceof ConfigNode.ScalarNode sn && (sn.isString() || sn.isNumber())) {
            value = sn.text(); // a queue may well be called 7
            String problem = GroupedQuery.valueProblem(value);
            if (problem != null) {
                g.error("value", problem);
            }
        } else {
            g.error("value", "expected the label's value (a string), got " + v.get().describe());
        }
        g.finish();
        if (g.errors().count() > before) {
            return;
        }
        GroupedQuery q = new GroupedQuery(promql, by, value);
        grouped.put(signal, q);
        queries.put(signal, q.perClass());
    }

    /** A ceiling's budgetSignal/perReplicaSignal must name a signal this class queries. */
    private static void checkCeilingSignals(ConfigNode policyNode, Map<SignalName, String> queries,
                                            ConfigErrors errors) {
        if (!(policyNode instanceof ConfigNode.MapNode pm)
                || !(pm.fields().get("ceilings") instanceof ConfigNode.ListNode list)) {
            return;
        }
        for (ConfigNode item : list.items()) {
            if (!(item instanceof ConfigNode.MapNode m)) {
                continue;
            }
            for (String key : List.of("budgetSignal", "perReplicaSignal")) {
                if (m.fields().get(key) instanceof ConfigNode.ScalarNode sn && sn.isString()
                        && (sn.text().equals(Signals.POD_IN_FLIGHT.id()) || sn.text().equals(Signals.POD_COMPLETED.id()))) {
                    errors.add(sn, "signal '" + sn.text() + "' is one series per pod, " + (sn.text().equals(
                            Signals.POD_IN_FLIGHT.id()) ? "read only by drains;" : "not a decision input;")
                            + " a ceiling needs one number (use " + key.replace("Signal", "Query") + " for PromQL)");
                } else if (m.fields().get(key) instanceof ConfigNode.ScalarNode sn && sn.isString()
                        && !queries.containsKey(SignalName.of(sn.text()))) {
                    errors.add(sn, "signal '" + sn.text() + "' is not defined in this class's signals"
                            + " (use " + key.replace("Signal", "Query") + " for PromQL)");
                }
            }
        }
    }

    static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
