package io.headroom.kube;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts every API request a client sends (a watch counts once each time it is opened), so the
 * top bar and the benchmark can show that a watching console is quiet.
 */
public final class RequestCounter implements Interceptor {
    static final String NAME = "headroom-request-counter";
    private final AtomicLong requests = new AtomicLong();

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        requests.incrementAndGet();
    }

    public long count() {
        return requests.get();
    }

    @Override
    public String toString() {
        return "RequestCounter[" + requests.get() + "]";
    }
}
