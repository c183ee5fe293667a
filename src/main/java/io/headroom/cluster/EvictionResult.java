package io.headroom.cluster;

/**
 * What one request to the Eviction API (policy/v1 Eviction, the pod's grace period) did.
 *
 * @param budget            the PodDisruptionBudget that refused it (HTTP 429), as the API server named it; null otherwise
 * @param retryAfterSeconds the server's Retry-After, 0 when it gave none
 * @param message           the server's (or the adapter's) sentence, never a secret
 */
public record EvictionResult(Outcome outcome, String budget, long retryAfterSeconds, String message) {

    /** EVICTED: accepted, the pod terminates with its grace period; GONE: no such pod (404), nothing to do. */
    public enum Outcome { EVICTED, GONE, REFUSED_BY_BUDGET, FAILED }

    public static EvictionResult evicted() {
        return new EvictionResult(Outcome.EVICTED, null, 0, "evicted");
    }

    public static EvictionResult gone(String message) {
        return new EvictionResult(Outcome.GONE, null, 0, message);
    }

    public static EvictionResult refusedByBudget(String budget, long retryAfterSeconds, String message) {
        return new EvictionResult(Outcome.REFUSED_BY_BUDGET, budget, retryAfterSeconds, message);
    }

    public static EvictionResult failed(String message) {
        return new EvictionResult(Outcome.FAILED, null, 0, message);
    }
}
