package io.headroom.cluster;

import java.time.Instant;
import java.util.List;

/**
 * How well the console sees a cluster, for the top bar: whether every watch is open and synced,
 * when the last change arrived, the last error and how many API requests were made.
 *
 * @param connected   every watch is open (data is live, however quiet the cluster)
 * @param synced      every cache finished its initial list
 * @param staleSince  when the view stopped being live (a watch dropped), null while connected
 * @param lastEventAt the last change (add/update/delete) any watch delivered, null before the first
 * @param lastError   the last API error, credentials-free; null when none
 * @param requests    API requests made through this connection so far (watches count once per (re)open)
 * @param notReady    which caches are not synced or not watching, e.g. {@code pods in payments}
 * @param warnings    what is unsafe about the connection (TLS verification off, plain http), for the top bar
 */
public record ClusterHealth(boolean connected, boolean synced, Instant staleSince, Instant lastEventAt,
                            String lastError, Instant lastErrorAt, long requests, List<String> notReady,
                            List<String> warnings) {
    public ClusterHealth {
        notReady = notReady == null ? List.of() : List.copyOf(notReady);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /** Health without warnings. */
    public ClusterHealth(boolean connected, boolean synced, Instant staleSince, Instant lastEventAt, String lastError,
                         Instant lastErrorAt, long requests, List<String> notReady) {
        this(connected, synced, staleSince, lastEventAt, lastError, lastErrorAt, requests, notReady, List.of());
    }

    /** A cluster seen perfectly (the sandbox). */
    public static ClusterHealth live(Instant now) {
        return new ClusterHealth(true, true, null, now, null, null, 0, List.of());
    }

    /** The same health with other warnings (several clusters: every cluster's warnings on the worst one's health). */
    public ClusterHealth withWarnings(List<String> all) {
        return new ClusterHealth(connected, synced, staleSince, lastEventAt, lastError, lastErrorAt, requests, notReady,
                all);
    }
}
