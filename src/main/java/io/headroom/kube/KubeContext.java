package io.headroom.kube;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * One kubeconfig context as the context switcher and {@code headroom contexts} show it. Holds names
 * only: never a token, password, key or certificate, so it is safe to print, log and bind.
 *
 * @param cluster   the cluster it names (which may be defined nowhere: see {@code problems})
 * @param server    the API server URL (without any user or password in it); null when the cluster is not defined
 * @param namespace the context's namespace, "default" when it names none
 * @param user      the user (kubectl's AUTHINFO) it names
 * @param auth      how the user authenticates, described without the secret: {@code token},
 *                  {@code exec: aws}, {@code client certificate}, {@code auth-provider: oidc} …; {@code none}
 * @param file      the kubeconfig file that defines the context (the first of the list to do so)
 * @param line      the line of its entry in that file
 * @param insecureSkipTlsVerify the cluster entry switches TLS verification off
 * @param namespaceGiven the namespace as the context writes it, empty when it names none (kubectl's NAMESPACE column)
 * @param problems  why it cannot be opened, each {@code FILE:LINE: what is wrong}; empty when it can
 */
public record KubeContext(String name, String cluster, String server, String namespace, String user, String auth,
                          String file, int line, boolean current, boolean insecureSkipTlsVerify, String namespaceGiven,
                          List<String> problems) {

    public KubeContext {
        problems = List.copyOf(problems);
    }

    /** True when nothing keeps it from being opened. */
    public boolean usable() {
        return problems.isEmpty();
    }

    /** True when the user sends credentials of any kind (token, basic, exec, auth provider, client certificate). */
    public boolean sendsCredentials() {
        return auth != null && !auth.equals("none");
    }

    /** True when the server URL is plain {@code http://}. */
    public boolean plainHttp() {
        return isPlainHttp(server);
    }

    /** True when the server is this machine (localhost or a loopback address), where plain http stays local. */
    public boolean loopback() {
        return isLoopback(server);
    }

    static boolean isPlainHttp(String url) {
        return url != null && url.toLowerCase(Locale.ROOT).startsWith("http://");
    }

    /** Loopback by the URL alone: "localhost" or a literal loopback address. Never asks DNS. */
    static boolean isLoopback(String url) {
        String host;
        try {
            host = url == null ? null : URI.create(url).getHost();
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (host == null) {
            return false;
        }
        host = host.toLowerCase(Locale.ROOT);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        if (host.equals("localhost") || host.endsWith(".localhost")) {
            return true;
        }
        if (host.matches("127(\\.\\d{1,3}){3}")) {
            return true;
        }
        return host.equals("::1") || host.equals("0:0:0:0:0:0:0:1");
    }
}
