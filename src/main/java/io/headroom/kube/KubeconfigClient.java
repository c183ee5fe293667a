package io.headroom.kube;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.AuthInfo;
import io.fabric8.kubernetes.api.model.AuthProviderConfig;
import io.fabric8.kubernetes.api.model.ExecConfig;
import io.fabric8.kubernetes.api.model.ExecEnvVar;
import io.fabric8.kubernetes.api.model.NamedAuthInfo;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.internal.KubeConfigUtils;
import io.headroom.config.ConfigException.Problem;
import io.headroom.config.ConfigNode;
import io.headroom.config.UntrustedText;
import io.headroom.kube.Kubeconfig.Cluster;
import io.headroom.kube.Kubeconfig.Exec;
import io.headroom.kube.Kubeconfig.FileStatus;
import io.headroom.kube.Kubeconfig.Located;
import io.headroom.kube.Kubeconfig.User;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Gives fabric8 one context exactly as {@link Kubeconfig} merged it, and what client-go would do with it
 * that fabric8 on its own does not: only the winning cluster, user and context reach fabric8's merge (so
 * it cannot pick another definition, nor fall back to {@code https://kubernetes.default.svc}); an exec
 * plugin is left out when a token, username/password or client certificate is given (client-go never runs
 * it then); {@code tokenFile} is read; {@code as}, {@code as-groups}, {@code as-user-extra} impersonate;
 * {@code proxy-url} is used for https and http servers alike (a port-less one on its scheme's port), else
 * the {@code HTTPS_PROXY}/{@code HTTP_PROXY}/{@code NO_PROXY} environment as Go reads it; the plugin gets
 * {@code KUBERNETES_EXEC_INFO}.
 */
final class KubeconfigClient {
    private KubeconfigClient() {
    }

    /** The variable client-go hands every exec plugin ({@code plugin/pkg/client/auth/exec}). */
    static final String EXEC_INFO_ENV = "KUBERNETES_EXEC_INFO";

    private static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().build();

    /** Fills {@code target} for {@code contextName}; runs its exec plugin, if client-go would. */
    static void configure(Config target, Kubeconfig k, String contextName, UnaryOperator<String> environment) {
        Located<Kubeconfig.Context> located = k.contexts().get(contextName);
        if (located == null) {
            throw new IllegalArgumentException("no context " + Kubeconfig.quoted(contextName));
        }
        Kubeconfig.Context ctx = located.value();
        Cluster cluster = k.clusters().get(ctx.cluster()).value();
        Located<User> user = k.users().get(ctx.user());
        User u = user.value();

        NamedCluster nc = new NamedCluster();
        nc.setName(ctx.cluster());
        io.fabric8.kubernetes.api.model.Cluster c = new io.fabric8.kubernetes.api.model.Cluster();
        c.setServer(cluster.server());
        c.setInsecureSkipTlsVerify(cluster.insecureSkipTlsVerify());
        c.setCertificateAuthority(blankToNull(cluster.certificateAuthority()));
        c.setCertificateAuthorityData(blankToNull(cluster.certificateAuthorityData()));
        c.setTlsServerName(blankToNull(cluster.tlsServerName()));
        nc.setCluster(c);

        NamedAuthInfo nu = new NamedAuthInfo();
        nu.setName(ctx.user());
        AuthInfo a = new AuthInfo();
        a.setToken(blankToNull(u.token()));
        a.setUsername(blankToNull(u.username()));
        a.setPassword(blankToNull(u.password()));
        a.setClientCertificate(blankToNull(u.clientCertificate()));
        a.setClientCertificateData(blankToNull(u.clientCertificateData()));
        a.setClientKey(blankToNull(u.clientKey()));
        a.setClientKeyData(blankToNull(u.clientKeyData()));
        if (u.authProvider() != null) {
            AuthProviderConfig p = new AuthProviderConfig();
            p.setName(u.authProvider().name());
            p.setConfig(new java.util.LinkedHashMap<>(u.authProvider().config()));
            a.setAuthProvider(p);
        }
        if (u.exec() != null && execRuns(u)) {
            checkRunnable(user, environment);
            a.setExec(exec(u.exec(), cluster, contextName));
        }
        nu.setUser(a);

        NamedContext nx = new NamedContext();
        nx.setName(contextName);
        io.fabric8.kubernetes.api.model.Context x = new io.fabric8.kubernetes.api.model.Context();
        x.setCluster(ctx.cluster());
        x.setUser(ctx.user());
        x.setNamespace(blankToNull(ctx.namespace()));
        nx.setContext(x);

        io.fabric8.kubernetes.api.model.Config one = new io.fabric8.kubernetes.api.model.Config();
        one.setClusters(List.of(nc));
        one.setUsers(List.of(nu));
        one.setContexts(List.of(nx));
        one.setCurrentContext(contextName);
        KubeConfigUtils.merge(target, contextName, one);
        if (a.getExec() != null && isBlank(target.getAutoOAuthToken()) && isBlank(target.getClientCertData())) {
            // fabric8 logs a failed plugin (to no log here) and goes on without credentials; client-go fails.
            throw new Refusal(plugin(user, "it gave no credentials (it failed, or printed no ExecCredential of"
                    + " apiVersion " + u.exec().apiVersion() + " with a token or a client certificate)"));
        }

        if (target.getNamespace() == null) {
            target.setNamespace("default");
        }
        if (u.token().isEmpty() && !u.tokenFile().isEmpty()) {
            try {
                target.setAutoOAuthToken(Files.readString(Path.of(u.tokenFile()), StandardCharsets.UTF_8).strip());
            } catch (IOException e) {
                throw new Refusal("unable to read tokenFile " + u.tokenFile() + " of user "
                        + Kubeconfig.quoted(ctx.user()) + " (" + user.file() + ":" + user.lineOf("tokenFile") + "): "
                        + KubeconfigValidation.unreadable(u.tokenFile()));
            }
        }
        // What fabric8 will send, whichever way it came (the file, a tokenFile, an exec plugin's answer).
        io.headroom.LoadedSecrets.add(target.getAutoOAuthToken());
        io.headroom.LoadedSecrets.add(target.getOauthToken());
        io.headroom.LoadedSecrets.add(target.getClientKeyData());
        io.headroom.LoadedSecrets.addBasic(target.getUsername(), target.getPassword());
        if (!u.impersonate().isEmpty()) {
            target.setImpersonateUsername(u.impersonate());
            target.setImpersonateGroups(u.impersonateGroups().toArray(String[]::new));
            target.setImpersonateExtras(u.impersonateUserExtra());
        }
        String proxy = proxyFor(cluster.server(), cluster.proxyUrl(), environment);
        // fabric8 picks httpProxy or httpsProxy by the server's scheme: both, so the one proxy is used.
        target.setHttpProxy(proxy);
        target.setHttpsProxy(proxy);
        target.setNoProxy(new String[0]);
    }

    /** A context refused while its client is made, with the reason in words. */
    static final class Refusal extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Refusal(String message) {
            super(message);
        }
    }

    /**
     * The plugin must be there to run: fabric8 runs it through {@code sh -c}, so a missing one is only a
     * shell's complaint on the plugin's output, and the context would connect without credentials.
     */
    private static void checkRunnable(Located<User> user, UnaryOperator<String> environment) {
        String command = user.value().exec().command();
        boolean found;
        if (command.indexOf(java.io.File.separatorChar) >= 0) {
            Path p = Path.of(command);
            found = Files.isRegularFile(p) && Files.isExecutable(p);
        } else {
            String path = environment.apply("PATH");
            found = false;
            for (String d : path == null ? new String[0] : path.split(java.io.File.pathSeparator)) {
                Path p = Path.of(d.isEmpty() ? "." : d, command);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    found = true;
                    break;
                }
            }
        }
        if (!found) {
            throw new Refusal(plugin(user, command.indexOf(java.io.File.separatorChar) >= 0
                    ? "no such executable file" : "not found on PATH"));
        }
    }

    /** "the exec credential plugin "aws" of user "u" (FILE:LINE) could not be run: why. INSTALL HINT". */
    private static String plugin(Located<User> user, String why) {
        Exec exec = user.value().exec();
        String hint = exec.installHint().isEmpty() ? "" : " " + UntrustedText.line(exec.installHint(), 500);
        return "the exec credential plugin " + Kubeconfig.quoted(exec.command()) + " of user "
                + Kubeconfig.quoted(user.name()) + " (" + user.file() + ":" + user.lineOf("exec")
                + ") could not be run: " + why + "." + hint;
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    /** client-go runs an exec plugin only when no token, username/password or client certificate is given. */
    static boolean execRuns(User u) {
        return u.exec() != null && u.token().isEmpty() && u.tokenFile().isEmpty() && u.username().isEmpty()
                && u.password().isEmpty() && u.clientCertificate().isEmpty() && u.clientCertificateData().isEmpty();
    }

    private static ExecConfig exec(Exec e, Cluster cluster, String contextName) {
        ExecConfig ec = new ExecConfig();
        ec.setCommand(e.command());
        ec.setArgs(new ArrayList<>(e.args()));
        ec.setApiVersion(e.apiVersion());
        ec.setInteractiveMode(e.interactiveMode());
        ec.setProvideClusterInfo(e.provideClusterInfo());
        List<ExecEnvVar> env = new ArrayList<>();
        for (Kubeconfig.EnvVar v : e.env()) {
            ExecEnvVar ev = new ExecEnvVar();
            ev.setName(v.name());
            ev.setValue(v.value());
            env.add(ev);
        }
        ExecEnvVar info = new ExecEnvVar();
        info.setName(EXEC_INFO_ENV);
        info.setValue(execInfo(e, cluster));
        env.add(info); // last, as client-go appends it after the user's variables
        ec.setEnv(env);
        return ec;
    }

    /**
     * The {@code ExecCredential} client-go puts in {@value #EXEC_INFO_ENV}: never interactive here (Headroom
     * gives a plugin no terminal), with the cluster when the plugin asks for it ({@code provideClusterInfo}).
     */
    static String execInfo(Exec e, Cluster cluster) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("kind", "ExecCredential");
        root.put("apiVersion", e.apiVersion());
        ObjectNode spec = root.putObject("spec");
        if (e.provideClusterInfo()) {
            ObjectNode c = spec.putObject("cluster");
            c.put("server", cluster.server());
            putIfSet(c, "tls-server-name", cluster.tlsServerName());
            if (cluster.insecureSkipTlsVerify()) {
                c.put("insecure-skip-tls-verify", true);
            }
            String ca = cluster.certificateAuthorityData();
            if (ca.isEmpty() && !cluster.certificateAuthority().isEmpty()) {
                try {
                    ca = Base64.getEncoder().encodeToString(Files.readAllBytes(Path.of(cluster.certificateAuthority())));
                } catch (IOException ignored) {
                    ca = ""; // validation said so already; the plugin gets what can be read
                }
            }
            putIfSet(c, "certificate-authority-data", ca);
            putIfSet(c, "proxy-url", cluster.proxyUrl());
            if (cluster.disableCompression()) {
                c.put("disable-compression", true);
            }
            if (cluster.execExtension() != null) {
                c.set("config", json(cluster.execExtension()));
            }
        }
        spec.put("interactive", false);
        try {
            return JSON.writeValueAsString(root);
        } catch (tools.jackson.core.JacksonException ex) {
            throw new IllegalStateException("could not write the exec plugin's cluster information", ex);
        }
    }

    private static void putIfSet(ObjectNode o, String key, String value) {
        if (!value.isEmpty()) {
            o.put(key, value);
        }
    }

    /** A located YAML value as JSON (the cluster's exec extension, handed to the plugin as it was written). */
    static JsonNode json(ConfigNode n) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        if (n instanceof ConfigNode.MapNode m) {
            ObjectNode o = f.objectNode();
            m.fields().forEach((k, v) -> o.set(k, json(v)));
            return o;
        }
        if (n instanceof ConfigNode.ListNode l) {
            ArrayNode a = f.arrayNode();
            l.items().forEach(i -> a.add(json(i)));
            return a;
        }
        ConfigNode.ScalarNode s = (ConfigNode.ScalarNode) n;
        return switch (s.token()) {
            case VALUE_NULL -> f.nullNode();
            case VALUE_TRUE, VALUE_FALSE -> f.booleanNode(Boolean.parseBoolean(s.text()));
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                try {
                    yield f.numberNode(new java.math.BigDecimal(s.text()));
                } catch (NumberFormatException e) {
                    yield f.textNode(s.text());
                }
            }
            default -> f.textNode(s.text());
        };
    }

    /**
     * The proxy for a server, as client-go's transport finds it: the cluster's {@code proxy-url} (on its
     * scheme's port when it names none), else Go's {@code ProxyFromEnvironment}: {@code HTTPS_PROXY} (or
     * {@code https_proxy}) for https servers, {@code HTTP_PROXY} for http ones, none for loopback hosts or
     * hosts {@code NO_PROXY} names. Null: connect directly.
     */
    static String proxyFor(String server, String proxyUrl, UnaryOperator<String> env) {
        if (!proxyUrl.isEmpty()) {
            return withPort(proxyUrl);
        }
        URI s;
        try {
            s = new URI(server);
        } catch (URISyntaxException e) {
            return null;
        }
        String scheme = s.getScheme() == null ? "https" : s.getScheme().toLowerCase(Locale.ROOT);
        String host = s.getHost();
        if (host == null) {
            return null;
        }
        String proxy = scheme.equals("http") ? either(env, "HTTP_PROXY", "http_proxy")
                : either(env, "HTTPS_PROXY", "https_proxy");
        if (proxy == null || proxy.isEmpty() || KubeContext.isLoopback(server)) {
            return null;
        }
        int port = s.getPort() >= 0 ? s.getPort() : scheme.equals("http") ? 80 : 443;
        if (noProxy(either(env, "NO_PROXY", "no_proxy"), host, port)) {
            return null;
        }
        return withPort(proxy.contains("://") ? proxy : "http://" + proxy);
    }

    private static String either(UnaryOperator<String> env, String upper, String lower) {
        String v = env.apply(upper);
        return v == null || v.isEmpty() ? env.apply(lower) : v;
    }

    /** Go's {@code httpproxy} rules: {@code *}, a domain (and its subdomains), a leading dot, an IP, a CIDR, an optional port. */
    static boolean noProxy(String list, String host, int port) {
        if (list == null || list.isBlank()) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        for (String raw : list.split(",")) {
            String entry = raw.strip().toLowerCase(Locale.ROOT);
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals("*")) {
                return true;
            }
            if (entry.contains("/")) {
                if (inCidr(h, entry)) {
                    return true;
                }
                continue;
            }
            int entryPort = -1;
            int colon = entry.lastIndexOf(':');
            if (colon > 0 && entry.indexOf(':') == colon && entry.substring(colon + 1).matches("[0-9]+")) {
                entryPort = Integer.parseInt(entry.substring(colon + 1));
                entry = entry.substring(0, colon);
            }
            if (entryPort >= 0 && entryPort != port) {
                continue;
            }
            if (entry.startsWith("*.")) {
                entry = entry.substring(1);
            }
            if (entry.startsWith(".") ? h.endsWith(entry) || h.equals(entry.substring(1))
                    : h.equals(entry) || h.endsWith("." + entry)) {
                return true;
            }
        }
        return false;
    }

    private static boolean inCidr(String host, String cidr) {
        if (!host.matches("[0-9.]+|[0-9a-f:]+")) {
            return false; // a name: CIDRs match addresses only (no lookup, as Go)
        }
        try {
            String[] parts = cidr.split("/", 2);
            byte[] net = InetAddress.getByName(parts[0]).getAddress();
            byte[] addr = InetAddress.getByName(host).getAddress();
            int bits = Integer.parseInt(parts[1]);
            if (net.length != addr.length || bits < 0 || bits > net.length * 8) {
                return false;
            }
            for (int i = 0; i < bits; i++) {
                int mask = 0x80 >>> (i % 8);
                if ((net[i / 8] & mask) != (addr[i / 8] & mask)) {
                    return false;
                }
            }
            return true;
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }

    /** A proxy URL with its scheme's port when it names none (Go's transport does so; fabric8 needs one). */
    static String withPort(String url) {
        try {
            URI u = new URI(url);
            if (u.getHost() == null || u.getPort() >= 0) {
                return url;
            }
            String scheme = u.getScheme().toLowerCase(Locale.ROOT);
            int port = switch (scheme) {
                case "https" -> 443;
                case "socks5" -> 1080;
                default -> 80;
            };
            return new URI(u.getScheme(), u.getRawUserInfo(), u.getHost(), port, u.getRawPath(), u.getRawQuery(),
                    u.getRawFragment()).toString();
        } catch (URISyntaxException e) {
            return url;
        }
    }

    /**
     * Which definitions a context was opened with: the files that define it, its cluster (and server) and
     * its user. A refresh takes new credentials only from the same definitions: a token read from another
     * file's user of the same name was meant for another server.
     */
    static String definition(Kubeconfig k, String contextName) {
        Located<Kubeconfig.Context> c = k.contexts().get(contextName);
        if (c == null) {
            return "";
        }
        Located<Cluster> cluster = k.clusters().get(c.value().cluster());
        Located<User> user = k.users().get(c.value().user());
        return c.file() + "|" + c.value().cluster() + "|" + (cluster == null ? "" : cluster.file() + "|"
                + cluster.value().server()) + "|" + c.value().user() + "|" + (user == null ? "" : user.file());
    }

    /**
     * Why a context opened with {@code opened} (its {@link #definition}) cannot take new credentials from
     * the files as they are now (a refresh), or null: the file that stopped being readable, in words, else
     * the context's problems or its changed definition.
     */
    static String unusable(Kubeconfig again, String contextName, List<FileStatus> before, String opened) {
        boolean same = definition(again, contextName).equals(opened);
        if (same && KubeconfigValidation.problems(again, contextName).isEmpty()) {
            return null;
        }
        for (FileStatus now : again.files()) {
            boolean wasRead = before.stream().anyMatch(b -> b.path().equals(now.path())
                    && b.state() == Kubeconfig.State.READ);
            if (!wasRead) {
                continue;
            }
            switch (now.state()) {
                case EMPTY -> {
                    return "kubeconfig " + now.path() + " is empty";
                }
                case MISSING -> {
                    return "kubeconfig " + now.path() + " is missing";
                }
                case UNREADABLE -> {
                    return "kubeconfig " + now.path() + " is not a whole kubeconfig (half-written?)";
                }
                default -> {
                    // read: not the culprit
                }
            }
        }
        Located<Kubeconfig.Context> c = again.contexts().get(contextName);
        if (c == null) {
            return "the kubeconfig no longer defines context " + Kubeconfig.quoted(contextName);
        }
        if (!same) {
            return "context " + Kubeconfig.quoted(contextName) + " is now defined otherwise (" + c.file() + ":"
                    + c.line() + "): open it again to use the new definition";
        }
        return String.join("; ", KubeconfigValidation.problems(again, contextName).stream()
                .map(Problem::toString).toList());
    }

    /**
     * What went wrong making the client, in words: a {@link Refusal}'s own, else the deepest cause's
     * message (never a class name, never "An error has occurred.").
     */
    static String describeFailure(RuntimeException e) {
        if (e instanceof Refusal) {
            return e.getMessage();
        }
        String words = io.headroom.ErrorWords.of(e); // the kind in words, no Java class name
        return words == null || words.isBlank() ? "its client could not be made" : UntrustedText.line(words, 300);
    }

    private static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
