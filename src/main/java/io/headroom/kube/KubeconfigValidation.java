package io.headroom.kube;

import io.headroom.config.ConfigException.Problem;
import io.headroom.kube.Kubeconfig.Cluster;
import io.headroom.kube.Kubeconfig.Context;
import io.headroom.kube.Kubeconfig.Exec;
import io.headroom.kube.Kubeconfig.Located;
import io.headroom.kube.Kubeconfig.User;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * client-go's kubeconfig rules ({@code tools/clientcmd/validation.go}), each problem said in words
 * with the file and line of the entry it is about: {@link #validate} checks everything (client-go's
 * {@code Validate}), {@link #confirmUsable} one context with the user and cluster it names
 * ({@code ConfirmUsable}: what kubectl checks before it connects). {@link #whenOpened} adds what
 * client-go refuses only while building the client (removed or unknown auth providers, exec plugin
 * versions and terminals, a token file it cannot read) and what Headroom's client cannot do as
 * client-go would. No message quotes a secret.
 */
public final class KubeconfigValidation {
    private KubeconfigValidation() {
    }

    /** {@code validation.IsDNS1123Label}: lowercase letters, digits and '-', alphanumeric at both ends, at most 63. */
    private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    /** The exec credential versions client-go's plugin runner speaks ({@code plugin/pkg/client/auth/exec}). */
    static final Set<String> EXEC_API_VERSIONS = Set.of("client.authentication.k8s.io/v1",
            "client.authentication.k8s.io/v1beta1");

    /** client-go's {@code Validate}: every context, user and cluster, and the current context. */
    public static List<Problem> validate(Kubeconfig k) {
        List<Problem> out = new ArrayList<>();
        if (k.isEmpty()) {
            out.add(new Problem(k.sources().files().isEmpty() ? "kubeconfig" : k.sources().files().get(0).toString(),
                    0, 0, "", "no configuration has been provided (no cluster, user or context)"));
            return out;
        }
        String current = k.currentContext();
        if (!current.isEmpty() && !k.contexts().containsKey(current)) {
            Located<String> at = k.currentContextAt();
            out.add(new Problem(at.file().toString(), at.line(), 0, "", "context was not found for specified context: "
                    + Kubeconfig.quoted(current) + " (the current-context)"));
        }
        for (Located<Context> c : k.contexts().values()) {
            out.addAll(validateContext(k, c));
        }
        for (Located<User> u : k.users().values()) {
            out.addAll(validateAuthInfo(u.name(), u));
        }
        for (Located<Cluster> c : k.clusters().values()) {
            out.addAll(validateClusterInfo(c.name(), c));
        }
        return out;
    }

    /**
     * client-go's {@code ConfirmUsable}: the context, the user and the cluster it names (a missing one
     * checked as an empty one, as client-go does, located at the context). Empty: kubectl would use it.
     */
    public static List<Problem> confirmUsable(Kubeconfig k, String contextName) {
        List<Problem> out = new ArrayList<>();
        String where = k.sources().files().isEmpty() ? "kubeconfig"
                : String.join(", ", k.sources().files().stream().map(Path::toString).toList());
        if (k.isEmpty()) {
            out.add(new Problem(where, 0, 0, "", "no configuration has been provided (no cluster, user or context)"));
            return out;
        }
        String name = contextName == null || contextName.isEmpty() ? k.currentContext() : contextName;
        if (name.isEmpty()) {
            out.add(new Problem(where, 0, 0, "", "no context chosen (and no current-context)"));
            return out;
        }
        Located<Context> c = k.contexts().get(name);
        if (c == null) {
            out.add(new Problem(where, 0, 0, "", "context was not found for specified context: "
                    + Kubeconfig.quoted(name)));
            return out;
        }
        out.addAll(confirmContext(k, c));
        return out;
    }

    /** {@code ConfirmUsable}'s checks of one context entry: itself, its user, its cluster. */
    private static List<Problem> confirmContext(Kubeconfig k, Located<Context> c) {
        List<Problem> out = new ArrayList<>(validateContext(k, c));
        Located<User> user = k.users().get(c.value().user());
        out.addAll(validateAuthInfo(c.value().user(), user != null ? user
                : new Located<>(c.value().user(), User.EMPTY, c.file(), c.lineOf("user"), null)));
        Located<Cluster> cluster = k.clusters().get(c.value().cluster());
        if (cluster != null || c.value().cluster().isEmpty()) {
            // A cluster named but defined nowhere is said once ("was not found"), not again as an empty one.
            out.addAll(validateClusterInfo(c.value().cluster(), cluster != null ? cluster
                    : new Located<>(c.value().cluster(), Cluster.EMPTY, c.file(), c.line(), null)));
        }
        return out;
    }

    /** client-go's {@code validateContext}: not transitive (the user's and cluster's own problems are theirs). */
    public static List<Problem> validateContext(Kubeconfig k, Located<Context> c) {
        List<Problem> out = new ArrayList<>();
        String name = Kubeconfig.quoted(c.name());
        Context ctx = c.value();
        if (c.name().isEmpty()) {
            out.add(at(c, c.line(), "empty context name is not allowed"));
        }
        if (ctx.user().isEmpty()) {
            out.add(at(c, c.line(), "user was not specified for context " + name));
        } else if (!k.users().containsKey(ctx.user())) {
            out.add(at(c, c.lineOf("user"), "user " + Kubeconfig.quoted(ctx.user()) + " was not found for context "
                    + name + " (no file of the list defines it)"));
        }
        if (ctx.cluster().isEmpty()) {
            out.add(at(c, c.line(), "cluster was not specified for context " + name));
        } else if (!k.clusters().containsKey(ctx.cluster())) {
            out.add(at(c, c.lineOf("cluster"), "cluster " + Kubeconfig.quoted(ctx.cluster())
                    + " was not found for context " + name + " (no file of the list defines it)"));
        }
        if (!ctx.namespace().isEmpty() && !isDns1123Label(ctx.namespace())) {
            out.add(at(c, c.lineOf("namespace"), "namespace " + Kubeconfig.quoted(ctx.namespace()) + " for context "
                    + name + " does not conform to the kubernetes DNS_LABEL rules (lowercase letters, digits and"
                    + " '-', a letter or digit at each end, at most 63 characters)"));
        }
        return out;
    }

    /** client-go's {@code validateClusterInfo}. */
    public static List<Problem> validateClusterInfo(String clusterName, Located<Cluster> c) {
        List<Problem> out = new ArrayList<>();
        Cluster cluster = c.value();
        String name = Kubeconfig.quoted(clusterName);
        if (cluster.isEmpty()) {
            out.add(at(c, c.line(), "cluster " + name + " has no server defined"));
            return out;
        }
        if (cluster.server().isEmpty()) {
            out.add(at(c, c.line(), clusterName.isEmpty() ? "default cluster has no server defined"
                    : "no server found for cluster " + name));
        }
        if (!cluster.proxyUrl().isEmpty()) {
            String why = proxyUrlProblem(cluster.proxyUrl());
            if (why != null) {
                out.add(at(c, c.lineOf("proxy-url"), "invalid 'proxy-url' " + Kubeconfig.quoted(withoutUserInfo(
                        cluster.proxyUrl())) + " for cluster " + name + ": " + why));
            }
        }
        if (!cluster.certificateAuthority().isEmpty() && !cluster.certificateAuthorityData().isEmpty()) {
            out.add(at(c, c.lineOf("certificate-authority"), "certificate-authority-data and certificate-authority"
                    + " are both specified for cluster " + name + "; client-go refuses that: keep one"));
        }
        mustRead(out, c, "certificate-authority", cluster.certificateAuthority(), "cluster " + name);
        return out;
    }

    /** client-go's {@code validateAuthInfo}. */
    public static List<Problem> validateAuthInfo(String userName, Located<User> located) {
        List<Problem> out = new ArrayList<>();
        User u = located.value();
        String name = Kubeconfig.quoted(userName);
        List<String> methods = new ArrayList<>();
        if (!u.token().isEmpty()) {
            methods.add("token");
        }
        if (!u.username().isEmpty() || !u.password().isEmpty()) {
            methods.add("basicAuth");
        }
        if (!u.clientCertificate().isEmpty() || !u.clientCertificateData().isEmpty()) {
            if (!u.clientCertificate().isEmpty() && !u.clientCertificateData().isEmpty()) {
                out.add(at(located, located.lineOf("client-certificate"), "client-certificate-data and"
                        + " client-certificate are both specified for user " + name + "; client-go refuses that:"
                        + " keep one"));
            }
            if (!u.clientKey().isEmpty() && !u.clientKeyData().isEmpty()) {
                out.add(at(located, located.lineOf("client-key"), "client-key-data and client-key are both specified"
                        + " for user " + name + "; client-go refuses that: keep one"));
            }
            if (u.clientKey().isEmpty() && u.clientKeyData().isEmpty()) {
                out.add(at(located, located.lineOf("client-certificate"), "client-key-data or client-key must be"
                        + " specified for user " + name + " to use the client certificate"));
            }
            mustRead(out, located, "client-certificate", u.clientCertificate(), "user " + name);
            mustRead(out, located, "client-key", u.clientKey(), "user " + name);
        }
        Exec exec = u.exec();
        if (exec != null) {
            int line = located.lineOf("exec");
            if (u.authProvider() != null) {
                out.add(at(located, line, "auth-provider cannot be provided in combination with an exec plugin for"
                        + " user " + name + ": keep one"));
            }
            if (exec.command().isEmpty()) {
                out.add(at(located, line, "command must be specified for user " + name
                        + " to use the exec credential plugin"));
            }
            if (exec.apiVersion().isEmpty()) {
                out.add(at(located, line, "apiVersion must be specified for user " + name
                        + " to use the exec credential plugin (client.authentication.k8s.io/v1)"));
            }
            for (int i = 0; i < exec.env().size(); i++) {
                if (exec.env().get(i).name().isEmpty()) {
                    out.add(at(located, line, "env variable name must be specified for user " + name
                            + " to use the exec credential plugin (env[" + i + "] has none)"));
                }
            }
            if (exec.interactiveMode().isEmpty()) {
                out.add(at(located, line, "interactiveMode must be specified for user " + name
                        + " to use the exec credential plugin (Never, IfAvailable or Always)"));
            } else if (!Kubeconfig.INTERACTIVE_MODES.contains(exec.interactiveMode())) {
                out.add(at(located, line, "invalid interactiveMode for user " + name + ": "
                        + Kubeconfig.quoted(exec.interactiveMode()) + " (Never, IfAvailable or Always)"));
            }
        }
        if (methods.size() > 1) {
            out.add(at(located, located.line(), "more than one authentication method found for user " + name
                    + "; found " + String.join(" and ", methods) + ", only one is allowed"));
        }
        if ((!u.impersonateUid().isEmpty() || !u.impersonateGroups().isEmpty() || !u.impersonateUserExtra().isEmpty())
                && u.impersonate().isEmpty()) {
            out.add(at(located, located.line(), "requesting uid, groups or user-extra for user " + name
                    + " without impersonating a user (as-uid, as-groups or as-user-extra without as)"));
        }
        return out;
    }

    /**
     * What client-go refuses only while building the client for a context, and what Headroom's client
     * (fabric8) cannot do as client-go would, so refuses rather than connect differently.
     */
    public static List<Problem> whenOpened(Kubeconfig k, String contextName) {
        List<Problem> out = new ArrayList<>();
        Located<Context> c = k.contexts().get(contextName);
        if (c == null) {
            return out;
        }
        Located<Cluster> cluster = k.clusters().get(c.value().cluster());
        if (cluster != null && !cluster.value().proxyUrl().isEmpty()
                && proxyUrlProblem(cluster.value().proxyUrl()) == null && proxyHost(cluster.value().proxyUrl()) == null) {
            out.add(at(cluster, cluster.lineOf("proxy-url"), "proxy-url " + Kubeconfig.quoted(withoutUserInfo(
                    cluster.value().proxyUrl())) + " of cluster " + Kubeconfig.quoted(cluster.name()) + " names a host"
                    + " Headroom's Kubernetes client cannot connect to (not an internet host name, e.g. with '_')"));
        }
        Located<User> located = k.users().get(c.value().user());
        if (located == null) {
            return out;
        }
        User u = located.value();
        String name = Kubeconfig.quoted(located.name());
        if (u.authProvider() != null && u.exec() == null) {
            int line = located.lineOf("auth-provider");
            String provider = u.authProvider().name();
            switch (provider) {
                case "gcp" -> out.add(at(located, line, "user " + name + " uses the gcp auth-provider, which was"
                        + " removed from client-go (Kubernetes 1.26) and is never used by Headroom: use the"
                        + " gke-gcloud-auth-plugin exec credential plugin instead (gcloud components install"
                        + " gke-gcloud-auth-plugin, then gcloud container clusters get-credentials)"));
                case "azure" -> out.add(at(located, line, "user " + name + " uses the azure auth-provider, which was"
                        + " removed from client-go (Kubernetes 1.26) and is never used by Headroom: use kubelogin"
                        + " (https://github.com/Azure/kubelogin) as an exec credential plugin instead (kubelogin"
                        + " convert-kubeconfig)"));
                case "oidc" -> {
                    // client-go's one built-in auth provider; fabric8 reads and refreshes its tokens too.
                }
                default -> out.add(at(located, line, "user " + name + ": no auth-provider named "
                        + Kubeconfig.quoted(provider) + " (client-go has only oidc; use an exec credential plugin)"));
            }
        }
        Exec exec = u.exec();
        if (KubeconfigClient.execRuns(u) && !exec.apiVersion().isEmpty()
                && !EXEC_API_VERSIONS.contains(exec.apiVersion())) {
            out.add(at(located, located.lineOf("exec"), "exec plugin of user " + name + ": invalid apiVersion "
                    + Kubeconfig.quoted(exec.apiVersion()) + " (client-go speaks client.authentication.k8s.io/v1"
                    + " and v1beta1)"));
        }
        if (KubeconfigClient.execRuns(u) && exec.interactiveMode().equals("Always")) {
            out.add(at(located, located.lineOf("exec"), "exec plugin of user " + name + " has interactiveMode Always,"
                    + " which needs a terminal: Headroom runs credential plugins without one (client-go: standard"
                    + " input is not a terminal); use a plugin mode that needs no input"));
        }
        if (u.token().isEmpty()) {
            mustRead(out, located, "tokenFile", u.tokenFile(), "user " + name);
        }
        if (!u.impersonateUid().isEmpty()) {
            out.add(at(located, located.lineOf("as-uid"), "user " + name + " impersonates a UID (as-uid), which"
                    + " Headroom's Kubernetes client cannot send: refused rather than act as someone else"));
        }
        return out;
    }

    /** Everything that keeps a context from being opened: the files' load problems, then {@link #confirmUsable}, then {@link #whenOpened}. */
    public static List<Problem> problems(Kubeconfig k, String contextName) {
        List<Problem> out = new ArrayList<>();
        for (Problem p : k.loadProblems()) {
            out.add(new Problem(p.file(), p.line(), p.column(), p.path(), p.message()
                    + " (while a file of the list cannot be read, no context of it is used, as kubectl does)"));
        }
        Located<Context> c = k.contexts().get(contextName);
        out.addAll(c == null ? confirmUsable(k, contextName) : confirmContext(k, c));
        out.addAll(whenOpened(k, contextName));
        return out;
    }

    /**
     * Why client-go's {@code parseProxyURL} refuses a proxy URL (Go's {@code url.Parse}, then the
     * scheme http, https or socks5), or null. A host without a port is fine: the scheme's port is
     * meant. One stricter rule: a URL that names no host is refused here (client-go takes it and
     * fails on the first request).
     */
    static String proxyUrlProblem(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            return "could not parse it as a URL";
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") && !scheme.equals("socks5")) {
            return "unsupported scheme " + Kubeconfig.quoted(scheme) + ", must be http, https, or socks5";
        }
        String authority = u.getRawAuthority();
        String hostPort = authority == null ? "" : authority.substring(authority.lastIndexOf('@') + 1);
        String host;
        String port;
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            host = close < 0 ? "" : hostPort.substring(1, close);
            port = close < 0 ? "" : hostPort.substring(close + 1);
        } else {
            int colon = hostPort.lastIndexOf(':');
            host = colon < 0 ? hostPort : hostPort.substring(0, colon);
            port = colon < 0 ? "" : hostPort.substring(colon);
        }
        if (!port.isEmpty() && !port.matches(":[0-9]*")) {
            return "invalid port after the host";
        }
        if (host.isEmpty()) {
            return "it names no host";
        }
        return null;
    }

    /** The host of a proxy URL as Java's client reads it, or null when it reads none. */
    static String proxyHost(String url) {
        try {
            return new URI(url).getHost();
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** A URL as it may be shown: without the user and password a proxy URL may carry. */
    static String withoutUserInfo(String url) {
        int scheme = url.indexOf("://");
        int start = scheme < 0 ? 0 : scheme + 3;
        int end = url.indexOf('/', start);
        int at = url.lastIndexOf('@', end < 0 ? url.length() - 1 : end - 1);
        return at >= start ? url.substring(0, start) + "…@" + url.substring(at + 1) : url;
    }

    static boolean isDns1123Label(String s) {
        return s.length() <= 63 && DNS1123_LABEL.matcher(s).matches();
    }

    /** As client-go's {@code os.Open} checks: a file the entry names ({@code key}) must be readable; none named is fine. */
    private static void mustRead(List<Problem> out, Located<?> where, String key, String file, String owner) {
        String why = file.isEmpty() ? null : unreadable(file);
        if (why != null) {
            out.add(at(where, where.lineOf(key), "unable to read " + key + " " + file + " for " + owner + ": " + why));
        }
    }

    /** Why a file cannot be opened for reading, in words, or null when it can. */
    static String unreadable(String file) {
        Path p = Path.of(file);
        try {
            if (Files.isDirectory(p)) {
                return "it is a directory";
            }
            Files.newInputStream(p).close();
            return null;
        } catch (NoSuchFileException e) {
            return "no such file";
        } catch (java.nio.file.AccessDeniedException e) {
            return "permission denied";
        } catch (IOException e) {
            return "it cannot be read";
        }
    }

    private static Problem at(Located<?> where, int line, String message) {
        return new Problem(where.file().toString(), line, 0, "", message);
    }
}
