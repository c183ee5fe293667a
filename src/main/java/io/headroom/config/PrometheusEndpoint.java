package io.headroom.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How to reach Prometheus: base URL, optional bearer or basic auth (as references to where the
 * secret lives, never the secret), optional CA file, and the per-request timeout. TLS verification
 * is on unless {@code insecureSkipVerify} is set explicitly.
 *
 * @param bearerToken null when there is no bearer token
 * @param basicAuth   null when there is no basic auth (at most one of the two is set)
 * @param caFile      a PEM file of CA certificates that replaces the system trust store; null for the system's
 */
public record PrometheusEndpoint(URI url, SecretRef bearerToken, BasicAuth basicAuth, Path caFile,
                                 boolean insecureSkipVerify, Duration timeout) {

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
    }

    /** Plain http to a URL, no auth, default timeout: tests and local Prometheus servers. */
    public static PrometheusEndpoint of(URI url) {
        return new PrometheusEndpoint(url, null, null, null, false, DEFAULT_TIMEOUT);
    }

    public PrometheusEndpoint withTimeout(Duration t) {
        return new PrometheusEndpoint(url, bearerToken, basicAuth, caFile, insecureSkipVerify, t);
    }
}
