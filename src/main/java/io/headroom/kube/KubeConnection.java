package io.headroom.kube;

import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * An open client for one context, with its request counter. Several may be open at once (one per
 * cluster). {@link #toString()} names the context and server, never credentials.
 */
public final class KubeConnection implements AutoCloseable {
    private final KubeContext context;
    private final KubernetesClient client;
    private final RequestCounter requests;

    KubeConnection(KubeContext context, KubernetesClient client, RequestCounter requests) {
        this.context = context;
        this.client = client;
        this.requests = requests;
    }

    public KubeContext context() {
        return context;
    }

    public KubernetesClient client() {
        return client;
    }

    public RequestCounter requests() {
        return requests;
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "KubeConnection[" + context.name() + " → " + context.server() + ", " + requests.count() + " requests]";
    }
}
