package io.headroom.prometheus;

/** The client cannot be set up: a secret or the CA file cannot be read. The message never holds a secret. */
public final class PrometheusSetupException extends Exception {
    private static final long serialVersionUID = 1L;

    public PrometheusSetupException(String message) {
        super(message);
    }
}
