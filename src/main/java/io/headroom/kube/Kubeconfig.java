package io.headroom.kube;

import tools.jackson.core.JsonToken;
import io.headroom.config.ConfigException;
import io.headroom.config.ConfigException.Problem;
import io.headroom.config.ConfigNode;
import io.headroom.config.ConfigNode.ListNode;
import io.headroom.config.ConfigNode.MapNode;
import io.headroom.config.ConfigNode.ScalarNode;
import io.headroom.config.ConfigTree;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The user's kubeconfig read and merged as client-go's {@code clientcmd} does it ({@code loader.go}):
 * an explicit file alone (it must exist), else every file of {@code KUBECONFIG} (empty names skipped,
 * duplicates dropped, missing files tolerated), else {@code ~/.kube/config}. A zero-length file is an
 * empty config; a file that cannot be read or decoded (wrong types, bad base64, a name twice in one
 * list) is a load problem, located. The first file to define a cluster, user or context wins it whole,
 * and the first non-empty {@code current-context} wins; relative paths in an entry are resolved against
 * the directory of the file that defines it.
 *
 * <p>Every entry remembers its file and line. Secrets (tokens, passwords, keys, exec environments,
 * auth-provider configuration) are kept only for the client; no {@code toString} here prints them.
 */
public final class Kubeconfig {

    /** How far the reading of one file got. */
    public enum State {
        /** Read and decoded. */
        READ,
        /** Zero bytes, or nothing but blank lines and comments: an empty config, as client-go reads it. */
        EMPTY,
        /** Not there: skipped in a {@code KUBECONFIG} list, a load problem for an explicit file. */
        MISSING,
        /** Not readable, not YAML, or not a kubeconfig: a load problem (client-go refuses the whole list). */
        UNREADABLE
    }

    /** One file of the list and what became of it; {@code problems} are located, never quote a secret. */
    public record FileStatus(Path path, State state, List<Problem> problems) {
        public FileStatus {
            problems = List.copyOf(problems);
        }
    }

    /**
     * Where the kubeconfig comes from (client-go's {@code ClientConfigLoadingRules}).
     *
     * @param explicit   a file given on the command line, used alone; null for a list
     * @param precedence the list, in order (no empty names, no duplicates)
     * @param origin     how it was chosen, for messages: {@code --kubeconfig}, {@code KUBECONFIG}, {@code ~/.kube/config}
     */
    public record Sources(Path explicit, List<Path> precedence, String origin) {
        public Sources {
            precedence = List.copyOf(precedence);
        }

        /** An explicit file ({@code --kubeconfig FILE}): read alone, never merged; missing is a problem. */
        public static Sources explicitFile(Path file) {
            return new Sources(file, List.of(), "--kubeconfig");
        }

        /** Files merged in order, as a {@code KUBECONFIG} list: duplicates dropped, missing ones skipped. */
        public static Sources list(List<Path> files) {
            return new Sources(null, new ArrayList<>(new LinkedHashSet<>(files)), "the kubeconfig list");
        }

        /**
         * client-go's default rules: {@code KUBECONFIG} when set and not empty (split on the platform's path
         * separator, empty names skipped, duplicates dropped), else {@code HOME/.kube/config}.
         *
         * @param kubeconfigVariable the value of {@code KUBECONFIG}, or null
         */
        public static Sources environment(String kubeconfigVariable, Path home) {
            if (kubeconfigVariable != null && !kubeconfigVariable.isEmpty()) {
                LinkedHashSet<Path> files = new LinkedHashSet<>();
                for (String name : kubeconfigVariable.split(java.util.regex.Pattern.quote(File.pathSeparator))) {
                    if (!name.isEmpty()) {
                        files.add(Path.of(name));
                    }
                }
                return new Sources(null, new ArrayList<>(files), "KUBECONFIG");
            }
            return new Sources(null, List.of(home.resolve(".kube").resolve("config")), "~/.kube/config");
        }

        /** The files read, in precedence order (client-go's {@code GetLoadingPrecedence}). */
        public List<Path> files() {
            return explicit != null ? List.of(explicit) : precedence;
        }
    }

    /** A cluster entry (nothing secret: certificate authorities are public). Empty strings are unset, as in Go. */
    public record Cluster(String server, String tlsServerName, boolean insecureSkipTlsVerify,
                          String certificateAuthority, String certificateAuthorityData, String proxyUrl,
                          boolean disableCompression, List<String> extensionNames, ConfigNode execExtension) {
        static final Cluster EMPTY = new Cluster("", "", false, "", "", "", false, List.of(), null);

        public Cluster {
            extensionNames = List.copyOf(extensionNames);
        }

        /** Nothing set at all (client-go's {@code ErrEmptyCluster}). */
        boolean isEmpty() {
            return server.isEmpty() && tlsServerName.isEmpty() && !insecureSkipTlsVerify
                    && certificateAuthority.isEmpty() && certificateAuthorityData.isEmpty() && proxyUrl.isEmpty()
                    && !disableCompression && extensionNames.isEmpty();
        }
    }

    /** A user entry ({@code AuthInfo}). Holds secrets: its {@code toString} names only how it authenticates. */
    public record User(String clientCertificate, String clientCertificateData, String clientKey, String clientKeyData,
                       String token, String tokenFile, String impersonate, String impersonateUid,
                       List<String> impersonateGroups, Map<String, List<String>> impersonateUserExtra,
                       String username, String password, AuthProvider authProvider, Exec exec) {
        static final User EMPTY = new User("", "", "", "", "", "", "", "", List.of(), Map.of(), "", "", null, null);

        public User {
            impersonateGroups = List.copyOf(impersonateGroups);
            impersonateUserExtra = Collections.unmodifiableMap(new LinkedHashMap<>(impersonateUserExtra));
        }

        @Override
        public String toString() {
            return "User[" + Contexts.describeAuth(this) + "]";
        }
    }

    /** An {@code auth-provider}; its {@code config} holds tokens and is never printed. */
    public record AuthProvider(String name, Map<String, String> config) {
        @Override
        public String toString() {
            return "AuthProvider[" + name + "]";
        }
    }

    /** An exec credential plugin ({@code ExecConfig}); its environment may hold secrets and is never printed. */
    public record Exec(String command, List<String> args, List<EnvVar> env, String apiVersion, String installHint,
                       boolean provideClusterInfo, String interactiveMode) {
        public Exec {
            args = List.copyOf(args);
            env = List.copyOf(env);
        }

        @Override
        public String toString() {
            return "Exec[" + new File(command).getName() + "]";
        }
    }

    /** One variable of an exec plugin's environment; the value is never printed. */
    public record EnvVar(String name, String value) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** A context entry. */
    public record Context(String cluster, String user, String namespace) {
    }

    /**
     * A named entry as defined by the file that won it, with the line of its list item.
     *
     * @param body the entry's {@code cluster:}/{@code user:}/{@code context:} mapping, for the lines of its keys (may be null)
     */
    public record Located<T>(String name, T value, Path file, int line, MapNode body) {
        /** The line of a key of the entry's body, else the entry's own line. */
        public int lineOf(String key) {
            return body != null && body.fields().containsKey(key) ? body.keyLine(key) : line;
        }

        @Override
        public String toString() {
            return "'" + name + "' (" + file + ":" + line + ")";
        }
    }

    /** The valid values of an exec plugin's {@code interactiveMode}. */
    static final List<String> INTERACTIVE_MODES = List.of("Never", "IfAvailable", "Always");

    private final Sources sources;
    private final List<FileStatus> files;
    private final Map<String, Located<Cluster>> clusters;
    private final Map<String, Located<User>> users;
    private final Map<String, Located<Context>> contexts;
    private final String currentContext;
    private final Located<String> currentContextAt;
    private final int extensions;

    private Kubeconfig(Sources sources, List<FileStatus> files, Map<String, Located<Cluster>> clusters,
                       Map<String, Located<User>> users, Map<String, Located<Context>> contexts,
                       Located<String> current, int extensions) {
        this.sources = sources;
        this.files = List.copyOf(files);
        this.clusters = Collections.unmodifiableMap(clusters);
        this.users = Collections.unmodifiableMap(users);
        this.contexts = Collections.unmodifiableMap(contexts);
        this.currentContextAt = current;
        this.currentContext = current == null ? "" : current.value();
        this.extensions = extensions;
    }

    /** Reads and merges the files {@code sources} names. Never throws for what is in them: see {@link #loadProblems}. */
    public static Kubeconfig load(Sources sources) {
        List<FileStatus> statuses = new ArrayList<>();
        Map<String, Located<Cluster>> clusters = new LinkedHashMap<>();
        Map<String, Located<User>> users = new LinkedHashMap<>();
        Map<String, Located<Context>> contexts = new LinkedHashMap<>();
        Located<String> current = null;
        int extensions = 0;
        for (Path file : sources.files()) {
            Read read = read(file, sources.explicit() != null);
            statuses.add(read.status());
            if (read.status().state() != State.READ) {
                continue;
            }
            Decoded d = read.decoded();
            // The first file to set a name wins it whole; even fields the first left empty are not taken from later ones.
            d.clusters().forEach(clusters::putIfAbsent);
            d.users().forEach(users::putIfAbsent);
            d.contexts().forEach(contexts::putIfAbsent);
            if (current == null && d.current() != null && !d.current().value().isEmpty()) {
                current = d.current();
            }
            extensions += d.extensions();
        }
        return new Kubeconfig(sources, statuses, clusters, users, contexts, current, extensions);
    }

    public Sources sources() {
        return sources;
    }

    /** Every file of the list, in order, with what became of it. */
    public List<FileStatus> files() {
        return files;
    }

    /** Clusters by name, in the order they were first defined. */
    public Map<String, Located<Cluster>> clusters() {
        return clusters;
    }

    /** Users by name, in the order they were first defined. */
    public Map<String, Located<User>> users() {
        return users;
    }

    /** Contexts by name, in the order they were first defined. */
    public Map<String, Located<Context>> contexts() {
        return contexts;
    }

    /** The first non-empty {@code current-context} of the list; empty when none names one. */
    public String currentContext() {
        return currentContext;
    }

    /** Where {@link #currentContext} was set, or null. */
    public Located<String> currentContextAt() {
        return currentContextAt;
    }

    /**
     * Why the files cannot all be used, located: a file that cannot be read or decoded, or an explicit
     * file that does not exist. client-go then refuses every context, and so does Headroom.
     */
    public List<Problem> loadProblems() {
        List<Problem> out = new ArrayList<>();
        for (FileStatus f : files) {
            if (f.state() == State.UNREADABLE || f.state() == State.MISSING && sources.explicit() != null) {
                out.addAll(f.problems());
            }
        }
        return out;
    }

    /** The files of a list that do not exist (tolerated, as client-go does). */
    public List<Path> missingFiles() {
        return files.stream().filter(f -> f.state() == State.MISSING).map(FileStatus::path).toList();
    }

    /** client-go's {@code IsConfigEmpty}: no cluster, user or context, no current context, no extension. */
    public boolean isEmpty() {
        return clusters.isEmpty() && users.isEmpty() && contexts.isEmpty() && currentContext.isEmpty()
                && extensions == 0;
    }

    @Override
    public String toString() {
        return "Kubeconfig" + contexts.keySet() + " from " + sources.files();
    }

    // ------------------------------------------------------------------ reading one file

    private record Read(FileStatus status, Decoded decoded) {
    }

    private record Decoded(Map<String, Located<Cluster>> clusters, Map<String, Located<User>> users,
                           Map<String, Located<Context>> contexts, Located<String> current, int extensions) {
    }

    private static Read read(Path file, boolean explicit) {
        String name = file.toString();
        if (!Files.exists(file)) {
            return status(file, State.MISSING, new Problem(name, 0, 0, "", explicit
                    ? "the kubeconfig file does not exist" : "does not exist (skipped, as kubectl does)"));
        }
        try {
            if (!Files.isDirectory(file) && Files.size(file) == 0) {
                return new Read(new FileStatus(file, State.EMPTY, List.of()), null);
            }
        } catch (IOException e) {
            return status(file, State.UNREADABLE, new Problem(name, 1, 0, "", "cannot be read: " + reason(e)));
        }
        String text;
        try {
            text = ConfigTree.readText(file);
        } catch (ConfigException e) {
            return status(file, State.UNREADABLE, renamed(e.problems(), name));
        }
        if (onlyComments(text)) {
            return new Read(new FileStatus(file, State.EMPTY, List.of()), null);
        }
        ConfigNode root;
        try {
            root = ConfigTree.parse(name, text, ConfigTree.Format.YAML, ConfigTree.Limits.FOREIGN);
        } catch (ConfigException e) {
            return status(file, State.UNREADABLE, e.problems());
        }
        Decoder d = new Decoder(file);
        Decoded decoded = d.config(root);
        if (!d.problems.isEmpty()) {
            return new Read(new FileStatus(file, State.UNREADABLE, d.problems), null);
        }
        return new Read(new FileStatus(file, State.READ, List.of()), decoded);
    }

    private static Read status(Path file, State state, Problem problem) {
        return status(file, state, List.of(problem));
    }

    private static Read status(Path file, State state, List<Problem> problems) {
        return new Read(new FileStatus(file, state, problems), null);
    }

    /** The config reader names a file by its file name; a kubeconfig's problems name its whole path. */
    private static List<Problem> renamed(List<Problem> problems, String file) {
        return problems.stream().map(p -> new Problem(file, p.line(), p.column(), p.path(), p.message())).toList();
    }

    private static String reason(IOException e) {
        return e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e.getMessage() == null ? "an input/output error" : e.getMessage();
    }

    /** Blank lines, comments and document markers only: YAML with no value, which client-go reads as an empty config. */
    private static boolean onlyComments(String text) {
        for (String line : text.split("\n", -1)) {
            String t = line.strip();
            if (!t.isEmpty() && !t.startsWith("#") && !t.equals("---") && !t.equals("...")) {
                return false;
            }
        }
        return true;
    }

    /**
     * Decodes one file's tree into entries as client-go's v1 decoding does: unknown fields are ignored,
     * a known field of the wrong type, bad base64 data or a name twice in one list makes the file
     * unreadable (every such problem is said). Messages never quote a value: it may be a secret.
     */
    /** A name that says its value is a secret (an auth provider's {@code id-token}, an exec env's {@code AWS_SECRET_ACCESS_KEY}). */
    private static final java.util.regex.Pattern SECRET_NAME = java.util.regex.Pattern.compile(
            "(?i)token|secret|passw|key|credential");

    private static final class Decoder {
        private final Path file;
        private final Path dir;
        private final String name;
        final List<Problem> problems = new ArrayList<>();

        Decoder(Path file) {
            this.file = file;
            this.dir = file.toAbsolutePath().getParent();
            this.name = file.toString();
        }

        Decoded config(ConfigNode root) {
            Map<String, Located<Cluster>> clusters = new LinkedHashMap<>();
            Map<String, Located<User>> users = new LinkedHashMap<>();
            Map<String, Located<Context>> contexts = new LinkedHashMap<>();
            if (!(root instanceof MapNode top)) {
                problem(root, "a kubeconfig is a mapping (apiVersion, kind, clusters, users, contexts …), not "
                        + root.describe().replaceAll(" \\(.*", ""));
                return new Decoded(clusters, users, contexts, null, 0);
            }
            String kind = string(top, "kind");
            if (!kind.isEmpty() && !kind.equals("Config")) {
                problem(top.fields().get("kind"), "this is not a kubeconfig: kind is " + quoted(kind)
                        + ", a kubeconfig's is Config");
            }
            String apiVersion = string(top, "apiVersion");
            if (!apiVersion.isEmpty() && !apiVersion.equals("v1")) {
                problem(top.fields().get("apiVersion"), "apiVersion " + quoted(apiVersion)
                        + " is not one client-go reads (v1)");
            }
            for (Named n : named(top, "clusters", "cluster", true)) {
                clusters.put(n.name(), new Located<>(n.name(), cluster(n.body()), file, n.line(), n.body()));
            }
            for (Named n : named(top, "users", "user", true)) {
                users.put(n.name(), new Located<>(n.name(), user(n.body()), file, n.line(), n.body()));
            }
            for (Named n : named(top, "contexts", "context", true)) {
                contexts.put(n.name(), new Located<>(n.name(), context(n.body()), file, n.line(), n.body()));
            }
            String current = string(top, "current-context");
            Located<String> at = new Located<>("current-context", current, file, top.keyLine("current-context"), null);
            int extensions = extensions(top).size();
            ConfigNode prefs = top.fields().get("preferences");
            if (prefs != null && !isNull(prefs)) {
                if (prefs instanceof MapNode p) {
                    bool(p, "colors");
                    extensions(p);
                } else {
                    wrongType(prefs, "a mapping");
                }
            }
            return new Decoded(clusters, users, contexts, at, extensions);
        }

        private record Named(String name, int line, MapNode body) {
        }

        /**
         * A list of {name, BODY} items; a name twice in one list is refused, as client-go does. A body
         * that must be a mapping and is not is refused too (an extension's body may be anything).
         */
        private List<Named> named(MapNode parent, String list, String bodyKey, boolean bodyIsMapping) {
            List<Named> out = new ArrayList<>();
            Map<String, Integer> seen = new LinkedHashMap<>();
            for (MapNode item : items(parent, list)) {
                String n = string(item, "name");
                if (seen.containsKey(n)) {
                    problem(item, "duplicate name " + quoted(n) + " in " + list + " (first at line " + seen.get(n)
                            + "); client-go refuses a file that defines a name twice");
                    continue;
                }
                seen.put(n, item.line());
                ConfigNode body = item.fields().get(bodyKey);
                MapNode map = null;
                if (body instanceof MapNode m) {
                    map = m;
                } else if (bodyIsMapping && body != null && !isNull(body)) {
                    wrongType(body, "a mapping");
                }
                out.add(new Named(n, item.line(), map));
            }
            return out;
        }

        /** The items of a list field (absent or null: none; nulls in it skipped). */
        private List<ConfigNode> list(MapNode parent, String key, String wanted) {
            ConfigNode node = parent.fields().get(key);
            if (node == null || isNull(node)) {
                return List.of();
            }
            if (!(node instanceof ListNode list)) {
                wrongType(node, wanted);
                return List.of();
            }
            return list.items().stream().filter(i -> !isNull(i)).toList();
        }

        /** The mappings of a list field. */
        private List<MapNode> items(MapNode parent, String key) {
            List<MapNode> out = new ArrayList<>();
            for (ConfigNode item : list(parent, key, "a list")) {
                if (item instanceof MapNode m) {
                    out.add(m);
                } else {
                    wrongType(item, "a mapping");
                }
            }
            return out;
        }

        /** The names of an {@code extensions} list (each a {name, extension}); a name twice is refused. */
        private List<String> extensions(MapNode parent) {
            return named(parent, "extensions", "extension", false).stream().map(Named::name).toList();
        }

        private ConfigNode extension(MapNode parent, String wanted) {
            for (MapNode item : items(parent, "extensions")) {
                if (wanted.equals(optionalString(item, "name"))) {
                    return item.fields().get("extension");
                }
            }
            return null;
        }

        private Cluster cluster(MapNode c) {
            if (c == null) {
                return Cluster.EMPTY;
            }
            return new Cluster(string(c, "server"), string(c, "tls-server-name"),
                    bool(c, "insecure-skip-tls-verify"), path(string(c, "certificate-authority")),
                    base64(c, "certificate-authority-data"), string(c, "proxy-url"), bool(c, "disable-compression"),
                    extensions(c), extension(c, "client.authentication.k8s.io/exec"));
        }

        private User user(MapNode u) {
            if (u == null) {
                return User.EMPTY;
            }
            AuthProvider provider = null;
            ConfigNode ap = u.fields().get("auth-provider");
            if (ap != null && !isNull(ap)) {
                if (ap instanceof MapNode m) {
                    provider = new AuthProvider(string(m, "name"), stringMap(m, "config"));
                } else {
                    wrongType(ap, "a mapping");
                }
            }
            Exec exec = null;
            ConfigNode ex = u.fields().get("exec");
            if (ex != null && !isNull(ex)) {
                if (ex instanceof MapNode m) {
                    exec = exec(m);
                } else {
                    wrongType(ex, "a mapping");
                }
            }
            extensions(u);
            User user = new User(path(string(u, "client-certificate")), base64(u, "client-certificate-data"),
                    path(string(u, "client-key")), base64(u, "client-key-data"), string(u, "token"),
                    path(string(u, "tokenFile")), string(u, "as"), string(u, "as-uid"), strings(u, "as-groups"),
                    stringLists(u, "as-user-extra"), string(u, "username"), string(u, "password"), provider, exec);
            loaded(user);
            return user;
        }

        /** The user's secrets, held so that no text the console shows or keeps repeats them (issue 27). */
        private static void loaded(User user) {
            io.headroom.LoadedSecrets.add(user.token());
            io.headroom.LoadedSecrets.addBasic(user.username(), user.password());
            io.headroom.LoadedSecrets.add(user.clientKeyData());
            io.headroom.LoadedSecrets.add(user.clientKeyData().replace("\r", "").replace("\n", ""));
            if (user.authProvider() != null) {
                user.authProvider().config().forEach((k, v) -> {
                    if (SECRET_NAME.matcher(k).find()) {
                        io.headroom.LoadedSecrets.add(v);
                    }
                });
            }
            if (user.exec() != null) {
                for (EnvVar e : user.exec().env()) {
                    if (SECRET_NAME.matcher(e.name()).find()) {
                        io.headroom.LoadedSecrets.add(e.value());
                    }
                }
            }
        }

        private Exec exec(MapNode m) {
            List<EnvVar> env = new ArrayList<>();
            for (MapNode e : items(m, "env")) {
                env.add(new EnvVar(string(e, "name"), string(e, "value")));
            }
            String command = string(m, "command");
            // As client-go: a command with a path separator is a path, relative to this file; a bare name is looked up on PATH.
            if (command.indexOf(File.separatorChar) >= 0) {
                command = path(command);
            }
            String apiVersion = string(m, "apiVersion");
            String mode = string(m, "interactiveMode");
            // client-go's v1 defaulting: the two older versions default to IfAvailable; v1 must say.
            if (mode.isEmpty() && (apiVersion.equals("client.authentication.k8s.io/v1beta1")
                    || apiVersion.equals("client.authentication.k8s.io/v1alpha1"))) {
                mode = "IfAvailable";
            }
            return new Exec(command, strings(m, "args"), env, apiVersion, string(m, "installHint"),
                    bool(m, "provideClusterInfo"), mode);
        }

        private Context context(MapNode c) {
            if (c == null) {
                return new Context("", "", "");
            }
            extensions(c);
            return new Context(string(c, "cluster"), string(c, "user"), string(c, "namespace"));
        }

        /** Relative to the file's directory, as client-go's {@code ResolveLocalPaths}; empty stays empty. */
        private String path(String p) {
            if (p.isEmpty()) {
                return p;
            }
            Path given = Path.of(p);
            return given.isAbsolute() ? p : dir.resolve(given).normalize().toString();
        }

        private String string(MapNode m, String key) {
            String s = optionalString(m, key);
            return s == null ? "" : s;
        }

        private String optionalString(MapNode m, String key) {
            ConfigNode n = m.fields().get(key);
            if (n == null || isNull(n)) {
                return null;
            }
            if (n instanceof ScalarNode s && s.isString()) {
                return s.text();
            }
            wrongType(n, "a string");
            return null;
        }

        private boolean bool(MapNode m, String key) {
            ConfigNode n = m.fields().get(key);
            if (n == null || isNull(n)) {
                return false;
            }
            if (n instanceof ScalarNode s && (s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE)) {
                return s.token() == JsonToken.VALUE_TRUE;
            }
            wrongType(n, "true or false");
            return false;
        }

        /** Base64 data ({@code …-data}): decoded as Go's encoding/json decodes []byte (standard alphabet, padded). */
        private String base64(MapNode m, String key) {
            String s = string(m, key);
            String compact = s.replace("\r", "").replace("\n", "");
            if (!compact.isEmpty()) {
                boolean ok = compact.length() % 4 == 0;
                if (ok) {
                    try {
                        Base64.getDecoder().decode(compact);
                    } catch (IllegalArgumentException e) {
                        ok = false;
                    }
                }
                if (!ok) {
                    problem(m.fields().get(key), "is not base64 data");
                }
            }
            return compact;
        }

        private List<String> strings(MapNode m, String key) {
            List<String> out = new ArrayList<>();
            for (ConfigNode item : list(m, key, "a list of strings")) {
                if (item instanceof ScalarNode s && s.isString()) {
                    out.add(s.text());
                } else {
                    wrongType(item, "a string");
                }
            }
            return out;
        }

        private Map<String, String> stringMap(MapNode m, String key) {
            ConfigNode n = m.fields().get(key);
            Map<String, String> out = new LinkedHashMap<>();
            if (n == null || isNull(n)) {
                return out;
            }
            if (!(n instanceof MapNode map)) {
                wrongType(n, "a mapping of strings");
                return out;
            }
            for (String k : map.fields().keySet()) {
                out.put(k, string(map, k));
            }
            return out;
        }

        private Map<String, List<String>> stringLists(MapNode m, String key) {
            ConfigNode n = m.fields().get(key);
            Map<String, List<String>> out = new LinkedHashMap<>();
            if (n == null || isNull(n)) {
                return out;
            }
            if (!(n instanceof MapNode map)) {
                wrongType(n, "a mapping of string lists");
                return out;
            }
            for (String k : map.fields().keySet()) {
                out.put(k, strings(map, k));
            }
            return out;
        }

        private static boolean isNull(ConfigNode n) {
            return n instanceof ScalarNode s && s.isNull();
        }

        private void wrongType(ConfigNode n, String wanted) {
            // Never the value itself: a token or a password may be what was mistyped.
            problem(n, "must be " + wanted + ", not " + n.describe().replaceAll(" \\(.*", ""));
        }

        private void problem(ConfigNode n, String message) {
            problems.add(new Problem(name, n == null ? 0 : n.line(), n == null ? 0 : n.column(),
                    n == null ? "" : n.path(), message));
        }
    }

    /** A name or value from the file in quotes, safe to print (control characters removed, length capped). */
    static String quoted(String s) {
        return "\"" + io.headroom.config.UntrustedText.line(s, 200) + "\"";
    }
}
