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
 * KEDA pauses on Kubernetes: hand back, kept pauses and their records on the workload and its ScaledObject.
 * One seam of {@link KubeClusterGateway}, which holds the connection, the watch caches and the lease fence.
 */
record KubePauses(KubeClusterGateway k) implements io.headroom.cluster.Pauses {
    /** Removes KEDA's paused-replicas annotation: KEDA autoscales the workload again. */
    @Override
    public ScaleResult handBack(WorkloadRef ref) {
        String held = k.heldBack(ref);
        if (held != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, held);
        }
        AutoscalerView v = k.autoscaler(ref);
        if (v.kind() != AutoscalerView.Kind.KEDA) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, "no KEDA ScaledObject manages " + ref
                    + (v.kind() == AutoscalerView.Kind.HPA ? " (an HPA does, and it was never paused)" : ""));
        }
        String what = "KEDA-managed " + ref + " (ScaledObject " + v.name() + ")";
        String path = "/apis/keda.sh/v1alpha1/namespaces/%s/scaledobjects/%s".formatted(ref.namespace(), v.name());
        long started = System.nanoTime();
        try {
            // Read the ScaledObject itself: the cache may not show a pause made a moment ago.
            GenericKubernetesResource so = k.once.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace(ref.namespace())
                    .withName(v.name()).get();
            Map<String, String> ann = so == null ? null : so.getMetadata().getAnnotations();
            if (ann == null || !ann.containsKey(Autoscalers.PAUSED_REPLICAS)) {
                return ScaleResult.of(ScaleResult.Outcome.APPLIED, v.currentReplicas() == null ? 0 : v.currentReplicas(),
                        what + " is already under KEDA's control (not paused)");
            }
            String refused = k.handBackRefusal(ref);
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, refused);
            }
            // KEDA's pause and Headroom's record of it go in one write (JSON patch "remove", RFC 6902: unambiguous,
            // where a merge patch's null may be stored as a value): neither is ever left without the other.
            k.once.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace(ref.namespace()).withName(v.name())
                    .patch(PatchContext.of(PatchType.JSON), removeAnnotations(ann, PAUSE_ANNOTATIONS));
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, v.currentReplicas() == null ? 0 : v.currentReplicas(),
                    what + " handed back to KEDA (" + Autoscalers.PAUSED_REPLICAS + " removed)");
        } catch (KubernetesClientException e) {
            return k.writeFailure(ref, what, 0, e, path, started);
        }
    }

    // ------------------------------------------------------------------ kept pauses (hand back)

    /**
     * Keeps a pause after this console exits: one JSON merge patch of the workload's annotations (who,
     * until when, why) and, where a ScaledObject scales it, one of the ScaledObject's, which also sets
     * KEDA's {@code paused-replicas} when it is not set already (to the pause's replicas, else the
     * workload's), so KEDA does not take the workload back before the expiry. Fenced by the lease.
     */
    @Override
    public ScaleResult keepPause(WorkloadRef ref, io.headroom.cluster.HeadroomPause pause) {
        int at = pause.replicas() == null ? 0 : pause.replicas();
        String held = k.heldBack(ref);
        if (held != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, at, held);
        }
        String what = ref.kind() + " " + ref.namespace() + "/" + ref.name();
        long started = System.nanoTime();
        try {
            Resource<? extends HasMetadata> res = k.workloadNow(ref);
            Optional<WorkloadState> now = k.fetch(ref);
            if (now.isEmpty()) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, at, "no workload " + ref);
            }
            String refused = k.handBackRefusal(ref);
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, at, refused);
            }
            Map<String, String> ann = new LinkedHashMap<>();
            ann.put(io.headroom.cluster.HeadroomPause.OWNER, pause.owner());
            ann.put(io.headroom.cluster.HeadroomPause.UNTIL, pause.until().toString());
            ann.put(io.headroom.cluster.HeadroomPause.REASON, io.headroom.config.UntrustedText.line(pause.reason(), 500));
            res.patch(PatchContext.of(PatchType.JSON_MERGE), mergeAnnotations(ann));
            int replicas = pause.replicas() != null ? pause.replicas() : now.get().specReplicas();
            GenericKubernetesResource so = scaledObjectNow(ref);
            String keda = "";
            if (so != null) {
                Map<String, String> soAnn = new LinkedHashMap<>(ann);
                Map<String, String> has = so.getMetadata().getAnnotations();
                String paused = has == null ? null : has.get(Autoscalers.PAUSED_REPLICAS);
                if (paused == null) {
                    soAnn.put(Autoscalers.PAUSED_REPLICAS, Integer.toString(replicas));
                }
                k.once.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace(ref.namespace())
                        .withName(so.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE),
                                mergeAnnotations(soAnn));
                keda = "; KEDA ScaledObject " + so.getMetadata().getName() + " stays paused at "
                        + (paused == null ? Integer.toString(replicas) : paused) + " (" + Autoscalers.PAUSED_REPLICAS + ")";
            }
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "pause kept on " + what + " by "
                    + pause.owner() + " until " + pause.until() + keda);
        } catch (KubernetesClientException e) {
            return k.writeFailure(ref, "keep the pause on " + what, at, e,
                    "/apis/apps/v1/namespaces/" + ref.namespace(), started);
        }
    }

    /**
     * Ends a kept pause: removes Headroom's pause annotations from the workload and, where its
     * ScaledObject carries them too, from the ScaledObject with KEDA's {@code paused-replicas} (the
     * pause set it, or kept it: KEDA autoscales again). Both read from the API server, not the cache.
     */
    @Override
    public ScaleResult clearPause(WorkloadRef ref) {
        return endPause(ref, true);
    }

    /** As {@link #clearPause}, leaving KEDA's {@code paused-replicas} on the ScaledObject: only Headroom's record goes. */
    @Override
    public ScaleResult forgetPause(WorkloadRef ref) {
        return endPause(ref, false);
    }

    private ScaleResult endPause(WorkloadRef ref, boolean handBackToKeda) {
        String held = k.heldBack(ref);
        if (held != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, held);
        }
        String what = ref.kind() + " " + ref.namespace() + "/" + ref.name();
        long started = System.nanoTime();
        try {
            Resource<? extends HasMetadata> res = k.workloadNow(ref);
            HasMetadata obj = res.get();
            if (obj == null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, "no workload " + ref);
            }
            String patch = removeAnnotations(obj.getMetadata().getAnnotations(), PAUSE_RECORD);
            GenericKubernetesResource so = scaledObjectNow(ref);
            Map<String, String> soAnn = so == null ? null : so.getMetadata().getAnnotations();
            boolean kedaPausedByUs = soAnn != null && soAnn.containsKey(io.headroom.cluster.HeadroomPause.OWNER);
            if (patch == null && !kedaPausedByUs) {
                return ScaleResult.of(ScaleResult.Outcome.APPLIED, 0, "no pause recorded on " + what);
            }
            String refused = k.handBackRefusal(ref);
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, refused);
            }
            if (patch != null) {
                res.patch(PatchContext.of(PatchType.JSON), patch);
            }
            String keda = "";
            if (kedaPausedByUs) {
                String soPatch = removeAnnotations(soAnn, handBackToKeda ? PAUSE_ANNOTATIONS : PAUSE_RECORD);
                k.once.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace(ref.namespace())
                        .withName(so.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON), soPatch);
                keda = handBackToKeda ? "; handed back to KEDA (ScaledObject " + so.getMetadata().getName() + ", "
                        + Autoscalers.PAUSED_REPLICAS + " removed)"
                        : "; KEDA stays paused (ScaledObject " + so.getMetadata().getName() + ", "
                        + Autoscalers.PAUSED_REPLICAS + " " + soAnn.get(Autoscalers.PAUSED_REPLICAS) + "), no longer Headroom's";
            }
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, 0, (handBackToKeda ? "pause on " + what + " ended"
                    : "Headroom's record of the pause on " + what + " cleared") + keda);
        } catch (KubernetesClientException e) {
            return k.writeFailure(ref, (handBackToKeda ? "end the pause on " : "clear the pause's record on ") + what, 0, e,
                    "/apis/apps/v1/namespaces/" + ref.namespace(), started);
        }
    }

    /**
     * The pause Headroom left on the workload, read from the API server: the one kept at exit (on the
     * workload), else the one a scale wrote on its ScaledObject beside KEDA's {@code paused-replicas}.
     * Throws, in words, when they cannot be read.
     */
    @Override
    public Optional<io.headroom.cluster.HeadroomPause> keptPause(WorkloadRef ref) {
        try {
            Map<String, String> ann = k.annotationsAtStart(ref);
            GenericKubernetesResource so = scaledObjectNow(ref);
            Map<String, String> soAnn = so == null ? null : so.getMetadata().getAnnotations();
            Integer replicas = null;
            if (soAnn != null && soAnn.get(Autoscalers.PAUSED_REPLICAS) != null) {
                try {
                    replicas = Integer.valueOf(soAnn.get(Autoscalers.PAUSED_REPLICAS).trim());
                } catch (NumberFormatException e) {
                    replicas = null;
                }
            }
            if (ann != null && ann.containsKey(io.headroom.cluster.HeadroomPause.UNTIL)) {
                return Optional.of(pause(ann, replicas));
            }
            if (soAnn != null && soAnn.containsKey(io.headroom.cluster.HeadroomPause.OWNER)) {
                return Optional.of(pause(soAnn, replicas));
            }
            return Optional.empty();
        } catch (KubernetesClientException e) {
            k.recordError(e);
            throw new IllegalStateException(KubeErrors.describe(e), e);
        }
    }

    /** A pause as its annotations say it; an expiry that is missing or unreadable has passed (offered for hand back). */
    private static io.headroom.cluster.HeadroomPause pause(Map<String, String> ann, Integer replicas) {
        String by = io.headroom.config.UntrustedText.line(
                ann.getOrDefault(io.headroom.cluster.HeadroomPause.OWNER, "unknown"), 200);
        String reason = io.headroom.config.UntrustedText.line(
                ann.getOrDefault(io.headroom.cluster.HeadroomPause.REASON, ""), 500);
        String text = ann.get(io.headroom.cluster.HeadroomPause.UNTIL);
        Instant until;
        try {
            until = Instant.parse(text == null ? "" : text.trim());
        } catch (java.time.format.DateTimeParseException e) {
            until = Instant.EPOCH;
            reason = reason + (text == null ? " (no expiry)"
                    : " (unreadable expiry '" + io.headroom.config.UntrustedText.line(text, 60) + "')");
        }
        return new io.headroom.cluster.HeadroomPause(by, until, reason, replicas);
    }

    /** The ScaledObject scaling {@code ref}, read from the API server now; null when none (or KEDA is not installed). */
    private GenericKubernetesResource scaledObjectNow(WorkloadRef ref) {
        if (!k.kedaInstalled()) {
            return null;
        }
        List<GenericKubernetesResource> sos = k.once.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                .inNamespace(ref.namespace()).list().getItems();
        return Autoscalers.scaledObjectFor(ref, sos).orElse(null);
    }

    /** Headroom's record of a pause: who, until when, why. */
    private static final List<String> PAUSE_RECORD = List.of(io.headroom.cluster.HeadroomPause.OWNER,
            io.headroom.cluster.HeadroomPause.UNTIL, io.headroom.cluster.HeadroomPause.REASON);
    /** KEDA's pause and Headroom's record of it: removed together. */
    private static final List<String> PAUSE_ANNOTATIONS = List.of(Autoscalers.PAUSED_REPLICAS,
            io.headroom.cluster.HeadroomPause.OWNER, io.headroom.cluster.HeadroomPause.UNTIL,
            io.headroom.cluster.HeadroomPause.REASON);

    private static String mergeAnnotations(Map<String, String> ann) {
        return KubeClusterGateway.json(Map.of("metadata", Map.of("annotations", ann)));
    }

    /** A JSON patch (RFC 6902) removing those of {@code keys} present; null when none is. */
    private static String removeAnnotations(Map<String, String> present, List<String> keys) {
        if (present == null) {
            return null;
        }
        List<Map<String, String>> ops = new ArrayList<>();
        for (String k : keys) {
            if (present.containsKey(k)) {
                ops.add(Map.of("op", "remove", "path", "/metadata/annotations/" + k.replace("~", "~0").replace("/", "~1")));
            }
        }
        return ops.isEmpty() ? null : KubeClusterGateway.json(ops);
    }

}
