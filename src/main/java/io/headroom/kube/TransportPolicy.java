package io.headroom.kube;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The one policy for how a kubeconfig context reaches its API server (issue 27), the same for every
 * command and the console: TLS verification switched off, and plain http to another host without
 * credentials, are warned about wherever the context is used (standard error, the top bar, the import
 * dialog); credentials (token, basic, exec, auth provider, client certificate) over plain http to
 * another host are refused, unless the context is named in {@value #ALLOW_ENV} (or it is {@code *}),
 * which is read from the environment whatever kubeconfig was given, and which still warns. Loopback is
 * this machine: nothing to warn about. Every sentence is free of credentials.
 */
public final class TransportPolicy {
    /**
     * The explicit opt-in for credentials over plain http: context names separated by commas, or
     * {@code *} for every context. Shown in every warning it allows and in every refusal.
     */
    public static final String ALLOW_ENV = "HEADROOM_ALLOW_PLAIN_HTTP_CREDENTIALS";

    private final Set<String> allowed;

    private TransportPolicy(Set<String> allowed) {
        this.allowed = Set.copyOf(allowed);
    }

    /** The policy with the allowance {@code environment} holds in {@value #ALLOW_ENV}. */
    public static TransportPolicy from(UnaryOperator<String> environment) {
        String allow = environment.apply(ALLOW_ENV);
        Set<String> names = new LinkedHashSet<>();
        if (allow != null) {
            for (String n : allow.split(",")) {
                if (!n.isBlank()) {
                    names.add(n.trim());
                }
            }
        }
        return new TransportPolicy(names);
    }

    /** This policy also allowing these contexts ({@code *}: every one) credentials over plain http. */
    public TransportPolicy allowing(Set<String> contexts) {
        Set<String> all = new LinkedHashSet<>(allowed);
        all.addAll(contexts);
        return new TransportPolicy(all);
    }

    boolean allows(String context) {
        return allowed.contains(context) || allowed.contains("*");
    }

    /**
     * Why {@code c} may not be opened against {@code server} (credentials over plain http to another host,
     * not allowed), or null when it may.
     */
    String refusal(KubeContext c, String server) {
        if (c.sendsCredentials() && KubeContext.isPlainHttp(server) && !KubeContext.isLoopback(server)
                && !allows(c.name())) {
            return "context '" + c.name() + "' would send credentials (" + c.auth() + ") over plain http to " + server
                    + ": refused; use https, or allow it explicitly with " + ALLOW_ENV + "=" + c.name();
        }
        return null;
    }

    /**
     * What is unsafe about {@code c} against {@code server}, one sentence each: plain http to another host
     * (with credentials: refused, or allowed explicitly), TLS verification off ({@code trustAll}: the client
     * trusts every certificate whatever the kubeconfig says).
     */
    List<String> warnings(KubeContext c, String server, boolean trustAll) {
        List<String> out = new ArrayList<>();
        if (KubeContext.isPlainHttp(server)) {
            if (!KubeContext.isLoopback(server)) {
                String refused = refusal(c, server);
                if (refused != null) {
                    out.add(refused);
                } else if (c.sendsCredentials()) {
                    out.add("context '" + c.name() + "' sends credentials (" + c.auth() + ") over plain http to "
                            + server + ", unencrypted (allowed by " + ALLOW_ENV + ")");
                } else {
                    out.add("context '" + c.name() + "' talks plain http to " + server + ": the API traffic is not"
                            + " encrypted");
                }
            }
        } else if (c.insecureSkipTlsVerify() || trustAll) {
            out.add("TLS verification is OFF for context '" + c.name() + "' ("
                    + (c.insecureSkipTlsVerify() ? "insecure-skip-tls-verify in " + c.file() : "trust all certificates")
                    + "): the API server at " + server + " is not checked to be who it says"
                    + (c.sendsCredentials() ? ", and its credentials (" + c.auth() + ") go to whoever answers" : ""));
        }
        return out;
    }
}
