package io.headroom.exporter;

import io.headroom.ErrorWords;
import io.headroom.exporter.ExporterConfig.RabbitMqManagement;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * RabbitMQ's management HTTP API, asked once a scrape for the unacknowledged count of every queue of the
 * vhost ({@code GET /api/queues/VHOST?columns=name,messages_unacknowledged}): AMQP has no such count. The
 * figures are the broker's statistics, as old as its {@code collect_statistics_interval} (5 s by default).
 * The JDK's HTTP client: TLS verified against the JVM's trust store, no redirect followed.
 */
final class RabbitMqManagementApi {
    /** A body larger than this is refused (10,000 queues of long names fit many times over). */
    static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The counts by queue name, or why there are none. */
    record Unacked(Map<String, Long> counts, String failure) {
    }

    private final RabbitMqManagement config;
    private final URI request;
    private final Duration timeout;
    private final UnaryOperator<String> env;
    private final HttpClient http;

    RabbitMqManagementApi(RabbitMqManagement config, String vhost, Duration timeout, UnaryOperator<String> env) {
        this.config = config;
        this.timeout = timeout;
        this.env = env;
        this.request = URI.create(config.url() + "/api/queues/"
                + URLEncoder.encode(vhost, StandardCharsets.UTF_8).replace("+", "%20")
                + "?columns=name,messages_unacknowledged");
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Where failures are said to come from: {@code rabbitmq management at http://HOST:PORT}. */
    String address() {
        return "rabbitmq management at " + config.url();
    }

    /** Sends the one request now (the AMQP reads go on meanwhile); {@link #await} its answer. */
    CompletableFuture<HttpResponse<byte[]>> send() {
        try {
            String password = config.password() == null ? "guest" : config.password().readPassword(env);
            String basic = Base64.getEncoder().encodeToString((config.username() + ":" + password)
                    .getBytes(StandardCharsets.UTF_8));
            HttpRequest r = HttpRequest.newBuilder(request).timeout(timeout).header("Authorization", "Basic " + basic)
                    .header("Accept", "application/json").header("User-Agent", "headroom-exporter").GET().build();
            return http.sendAsync(r, HttpResponse.BodyHandlers.ofByteArray());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The answer within {@code nanos}, decoded; any failure in words, never an exception. */
    Unacked await(CompletableFuture<HttpResponse<byte[]>> pending, long nanos) {
        HttpResponse<byte[]> response;
        try {
            response = pending.get(Math.max(0, nanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            pending.cancel(true);
            return failed("no answer within " + io.headroom.config.Fields.plain(timeout.toMillis() / 1000.0) + " s");
        } catch (ExecutionException e) {
            return failed(ErrorWords.of(e.getCause()));
        } catch (InterruptedException e) {
            pending.cancel(true);
            Thread.currentThread().interrupt();
            return failed("the scrape was interrupted");
        }
        int status = response.statusCode();
        if (status == 401) {
            return failed("HTTP 401: the username or password was refused, or the user has no management tag");
        }
        if (status == 403) {
            return failed("HTTP 403: the user may not read this vhost's queues");
        }
        if (status / 100 != 2) {
            return failed("HTTP " + status + " for " + request.getRawPath());
        }
        if (response.body().length > MAX_BODY_BYTES) {
            return failed("the answer is larger than " + MAX_BODY_BYTES / (1024 * 1024) + " MB");
        }
        return decode(response.body());
    }

    /** The counts in a {@code /api/queues} answer: queues without the figure (stats not in yet) are left out. */
    Unacked decode(byte[] body) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JacksonException e) {
            return failed("the answer is not JSON: " + ErrorWords.of(e));
        }
        if (root == null || !root.isArray()) {
            return failed("the answer is not a list of queues");
        }
        Map<String, Long> counts = new HashMap<>();
        for (JsonNode q : root) {
            JsonNode name = q.get("name");
            JsonNode unacked = q.get("messages_unacknowledged");
            if (name != null && name.isString() && unacked != null && unacked.isIntegralNumber()) {
                counts.put(name.asString(), unacked.asLong());
            }
        }
        return new Unacked(counts, null);
    }

    private Unacked failed(String words) {
        return new Unacked(Map.of(), address() + ": " + words);
    }
}
