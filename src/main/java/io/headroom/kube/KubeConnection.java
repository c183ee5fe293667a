package io.headroom.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

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

    /**
     * Asks the API server for its version once, without fabric8's retries (which back off for tens of
     * seconds on a refused connection): what the server answers right now, for health while the
     * watches are down. Same address, TLS and credentials; counted like every request. Blocks up to
     * the connection timeout: call it off the UI and loop threads.
     *
     * @throws KubernetesClientException with what went wrong
     */
    public void probe() {
        io.fabric8.kubernetes.client.Config once = new io.fabric8.kubernetes.client.ConfigBuilder(
                client.getConfiguration()).withRequestRetryBackoffLimit(0).build();
        try (KubernetesClient c = new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(once)
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor(RequestCounter.NAME, requests)).build()) {
            c.getKubernetesVersion();
        }
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
