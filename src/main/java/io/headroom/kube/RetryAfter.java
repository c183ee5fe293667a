package io.headroom.kube;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers the {@code Retry-After} the API server sent with a 429 or 5xx, per request path: fabric8's
 * exception carries the status, not the headers, and the gateway must not write a class again before
 * the server's time. Only delta-seconds are read (what the API server sends); an HTTP date is ignored.
 */
final class RetryAfter implements Interceptor {
    static final String NAME = "headroom-retry-after";
    /** Longer asks are capped: a misconfigured proxy must not hold a class for a day. */
    static final long MAX_SECONDS = 600;

    private record Seen(long atNanos, long seconds) {
    }

    private final Map<String, Seen> byPath = new ConcurrentHashMap<>();

    /**
     * Called for every unsuccessful response before the caller sees it (unlike {@code after}, which
     * fabric8 runs beside the caller's continuation): so the header is recorded when the write fails.
     */
    @Override
    public CompletableFuture<Boolean> afterFailure(BasicBuilder builder, HttpResponse<?> response, RequestTags tags) {
        int code = response.code();
        if (code == 429 || code >= 500) {
            Long seconds = seconds(response.header("Retry-After"));
            if (seconds != null && response.request() != null) {
                byPath.put(response.request().uri().getPath(), new Seen(System.nanoTime(), seconds));
            }
        }
        return CompletableFuture.completedFuture(false);
    }

    /** The Retry-After of the last 429/5xx answered for {@code path} since {@code sinceNanos} (System.nanoTime). */
    OptionalLong since(String path, long sinceNanos) {
        Seen s = byPath.get(path);
        return s == null || s.atNanos() - sinceNanos < 0 ? OptionalLong.empty() : OptionalLong.of(s.seconds());
    }

    /** Delta-seconds, capped; null when absent or not a plain number. */
    static Long seconds(String header) {
        if (header == null) {
            return null;
        }
        try {
            long s = Long.parseLong(header.trim());
            return s < 0 ? null : Math.min(s, MAX_SECONDS);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
