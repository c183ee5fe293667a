package io.headroom.cluster;

/** Port: how live a cluster's view is (connected, synced, since when, warnings such as TLS verification off). */
@FunctionalInterface
public interface Health {

    ClusterHealth health();
}
