package io.headroom.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How to reach Prometheus: base URL, optional bearer or basic auth (as references to where the
 * secret lives, never the secret), optional CA file, and the per-request timeout. TLS verification
 * is on unless {@code insecureSkipVerify} is set explicitly; a credential goes over plain http to
 * another machine only when {@code allowInsecureCredentials} is set explicitly.
 *
 * @param bearerToken              null when there is no bearer token
 * @param basicAuth                null when there is no basic auth (at most one of the two is set)
 * @param caFile                   a PEM file of CA certificates that replaces the system trust store; null for the system's
 * @param allowInsecureCredentials the operator accepts that the credential crosses the network in clear text
 */
public record PrometheusEndpoint(URI url, SecretRef bearerToken, BasicAuth basicAuth, Path caFile,
                                 boolean insecureSkipVerify, Duration timeout, boolean allowInsecureCredentials) {

    /** Default per-request timeout. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

    /** Basic auth: the user name and where the password lives. */
    public record BasicAuth(String username, SecretRef password) {
        public BasicAuth {
            if (username == null || username.isEmpty()) {
                throw new IllegalArgumentException("basicAuth needs a username");
            }
            Objects.requireNonNull(password, "password");
        }
    }

    public PrometheusEndpoint {
        Objects.requireNonNull(url, "url");
        if (bearerToken != null && basicAuth != null) {
            throw new IllegalArgumentException("give either a bearer token or basicAuth, not both");
        }
        if (timeout == null) {
            timeout = DEFAULT_TIMEOUT;
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be > 0");
        }
        if (clearText(url, bearerToken != null || basicAuth != null) && !allowInsecureCredentials) {
            throw new IllegalArgumentException(clearTextProblem(url));
        }
    }

    /** An endpoint that never sends a credential over plain http to another machine. */
    public PrometheusEndpoint(URI url, SecretRef bearerToken, BasicAuth basicAuth, Path caFile,
                              boolean insecureSkipVerify, Duration timeout) {
        this(url, bearerToken, basicAuth, caFile, insecureSkipVerify, timeout, false);
    }

    /** True when a credential is configured. */
    public boolean hasCredentials() {
        return bearerToken != null || basicAuth != null;
    }

    /** True when a credential goes over plain http to a host that is not this machine (then it was allowed). */
    public boolean credentialsInClearText() {
        return clearText(url, hasCredentials());
    }

    /**
     * The warning for a credential allowed over plain http, naming only its kind (never the secret, nor
     * where it is kept); null when none goes in clear text.
     */
    public String clearTextWarning() {
        if (!credentialsInClearText()) {
            return null;
        }
        String kind = bearerToken != null ? "bearer token" : "password";
        return "the " + kind + " goes in clear text over http:// to " + UntrustedText.line(url.getHost(), 100)
                + " (allowInsecureCredentials)";
    }

    static boolean clearText(URI url, boolean credentials) {
        return credentials && "http".equalsIgnoreCase(url.getScheme()) && !isLoopback(url.getHost());
    }

    static String clearTextProblem(URI url) {
        return "a credential would go in clear text over http:// to " + UntrustedText.line(url.getHost(), 100)
                + "; use https, or set allowInsecureCredentials: true";
    }

    /**
     * This machine, named without asking a resolver: {@code localhost}, 127.0.0.0/8, {@code ::1}.
     * Any other name may resolve anywhere.
     */
    public static boolean isLoopback(String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String h = host.toLowerCase(java.util.Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        if (h.equals("localhost")) {
            return true;
        }
        boolean ipv4 = h.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
        boolean ipv6 = h.matches("[0-9a-f:.]+") && h.contains(":");
        if (!ipv4 && !ipv6) {
            return false;
        }
        try {
            return java.net.InetAddress.getByName(h).isLoopbackAddress(); // a literal: parsed, never looked up
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** Plain http to a URL, no auth, default timeout: tests and local Prometheus servers. */
    public static PrometheusEndpoint of(URI url) {
        return new PrometheusEndpoint(url, null, null, null, false, DEFAULT_TIMEOUT, false);
    }

    public PrometheusEndpoint withTimeout(Duration t) {
        return new PrometheusEndpoint(url, bearerToken, basicAuth, caFile, insecureSkipVerify, t,
                allowInsecureCredentials);
    }
}
