package io.headroom.kube;

import tools.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.headroom.config.UntrustedText;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A namespace's ScaledObjects read as import-keda needs them (issue 27): page by page ({@code limit} and
 * {@code continue}, each page read with a byte cap), each item on its own (an item of another kind,
 * one whose fields are of the wrong kind, or one larger than any ScaledObject needs is skipped by name;
 * it ended the whole import), and refused as a whole once it holds more objects than a workloads file
 * may hold as classes. A page is parsed and dropped before the next is asked for, so memory follows
 * the classes imported, not the listing (20,000 objects once took 889 MB).
 */
final class ScaledObjectPages {
    private static final tools.jackson.databind.ObjectMapper JSON = tools.jackson.databind.json.JsonMapper.builder().configureForJackson2().build();

    private ScaledObjectPages() {
    }

    static ScaledObjectImport.Listing read(KubeConnection connection, String namespace, ScaledObjectImport.Limits limits) {
        List<ImportedClass> imported = new ArrayList<>();
        List<ScaledObjectImport.Skipped> skipped = new ArrayList<>();
        String base = connection.once().getMasterUrl().toString().replaceAll("/+$", "") + "/apis/keda.sh/v1alpha1/namespaces/"
                + URLEncoder.encode(namespace, StandardCharsets.UTF_8) + "/scaledobjects";
        String context = connection.context().name();
        int seen = 0;
        String next = "";
        do {
            String url = base + "?" + (next.isEmpty() ? "" : "continue=" + URLEncoder.encode(next, StandardCharsets.UTF_8)
                    + "&") + "limit=" + limits.pageSize();
            JsonNode page;
            try {
                page = page(connection, url, (long) limits.pageSize() * limits.maxObjectBytes() + 65_536);
            } catch (KubernetesClientException | IllegalStateException e) {
                throw new IllegalStateException("listing ScaledObjects in " + UntrustedText.line(namespace, 100) + ": "
                        + (e instanceof KubernetesClientException k ? KubeErrors.describe(k) : e.getMessage()), e);
            }
            if (page == null) {
                break; // KEDA is not installed there: nothing to import
            }
            int n = 0;
            for (JsonNode item : page.path("items")) {
                n++;
                if (++seen > limits.maxObjects()) {
                    throw new IllegalStateException(UntrustedText.line(namespace, 100) + " holds more than "
                            + limits.maxObjects() + " ScaledObjects, more than a workloads file may hold as classes;"
                            + " nothing imported (import a namespace with fewer)");
                }
                one(item, n, namespace, context, limits, imported, skipped);
            }
            next = page.path("metadata").path("continue").asString("");
        } while (!next.isEmpty());
        return new ScaledObjectImport.Listing(ScaledObjectImport.grouped(imported), skipped);
    }

    private static void one(JsonNode item, int n, String namespace, String context, ScaledObjectImport.Limits limits,
                            List<ImportedClass> imported, List<ScaledObjectImport.Skipped> skipped) {
        String name = item.path("metadata").path("name").isString() ? item.path("metadata").path("name").asString("")
                : "(item " + n + " of its page)";
        String ns = item.path("metadata").path("namespace").isString() ? item.path("metadata").path("namespace").asString("")
                : namespace;
        String object = UntrustedText.line(ns + "/" + name, 300);
        if (!item.isObject()) {
            skipped.add(new ScaledObjectImport.Skipped(object, "not an object"));
            return;
        }
        if (item.has("kind") && !item.get("kind").isString() || item.has("apiVersion") && !item.get("apiVersion").isString()) {
            skipped.add(new ScaledObjectImport.Skipped(object, "its kind or apiVersion is not a name"));
            return;
        }
        String kind = item.path("kind").asString("");
        String apiVersion = item.path("apiVersion").asString("");
        if (!kind.isEmpty() && !kind.equals("ScaledObject") || !apiVersion.isEmpty() && !apiVersion.startsWith("keda.sh/")) {
            skipped.add(new ScaledObjectImport.Skipped(object, "a " + UntrustedText.line(kind.isEmpty() ? "(no kind)"
                    : kind, 60) + " (" + UntrustedText.line(apiVersion, 60) + "), not a ScaledObject"));
            return;
        }
        int bytes = item.toString().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limits.maxObjectBytes()) {
            skipped.add(new ScaledObjectImport.Skipped(object, "it is " + bytes + " bytes, more than a ScaledObject"
                    + " could need (at most " + limits.maxObjectBytes() + ")"));
            return;
        }
        GenericKubernetesResource so;
        try {
            so = Serialization.unmarshal(item.toString(), GenericKubernetesResource.class);
        } catch (RuntimeException e) {
            // A field of the wrong kind ("annotations": [..]): said plainly, never as a parser's words.
            skipped.add(new ScaledObjectImport.Skipped(object, "its metadata could not be read"));
            return;
        }
        ScaledObjectImport.Listing one = ScaledObjectImport.of(List.of(so), context);
        imported.addAll(one.imported());
        skipped.addAll(one.skipped());
    }

    /** One page of the listing as JSON, at most {@code maxBytes} of it read; null for a 404. */
    private static JsonNode page(KubeConnection connection, String url, long maxBytes) {
        HttpClient http = connection.once().getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder().uri(url).header("Accept", "application/json").build();
        long wait = connection.timeouts().request().toMillis() + connection.timeouts().connect().toMillis();
        try {
            HttpResponse<InputStream> r = http.sendAsync(request, InputStream.class).get(wait, TimeUnit.MILLISECONDS);
            try (InputStream body = r.body()) {
                if (r.code() == 404) {
                    return null;
                }
                byte[] bytes = body == null ? new byte[0] : body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8,
                        r.isSuccessful() ? maxBytes + 1 : 65_536));
                if (!r.isSuccessful()) {
                    throw failure(r.code(), bytes);
                }
                if (bytes.length > maxBytes) {
                    throw new IllegalStateException("a page of the listing is more than " + maxBytes + " bytes: not read");
                }
                return JSON.readTree(bytes);
            }
        } catch (IOException | tools.jackson.core.JacksonException e) {
            throw new IllegalStateException(io.headroom.ErrorWords.of(e), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(KubeErrors.describe(e.getCause() == null ? e : e.getCause()), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("timed out after " + wait / 1000 + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The API server's refusal as fabric8 would throw it, so it is said as every other answer is. */
    private static KubernetesClientException failure(int code, byte[] body) {
        Status status = null;
        try {
            status = Serialization.unmarshal(new String(body, StandardCharsets.UTF_8), Status.class);
        } catch (RuntimeException notAStatus) {
            // said by its code alone
        }
        if (status == null || status.getMessage() == null) {
            return new KubernetesClientException("the API server answered " + code, code, status);
        }
        if (status.getCode() == null) {
            status.setCode(code);
        }
        return new KubernetesClientException(status);
    }
}
