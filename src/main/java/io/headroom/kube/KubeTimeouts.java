package io.headroom.kube;

import java.time.Duration;

/**
 * How long a console waits on an API server: fabric8's connection and request timeouts for every
 * request (its defaults, 10 s each), and the first contact's deadline, after which a context that has
 * not answered reads as unreachable (it keeps trying). A probe that failed only after half the
 * deadline met silence, not a refusal. Set per {@link Contexts} ({@link Contexts#timeouts}); tests of
 * a silent server use short ones instead of waiting the console's 10 s.
 *
 * @param connect         opening a TCP (and TLS) connection
 * @param request         one request, from sending it to its whole answer
 * @param connectDeadline the first contact, from opening the context
 */
public record KubeTimeouts(Duration connect, Duration request, Duration connectDeadline) {
    /** What a console uses: fabric8's own 10 s timeouts and a 10 s first-contact deadline. */
    public static final KubeTimeouts DEFAULT = new KubeTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(10),
            Duration.ofSeconds(10));

    public KubeTimeouts {
        for (Duration d : new Duration[] {connect, request, connectDeadline}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("kube timeouts must be positive: " + connect + ", " + request
                        + ", " + connectDeadline);
            }
        }
    }

    /** Every timeout {@code d}: a test's silent server times out after {@code d}, not 10 s. */
    public static KubeTimeouts all(Duration d) {
        return new KubeTimeouts(d, d, d);
    }

    /** A probe that waited this long before it failed met silence (half the first-contact deadline). */
    public Duration silence() {
        return connectDeadline.dividedBy(2);
    }
}
