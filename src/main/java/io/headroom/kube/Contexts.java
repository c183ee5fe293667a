package io.headroom.kube;

import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.Cluster;
import io.fabric8.kubernetes.api.model.Context;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The user's kubeconfig contexts, read the way kubectl reads them: every file of {@code KUBECONFIG}
 * (or {@code ~/.kube/config}) merged, the first file to define a context, cluster or user winning,
 * the first {@code current-context} being current. Listing reads names only; it never runs an exec
 * credential plugin. {@link #open} builds a fabric8 client for one context, which runs exec plugins
 * and refreshes expiring tokens as fabric8 does: on a 401 it re-reads the kubeconfig (every file of the
 * list), runs the plugin again and retries the request once (see {@code docs/decisions/0004}).
 *
 * <p>Unsafe contexts are said to be so ({@link #warnings}): TLS verification switched off, plain http.
 * {@link #open} refuses a context that would send credentials (token, basic, exec, auth provider,
 * client certificate) over plain http to another host, unless that context was explicitly allowed
 * ({@link #allowPlainHttpCredentials}, or {@value #ALLOW_PLAIN_HTTP_ENV} for {@link #fromEnvironment}).
 *
 * <p>Safe to call off the FX thread; {@link #open} may take seconds when an exec plugin is slow.
 */
public final class Contexts {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Contexts.class.getName());
    /**
     * The explicit opt-in for credentials over plain http: context names separated by commas, or
     * {@code *} for every context. Read by {@link #fromEnvironment}; shown in every warning it allows.
     */
    public static final String ALLOW_PLAIN_HTTP_ENV = "HEADROOM_ALLOW_PLAIN_HTTP_CREDENTIALS";

    private final List<Path> files;
    private final boolean fromEnvironment;
    private final Map<String, KubeContext> contexts;
    private final String current;
    private final List<Consumer<KubernetesClientBuilder>> customizers = new ArrayList<>();
    private volatile Set<String> plainHttpAllowed = Set.of();
    private volatile KubeTimeouts timeouts = KubeTimeouts.DEFAULT;

    private Contexts(List<Path> files, boolean fromEnvironment) {
        this.files = List.copyOf(files);
        this.fromEnvironment = fromEnvironment;
        Map<String, KubeContext> found = new LinkedHashMap<>();
        Map<String, Cluster> clusters = new LinkedHashMap<>();
        Map<String, AuthInfo> users = new LinkedHashMap<>();
        Map<String, Path> defining = new LinkedHashMap<>();
        Map<String, Context> named = new LinkedHashMap<>();
        String cur = null;
        for (Path f : this.files) {
            io.fabric8.kubernetes.api.model.Config kc = KubeConfigUtils.parseConfig(f.toFile());
            if (kc == null) {
                continue;
            }
            if (cur == null && kc.getCurrentContext() != null && !kc.getCurrentContext().isBlank()) {
                cur = kc.getCurrentContext();
            }
            for (NamedCluster c : nullSafe(kc.getClusters())) {
                clusters.putIfAbsent(c.getName(), c.getCluster());
            }
            for (NamedAuthInfo u : nullSafe(kc.getUsers())) {
                users.putIfAbsent(u.getName(), u.getUser());
            }
            for (NamedContext c : nullSafe(kc.getContexts())) {
                if (!named.containsKey(c.getName())) {
                    named.put(c.getName(), c.getContext());
                    defining.put(c.getName(), f);
                }
            }
        }
        for (Map.Entry<String, Context> e : named.entrySet()) {
            Context c = e.getValue();
            String clusterName = c == null ? null : c.getCluster();
            Cluster cluster = clusterName == null ? null : clusters.get(clusterName);
            String user = c == null ? null : c.getUser();
            String ns = c == null || c.getNamespace() == null || c.getNamespace().isBlank() ? "default" : c.getNamespace();
            found.put(e.getKey(), new KubeContext(e.getKey(), clusterName, cluster == null ? null : cluster.getServer(),
                    ns, user, describeAuth(user == null ? null : users.get(user)), defining.get(e.getKey()).toString(),
                    e.getKey().equals(cur), cluster != null && Boolean.TRUE.equals(cluster.getInsecureSkipTlsVerify())));
        }
        this.contexts = found;
        this.current = cur;
    }

    /** Reads {@code KUBECONFIG} (several files, path-separator separated) or {@code ~/.kube/config}, as kubectl does. */
    public static Contexts fromEnvironment() {
        List<Path> files = new ArrayList<>();
        for (String name : Config.getKubeconfigFilenames()) {
            Path p = Path.of(name);
            if (Files.isRegularFile(p)) {
                files.add(p);
            }
        }
        Contexts c = new Contexts(files, true);
        String allow = System.getenv(ALLOW_PLAIN_HTTP_ENV);
        if (allow != null && !allow.isBlank()) {
            Set<String> names = new java.util.LinkedHashSet<>();
            for (String n : allow.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.trim());
                }
            }
            c.allowPlainHttpCredentials(names);
        }
        return c;
    }

    /** Reads the given kubeconfig files, merged in order like a {@code KUBECONFIG} list. */
    public static Contexts load(List<Path> files) {
        return new Contexts(files, false);
    }

    /** Adds a tweak applied to every client this opens (tests: no retries; a custom HTTP setting). */
    public Contexts customize(Consumer<KubernetesClientBuilder> customizer) {
        customizers.add(customizer);
        return this;
    }

    /**
     * Allows these contexts ({@code *}: every context) to send credentials over plain http to a host
     * other than this machine. An explicit, visible choice: the top bar and {@code headroom plan} keep
     * warning about it.
     */
    public Contexts allowPlainHttpCredentials(Set<String> contextNames) {
        plainHttpAllowed = Set.copyOf(contextNames);
        return this;
    }

    /** How long the clients this opens wait on their API servers ({@link KubeTimeouts#DEFAULT} unless set). */
    public Contexts timeouts(KubeTimeouts t) {
        timeouts = java.util.Objects.requireNonNull(t);
        return this;
    }

    private boolean plainHttpAllowed(String context) {
        return plainHttpAllowed.contains(context) || plainHttpAllowed.contains("*");
    }

    /**
     * What is unsafe about a context, one sentence each, credentials-free: TLS verification off, plain
     * http to another host (with credentials: refused, or allowed explicitly). Empty for an unknown context.
     */
    public List<String> warnings(String contextName) {
        KubeContext c = contexts.get(contextName);
        return c == null ? List.of() : warnings(c, c.server(), false);
    }

    /**
     * The warnings of every named context as the console would open it ({@code KUBECONFIG} or
     * {@code ~/.kube/config}), for commands that do not connect (plan). Reads names only, runs no
     * plugin; a missing or unreadable kubeconfig has nothing to warn about here (the console says why
     * it cannot open it).
     */
    public static List<String> warningsFor(java.util.Collection<String> contextNames) {
        Contexts all;
        try {
            all = fromEnvironment();
        } catch (RuntimeException e) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String name : new java.util.LinkedHashSet<>(contextNames)) {
            out.addAll(all.warnings(name));
        }
        return out;
    }

    private List<String> warnings(KubeContext c, String server, boolean trustAll) {
        List<String> out = new ArrayList<>();
        if (KubeContext.isPlainHttp(server)) {
            if (!KubeContext.isLoopback(server)) {
                if (!c.sendsCredentials()) {
                    out.add("context '" + c.name() + "' talks plain http to " + server + ": the API traffic is not"
                            + " encrypted");
                } else if (plainHttpAllowed(c.name())) {
                    out.add("context '" + c.name() + "' sends credentials (" + c.auth() + ") over plain http to "
                            + server + ", unencrypted (allowed by " + ALLOW_PLAIN_HTTP_ENV + ")");
                } else {
                    out.add(plainHttpRefusal(c, server));
                }
            }
        } else if (c.insecureSkipTlsVerify() || trustAll) {
            out.add("TLS verification is OFF for context '" + c.name() + "' ("
                    + (c.insecureSkipTlsVerify() ? "insecure-skip-tls-verify in " + c.file() : "trust all certificates")
                    + "): the API server at " + server + " is not checked to be who it says");
        }
        return out;
    }

    private static String plainHttpRefusal(KubeContext c, String server) {
        return "context '" + c.name() + "' would send credentials (" + c.auth() + ") over plain http to " + server
                + ": refused; use https, or allow it explicitly with " + ALLOW_PLAIN_HTTP_ENV + "=" + c.name();
    }

    public List<Path> files() {
        return files;
    }

    /** Every context, in kubeconfig order. */
    public List<KubeContext> list() {
        return List.copyOf(contexts.values());
    }

    public Optional<KubeContext> get(String name) {
        return Optional.ofNullable(contexts.get(name));
    }

    /** The first wait before re-opening a dropped watch (fabric8's default is 1 s). */
    static final int WATCH_RECONNECT_MILLIS = 250;

    /** The current context, if the kubeconfig names one that exists. */
    public Optional<KubeContext> current() {
        return current == null ? Optional.empty() : get(current);
    }

    /**
     * Opens a client for the context (another context's client stays open: the console may watch
     * several clusters). Throws {@link IllegalArgumentException} for an unknown context.
     */
    public KubeConnection open(String contextName) {
        KubeContext ctx = get(contextName).orElseThrow(
                () -> new IllegalArgumentException("no context '" + contextName + "' in " + files));
        Config config;
        if (fromEnvironment) {
            // fabric8's own KUBECONFIG handling: merging, exec plugins, refresh() re-runs the autoconfiguration.
            config = Config.autoConfigure(contextName);
        } else {
            config = new FilesConfig(files, contextName);
        }
        if (config.getNamespace() == null) {
            config.setNamespace(ctx.namespace());
        }
        // Judge the URL the client will really use (an environment may override the kubeconfig's).
        String server = config.getMasterUrl() == null ? ctx.server() : config.getMasterUrl().replaceAll("/+$", "");
        if (ctx.sendsCredentials() && KubeContext.isPlainHttp(server) && !KubeContext.isLoopback(server)
                && !plainHttpAllowed(contextName)) {
            throw new IllegalArgumentException(plainHttpRefusal(ctx, server));
        }
        List<String> warnings = warnings(ctx, server, config.isTrustCerts());
        // fabric8 backs off a dropped watch from this interval, doubling five times: 1 s would make the
        // console take up to 32 s to see an API server that came back; 250 ms caps it at 8 s.
        config.setWatchReconnectInterval(WATCH_RECONNECT_MILLIS);
        KubeTimeouts t = timeouts;
        config.setConnectionTimeout(Math.toIntExact(t.connect().toMillis()));
        config.setRequestTimeout(Math.toIntExact(t.request().toMillis()));
        RequestCounter counter = new RequestCounter();
        RetryAfter retryAfter = new RetryAfter();
        KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor(RequestCounter.NAME, counter)
                        .addOrReplaceInterceptor(RetryAfter.NAME, retryAfter));
        for (Consumer<KubernetesClientBuilder> c : customizers) {
            c.accept(builder);
        }
        FilesConfig files = config instanceof FilesConfig f ? f : null;
        return new KubeConnection(ctx, builder.build(), counter, retryAfter, warnings, t,
                files == null ? () -> null : files::refreshProblem);
    }

    /**
     * A client configuration merged from explicit kubeconfig files. fabric8 asks {@link #refresh()} for
     * a new token after a 401 (and before a request once a minute); its own refresh re-reads only the
     * file that defines the context, so a user defined in another file of the list (contexts in one file,
     * users in another) would lose its credentials on the first 401. This one merges every file again,
     * which re-runs an exec plugin, as {@link Config#autoConfigure} does for {@code KUBECONFIG}.
     * (A customizer that edits the config, {@code editOrNewConfig()}, copies it into a plain
     * {@link Config} and so gets fabric8's own refresh.)
     */
    private static final class FilesConfig extends Config {
        private final List<Path> files;
        private final String context;
        /** The last refresh's problem, said once (a refresh runs before every request once it is due). */
        private transient volatile String lastRefreshProblem;

        FilesConfig(List<Path> files, String context) {
            super(false); // as Config.empty(): nothing from the environment
            this.files = files;
            this.context = context;
            List<io.fabric8.kubernetes.api.model.Config> parsed = new ArrayList<>();
            for (Path f : files) {
                parsed.add(KubeConfigUtils.parseConfig(f.toFile()));
            }
            KubeConfigUtils.merge(this, context, parsed.toArray(io.fabric8.kubernetes.api.model.Config[]::new));
        }

        /**
         * The files merged again, or this config as it is when they cannot be read right now: fabric8
         * calls this before a request once a minute and after a 401, and {@code kubectl config} rewrites
         * a kubeconfig in place (truncates, then writes), so a re-read may meet an empty, half-written or
         * moved file. Thrown out of here, that failed the request that asked and printed a stack trace;
         * kept, the request goes out with the credentials read before and the next refresh reads the
         * files again. Said in one log line per distinct problem, without a stack trace or a secret.
         */
        @Override
        public Config refresh() {
            try {
                FilesConfig fresh = new FilesConfig(files, context);
                lastRefreshProblem = null;
                return fresh;
            } catch (RuntimeException e) {
                String why = unreadable(e);
                if (!why.equals(lastRefreshProblem)) {
                    lastRefreshProblem = why;
                    LOG.warning(() -> "context '" + context + "': " + why
                            + "; keeping the credentials read before, trying again at the next refresh");
                }
                return this;
            }
        }

        /**
         * The last refresh's problem for the top bar ("context 'east': kubeconfig … is empty; using the
         * credentials read before"), or null when the last refresh read the files (or none failed yet).
         */
        String refreshProblem() {
            String p = lastRefreshProblem;
            return p == null ? null : "context '" + context + "': " + p + "; using the credentials read before"
                    + " until it can be read";
        }

        /** Which file could not be read and why, in words (never its contents: they may hold a token). */
        private String unreadable(RuntimeException e) {
            for (Path f : files) {
                if (!Files.isRegularFile(f)) {
                    return "kubeconfig " + f + " is missing";
                }
                try {
                    if (Files.size(f) == 0) {
                        return "kubeconfig " + f + " is empty";
                    }
                    KubeConfigUtils.parseConfig(f.toFile());
                } catch (java.io.IOException | RuntimeException bad) {
                    return "kubeconfig " + f + " is not a whole kubeconfig (half-written?)";
                }
            }
            return "the kubeconfig files " + files + " could not be merged again (" + e.getClass().getSimpleName() + ")";
        }
    }

    /** How a user authenticates, without the secret itself. */
    static String describeAuth(AuthInfo u) {
        if (u == null) {
            return "none";
        }
        if (u.getExec() != null) {
            return "exec: " + new File(String.valueOf(u.getExec().getCommand())).getName();
        }
        if (u.getAuthProvider() != null) {
            return "auth-provider: " + u.getAuthProvider().getName();
        }
        if (u.getToken() != null || u.getTokenFile() != null) {
            return "token";
        }
        if (u.getClientCertificate() != null || u.getClientCertificateData() != null) {
            return "client certificate";
        }
        if (u.getUsername() != null) {
            return "basic (" + u.getUsername() + ")";
        }
        return "none";
    }

    private static <T> List<T> nullSafe(List<T> l) {
        return l == null ? List.of() : l;
    }

    @Override
    public String toString() {
        return "Contexts" + contexts.keySet() + " from " + files + (current == null ? "" : ", current " + current);
    }
}
