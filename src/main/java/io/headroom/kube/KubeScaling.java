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
 * Scaling on Kubernetes: the scale subresource (or KEDA's paused-replicas, or an HPA's refusal), conditional on the
 * resourceVersion, fenced by the lease right before the write; a bump recorded in the same merge patch.
 * One seam of {@link KubeClusterGateway}, which holds the connection, the watch caches and the lease fence.
 */
record KubeScaling(KubeClusterGateway k) implements io.headroom.cluster.Scaling {
    // ------------------------------------------------------------------ permissions and leases

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        String action = "scale " + ref;
        String problem = k.connectionProblem();
        if (problem != null) {
            return ActionCheck.denied(action, "observe only: " + problem);
        }
        AutoscalerView v = k.autoscaler(ref);
        if (v.kind() == AutoscalerView.Kind.HPA) {
            return ActionCheck.denied(action, Autoscalers.hpaRefusal(v));
        }
        if (k.leases != null) {
            Optional<LeaseState> s = k.leases.state(ref);
            if (s.isPresent() && !s.get().mine()) {
                return ActionCheck.denied(action, s.get().note());
            }
        }
        for (Permission p : k.permissions.forActuation(ref.namespace(), v.kind() == AutoscalerView.Kind.KEDA)) {
            if (!p.allowed()) {
                return ActionCheck.denied(action, "not permitted to " + p.verb() + " " + p.resource() + " in "
                        + p.namespace() + ": " + p.reason());
            }
        }
        return ActionCheck.allowed(action);
    }

    // ------------------------------------------------------------------ writes

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                             io.headroom.cluster.Redecision.Redecider redecider, int maxAttempts) {
        return io.headroom.cluster.Scaling.redecided(k, ref, replicas, expectedResourceVersion, redecider,
                maxAttempts, (want, version) -> scale(ref, want, version));
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
        if (replicas < 0) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "replicas cannot be negative");
        }
        String held = k.heldBack(ref);
        if (held != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, held);
        }
        return dispatch(ref, replicas, expectedResourceVersion, false);
    }

    /** The one dispatch of a scale and its dry run: an HPA's workload is refused, KEDA's paused, any other scaled. */
    private ScaleResult dispatch(WorkloadRef ref, int replicas, String expectedResourceVersion, boolean dryRun) {
        AutoscalerView v = k.autoscaler(ref);
        if (v.kind() == AutoscalerView.Kind.HPA) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, Autoscalers.hpaRefusal(v));
        }
        if (v.kind() == AutoscalerView.Kind.KEDA) {
            return pauseKeda(ref, v, replicas, expectedResourceVersion, dryRun);
        }
        return putScale(ref, replicas, expectedResourceVersion, dryRun);
    }

    /**
     * A scale with Headroom's record of a bump ({@link io.headroom.cluster.ReplicaBump}) in the same write: one
     * JSON merge patch of the workload's replicas and annotations, conditional on its resourceVersion and fenced
     * by the lease. {@code bump} null removes a record the workload carries in the same way, and is a plain scale
     * when it carries none. A KEDA-managed workload is paused as by {@link #scale} (the pause is the record); an
     * HPA's is refused.
     */
    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                             io.headroom.cluster.ReplicaBump bump, io.headroom.cluster.Redecision.Redecider redecider,
                             int maxAttempts) {
        return io.headroom.cluster.Scaling.redecided(k, ref, replicas, expectedResourceVersion, redecider, maxAttempts,
                (want, version) -> bumped(ref, want, version, bump));
    }

    private ScaleResult bumped(WorkloadRef ref, int replicas, String expectedResourceVersion,
                               io.headroom.cluster.ReplicaBump bump) {
        if (replicas < 0 || k.heldBack(ref) != null || k.autoscaler(ref).kind() != AutoscalerView.Kind.NONE) {
            return scale(ref, replicas, expectedResourceVersion); // refused as a scale is, or KEDA's own pause
        }
        String what = ref.kind() + " " + ref.namespace() + "/" + ref.name();
        long started = System.nanoTime();
        try {
            Resource<? extends HasMetadata> res = k.workloadNow(ref);
            HasMetadata cur = res.get();
            if (cur == null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "no workload " + ref);
            }
            Map<String, String> has = cur.getMetadata().getAnnotations() == null ? Map.of()
                    : cur.getMetadata().getAnnotations();
            if (bump == null && io.headroom.cluster.ReplicaBump.ANNOTATIONS.stream().noneMatch(has::containsKey)) {
                return putScale(ref, replicas, expectedResourceVersion, false); // nothing recorded: a plain scale
            }
            String version = expectedResourceVersion != null ? expectedResourceVersion
                    : cur.getMetadata().getResourceVersion();
            Map<String, String> ann = new LinkedHashMap<>(); // null values: removed (a merge patch)
            ann.put(io.headroom.cluster.ReplicaBump.OWNER, bump == null ? null : bump.owner() != null ? bump.owner() : k.owner);
            ann.put(io.headroom.cluster.ReplicaBump.UNTIL, bump == null ? null : bump.until().toString());
            ann.put(io.headroom.cluster.ReplicaBump.FROM, bump == null ? null : Integer.toString(bump.from()));
            ann.put(io.headroom.cluster.ReplicaBump.TO, bump == null ? null : Integer.toString(bump.to()));
            ann.put(io.headroom.cluster.ReplicaBump.REASON, bump == null ? null
                    : io.headroom.config.UntrustedText.line(bump.reason(), 500));
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("resourceVersion", version);
            metadata.put("annotations", ann);
            String patch = KubeClusterGateway.json(Map.of("metadata", metadata, "spec", Map.of("replicas", replicas)));
            String refused = k.leaseRefusal(ref); // the fence: right before the write, after the read
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, refused);
            }
            int from = replicasOf(cur);
            res.patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "scaled " + what + " " + from + " → " + replicas
                    + (bump == null ? " (Headroom's bump record removed)" : " (bump recorded: " + bump.reason()
                    + ", until " + bump.until() + ")"));
        } catch (KubernetesClientException e) {
            return k.writeFailure(ref, what, replicas, e, "/apis/apps/v1/namespaces/" + ref.namespace(), started);
        }
    }

    private static int replicasOf(HasMetadata workload) {
        Integer r = workload instanceof io.fabric8.kubernetes.api.model.apps.Deployment d && d.getSpec() != null
                ? d.getSpec().getReplicas()
                : workload instanceof io.fabric8.kubernetes.api.model.apps.StatefulSet st && st.getSpec() != null
                ? st.getSpec().getReplicas() : null;
        return r == null ? 1 : r;
    }

    /** The bump recorded on the workload, read from the API server; its owner and reason made safe to show. */
    @Override
    public Optional<io.headroom.cluster.ReplicaBump> replicaBump(WorkloadRef ref) {
        try {
            Map<String, String> ann = k.annotationsAtStart(ref);
            if (ann == null || !ann.containsKey(io.headroom.cluster.ReplicaBump.OWNER)) {
                return Optional.empty();
            }
            Instant until = KubeClusterGateway.instant(ann.get(io.headroom.cluster.ReplicaBump.UNTIL));
            return Optional.of(new io.headroom.cluster.ReplicaBump(
                    io.headroom.config.UntrustedText.line(ann.get(io.headroom.cluster.ReplicaBump.OWNER), 200),
                    until == null ? Instant.EPOCH : until, count(ann.get(io.headroom.cluster.ReplicaBump.FROM)),
                    count(ann.get(io.headroom.cluster.ReplicaBump.TO)),
                    io.headroom.config.UntrustedText.line(ann.getOrDefault(io.headroom.cluster.ReplicaBump.REASON, ""), 500)));
        } catch (KubernetesClientException e) {
            k.recordError(e);
            throw new IllegalStateException(KubeErrors.describe(e), e);
        }
    }

    /** A replica count written as text; -1 when it is not one. */
    private static int count(String text) {
        try {
            return text == null ? -1 : Math.max(-1, Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Server-side dry run ({@code dryRun=All}) of exactly the write {@link #scale} would send. */
    @Override
    public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
        String problem = k.connectionProblem();
        if (problem != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, problem);
        }
        return dispatch(ref, replicas, null, true);
    }

    private static String scalePath(WorkloadRef ref) {
        return (KubeClusterGateway.isStatefulSet(ref) ? "/apis/apps/v1/namespaces/%s/statefulsets/%s/scale"
                : "/apis/apps/v1/namespaces/%s/deployments/%s/scale").formatted(ref.namespace(), ref.name());
    }

    private ScaleResult putScale(WorkloadRef ref, int replicas, String expectedResourceVersion, boolean dryRun) {
        String what = (dryRun ? "dry run: " : "") + ref.kind() + " " + ref.namespace() + "/" + ref.name();
        long started = System.nanoTime();
        try {
            Resource<? extends HasMetadata> res = k.workloadNow(ref);
            Scale current = res.scale();
            if (current == null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "no workload " + ref);
            }
            String version = expectedResourceVersion != null ? expectedResourceVersion
                    : current.getMetadata().getResourceVersion();
            int from = current.getSpec() == null || current.getSpec().getReplicas() == null ? 0
                    : current.getSpec().getReplicas();
            // Edit what the server returned (keeps its kind/apiVersion and fields) rather than building a Scale from scratch.
            Scale wanted = new ScaleBuilder(current).editMetadata().withResourceVersion(version).endMetadata()
                    .editOrNewSpec().withReplicas(replicas).endSpec().build();
            if (dryRun) {
                int code = k.send("PUT", scalePath(ref).substring(1) + "?dryRun=All",
                        k.client.getKubernetesSerialization().asJson(wanted));
                if (code / 100 == 2) {
                    return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas,
                            what + " would scale " + from + " → " + replicas + " (server accepted, nothing changed)");
                }
                return ScaleResult.of(code == 409 ? ScaleResult.Outcome.CONFLICT
                        : code == 403 ? ScaleResult.Outcome.REFUSED : ScaleResult.Outcome.FAILED, replicas,
                        what + " rejected by the server: HTTP " + code);
            }
            String refused = k.leaseRefusal(ref); // the fence: right before the write, after the read
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, refused);
            }
            res.scale(wanted);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "scaled " + what + " " + from + " → " + replicas);
        } catch (KubernetesClientException e) {
            return k.writeFailure(ref, what, replicas, e, scalePath(ref), started);
        }
    }

    private ScaleResult pauseKeda(WorkloadRef ref, AutoscalerView v, int replicas, String expectedResourceVersion,
                                  boolean dryRun) {
        String what = (dryRun ? "dry run: " : "") + "KEDA-managed " + ref + " (ScaledObject " + v.name() + ")";
        String path = "/apis/keda.sh/v1alpha1/namespaces/%s/scaledobjects/%s".formatted(ref.namespace(), v.name());
        long started = System.nanoTime();
        try {
            if (expectedResourceVersion != null) {
                Optional<WorkloadState> now = k.fetch(ref);
                if (now.isPresent() && !expectedResourceVersion.equals(now.get().resourceVersion())) {
                    return ScaleResult.of(ScaleResult.Outcome.CONFLICT, replicas, what + " moved since it was read (resourceVersion "
                            + expectedResourceVersion + " → " + now.get().resourceVersion() + ")");
                }
            }
            Resource<GenericKubernetesResource> so = k.once.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                    .inNamespace(ref.namespace()).withName(v.name());
            GenericKubernetesResource cur = so.get();
            if (cur == null) {
                return ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, what + ": the ScaledObject is gone");
            }
            // KEDA's pause and who wrote it, until when, in one write: never a pause nobody owns.
            Map<String, String> ann = new LinkedHashMap<>();
            ann.put(Autoscalers.PAUSED_REPLICAS, Integer.toString(replicas));
            ann.put(io.headroom.cluster.HeadroomPause.OWNER, k.owner);
            ann.put(io.headroom.cluster.HeadroomPause.UNTIL,
                    k.clock.instant().plus(io.headroom.cluster.HeadroomPause.WRITTEN_FOR).toString());
            ann.put(io.headroom.cluster.HeadroomPause.REASON, "Headroom scaled it to " + replicas
                    + " (KEDA paused until handed back)");
            String patch = KubeClusterGateway.json(Map.of("metadata", Map.of("resourceVersion", cur.getMetadata().getResourceVersion(),
                    "annotations", ann)));
            PatchContext ctx = new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE)
                    .withDryRun(dryRun ? List.of("All") : null).build();
            if (!dryRun) {
                String refused = k.leaseRefusal(ref);
                if (refused != null) {
                    return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, refused);
                }
            }
            so.patch(ctx, patch);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, what + (dryRun ? " would be" : " is")
                    + " paused at " + replicas + " replicas via " + Autoscalers.PAUSED_REPLICAS
                    + ": KEDA scales it to " + replicas + " and stops autoscaling until handed back");
        } catch (KubernetesClientException e) {
            return k.writeFailure(ref, what, replicas, e, path, started);
        }
    }

}
