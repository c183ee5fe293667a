package io.headroom.prometheus;

/** Why a query gave no usable number. None of them is ever read as 0. */
public enum NoDataReason {
    /** The query matched no series (e.g. a typo in a label, or the target is not scraped). */
    EMPTY_RESULT,
    /** The one value is NaN or ±Inf (e.g. {@code rate(sum)/rate(count)} with no completions). */
    NAN_OR_INF,
    /** The query returned more than one series where one number is needed: aggregate it. */
    MULTIPLE_SERIES,
    /** Prometheus answered {@code status: error} (bad PromQL, execution error, its own timeout). */
    QUERY_ERROR,
    /** An HTTP status other than 2xx without a Prometheus error body (proxy, auth, 5xx). */
    HTTP_ERROR,
    /** No answer within the timeout (per request) or the tick's deadline. */
    TIMEOUT,
    /** No connection: refused, unknown host, reset. */
    UNREACHABLE,
    /** The TLS handshake failed: an untrusted certificate, a wrong host name, no common protocol. */
    TLS_FAILURE,
    /** The answer was not the JSON Prometheus sends. */
    MALFORMED
}
