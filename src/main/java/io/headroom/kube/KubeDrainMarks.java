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
 * Drain marks on Kubernetes: the pod-deletion-cost and drain annotations, written once per pod, conditional on its
 * resourceVersion, fenced by the lease; the prior cost restored when they go.
 * One seam of {@link KubeClusterGateway}, which holds the connection, the watch caches and the lease fence.
 */
record KubeDrainMarks(KubeClusterGateway k) implements io.headroom.cluster.DrainMarks {
    // ------------------------------------------------------------------ drain marks

    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
        return markForDrain(ref, pods, drainId, null);
    }

    /**
     * Marks pods for a drain with one JSON merge patch each ({@link PodMarks}: the lowest
     * pod-deletion-cost and {@value PodMarks#DRAIN_ANNOTATION}, with this console as the owner, the
     * expiry and the cost it replaces). Refused as a whole, before anything changes, where
     * {@link #scale} would refuse (an HPA or KEDA manages the workload, another console holds its
     * lease, the lease fence fails, the server asked to wait) or when this user may not {@code patch
     * pods} in the namespace. Otherwise each pod must be in the watch cache and selected by the
     * workload, as {@link #workload} counts pods; each failure is "name: why". The patch carries the
     * cached pod's uid and resourceVersion, so a pod recreated under the same name (a StatefulSet's) is
     * not marked in its stead and the recorded prior cost is the one the pod had (a stale cache is read
     * again once).
     */
    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
        if (pods.isEmpty()) {
            return new PodMarks.Result(List.of(), List.of());
        }
        if (drainId == null || drainId.isBlank()) {
            return PodMarks.Result.refused(pods, "a drain needs an id to mark pods with");
        }
        String held = k.heldBack(ref);
        if (held != null) {
            return PodMarks.Result.refused(pods, held);
        }
        AutoscalerView v = k.autoscaler(ref);
        if (v.kind() == AutoscalerView.Kind.HPA) {
            return PodMarks.Result.refused(pods, Autoscalers.hpaRefusal(v));
        }
        if (v.kind() == AutoscalerView.Kind.KEDA) {
            // KEDA's own scale-down would remove the marked (lowest-cost, possibly busy) pods first, and
            // the drain's scale is an asynchronous paused-replicas request: not safe to drain yet.
            return PodMarks.Result.refused(pods, "KEDA ScaledObject " + v.name() + " scales " + ref
                    + "; drains of KEDA-managed workloads are not supported (its own scale-down would remove the"
                    + " marked pods first): freeze or override instead");
        }
        Permission patch = k.permissions.can("patch", "pods", ref.namespace());
        if (!patch.allowed()) {
            return PodMarks.Result.refused(pods, "not permitted to patch pods in " + ref.namespace() + ": "
                    + patch.reason());
        }
        KubeClusterGateway.NamespaceWatch w = k.watchOf(ref.namespace());
        if (!w.workloadsSynced()) {
            return PodMarks.Result.refused(pods, "cluster view of namespace " + ref.namespace() + " is still syncing");
        }
        Map<String, String> match = KubeClusterGateway.matchLabels(ref, w);
        if (match == null) {
            return PodMarks.Result.refused(pods, "no workload " + ref);
        }
        String refused = k.leaseRefusal(ref); // the fence, right before the patches
        if (refused != null) {
            return PodMarks.Result.refused(pods, refused);
        }
        Instant expires = expiresAt != null ? expiresAt : k.clock.instant().plus(PodMarks.DEFAULT_TTL);
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String name : new LinkedHashSet<>(pods)) {
            Pod cached = w.pods.getStore().getByKey(ref.namespace() + "/" + name);
            if (cached == null) {
                failed.add(name + ": not found in namespace " + ref.namespace());
            } else if (!KubeClusterGateway.selects(match, cached)) {
                failed.add(name + ": not a pod of " + ref);
            } else {
                String why = markPod(ref, cached, drainId, expires);
                if (why == null) {
                    done.add(name);
                } else {
                    failed.add(name + ": " + (why.equals(GONE) ? "not found (deleted since it was seen)" : why));
                }
            }
        }
        return new PodMarks.Result(done, failed);
    }

    /** One pod's marks; null when they landed, else why not. Reads the pod again once after a conflict. */
    private String markPod(WorkloadRef ref, Pod cached, String drainId, Instant expires) {
        Pod p = cached;
        for (int attempt = 0; ; attempt++) {
            Map<String, String> ann = annotations(p);
            String other = ann.get(PodMarks.DRAIN_ANNOTATION);
            if (other != null && !other.equals(drainId)) {
                return "already marked by drain " + other
                        + (ann.containsKey(PodMarks.OWNER_ANNOTATION) ? " of " + ann.get(PodMarks.OWNER_ANNOTATION) : "");
            }
            Map<String, String> marks = new LinkedHashMap<>();
            marks.put(PodMarks.DELETION_COST_ANNOTATION, Integer.toString(PodMarks.DRAIN_DELETION_COST));
            marks.put(PodMarks.DRAIN_ANNOTATION, drainId);
            marks.put(PodMarks.OWNER_ANNOTATION, k.owner);
            marks.put(PodMarks.EXPIRES_ANNOTATION, expires.toString());
            if (other == null) {
                // First mark: remember the cost the pod had (or that it had none).
                String prior = ann.get(PodMarks.DELETION_COST_ANNOTATION);
                if (prior != null) {
                    marks.put(PodMarks.PRIOR_COST_ANNOTATION, prior);
                } else if (ann.containsKey(PodMarks.PRIOR_COST_ANNOTATION)) {
                    marks.put(PodMarks.PRIOR_COST_ANNOTATION, null);
                }
            }
            String why = patchAnnotations(ref, p.getMetadata().getName(), p.getMetadata().getUid(),
                    p.getMetadata().getResourceVersion(), marks);
            if (!CONFLICT.equals(why) || attempt > 0) {
                return CONFLICT.equals(why) ? "the pod kept changing; not marked" : why;
            }
            try {
                p = k.once.pods().inNamespace(ref.namespace()).withName(p.getMetadata().getName()).get();
            } catch (KubernetesClientException e) {
                return KubeErrors.describe(e);
            }
            if (p == null || !cached.getMetadata().getUid().equals(p.getMetadata().getUid())) {
                return GONE;
            }
        }
    }

    /**
     * Removes drain {@code drainId}'s marks and gives the pod its prior deletion cost back, only where the
     * pod (read again when the cache does not show the mark) carries this drain's mark: a merge patch with
     * the pod's resourceVersion, so another drain's mark set meanwhile is never removed. A pod that is gone
     * counts as done. Not refused for the lease or an HPA: taking marks off is how an interrupted drain
     * gives its pods back, and must not be blocked. A pod the cache shows under another workload is left
     * alone ("name: not a pod of …"). Held back like every write while the server asked to wait.
     */
    @Override
    public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
        String held = k.heldBack(ref); // not connected, or the server asked to wait: the caller retries later
        if (held != null) {
            return PodMarks.Result.refused(pods, held);
        }
        KubeClusterGateway.NamespaceWatch w = k.watchOf(ref.namespace());
        Map<String, String> match = w.workloadsSynced() ? KubeClusterGateway.matchLabels(ref, w) : null;
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String name : new LinkedHashSet<>(pods)) {
            Pod cached = w.pods.getStore().getByKey(ref.namespace() + "/" + name);
            if (cached != null && match != null && !KubeClusterGateway.selects(match, cached)) {
                failed.add(name + ": not a pod of " + ref);
                continue;
            }
            String why = restore(ref, name, cached, m -> drainId.equals(m.get(PodMarks.DRAIN_ANNOTATION)));
            if (why == null) {
                done.add(name);
            } else {
                failed.add(name + ": " + why);
            }
        }
        return new PodMarks.Result(done, failed);
    }

    /** Every drain mark on the workload's pods, from the watch cache. */
    @Override
    public List<PodMarks.Found> drainMarks(WorkloadRef ref) {
        KubeClusterGateway.NamespaceWatch w = k.synced(ref); // "no marks" only from a view that has seen the pods
        Map<String, String> match = KubeClusterGateway.matchLabels(ref, w);
        if (match == null) {
            return List.of();
        }
        List<PodMarks.Found> out = new ArrayList<>();
        for (Pod p : w.pods.getStore().list()) {
            Map<String, String> ann = annotations(p);
            String id = ann.get(PodMarks.DRAIN_ANNOTATION);
            if (id != null && KubeClusterGateway.selects(match, p)) {
                out.add(new PodMarks.Found(p.getMetadata().getName(), id, ann.get(PodMarks.OWNER_ANNOTATION),
                        KubeClusterGateway.instant(ann.get(PodMarks.EXPIRES_ANNOTATION))));
            }
        }
        out.sort((a, b) -> a.pod().compareTo(b.pod()));
        return out;
    }

    /**
     * Clears expired marks, whoever set them: each pod is changed only while it carries exactly the mark
     * found (same drain, still expired at {@code now} by this console's clock), with its resourceVersion,
     * so two consoles clearing at once, or a fresh mark set meanwhile, cannot go wrong. Not fenced by the
     * lease (it gives pods back), but held back like every write when the server asked to wait.
     */
    @Override
    public PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now) {
        List<String> names = marks.stream().map(PodMarks.Found::pod).toList();
        String held = k.heldBack(ref);
        if (held != null) {
            return PodMarks.Result.refused(names, held);
        }
        KubeClusterGateway.NamespaceWatch w = k.watchOf(ref.namespace());
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (PodMarks.Found f : marks) {
            Pod cached = w.pods.getStore().getByKey(ref.namespace() + "/" + f.pod());
            String why = restore(ref, f.pod(), cached, m -> f.drainId().equals(m.get(PodMarks.DRAIN_ANNOTATION))
                    && KubeClusterGateway.instant(m.get(PodMarks.EXPIRES_ANNOTATION)) != null
                    && !now.isBefore(KubeClusterGateway.instant(m.get(PodMarks.EXPIRES_ANNOTATION))));
            if (why == null) {
                done.add(f.pod());
            } else {
                failed.add(f.pod() + ": " + why);
            }
        }
        return new PodMarks.Result(done, failed);
    }

    /**
     * Takes the drain marks off one pod and restores its prior deletion cost, when {@code ours} accepts
     * the pod's annotations; null when done (including: gone, or nothing of ours on it), else why not.
     * The cached pod is used first; when it does not show the mark, or the patch conflicts, the pod is
     * read from the server (the cache may lag a write).
     */
    private String restore(WorkloadRef ref, String name, Pod cached, java.util.function.Predicate<Map<String, String>> ours) {
        Pod p = cached;
        boolean fresh = false;
        for (int attempt = 0; attempt < 3; attempt++) {
            if (p == null || !ours.test(annotations(p))) {
                if (fresh) {
                    return null; // gone, or nothing of ours on it
                }
                p = read(ref.namespace(), name);
                fresh = true;
                continue;
            }
            Map<String, String> ann = annotations(p);
            Map<String, String> clear = new LinkedHashMap<>();
            clear.put(PodMarks.DRAIN_ANNOTATION, null);
            for (String k : List.of(PodMarks.OWNER_ANNOTATION, PodMarks.EXPIRES_ANNOTATION, PodMarks.PRIOR_COST_ANNOTATION)) {
                if (ann.containsKey(k)) {
                    clear.put(k, null);
                }
            }
            String cost = ann.get(PodMarks.DELETION_COST_ANNOTATION);
            if (cost == null || cost.equals(Integer.toString(PodMarks.DRAIN_DELETION_COST))) {
                // The drain's cost (a cost someone set since is theirs, and stays): back to what it was.
                clear.put(PodMarks.DELETION_COST_ANNOTATION, ann.get(PodMarks.PRIOR_COST_ANNOTATION));
            }
            String why = patchAnnotations(ref, name, p.getMetadata().getUid(), p.getMetadata().getResourceVersion(),
                    clear);
            if (why == null || why.equals(GONE)) {
                return null;
            }
            if (!why.equals(CONFLICT)) {
                return why;
            }
            p = read(ref.namespace(), name);
            fresh = true;
        }
        return "the pod kept changing; marks not removed (retried later)";
    }

    /** The pod as the server has it now; null when gone. */
    private Pod read(String namespace, String name) {
        return k.once.pods().inNamespace(namespace).withName(name).get();
    }

    static Map<String, String> annotations(Pod p) {
        Map<String, String> a = p.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    private static final String GONE = "gone";
    private static final String CONFLICT = "conflict";
    /**
     * One JSON merge patch of a pod's annotations (a null value removes one), conditional on {@code uid}
     * and {@code resourceVersion} when given. Null when it landed, {@link #GONE} on 404, {@link #CONFLICT}
     * on 409, otherwise why not (with "retry after N s" when the server asked to wait).
     */
    private String patchAnnotations(WorkloadRef ref, String pod, String uid, String resourceVersion,
                                    Map<String, String> annotations) {
        Map<String, Object> meta = new LinkedHashMap<>();
        if (uid != null) {
            meta.put("uid", uid);
        }
        if (resourceVersion != null) {
            meta.put("resourceVersion", resourceVersion);
        }
        meta.put("annotations", annotations);
        String body;
        try {
            body = KubeClusterGateway.JSON.writeValueAsString(Map.of("metadata", meta));
        } catch (JacksonException e) {
            throw new IllegalStateException(e);
        }
        long started = System.nanoTime();
        try {
            k.once.pods().inNamespace(ref.namespace()).withName(pod).patch(PatchContext.of(PatchType.JSON_MERGE), body);
            return null;
        } catch (KubernetesClientException e) {
            return switch (e.getCode()) {
                case 404 -> GONE;
                case 409 -> CONFLICT;
                case 403 -> "forbidden: " + KubeErrors.describe(e);
                default -> {
                    if (e.getCode() <= 0 || e.getCode() >= 500) {
                        k.recordError(e); // the API's trouble, not this pod's: health shows it
                    }
                    String wait = k.holdFor(ref, e, "/api/v1/namespaces/" + ref.namespace() + "/pods/" + pod, started);
                    yield KubeErrors.describe(e) + (wait == null ? "" : "; " + wait);
                }
            };
        }
    }

}
