package io.headroom.prometheus;

import java.time.Instant;

/**
 * How the connection to Prometheus is doing, for the top bar. A snapshot: immutable, safe to hand
 * to any thread. "Success" means Prometheus answered {@code status: success} (even with an empty
 * result, which is a data problem, not a connection problem); a failure is no answer, an HTTP error,
 * a query error or a malformed answer.
 *
 * @param url               the base URL (never with credentials)
 * @param insecure          TLS verification is off: the UI should warn
 * @param requests          HTTP requests made so far
 * @param failures          requests that failed
 * @param lastSuccessAt     when Prometheus last answered successfully, null if never
 * @param lastFailureAt     when a request last failed, null if never
 * @param lastFailureReason the reason of the last failure, null if none
 * @param lastFailure       its message (never a secret), null if none
 * @param partialAnswers    successful answers that carried warnings (the data may be incomplete)
 * @param lastWarning       the first warning of the latest partial answer, null if none
 */
public record PrometheusHealth(String url, boolean insecure, long requests, long failures, Instant lastSuccessAt,
                               Instant lastFailureAt, NoDataReason lastFailureReason, String lastFailure,
                               long partialAnswers, String lastWarning) {

    /** UNKNOWN before the first answer; OK when the latest request succeeded; FAILING otherwise. */
    public enum State { UNKNOWN, OK, FAILING }

    public State state() {
        if (lastSuccessAt == null && lastFailureAt == null) {
            return State.UNKNOWN;
        }
        if (lastFailureAt == null || (lastSuccessAt != null && !lastSuccessAt.isBefore(lastFailureAt))) {
            return State.OK;
        }
        return State.FAILING;
    }
}
