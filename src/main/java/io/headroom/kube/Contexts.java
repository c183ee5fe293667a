package io.headroom.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.headroom.config.ConfigException.Problem;
import io.headroom.kube.Kubeconfig.Located;
import io.headroom.kube.Kubeconfig.User;
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
import java.util.function.UnaryOperator;

/**
 * The user's kubeconfig contexts, read, merged and checked as client-go reads them ({@link Kubeconfig},
 * {@link KubeconfigValidation}): an explicit file alone, else every file of {@code KUBECONFIG}, else
 * {@code ~/.kube/config}; the first file to define a context, cluster or user wins it; the first
 * {@code current-context} is current. Each context is listed with its problems (file and line, in
 * words); {@link #open} refuses a context that has any, and connects the others with exactly the
 * definitions listed (not fabric8's own merge, which differs). Listing never runs an exec credential
 * plugin. {@link #open} builds a fabric8 client for one context, which runs exec plugins and refreshes
 * expiring tokens: on a 401 it reads the files again, runs the plugin again and retries the request once
 * (see {@code docs/decisions/0004}).
 *
 * <p>Unsafe contexts are said to be so ({@link #warnings}): TLS verification switched off, plain http.
 * {@link #open} refuses a context that would send credentials (token, basic, exec, auth provider,
 * client certificate) over plain http to another host, unless that context was explicitly allowed
 * ({@link #allowPlainHttpCredentials}, or {@value TransportPolicy#ALLOW_ENV} in the environment, read
 * whichever files are read): one {@link TransportPolicy} for every command and the console.
 *
 * <p>Safe to call off the FX thread; {@link #open} may take seconds when an exec plugin is slow.
 */
public final class Contexts {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Contexts.class.getName());
    /** The explicit opt-in for credentials over plain http: {@link TransportPolicy#ALLOW_ENV}. */
    public static final String ALLOW_PLAIN_HTTP_ENV = TransportPolicy.ALLOW_ENV;

    private final Kubeconfig kubeconfig;
    private final UnaryOperator<String> environment;
    private final Map<String, KubeContext> contexts;
    private final String current;
    private final List<Consumer<KubernetesClientBuilder>> customizers = new ArrayList<>();
    private volatile TransportPolicy policy;
    private volatile KubeTimeouts timeouts = KubeTimeouts.DEFAULT;

    private Contexts(Kubeconfig kubeconfig, UnaryOperator<String> environment) {
        this.kubeconfig = kubeconfig;
        this.environment = environment;
        this.policy = TransportPolicy.from(environment);
        Map<String, KubeContext> found = new LinkedHashMap<>();
        String cur = kubeconfig.currentContext();
        for (Located<Kubeconfig.Context> e : kubeconfig.contexts().values()) {
            Kubeconfig.Context c = e.value();
            Located<Kubeconfig.Cluster> cluster = kubeconfig.clusters().get(c.cluster());
            Located<User> user = kubeconfig.users().get(c.user());
            List<String> problems = KubeconfigValidation.problems(kubeconfig, e.name()).stream()
                    .map(Problem::toString).toList();
            found.put(e.name(), new KubeContext(e.name(), c.cluster(),
                    cluster == null ? null : KubeconfigValidation.withoutUserInfo(cluster.value().server()),
                    c.namespace().isEmpty() ? "default" : c.namespace(), c.user(),
                    describeAuth(user == null ? null : user.value()), e.file().toString(), e.line(),
                    e.name().equals(cur), cluster != null && cluster.value().insecureSkipTlsVerify(), c.namespace(),
                    problems));
        }
        this.contexts = found;
        this.current = cur.isEmpty() ? null : cur;
    }

    /**
     * Reads {@code KUBECONFIG} (several files, path-separator separated) or {@code ~/.kube/config}, as
     * kubectl does. The {@code kubeconfig} system property, when set, stands for {@code KUBECONFIG}
     * (fabric8's convention; tests use it).
     */
    public static Contexts fromEnvironment() {
        return fromEnvironment(System::getenv);
    }

    /** {@link #fromEnvironment()} in {@code environment} (its {@code KUBECONFIG}, {@code HOME} and allowance). */
    public static Contexts fromEnvironment(UnaryOperator<String> environment) {
        String home = environment.apply("HOME") != null && !environment.apply("HOME").isEmpty()
                ? environment.apply("HOME") : System.getProperty("user.home");
        Kubeconfig.Sources sources = Kubeconfig.Sources.environment(
                System.getProperty("kubeconfig", environment.apply("KUBECONFIG")), Path.of(home));
        return new Contexts(Kubeconfig.load(sources), environment);
    }

    /** Reads the given kubeconfig files, merged in order like a {@code KUBECONFIG} list (missing ones skipped). */
    public static Contexts load(List<Path> files) {
        return new Contexts(Kubeconfig.load(Kubeconfig.Sources.list(files)), System::getenv);
    }

    /** Reads one file given explicitly ({@code --kubeconfig FILE}): alone, never merged with others. */
    public static Contexts explicit(Path file) {
        return explicit(file, System::getenv);
    }

    /** {@link #explicit(Path)}, with the allowance (and proxies) read from {@code environment}. */
    public static Contexts explicit(Path file, UnaryOperator<String> environment) {
        return new Contexts(Kubeconfig.load(Kubeconfig.Sources.explicitFile(file)), environment);
    }

    /** Reads what {@code sources} names; proxies from the environment are read through {@code environment}. */
    static Contexts load(Kubeconfig.Sources sources, UnaryOperator<String> environment) {
        return new Contexts(Kubeconfig.load(sources), environment);
    }

    /** The kubeconfig as read: its files, entries and what is wrong with them. */
    public Kubeconfig kubeconfig() {
        return kubeconfig;
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
        policy = policy.allowing(contextNames);
        return this;
    }

    /** How long the clients this opens wait on their API servers ({@link KubeTimeouts#DEFAULT} unless set). */
    public Contexts timeouts(KubeTimeouts t) {
        timeouts = java.util.Objects.requireNonNull(t);
        return this;
    }

    /**
     * What is unsafe about a context, one sentence each, credentials-free: TLS verification off, plain
     * http to another host (with credentials: refused, or allowed explicitly). Empty for an unknown context.
     */
    public List<String> warnings(String contextName) {
        KubeContext c = contexts.get(contextName);
        return c == null ? List.of() : policy.warnings(c, c.server(), false);
    }

    /**
     * The warnings of every named context as the console would open it ({@code KUBECONFIG} or
     * {@code ~/.kube/config}), for commands that do not connect (plan): what is unsafe about it, and
     * why the console would refuse it when it has problems. Reads names only, runs no plugin; a context
     * the kubeconfig does not define has nothing to warn about here (plan may run elsewhere).
     */
    public static List<String> warningsFor(java.util.Collection<String> contextNames) {
        return warningsFor(contextNames, System::getenv);
    }

    /** {@link #warningsFor(java.util.Collection)} as a console started in {@code environment} would open them. */
    public static List<String> warningsFor(java.util.Collection<String> contextNames, UnaryOperator<String> environment) {
        Contexts all;
        try {
            all = fromEnvironment(environment);
        } catch (RuntimeException e) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String name : new java.util.LinkedHashSet<>(contextNames)) {
            all.get(name).filter(c -> !c.usable()).ifPresent(c -> out.add("context " + Kubeconfig.quoted(name)
                    + " cannot be opened: " + String.join("; ", c.problems())));
            out.addAll(all.warnings(name));
        }
        return out;
    }

    /** The files read, in precedence order (an explicit file alone). */
    public List<Path> files() {
        return kubeconfig.sources().files();
    }

    /** Every context, in kubeconfig order, each with its problems. */
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
     * Why the kubeconfig has no context of this name, in words: which files were read (and which of
     * them could not be), so "not found" is never the whole story.
     */
    public String noSuchContext(String contextName) {
        if (files().isEmpty()) {
            return "no context " + Kubeconfig.quoted(contextName) + ": " + kubeconfig.sources().origin()
                    + " names no kubeconfig file";
        }
        StringBuilder sb = new StringBuilder("no context " + Kubeconfig.quoted(contextName) + " in the kubeconfig ("
                + kubeconfig.sources().origin() + ": " + String.join(", ", files().stream().map(Path::toString).toList())
                + ")");
        List<Problem> load = kubeconfig.loadProblems();
        if (!load.isEmpty()) {
            sb.append("; ").append(String.join("; ", load.stream().map(Problem::toString).toList()));
        } else if (files().stream().noneMatch(Files::exists)) {
            sb.append("; no such file");
        }
        return sb.toString();
    }

    /**
     * The context, if it can be opened; else {@link IllegalArgumentException} with the reasons in words
     * (what {@link #open} says): unknown, or with problems. Reads nothing, runs no plugin: a caller about
     * to open several contexts checks them all first.
     */
    public KubeContext openable(String contextName) {
        KubeContext ctx = get(contextName).orElseThrow(() -> new IllegalArgumentException(noSuchContext(contextName)));
        if (!ctx.problems().isEmpty()) {
            throw new IllegalArgumentException("context " + Kubeconfig.quoted(contextName) + " cannot be opened: "
                    + String.join("; ", ctx.problems()));
        }
        return ctx;
    }

    /**
     * Opens a client for the context with exactly the definitions {@link #list} shows (another context's
     * client stays open: the console may watch several clusters). Throws {@link IllegalArgumentException},
     * with the reasons in words, for an unknown context, a context with problems, credentials that would
     * go over plain http to another host, and an exec plugin that cannot be run.
     */
    public KubeConnection open(String contextName) {
        return prepare(contextName).build();
    }

    /**
     * Everything {@link #open} checks and reads, without building the client: the same refusals, in the same
     * words (an unknown context, one with problems, credentials over plain http, an exec plugin that cannot
     * be run), and the client's configuration made from the files. What is left, {@link Prepared#build},
     * builds the HTTP client and its TLS context (the JDK's trust store is read and parsed then: a few hundred
     * milliseconds on a cold JVM), so the console can show its first frame while that runs on another thread.
     */
    public Prepared prepare(String contextName) {
        KubeContext ctx = openable(contextName);
        String server = ctx.server() == null ? "" : ctx.server().replaceAll("/+$", "");
        String refused = policy.refusal(ctx, server);
        if (refused != null) {
            throw new IllegalArgumentException(refused);
        }
        FilesConfig config;
        try {
            config = new FilesConfig(kubeconfig, contextName, environment);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("context " + Kubeconfig.quoted(contextName) + " cannot be opened: "
                    + KubeconfigClient.describeFailure(e), e);
        }
        List<String> warnings = policy.warnings(ctx, server, config.isTrustCerts());
        // fabric8 backs off a dropped watch from this interval, doubling five times: 1 s would make the
        // console take up to 32 s to see an API server that came back; 250 ms caps it at 8 s.
        config.setWatchReconnectInterval(WATCH_RECONNECT_MILLIS);
        KubeTimeouts t = timeouts;
        config.setConnectionTimeout(Math.toIntExact(t.connect().toMillis()));
        config.setRequestTimeout(Math.toIntExact(t.request().toMillis()));
        return new Prepared(ctx, config, warnings, t, List.copyOf(customizers));
    }

    /**
     * One context checked and configured by {@link #prepare}, its client not built yet. {@link #build} may run
     * on any thread, once.
     */
    public static final class Prepared {
        private final KubeContext context;
        private final FilesConfig config;
        private final List<String> warnings;
        private final KubeTimeouts timeouts;
        private final List<Consumer<KubernetesClientBuilder>> customizers;

        private Prepared(KubeContext context, FilesConfig config, List<String> warnings, KubeTimeouts timeouts,
                         List<Consumer<KubernetesClientBuilder>> customizers) {
            this.context = context;
            this.config = config;
            this.warnings = warnings;
            this.timeouts = timeouts;
            this.customizers = customizers;
        }

        /** The context as listed. */
        public KubeContext context() {
            return context;
        }

        /** What is unsafe about it (TLS verification off, plain http), as the connection will say. */
        public List<String> warnings() {
            return warnings;
        }

        /**
         * Builds the client (HTTP client, TLS context, the interceptors that count requests and obey
         * Retry-After). Throws {@link IllegalArgumentException}, in words, when the client cannot be built
         * (a certificate or key that does not parse).
         */
        public KubeConnection build() {
            RequestCounter counter = new RequestCounter();
            RetryAfter retryAfter = new RetryAfter();
            KubernetesClientBuilder builder = new KubernetesClientBuilder().withConfig(config)
                    .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor(RequestCounter.NAME, counter)
                            .addOrReplaceInterceptor(RetryAfter.NAME, retryAfter));
            for (Consumer<KubernetesClientBuilder> c : customizers) {
                c.accept(builder);
            }
            return new KubeConnection(context, builder.build(), counter, retryAfter, warnings, timeouts,
                    config::refreshProblem);
        }
    }

    /**
     * A client configuration made from one context's definitions as {@link Kubeconfig} merged them
     * ({@link KubeconfigClient}). fabric8 asks {@link #refresh()} for a new token after a 401 (and before
     * a request once a minute); this one reads the same files again, as client-go would, which re-runs an
     * exec plugin. (A customizer that edits the config, {@code editOrNewConfig()}, copies it into a plain
     * {@link Config} and so gets fabric8's own refresh.)
     */
    private static final class FilesConfig extends Config {
        private final transient Kubeconfig.Sources sources;
        private final String context;
        private final transient UnaryOperator<String> environment;
        /** The files as read when this was made: a refresh blames the one that stopped being readable. */
        private final transient List<Kubeconfig.FileStatus> before;
        /** The definitions opened ({@link KubeconfigClient#definition}): a refresh keeps to them. */
        private final String definition;
        /** The last refresh's problem, said once (a refresh runs before every request once it is due). */
        private transient volatile String lastRefreshProblem;

        FilesConfig(Kubeconfig kubeconfig, String context, UnaryOperator<String> environment) {
            super(false); // as Config.empty(): nothing from the environment but what client-go reads too
            this.sources = kubeconfig.sources();
            this.context = context;
            this.environment = environment;
            this.before = kubeconfig.files();
            this.definition = KubeconfigClient.definition(kubeconfig, context);
            KubeconfigClient.configure(this, kubeconfig, context, environment);
        }

        /**
         * The files read again, or this config as it is when they cannot be used right now: fabric8
         * calls this before a request once a minute and after a 401, and {@code kubectl config} rewrites
         * a kubeconfig in place (truncates, then writes), so a re-read may meet an empty, half-written or
         * moved file. Thrown out of here, that failed the request that asked; kept, the request goes out
         * with the credentials read before and the next refresh reads the files again. Said in one log
         * line per distinct problem, without a stack trace or a secret.
         */
        @Override
        public Config refresh() {
            Kubeconfig again = Kubeconfig.load(sources);
            String why = KubeconfigClient.unusable(again, context, before, definition);
            if (why == null) {
                try {
                    FilesConfig fresh = new FilesConfig(again, context, environment);
                    lastRefreshProblem = null;
                    return fresh;
                } catch (RuntimeException e) {
                    why = KubeconfigClient.describeFailure(e);
                }
            }
            if (!why.equals(lastRefreshProblem)) {
                lastRefreshProblem = why;
                String said = why;
                LOG.warning(() -> "context '" + context + "': " + said
                        + "; keeping the credentials read before, trying again at the next refresh");
            }
            return this;
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
    }

    /** How a user authenticates, without the secret itself. */
    static String describeAuth(User u) {
        if (u == null) {
            return "none";
        }
        if (u.exec() != null) {
            return "exec: " + new File(u.exec().command()).getName();
        }
        if (u.authProvider() != null) {
            return "auth-provider: " + u.authProvider().name();
        }
        if (!u.token().isEmpty() || !u.tokenFile().isEmpty()) {
            return "token";
        }
        if (!u.clientCertificate().isEmpty() || !u.clientCertificateData().isEmpty()) {
            return "client certificate";
        }
        if (!u.username().isEmpty()) {
            return "basic (" + io.headroom.config.UntrustedText.line(u.username(), 100) + ")";
        }
        return "none";
    }

    @Override
    public String toString() {
        return "Contexts" + contexts.keySet() + " from " + files() + (current == null ? "" : ", current " + current);
    }
}
