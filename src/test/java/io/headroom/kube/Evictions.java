package io.headroom.kube;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.utils.ResponseProvider;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The eviction subresource of a {@link MockCluster} as the API server answers it (CRUD mode cannot
 * evict): while {@link #budgetExhausted} is set, a pod behind the budget gets the 429 with the budget's
 * Status, naming {@code budget}; otherwise 201. Every request body is kept; an accepted eviction waits in
 * {@link #accepted} until the test plays the API server's part ({@link #carryOut}: the pod goes).
 */
final class Evictions {
    static final ObjectMapper JSON = new ObjectMapper();

    /** While set, the budget allows no disruption: evictions of guarded pods get the API server's 429. */
    final AtomicBoolean budgetExhausted = new AtomicBoolean(true);
    /** Accepted evictions ("ns/name"), for the test to carry out as the API server would. */
    final Queue<String> accepted = new ConcurrentLinkedQueue<>();
    /** Every eviction request body, in order. */
    final List<JsonNode> bodies = new CopyOnWriteArrayList<>();
    /** The API server's 429 Status for an eviction the budget refuses. */
    final String refusal;
    private final MockCluster cluster;

    Evictions(MockCluster cluster, String budget) {
        this.cluster = cluster;
        this.refusal = pdbStatus(budget);
    }

    /** The Status a budget named {@code budget} that allows no disruption answers an eviction with. */
    static String pdbStatus(String budget) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"Cannot evict pod as it would violate the pod's disruption budget.\","
                + "\"reason\":\"TooManyRequests\",\"details\":{\"causes\":[{\"reason\":\"DisruptionBudget\","
                + "\"message\":\"The disruption budget " + budget + " needs 2 healthy pods and has 2 currently\"}]},"
                + "\"code\":429}";
    }

    /** Answers evictions of {@code ns/pod}; {@code guarded}: behind the budget. */
    Evictions answer(String ns, String pod, boolean guarded) {
        cluster.server.expect().post().withPath("/api/v1/namespaces/" + ns + "/pods/" + pod + "/eviction")
                .andReply(new ResponseProvider<Object>() {
                    private Headers headers = Headers.builder().build();

                    @Override
                    public int getStatusCode(RecordedRequest request) {
                        return guarded && budgetExhausted.get() ? 429 : 201;
                    }

                    @Override
                    public Object getBody(RecordedRequest request) {
                        try {
                            bodies.add(JSON.readTree(request.getUtf8Body()));
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                        if (guarded && budgetExhausted.get()) {
                            return refusal;
                        }
                        accepted.add(ns + "/" + pod);
                        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\",\"code\":201}";
                    }

                    @Override
                    public Headers getHeaders() {
                        return headers;
                    }

                    @Override
                    public void setHeaders(Headers h) {
                        this.headers = h;
                    }
                }).always();
        return this;
    }

    /** The API server's part of an accepted eviction: the pod goes (the mock has no kubelet to terminate it). */
    void carryOut() {
        for (String key = accepted.poll(); key != null; key = accepted.poll()) {
            String[] k = key.split("/");
            cluster.admin.pods().inNamespace(k[0]).withName(k[1]).delete();
        }
    }
}
