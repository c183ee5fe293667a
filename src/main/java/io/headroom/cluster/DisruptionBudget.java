package io.headroom.cluster;

import java.util.List;

/**
 * A PodDisruptionBudget as a node drain's confirmation shows it: what it asks (min available or max
 * unavailable, as written: "2", "50%"), what that allows now ({@code disruptionsAllowed}, the API server's
 * own count) and the pods it covers.
 *
 * @param minAvailable   as written in its spec; null when it sets max unavailable instead
 * @param maxUnavailable as written in its spec; null when it sets min available instead
 * @param pods           the pods its selector covers, "ns/name"
 */
public record DisruptionBudget(String namespace, String name, String minAvailable, String maxUnavailable,
                               int disruptionsAllowed, int currentHealthy, int desiredHealthy, List<String> pods) {
    public DisruptionBudget {
        pods = List.copyOf(pods);
    }

    /** "min available 2" or "max unavailable 1". */
    public String asks() {
        return minAvailable != null ? "min available " + minAvailable
                : maxUnavailable != null ? "max unavailable " + maxUnavailable : "no minimum";
    }

    public boolean covers(String podKey) {
        return pods.contains(podKey);
    }
}
