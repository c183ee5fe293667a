package io.headroom.kube;

import java.time.Instant;

/** A change a watch delivered: e.g. UPDATED Deployment payments/worker. Listeners run on fabric8's informer thread. */
public record ClusterEvent(Type type, String kind, String namespace, String name, Instant at) {
    public enum Type { ADDED, UPDATED, DELETED }
}
