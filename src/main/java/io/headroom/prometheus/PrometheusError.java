package io.headroom.prometheus;

/**
 * The {@code errorType} values of a Prometheus error answer (web/api/v1/api.go), each with the
 * no-data reason Headroom gives it and its words. Prometheus's own query timeout is a {@link
 * NoDataReason#TIMEOUT} like the client's; every other type is a {@link NoDataReason#QUERY_ERROR}
 * whose message starts with the type in words.
 */
enum PrometheusError {
    TIMEOUT("timeout", NoDataReason.TIMEOUT, "Prometheus's own query timeout"),
    CANCELED("canceled", NoDataReason.QUERY_ERROR, "query canceled"),
    EXECUTION("execution", NoDataReason.QUERY_ERROR, "execution error"),
    BAD_DATA("bad_data", NoDataReason.QUERY_ERROR, "bad data"),
    INTERNAL("internal", NoDataReason.QUERY_ERROR, "internal error"),
    UNAVAILABLE("unavailable", NoDataReason.QUERY_ERROR, "unavailable"),
    NOT_FOUND("not_found", NoDataReason.QUERY_ERROR, "not found"),
    NOT_ACCEPTABLE("not_acceptable", NoDataReason.QUERY_ERROR, "not acceptable");

    private final String wire;
    private final NoDataReason reason;
    private final String words;

    PrometheusError(String wire, NoDataReason reason, String words) {
        this.wire = wire;
        this.reason = reason;
        this.words = words;
    }

    /** The type as Prometheus writes it, or null for one it does not define (or none). */
    static PrometheusError of(String errorType) {
        for (PrometheusError e : values()) {
            if (e.wire.equals(errorType)) {
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
