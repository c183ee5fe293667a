package io.headroom.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfig;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import java.util.List;

/**
 * An open client for one context, with its request counter. Several may be open at once (one per
 * cluster). {@link #toString()} names the context and server, never credentials.
 *
 * <p>Two views of one client: {@link #client()} with fabric8's retries (informers' lists, discovery) and
 * {@link #once()}, which sends each request once: every write, Lease and access review goes through it,
 * because fabric8 retries a 500 or 429 ten times with backoff (about 19 s, longer with Retry-After) on
 * the calling thread, which is the console's single loop thread.
 */
public final class KubeConnection implements AutoCloseable {
    private final KubeContext context;
    private final KubernetesClient client;
    private final KubernetesClient once;
    private final RequestCounter requests;
    private final RetryAfter retryAfter;
    private final List<String> warnings;
    private final KubeTimeouts timeouts;

    /** Why the kubeconfig could not be re-read at the last refresh (null: it could), for the top bar. */
    private final java.util.function.Supplier<String> refreshProblem;

    KubeConnection(KubeContext context, KubernetesClient client, RequestCounter requests, RetryAfter retryAfter,
                   List<String> warnings, KubeTimeouts timeouts, java.util.function.Supplier<String> refreshProblem) {
        this.refreshProblem = refreshProblem;
        this.context = context;
        this.timeouts = timeouts;
        this.client = client;
        this.requests = requests;
        this.retryAfter = retryAfter;
        this.warnings = List.copyOf(warnings);
        RequestConfig single = new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                .withRequestRetryBackoffLimit(0).build();
        this.once = client.newClient(single).adapt(KubernetesClient.class);
    }

    public KubeContext context() {
        return context;
    }

    public KubernetesClient client() {
        return client;
    }

    /** The same client (credentials, TLS, counter) without fabric8's retries: one attempt per request. */
    public KubernetesClient once() {
        return once;
    }

    /** The timeouts this client was opened with (the first contact's deadline among them). */
    public KubeTimeouts timeouts() {
        return timeouts;
    }

    public RequestCounter requests() {
        return requests;
    }

    /** The Retry-After seconds the server last asked for, per request path. */
    RetryAfter retryAfter() {
        return retryAfter;
    }

    /**
     * What is unsafe or wrong about this context, for the top bar; empty when nothing: TLS
     * verification off, plain http, and a kubeconfig that could not be re-read for new credentials
     * (the ones read before are used until it can: a token that expires meanwhile will be refused).
     */
    public List<String> warnings() {
        String problem = refreshProblem.get();
        if (problem == null) {
            return warnings;
        }
        List<String> all = new java.util.ArrayList<>(warnings);
        all.add(problem);
        return List.copyOf(all);
    }

    /**
     * Asks the API server for its version once, without fabric8's retries (which back off for tens of
     * seconds on a refused connection): what the server answers right now, for health while the
     * watches are down and for the first contact. Same address, TLS and credentials; counted like every
     * request. Blocks up to the connection timeout: call it off the UI and loop threads.
     *
     * @throws KubernetesClientException with what went wrong
     */
    public void probe() {
        once.getKubernetesVersion();
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
