package io.headroom.kube;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.api.model.autoscaling.v1.ScaleBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Nodes on Kubernetes: read from the API server, cordoned with Headroom's record, pods evicted through policy/v1.
 * One seam of {@link KubeClusterGateway}, which holds the connection, the watch caches and the lease fence.
 */
record KubeNodes(KubeClusterGateway k) implements io.headroom.cluster.Nodes {
    // ------------------------------------------------------------------ nodes (node drains)

    /** Every node of this context with the pods bound to it: two reads of the API server (not a cache). */
    @Override
    public List<io.headroom.cluster.NodeState> nodes(String context) {
        if (!k.contextName().equals(context)) {
            return List.of();
        }
        Map<String, List<io.headroom.cluster.NodePod>> byNode = new java.util.HashMap<>();
        for (Pod p : k.once.pods().inAnyNamespace().list().getItems()) {
            String n = p.getSpec() == null ? null : p.getSpec().getNodeName();
            if (n != null) {
                byNode.computeIfAbsent(n, k -> new ArrayList<>()).add(nodePod(p));
            }
        }
        List<io.headroom.cluster.NodeState> out = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Node n : k.once.nodes().list().getItems()) {
            out.add(nodeState(n, byNode.getOrDefault(n.getMetadata().getName(), List.of())));
        }
        out.sort(java.util.Comparator.comparing(n -> n.ref().name()));
        return out;
    }

    /** One node and its pods, read from the API server now (a field selector on spec.nodeName). */
    @Override
    public Optional<io.headroom.cluster.NodeState> node(io.headroom.cluster.NodeRef ref) {
        if (!k.contextName().equals(ref.context())) {
            return Optional.empty();
        }
        io.fabric8.kubernetes.api.model.Node n = k.once.nodes().withName(ref.name()).get();
        if (n == null) {
            return Optional.empty();
        }
        List<io.headroom.cluster.NodePod> pods = new ArrayList<>();
        for (Pod p : k.once.pods().inAnyNamespace().withField("spec.nodeName", ref.name()).list().getItems()) {
            if (p.getSpec() != null && ref.name().equals(p.getSpec().getNodeName())) {
                pods.add(nodePod(p));
            }
        }
        return Optional.of(nodeState(n, pods));
    }

    private io.headroom.cluster.NodeState nodeState(io.fabric8.kubernetes.api.model.Node n,
                                                    List<io.headroom.cluster.NodePod> pods) {
        boolean ready = n.getStatus() != null && n.getStatus().getConditions() != null && n.getStatus().getConditions()
                .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        List<io.headroom.cluster.NodePod> sorted = new ArrayList<>(pods);
        sorted.sort(java.util.Comparator.comparing(io.headroom.cluster.NodePod::key));
        Map<String, String> ann = n.getMetadata().getAnnotations() == null ? Map.of() : n.getMetadata().getAnnotations();
        io.headroom.cluster.CordonMark mark = ann.containsKey(io.headroom.cluster.CordonMark.BY_ANNOTATION)
                || ann.containsKey(io.headroom.cluster.CordonMark.DRAIN_ANNOTATION)
                ? new io.headroom.cluster.CordonMark(ann.get(io.headroom.cluster.CordonMark.BY_ANNOTATION),
                KubeClusterGateway.instant(ann.get(io.headroom.cluster.CordonMark.AT_ANNOTATION)),
                ann.get(io.headroom.cluster.CordonMark.WHY_ANNOTATION),
                ann.get(io.headroom.cluster.CordonMark.DRAIN_ANNOTATION),
                KubeClusterGateway.instant(ann.get(io.headroom.cluster.CordonMark.EXPIRES_ANNOTATION))) : null;
        return new io.headroom.cluster.NodeState(new io.headroom.cluster.NodeRef(k.contextName(), n.getMetadata().getName()),
                n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable()), ready, sorted,
                k.clock.instant(), mark);
    }

    private static io.headroom.cluster.NodePod nodePod(Pod p) {
        String kind = null;
        String owner = null;
        if (p.getMetadata().getOwnerReferences() != null) {
            for (var o : p.getMetadata().getOwnerReferences()) {
                if (Boolean.TRUE.equals(o.getController())) {
                    kind = o.getKind();
                    owner = o.getName();
                }
            }
        }
        if (KubeDrainMarks.annotations(p).containsKey("kubernetes.io/config.mirror")) {
            kind = "Node"; // a static pod's mirror: the kubelet owns it
        }
        return new io.headroom.cluster.NodePod(p.getMetadata().getNamespace(), p.getMetadata().getName(),
                p.getStatus() == null ? "Unknown" : p.getStatus().getPhase(), kind, owner,
                KubeClusterGateway.instant(p.getMetadata().getDeletionTimestamp()), KubeDrainMarks.annotations(p).get(PodMarks.DRAIN_ANNOTATION));
    }

    /** {@code kubectl cordon/uncordon}: a JSON merge patch of {@code spec.unschedulable}, sent once. */
    @Override
    public io.headroom.cluster.NodeResult cordon(io.headroom.cluster.NodeRef ref, boolean unschedulable) {
        return cordon(ref, unschedulable, null);
    }

    /**
     * {@code kubectl cordon/uncordon} with Headroom's record ({@link io.headroom.cluster.CordonMark}): one JSON
     * merge patch of {@code spec.unschedulable} and the annotations, sent once, so the cordon and who did it
     * land together. Uncordoning removes the annotations.
     */
    @Override
    public io.headroom.cluster.NodeResult cordon(io.headroom.cluster.NodeRef ref, boolean unschedulable,
                                                 io.headroom.cluster.CordonMark mark) {
        if (!k.contextName().equals(ref.context())) {
            return io.headroom.cluster.NodeResult.failed("node " + ref + " is not in context " + k.contextName());
        }
        Map<String, String> ann = new LinkedHashMap<>();
        ann.put(io.headroom.cluster.CordonMark.BY_ANNOTATION, unschedulable && mark != null ? mark.by() : null);
        ann.put(io.headroom.cluster.CordonMark.AT_ANNOTATION, unschedulable && mark != null && mark.at() != null
                ? mark.at().toString() : null);
        ann.put(io.headroom.cluster.CordonMark.WHY_ANNOTATION, unschedulable && mark != null ? mark.why() : null);
        ann.put(io.headroom.cluster.CordonMark.DRAIN_ANNOTATION, unschedulable && mark != null ? mark.drainId() : null);
        ann.put(io.headroom.cluster.CordonMark.EXPIRES_ANNOTATION, unschedulable && mark != null && mark.expires() != null
                ? mark.expires().toString() : null);
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("unschedulable", unschedulable ? Boolean.TRUE : null);
        Map<String, Object> patch = new LinkedHashMap<>();
        if (!unschedulable || mark != null) {
            patch.put("metadata", Map.of("annotations", ann));
        }
        patch.put("spec", spec);
        String body;
        try {
            body = KubeClusterGateway.JSON.writeValueAsString(patch);
        } catch (JacksonException e) {
            return io.headroom.cluster.NodeResult.failed("cordon patch not written: " + e.getOriginalMessage());
        }
        try {
            k.once.nodes().withName(ref.name()).patch(PatchContext.of(PatchType.JSON_MERGE), body);
            return io.headroom.cluster.NodeResult.ok((unschedulable ? "cordoned " : "uncordoned ") + ref.name());
        } catch (KubernetesClientException e) {
            return io.headroom.cluster.NodeResult.failed(e.getCode() == 404 ? "no node " + ref.name()
                    : KubeErrors.describe(e));
        }
    }

    /**
     * The PodDisruptionBudgets (policy/v1) of the namespaces of {@code podKeys} that cover any of them: one list
     * per namespace, and one pod list per budget's selector (reads, not caches), each with the API server's count
     * of what it allows now.
     */
    @Override
    public List<io.headroom.cluster.DisruptionBudget> budgets(String context, Collection<String> podKeys) {
        if (!k.contextName().equals(context)) {
            return List.of();
        }
        List<io.headroom.cluster.DisruptionBudget> out = new ArrayList<>();
        for (String ns : podKeys.stream().map(p -> p.substring(0, p.indexOf('/'))).distinct().sorted().toList()) {
            for (var b : k.once.policy().v1().podDisruptionBudget().inNamespace(ns).list().getItems()) {
                LabelSelector sel = b.getSpec() == null ? null : b.getSpec().getSelector();
                List<String> pods = sel == null ? List.of() : k.once.pods().inNamespace(ns).withLabelSelector(sel)
                        .list().getItems().stream().map(p -> ns + "/" + p.getMetadata().getName()).toList();
                if (pods.stream().noneMatch(podKeys::contains)) {
                    continue;
                }
                var st = b.getStatus();
                out.add(new io.headroom.cluster.DisruptionBudget(ns, b.getMetadata().getName(),
                        written(b.getSpec().getMinAvailable()), written(b.getSpec().getMaxUnavailable()),
                        st == null || st.getDisruptionsAllowed() == null ? 0 : st.getDisruptionsAllowed(),
                        st == null || st.getCurrentHealthy() == null ? 0 : st.getCurrentHealthy(),
                        st == null || st.getDesiredHealthy() == null ? 0 : st.getDesiredHealthy(), pods));
            }
        }
        return out;
    }

    /** "2" or "50%", as the budget's spec has it; null when unset. */
    private static String written(io.fabric8.kubernetes.api.model.IntOrString v) {
        return v == null ? null : v.getIntVal() != null ? v.getIntVal().toString() : v.getStrVal();
    }

    /**
     * One policy/v1 Eviction, POSTed once to the pod's eviction subresource with no delete options (the
     * pod's own grace period). fabric8's {@code evict()} answers a 429 with a bare false; the API server's
     * Status says which PodDisruptionBudget refused ({@code details.causes[].reason DisruptionBudget}), so
     * the request goes through the client's own HTTP stack (auth, TLS) and the Status is read here.
     */
    @Override
    public io.headroom.cluster.EvictionResult evict(String context, String namespace, String pod) {
        if (!k.contextName().equals(context)) {
            return io.headroom.cluster.EvictionResult.failed("context " + context + " is not " + k.contextName());
        }
        String body = "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":"
                + quote(pod) + ",\"namespace\":" + quote(namespace) + "}}";
        String base = k.once.getMasterUrl().toString();
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpRequest req = k.once.getHttpClient().newHttpRequestBuilder()
                .uri(base + (base.endsWith("/") ? "" : "/") + "api/v1/namespaces/" + namespace + "/pods/" + pod
                        + "/eviction")
                .post("application/json", new java.io.ByteArrayInputStream(bytes), (long) bytes.length)
                .build();
        HttpResponse<String> r;
        try {
            r = k.once.getHttpClient().sendAsync(req, String.class).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return io.headroom.cluster.EvictionResult.failed("interrupted");
        } catch (Exception e) {
            k.recordError(e);
            return io.headroom.cluster.EvictionResult.failed("request failed: " + io.headroom.ErrorWords.of(e));
        }
        return evictionResult(r.code(), r.body(), RetryAfter.seconds(r.header("Retry-After")));
    }

    /** The Eviction API's answer as data: 2xx evicted, 404 gone, 429 with a DisruptionBudget cause refused by it. */
    static io.headroom.cluster.EvictionResult evictionResult(int code, String body, Long retryAfterHeader) {
        if (code >= 200 && code < 300) {
            return io.headroom.cluster.EvictionResult.evicted();
        }
        String message = "HTTP " + code;
        String budget = null;
        long retry = retryAfterHeader == null ? 0 : retryAfterHeader;
        try {
            tools.jackson.databind.JsonNode status = KubeClusterGateway.JSON.readTree(body == null ? "{}" : body);
            if (status.hasNonNull("message")) {
                message = io.headroom.config.UntrustedText.line(status.get("message").asString(""), 300);
            }
            tools.jackson.databind.JsonNode details = status.path("details");
            if (retry == 0 && details.hasNonNull("retryAfterSeconds")) {
                retry = Math.min(RetryAfter.MAX_SECONDS, Math.max(0, details.get("retryAfterSeconds").asLong(0L)));
            }
            for (tools.jackson.databind.JsonNode c : details.path("causes")) {
                String kind = c.hasNonNull("reason") ? c.get("reason").asString("") : c.path("type").asString("");
                if ("DisruptionBudget".equals(kind) && c.hasNonNull("message")) {
                    String m = io.headroom.config.UntrustedText.line(c.get("message").asString(""), 300);
                    java.util.regex.Matcher x = java.util.regex.Pattern.compile("disruption budget (\\S+)").matcher(m);
                    budget = x.find() ? x.group(1) : "(unnamed)";
                    message = m;
                }
            }
        } catch (JacksonException e) {
            // Not a Status: the code says enough.
        }
        if (code == 404) {
            return io.headroom.cluster.EvictionResult.gone(message);
        }
        if (code == 429 && budget != null) {
            return io.headroom.cluster.EvictionResult.refusedByBudget(budget, retry, message);
        }
        return new io.headroom.cluster.EvictionResult(io.headroom.cluster.EvictionResult.Outcome.FAILED, null, retry,
                "HTTP " + code + ": " + message);
    }

    private static String quote(String s) {
        try {
            return KubeClusterGateway.JSON.writeValueAsString(s);
        } catch (JacksonException e) {
            throw new IllegalStateException(e);
        }
    }

}
