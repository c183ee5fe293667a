package io.headroom.prometheus;

/** Why a query gave no usable number. None of them is ever read as 0. */
public enum NoDataReason {
    /** The query matched no series (e.g. a typo in a label, or the target is not scraped). */
    EMPTY_RESULT,
    /** The one value is NaN or ±Inf (e.g. {@code rate(sum)/rate(count)} with no completions). */
    NAN_OR_INF,
    /** The query returned more than one series where one number is needed: aggregate it. */
    MULTIPLE_SERIES,
    /**
     * Prometheus answered {@code status: error}: bad PromQL ({@code bad_data}), an execution error, a
     * cancelled query, an internal error…; the message starts with the error type in words. Its own
     * query timeout ({@code errorType: timeout}) is {@link #TIMEOUT}.
     */
    QUERY_ERROR,
    /**
     * The series holds native histograms (Prometheus 2.40+) where one number is needed: the query must
     * reduce them with histogram_count, histogram_sum or histogram_quantile.
     */
    NATIVE_HISTOGRAM,
    /** An HTTP status other than 2xx without a Prometheus error body (proxy, auth, 5xx). */
    HTTP_ERROR,
    /** No answer within the timeout (per request) or the tick's deadline, or Prometheus's own query timeout. */
    TIMEOUT,
    /** No connection: refused, unknown host, reset. */
    UNREACHABLE,
    /** The TLS handshake failed: an untrusted certificate, a wrong host name, no common protocol. */
    TLS_FAILURE,
    /**
     * The answer was not what Prometheus sends, or could be read two ways: not JSON, a key twice, no
     * resultType, a result of another shape, bytes after it, a body shorter than announced, a sample
     * dated ahead of the clock. Bad data: never a number.
     */
    MALFORMED
}
