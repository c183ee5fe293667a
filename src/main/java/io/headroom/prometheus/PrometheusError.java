package io.headroom.prometheus;

/**
 * The {@code errorType} values of a Prometheus error answer (web/api/v1/api.go), each with the
 * no-data reason Headroom gives it and its words. Prometheus's own query timeout is a {@link
 * NoDataReason#TIMEOUT} like the client's; every other type is a {@link NoDataReason#QUERY_ERROR}
 * whose message starts with the type in words.
 */
enum PrometheusError {
    TIMEOUT(NoDataReason.TIMEOUT, "Prometheus's own query timeout"),
    CANCELED(NoDataReason.QUERY_ERROR, "query canceled"),
    EXECUTION(NoDataReason.QUERY_ERROR, "execution error"),
    BAD_DATA(NoDataReason.QUERY_ERROR, "bad data"),
    INTERNAL(NoDataReason.QUERY_ERROR, "internal error"),
    UNAVAILABLE(NoDataReason.QUERY_ERROR, "unavailable"),
    NOT_FOUND(NoDataReason.QUERY_ERROR, "not found"),
    NOT_ACCEPTABLE(NoDataReason.QUERY_ERROR, "not acceptable");

    private final NoDataReason reason;
    private final String words;

    PrometheusError(NoDataReason reason, String words) {
        this.reason = reason;
        this.words = words;
    }

    /** The type as Prometheus writes it (the name in lower case), or null for one it does not define (or none). */
    static PrometheusError of(String errorType) {
        for (PrometheusError e : values()) {
            if (e.name().toLowerCase(java.util.Locale.ROOT).equals(errorType)) {
                return e;
            }
        }
        return null;
    }

    NoDataReason reason() {
        return reason;
    }

    String words() {
        return words;
    }
}
