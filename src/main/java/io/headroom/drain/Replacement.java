package io.headroom.drain;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a replace drain knows beyond a drain (issue 15): the hung pod it replaces, the pods that were there
 * when it started (a replacement is a pod not among them), the replacement once ready, and how the eviction
 * of the hung pod is going. Immutable; {@link ReplaceStep} makes the next one.
 *
 * @param pod            the hung pod
 * @param inFlight       its jobs in flight at the last look (they go back to the queue); NaN when unknown
 * @param before         the workload's pods when the drain started (a replacement is a pod not among them); null
 *                       when not known (a replacement taken up after a restart, {@link ReplaceStep#resume}): then
 *                       the replacement is there once as many pods besides the hung one are ready as ran before
 * @param replacement    the new pod seen ready; null before
 * @param attempts       eviction requests refused so far
 * @param nextTryAt      when the next eviction request is due; null while none is waiting
 * @param lastRefusal    the last refusal, in the API server's words with the budget; null when none
 * @param evictedAt      when the eviction was accepted; null before
 * @param version        the workload's resourceVersion at the last look (lowering replicas back is conditional on it)
 */
public record Replacement(String pod, double inFlight, List<String> before, String replacement, int attempts,
                          Instant nextTryAt, String lastRefusal, Instant evictedAt, String version) {

    public Replacement {
        Objects.requireNonNull(pod, "pod");
        before = before == null ? null : List.copyOf(before);
    }

    /** True once the eviction was accepted: too late to call the drain off. */
    public boolean evicted() {
        return evictedAt != null;
    }

    Replacement looked(double inFlightNow, String versionNow) {
        return new Replacement(pod, inFlightNow, before, replacement, attempts, nextTryAt, lastRefusal, evictedAt,
                versionNow);
    }

    Replacement replacedBy(String newPod) {
        return new Replacement(pod, inFlight, before, newPod, attempts, nextTryAt, lastRefusal, evictedAt, version);
    }

    Replacement refused(String why, Instant retryAt) {
        return new Replacement(pod, inFlight, before, replacement, attempts + 1, retryAt, why, evictedAt, version);
    }

    Replacement trying() {
        return new Replacement(pod, inFlight, before, replacement, attempts, null, lastRefusal, evictedAt, version);
    }

    Replacement evictedAt(Instant t) {
        return new Replacement(pod, inFlight, before, replacement, attempts, null, lastRefusal, t, version);
    }
}
