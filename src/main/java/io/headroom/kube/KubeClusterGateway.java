package io.headroom.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import io.headroom.cluster.ClusterGateway;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@link ClusterGateway} against a Kubernetes API through fabric8. Reads come from informers (one
 * list, then a watch per resource type and namespace; fabric8 re-lists on reconnect and 410 Gone),
 * never from polling: Deployments, StatefulSets, their Pods, HPAs and, when the CRD is served, KEDA
 * ScaledObjects (as generic resources). Writes go through the scale subresource with the observed
 * resourceVersion; a KEDA-managed workload is frozen/overridden through KEDA's paused-replicas
 * annotation and an HPA-managed one is refused with the reason. With a {@link LeaseKeeper}, only the
 * console holding a workload's lease scales it.
 *
 * <p>All methods are safe on any thread but the FX thread; reads are cache lookups.
 */
public final class KubeClusterGateway implements ClusterGateway {
    private static final Logger LOG = Logger.getLogger(KubeClusterGateway.class.getName());
    /** KEDA's ScaledObject, read as a generic resource so Headroom needs no KEDA classes. */
    public static final ResourceDefinitionContext SCALED_OBJECTS = new ResourceDefinitionContext.Builder()
            .withGroup("keda.sh").withVersion("v1alpha1").withKind("ScaledObject").withPlural("scaledobjects")
            .withNamespaced(true).build();

    private final KubeConnection connection;
    private final KubernetesClient client;
    private final Clock clock;
    private final LeaseKeeper leases;
    private final Permissions permissions;
    private final long resyncMillis;
    private final Map<String, NamespaceWatch> watches = new ConcurrentHashMap<>();
    private final List<Consumer<ClusterEvent>> listeners = new CopyOnWriteArrayList<>();
    private volatile Boolean keda;
    private volatile Instant lastEventAt;
    private volatile String lastError;
    private volatile Instant lastErrorAt;
    private volatile Instant staleSince;
    private volatile Instant lastProbeAt;
    private final java.util.concurrent.atomic.AtomicBoolean probing = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * @param leases null for a console that never contends (single-user tools, tests of other features)
     * @param resync how often informers re-deliver their cache (no API requests), e.g. 10 minutes
     */
    public KubeClusterGateway(KubeConnection connection, Clock clock, LeaseKeeper leases, Duration resync) {
        this.connection = connection;
        this.client = connection.client();
        this.clock = clock;
        this.leases = leases;
        this.permissions = new Permissions(client, clock, Duration.ofMinutes(1));
        this.resyncMillis = resync.toMillis();
    }

    /** Opens a gateway and starts watching the namespaces of the given targets. */
    public static KubeClusterGateway open(KubeConnection connection, Collection<WorkloadRef> targets, Clock clock,
                                          LeaseKeeper leases) {
        KubeClusterGateway g = new KubeClusterGateway(connection, clock, leases, Duration.ofMinutes(10));
        for (WorkloadRef r : targets) {
            g.watch(r.namespace());
        }
        return g;
    }

    @Override
    public String contextName() {
        return connection.context().name();
    }

    public KubeConnection connection() {
        return connection;
    }

    /** SelfSubjectAccessReview answers, cached for a minute. */
    public Permissions permissions() {
        return permissions;
    }

    /** The lease keeper, or empty when this gateway does not contend for leases. */
    public Optional<LeaseKeeper> leases() {
        return Optional.ofNullable(leases);
    }

    public void addListener(Consumer<ClusterEvent> l) {
        listeners.add(l);
    }

    public void removeListener(Consumer<ClusterEvent> l) {
        listeners.remove(l);
    }

    /** Whether the API serves KEDA's ScaledObject (checked once, by discovery). */
    public boolean kedaInstalled() {
        Boolean k = keda;
        if (k == null) {
            try {
                k = client.supports("keda.sh/v1alpha1", "ScaledObject");
            } catch (KubernetesClientException e) {
                recordError(e);
                k = false;
            }
            keda = k;
        }
        return k;
    }

    /** Starts the informers of a namespace (idempotent; returns at once, syncing continues in the background). */
    public void watch(String namespace) {
        watches.computeIfAbsent(namespace, NamespaceWatch::new);
    }

    /** Waits until every watched namespace has synced, up to {@code timeout}. For start-up off the FX thread and tests. */
    public boolean awaitSynced(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (NamespaceWatch w : watches.values()) {
            for (SharedIndexInformer<?> i : w.all()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    i.start().toCompletableFuture().get(left, TimeUnit.NANOSECONDS);
                } catch (Exception e) {
                    return false;
                }
            }
        }
        return true;
    }

    // ------------------------------------------------------------------ reads

    @Override
    public Optional<WorkloadState> workload(WorkloadRef ref) {
        NamespaceWatch w = watches.computeIfAbsent(ref.namespace(), NamespaceWatch::new);
        if (!w.workloadsSynced()) {
            throw new IllegalStateException("cluster view of namespace " + ref.namespace() + " is still syncing");
        }
        HasMetadata obj = isStatefulSet(ref) ? w.statefulSets.getStore().getByKey(key(ref))
                : w.deployments.getStore().getByKey(key(ref));
        return Optional.ofNullable(obj).map(o -> state(ref, o, w));
    }

    /** The workload as the API server has it now (a GET, not the cache): used after a conflict. */
    Optional<WorkloadState> fetch(WorkloadRef ref) {
        NamespaceWatch w = watches.computeIfAbsent(ref.namespace(), NamespaceWatch::new);
        HasMetadata obj = isStatefulSet(ref)
                ? client.apps().statefulSets().inNamespace(ref.namespace()).withName(ref.name()).get()
                : client.apps().deployments().inNamespace(ref.namespace()).withName(ref.name()).get();
        return Optional.ofNullable(obj).map(o -> state(ref, o, w));
    }

    private WorkloadState state(WorkloadRef ref, HasMetadata obj, NamespaceWatch w) {
        Integer spec;
        Integer ready;
        LabelSelector selector;
        if (obj instanceof StatefulSet s) {
            spec = s.getSpec().getReplicas();
            ready = s.getStatus() == null ? null : s.getStatus().getReadyReplicas();
            selector = s.getSpec().getSelector();
        } else {
            Deployment d = (Deployment) obj;
            spec = d.getSpec().getReplicas();
            ready = d.getStatus() == null ? null : d.getStatus().getReadyReplicas();
            selector = d.getSpec().getSelector();
        }
        List<PodState> pods = new ArrayList<>();
        Map<String, String> match = matchLabels(selector);
        for (Pod p : w.pods.getStore().list()) {
            if (selects(match, p)) {
                pods.add(pod(p));
            }
        }
        pods.sort((a, b) -> a.name().compareTo(b.name()));
        if (ready == null && obj.getMetadata().getGeneration() != null) {
            // No controller status yet: count what the pods say.
            ready = (int) pods.stream().filter(p -> p.ready() && !p.terminating()).count();
        }
        return new WorkloadState(ref, spec == null ? 1 : spec, ready == null ? 0 : ready,
                obj.getMetadata().getResourceVersion(), pods, clock.instant());
    }

    private static PodState pod(Pod p) {
        boolean ready = false;
        if (p.getStatus() != null && p.getStatus().getConditions() != null) {
            for (PodCondition c : p.getStatus().getConditions()) {
                if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
                    ready = true;
                }
            }
        }
        Map<String, String> ann = p.getMetadata().getAnnotations() == null ? Map.of() : p.getMetadata().getAnnotations();
        return new PodState(p.getMetadata().getName(), p.getStatus() == null ? "Unknown" : p.getStatus().getPhase(), ready,
                instant(p.getMetadata().getCreationTimestamp()), instant(p.getMetadata().getDeletionTimestamp()),
                p.getSpec() == null ? null : p.getSpec().getNodeName(),
                deletionCost(ann.get(PodMarks.DELETION_COST_ANNOTATION)), ann.get(PodMarks.DRAIN_ANNOTATION));
    }

    /**
     * The pod-deletion-cost annotation as Kubernetes reads it (a base-10 int32, nothing around it);
     * anything else reads as unset, never as an exception: the API server rejects such a value on
     * write, but a cache must not fail a whole workload over one odd pod.
     */
    static Integer deletionCost(String value) {
        if (value == null) {
            return null;
        }
        try {
            return Integer.valueOf(value, 10);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The labels a workload's selector requires; empty (selects nothing) without matchLabels. */
    private static Map<String, String> matchLabels(LabelSelector selector) {
        return selector == null || selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
    }

    /** Whether a workload whose selector requires {@code match} owns the pod. */
    private static boolean selects(Map<String, String> match, Pod p) {
        Map<String, String> labels = p.getMetadata().getLabels();
        return !match.isEmpty() && labels != null && labels.entrySet().containsAll(match.entrySet());
    }

    /** The cached workload's selector labels, or null when the cache does not have the workload. */
    private static Map<String, String> matchLabels(WorkloadRef ref, NamespaceWatch w) {
        HasMetadata obj = isStatefulSet(ref) ? w.statefulSets.getStore().getByKey(key(ref))
                : w.deployments.getStore().getByKey(key(ref));
        if (obj instanceof StatefulSet s) {
            return matchLabels(s.getSpec() == null ? null : s.getSpec().getSelector());
        }
        if (obj instanceof Deployment d) {
            return matchLabels(d.getSpec() == null ? null : d.getSpec().getSelector());
        }
        return null;
    }

    private static Instant instant(String ts) {
        try {
            return ts == null ? null : Instant.parse(ts);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public AutoscalerView autoscaler(WorkloadRef ref) {
        NamespaceWatch w = watches.computeIfAbsent(ref.namespace(), NamespaceWatch::new);
        List<GenericKubernetesResource> sos = w.scaledObjects == null ? List.of() : w.scaledObjects.getStore().list();
        return Autoscalers.view(ref, sos, w.hpas.getStore().list());
    }

    // ------------------------------------------------------------------ permissions and leases

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        String action = "scale " + ref;
        AutoscalerView v = autoscaler(ref);
        if (v.kind() == AutoscalerView.Kind.HPA) {
            return ActionCheck.denied(action, Autoscalers.hpaRefusal(v));
        }
        if (leases != null) {
            Optional<LeaseState> s = leases.state(ref);
            if (s.isPresent() && !s.get().mine()) {
                return ActionCheck.denied(action, s.get().note());
            }
        }
        for (Permission p : permissions.forActuation(ref.namespace(), v.kind() == AutoscalerView.Kind.KEDA)) {
            if (!p.allowed()) {
                return ActionCheck.denied(action, "not permitted to " + p.verb() + " " + p.resource() + " in "
                        + p.namespace() + ": " + p.reason());
            }
        }
        return ActionCheck.allowed(action);
    }

    /** Null when this console may actuate {@code ref}; otherwise the refusal. Takes the lease when free. */
    private ScaleResult leaseRefusal(WorkloadRef ref, int replicas) {
        if (leases == null || leases.holds(ref)) {
            return null;
        }
        LeaseState s = leases.acquire(ref);
        return s.mine() ? null : ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "observe only: " + s.note());
    }

    // ------------------------------------------------------------------ writes

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
        if (replicas < 0) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "replicas cannot be negative");
        }
        AutoscalerView v = autoscaler(ref);
        if (v.kind() == AutoscalerView.Kind.HPA) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, Autoscalers.hpaRefusal(v));
        }
        ScaleResult refused = leaseRefusal(ref, replicas);
        if (refused != null) {
            return refused;
        }
        if (v.kind() == AutoscalerView.Kind.KEDA) {
            return pauseKeda(ref, v, replicas, expectedResourceVersion, false);
        }
        return putScale(ref, replicas, expectedResourceVersion, false);
    }

    /** After a conflict the fresh state comes from the API server, not the (possibly lagging) cache. */
    @Override
    public Optional<WorkloadState> freshWorkload(WorkloadRef ref) {
        try {
            return fetch(ref);
        } catch (KubernetesClientException e) {
            recordError(e);
            throw new IllegalStateException(KubeErrors.describe(e), e);
        }
    }

    /** Server-side dry run ({@code dryRun=All}) of exactly the write {@link #scale} would send. */
    @Override
    public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
        AutoscalerView v = autoscaler(ref);
        if (v.kind() == AutoscalerView.Kind.HPA) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, Autoscalers.hpaRefusal(v));
        }
        if (v.kind() == AutoscalerView.Kind.KEDA) {
            return pauseKeda(ref, v, replicas, null, true);
        }
        return putScale(ref, replicas, null, true);
    }

    private ScaleResult putScale(WorkloadRef ref, int replicas, String expectedResourceVersion, boolean dryRun) {
        String what = (dryRun ? "dry run: " : "") + ref.kind() + " " + ref.namespace() + "/" + ref.name();
        try {
            Resource<? extends HasMetadata> res = isStatefulSet(ref)
                    ? client.apps().statefulSets().inNamespace(ref.namespace()).withName(ref.name())
                    : client.apps().deployments().inNamespace(ref.namespace()).withName(ref.name());
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
                String path = (isStatefulSet(ref) ? "apis/apps/v1/namespaces/%s/statefulsets/%s/scale"
                        : "apis/apps/v1/namespaces/%s/deployments/%s/scale").formatted(ref.namespace(), ref.name());
                int code = send("PUT", path + "?dryRun=All",
                        client.getKubernetesSerialization().asJson(wanted));
                if (code / 100 == 2) {
                    return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas,
                            what + " would scale " + from + " → " + replicas + " (server accepted, nothing changed)");
                }
                return ScaleResult.of(code == 409 ? ScaleResult.Outcome.CONFLICT
                        : code == 403 ? ScaleResult.Outcome.REFUSED : ScaleResult.Outcome.FAILED, replicas,
                        what + " rejected by the server: HTTP " + code);
            }
            res.scale(wanted);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "scaled " + what + " " + from + " → " + replicas);
        } catch (KubernetesClientException e) {
            return writeFailure(what, replicas, e);
        }
    }

    private ScaleResult pauseKeda(WorkloadRef ref, AutoscalerView v, int replicas, String expectedResourceVersion,
                                  boolean dryRun) {
        String what = (dryRun ? "dry run: " : "") + "KEDA-managed " + ref + " (ScaledObject " + v.name() + ")";
        try {
            if (expectedResourceVersion != null) {
                Optional<WorkloadState> now = fetch(ref);
                if (now.isPresent() && !expectedResourceVersion.equals(now.get().resourceVersion())) {
                    return ScaleResult.of(ScaleResult.Outcome.CONFLICT, replicas, what + " moved since it was read (resourceVersion "
                            + expectedResourceVersion + " → " + now.get().resourceVersion() + ")");
                }
            }
            Resource<GenericKubernetesResource> so = client.genericKubernetesResources(SCALED_OBJECTS)
                    .inNamespace(ref.namespace()).withName(v.name());
            GenericKubernetesResource cur = so.get();
            if (cur == null) {
                return ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, what + ": the ScaledObject is gone");
            }
            String patch = "{\"metadata\":{\"resourceVersion\":\"" + cur.getMetadata().getResourceVersion()
                    + "\",\"annotations\":{\"" + Autoscalers.PAUSED_REPLICAS + "\":\"" + replicas + "\"}}}";
            PatchContext ctx = new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE)
                    .withDryRun(dryRun ? List.of("All") : null).build();
            so.patch(ctx, patch);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, what + (dryRun ? " would be" : " is")
                    + " paused at " + replicas + " replicas via " + Autoscalers.PAUSED_REPLICAS
                    + ": KEDA scales it to " + replicas + " and stops autoscaling until handed back");
        } catch (KubernetesClientException e) {
            return writeFailure(what, replicas, e);
        }
    }

    /** Removes KEDA's paused-replicas annotation: KEDA autoscales the workload again. */
    @Override
    public ScaleResult handBack(WorkloadRef ref) {
        AutoscalerView v = autoscaler(ref);
        if (v.kind() != AutoscalerView.Kind.KEDA) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, "no KEDA ScaledObject manages " + ref
                    + (v.kind() == AutoscalerView.Kind.HPA ? " (an HPA does, and it was never paused)" : ""));
        }
        ScaleResult refused = leaseRefusal(ref, 0);
        if (refused != null) {
            return refused;
        }
        String what = "KEDA-managed " + ref + " (ScaledObject " + v.name() + ")";
        try {
            // Read the ScaledObject itself: the cache may not show a pause made a moment ago.
            GenericKubernetesResource so = client.genericKubernetesResources(SCALED_OBJECTS).inNamespace(ref.namespace())
                    .withName(v.name()).get();
            Map<String, String> ann = so == null ? null : so.getMetadata().getAnnotations();
            if (ann == null || !ann.containsKey(Autoscalers.PAUSED_REPLICAS)) {
                return ScaleResult.of(ScaleResult.Outcome.APPLIED, v.currentReplicas() == null ? 0 : v.currentReplicas(),
                        what + " is already under KEDA's control (not paused)");
            }
            client.genericKubernetesResources(SCALED_OBJECTS).inNamespace(ref.namespace()).withName(v.name())
                    // A JSON patch "remove" (RFC 6902): unambiguous, where a merge patch's null may be stored as a value.
                    .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"remove\",\"path\":\"/metadata/annotations/"
                            + Autoscalers.PAUSED_REPLICAS.replace("~", "~0").replace("/", "~1") + "\"}]");
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, v.currentReplicas() == null ? 0 : v.currentReplicas(),
                    what + " handed back to KEDA (" + Autoscalers.PAUSED_REPLICAS + " removed)");
        } catch (KubernetesClientException e) {
            return writeFailure(what, 0, e);
        }
    }

    // ------------------------------------------------------------------ drain marks

    /**
     * Marks pods for a drain with one JSON merge patch each ({@link PodMarks}: the lowest
     * pod-deletion-cost and {@value PodMarks#DRAIN_ANNOTATION}). Refused as a whole, before anything
     * changes, where {@link #scale} would refuse (an HPA manages the workload, another console holds
     * its lease) or when this user may not {@code patch pods} in the namespace. Otherwise each pod
     * must be in the watch cache and selected by the workload, as {@link #workload} counts pods;
     * each failure is "name: why". The patch carries the cached pod's uid, so a pod recreated under
     * the same name since (a StatefulSet's) is not marked in its stead: the server rejects a changed uid.
     */
    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
        if (pods.isEmpty()) {
            return new PodMarks.Result(List.of(), List.of());
        }
        if (drainId == null || drainId.isBlank()) {
            return PodMarks.Result.refused(pods, "a drain needs an id to mark pods with");
        }
        AutoscalerView v = autoscaler(ref);
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
        ScaleResult leaseRefused = leaseRefusal(ref, 0);
        if (leaseRefused != null) {
            return PodMarks.Result.refused(pods, leaseRefused.message());
        }
        Permission patch = permissions.can("patch", "pods", ref.namespace());
        if (!patch.allowed()) {
            return PodMarks.Result.refused(pods, "not permitted to patch pods in " + ref.namespace() + ": "
                    + patch.reason());
        }
        NamespaceWatch w = watches.computeIfAbsent(ref.namespace(), NamespaceWatch::new);
        if (!w.workloadsSynced()) {
            return PodMarks.Result.refused(pods, "cluster view of namespace " + ref.namespace() + " is still syncing");
        }
        Map<String, String> match = matchLabels(ref, w);
        if (match == null) {
            return PodMarks.Result.refused(pods, "no workload " + ref);
        }
        Map<String, String> marks = new LinkedHashMap<>();
        marks.put(PodMarks.DELETION_COST_ANNOTATION, Integer.toString(PodMarks.DRAIN_DELETION_COST));
        marks.put(PodMarks.DRAIN_ANNOTATION, drainId);
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String name : new LinkedHashSet<>(pods)) {
            Pod cached = w.pods.getStore().getByKey(ref.namespace() + "/" + name);
            if (cached == null) {
                failed.add(name + ": not found in namespace " + ref.namespace());
            } else if (!selects(match, cached)) {
                failed.add(name + ": not a pod of " + ref);
            } else {
                String why = patchAnnotations(ref.namespace(), name, cached.getMetadata().getUid(), marks);
                if (why == null) {
                    done.add(name);
                } else {
                    failed.add(name + ": " + (why.equals(GONE) ? "not found (deleted since it was seen)" : why));
                }
            }
        }
        return new PodMarks.Result(done, failed);
    }

    /**
     * Removes both drain annotations (a merge patch setting them to null: removing what is absent is a
     * no-op, so a retry is safe). A pod that is gone counts as done. Not refused for the lease or an
     * HPA: taking marks off is how an interrupted drain gives its pods back, and must not be blocked.
     * A pod the cache shows under another workload is left alone ("name: not a pod of …").
     */
    @Override
    public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
        NamespaceWatch w = watches.computeIfAbsent(ref.namespace(), NamespaceWatch::new);
        Map<String, String> match = w.workloadsSynced() ? matchLabels(ref, w) : null;
        Map<String, String> clear = new LinkedHashMap<>();
        clear.put(PodMarks.DELETION_COST_ANNOTATION, null);
        clear.put(PodMarks.DRAIN_ANNOTATION, null);
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String name : new LinkedHashSet<>(pods)) {
            Pod cached = w.pods.getStore().getByKey(ref.namespace() + "/" + name);
            if (cached != null && match != null && !selects(match, cached)) {
                failed.add(name + ": not a pod of " + ref);
                continue;
            }
            String markedBy = cached == null || cached.getMetadata().getAnnotations() == null ? null
                    : cached.getMetadata().getAnnotations().get(PodMarks.DRAIN_ANNOTATION);
            if (markedBy != null && !markedBy.equals(drainId)) {
                done.add(name); // another drain's mark: not ours to remove
                continue;
            }
            String why = patchAnnotations(ref.namespace(), name, null, clear);
            if (why == null || why.equals(GONE)) {
                done.add(name);
            } else {
                failed.add(name + ": " + why);
            }
        }
        return new PodMarks.Result(done, failed);
    }

    private static final String GONE = "gone";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One JSON merge patch of a pod's annotations (a null value removes one). Null when it landed,
     * {@link #GONE} on 404, otherwise why not.
     */
    private String patchAnnotations(String namespace, String pod, String uid, Map<String, String> annotations) {
        Map<String, Object> meta = new LinkedHashMap<>();
        if (uid != null) {
            meta.put("uid", uid);
        }
        meta.put("annotations", annotations);
        String body;
        try {
            body = JSON.writeValueAsString(Map.of("metadata", meta));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        try {
            client.pods().inNamespace(namespace).withName(pod).patch(PatchContext.of(PatchType.JSON_MERGE), body);
            return null;
        } catch (KubernetesClientException e) {
            return switch (e.getCode()) {
                case 404 -> GONE;
                case 403 -> "forbidden: " + KubeErrors.describe(e);
                default -> {
                    if (e.getCode() <= 0 || e.getCode() >= 500) {
                        recordError(e); // the API's trouble, not this pod's: health shows it
                    }
                    yield KubeErrors.describe(e);
                }
            };
        }
    }

    private ScaleResult writeFailure(String what, int replicas, KubernetesClientException e) {
        return switch (e.getCode()) {
            case 409 -> ScaleResult.of(ScaleResult.Outcome.CONFLICT, replicas,
                    what + " moved since it was read (stale resourceVersion); not overwritten");
            case 403 -> ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, what + ": forbidden: " + KubeErrors.describe(e));
            case 404 -> ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, what + ": not found");
            default -> {
                recordError(e);
                yield ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, what + ": " + KubeErrors.describe(e));
            }
        };
    }

    /** A raw request through the client's own HTTP stack (auth, counter, TLS); returns the status code. */
    private int send(String method, String path, String json) {
        String base = client.getMasterUrl().toString();
        byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpRequest req = client.getHttpClient().newHttpRequestBuilder()
                .uri(base + (base.endsWith("/") ? "" : "/") + path)
                .method(method, "application/json", new java.io.ByteArrayInputStream(body), (long) body.length)
                .build();
        try {
            HttpResponse<String> r = client.getHttpClient().sendAsync(req, String.class).get(30, TimeUnit.SECONDS);
            return r.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted");
        } catch (Exception e) {
            throw new KubernetesClientException("request failed: " + e.getClass().getSimpleName());
        }
    }

    // ------------------------------------------------------------------ health

    @Override
    public ClusterHealth health() {
        List<String> notReady = new ArrayList<>();
        boolean connected = true;
        boolean synced = true;
        for (NamespaceWatch w : watches.values()) {
            for (Map.Entry<String, SharedIndexInformer<?>> e : w.named().entrySet()) {
                SharedIndexInformer<?> i = e.getValue();
                if (!i.hasSynced()) {
                    synced = false;
                    notReady.add(e.getKey() + " in " + w.namespace + " (not synced)");
                } else if (!i.isWatching()) {
                    connected = false;
                    notReady.add(e.getKey() + " in " + w.namespace + " (watch down)");
                }
            }
        }
        connected = connected && synced;
        Instant now = clock.instant();
        if (connected) {
            staleSince = null;
        } else {
            if (staleSince == null) {
                staleSince = now;
            }
            if (synced) {
                probeIfUnexplained(now); // an initial list that fails reports through the informers' handler
            }
        }
        return new ClusterHealth(connected, synced, staleSince, lastEventAt, lastError, lastErrorAt,
                connection.requests().count(), notReady);
    }

    /**
     * While watches are down, fabric8 retries them inside its watch manager and reports nothing, so
     * the outage would have no reason. One cheap request ({@code GET /version}, no retries) off the
     * caller's thread records what the API answers: refused, TLS, 401 with an expired token. Again
     * every 30 s while the outage lasts, so the reason stays current; never more than every 5 s.
     */
    private void probeIfUnexplained(Instant now) {
        Instant errorAt = lastErrorAt;
        Instant since = staleSince;
        boolean explained = errorAt != null && since != null && !errorAt.isBefore(since)
                && Duration.between(errorAt, now).toSeconds() < 30;
        Instant last = lastProbeAt;
        if (explained || (last != null && Duration.between(last, now).toSeconds() < 5)
                || !probing.compareAndSet(false, true)) {
            return;
        }
        lastProbeAt = now;
        Thread t = new Thread(() -> {
            try {
                connection.probe();
                // The server answers: say so, so the outage is explained (and not probed every 5 s).
                lastError = "the API server answers again; watches are reconnecting";
                lastErrorAt = clock.instant();
            } catch (RuntimeException e) {
                recordError(e);
            } finally {
                probing.set(false);
            }
        }, "headroom-api-probe-" + contextName());
        t.setDaemon(true);
        t.start();
    }

    private void recordError(Throwable t) {
        lastError = KubeErrors.describe(t);
        lastErrorAt = clock.instant();
    }

    @Override
    public void close() {
        if (leases != null) {
            leases.close();
        }
        for (NamespaceWatch w : watches.values()) {
            w.close();
        }
        watches.clear();
    }

    @Override
    public String toString() {
        return "KubeClusterGateway[" + contextName() + ", namespaces " + watches.keySet() + "]";
    }

    private static String key(WorkloadRef ref) {
        return ref.namespace() + "/" + ref.name();
    }

    private static boolean isStatefulSet(WorkloadRef ref) {
        return ref.kind().toLowerCase(Locale.ROOT).equals("statefulset");
    }

    // ------------------------------------------------------------------ informers

    /** The informers of one namespace. */
    private final class NamespaceWatch {
        final String namespace;
        final SharedIndexInformer<Deployment> deployments;
        final SharedIndexInformer<StatefulSet> statefulSets;
        final SharedIndexInformer<Pod> pods;
        final SharedIndexInformer<HorizontalPodAutoscaler> hpas;
        final SharedIndexInformer<GenericKubernetesResource> scaledObjects;

        NamespaceWatch(String namespace) {
            this.namespace = namespace;
            deployments = start("Deployment", client.apps().deployments().inNamespace(namespace).runnableInformer(resyncMillis));
            statefulSets = start("StatefulSet", client.apps().statefulSets().inNamespace(namespace).runnableInformer(resyncMillis));
            pods = start("Pod", client.pods().inNamespace(namespace).runnableInformer(resyncMillis));
            hpas = start("HorizontalPodAutoscaler", client.autoscaling().v2().horizontalPodAutoscalers()
                    .inNamespace(namespace).runnableInformer(resyncMillis));
            scaledObjects = kedaInstalled() ? start("ScaledObject", client.genericKubernetesResources(SCALED_OBJECTS)
                    .inNamespace(namespace).runnableInformer(resyncMillis)) : null;
        }

        private <T extends HasMetadata> SharedIndexInformer<T> start(String kind, SharedIndexInformer<T> i) {
            i.addEventHandler(new ResourceEventHandler<T>() {
                @Override
                public void onAdd(T obj) {
                    changed(ClusterEvent.Type.ADDED, kind, obj);
                }

                @Override
                public void onUpdate(T oldObj, T newObj) {
                    String before = oldObj.getMetadata().getResourceVersion();
                    if (before != null && before.equals(newObj.getMetadata().getResourceVersion())) {
                        return; // a resync re-delivers the cache; nothing changed
                    }
                    changed(ClusterEvent.Type.UPDATED, kind, newObj);
                }

                @Override
                public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                    changed(ClusterEvent.Type.DELETED, kind, obj);
                }
            });
            i.exceptionHandler((started, t) -> {
                recordError(t);
                LOG.log(Level.FINE, () -> kind + " watch in " + namespace + ": " + KubeErrors.describe(t));
                return true; // keep retrying with fabric8's backoff; health() shows the error meanwhile
            });
            i.start();
            return i;
        }

        private void changed(ClusterEvent.Type type, String kind, HasMetadata obj) {
            Instant now = clock.instant();
            lastEventAt = now;
            ClusterEvent e = new ClusterEvent(type, kind, namespace, obj.getMetadata().getName(), now);
            for (Consumer<ClusterEvent> l : listeners) {
                try {
                    l.accept(e);
                } catch (RuntimeException ex) {
                    LOG.log(Level.WARNING, "cluster listener failed", ex);
                }
            }
        }

        boolean workloadsSynced() {
            return deployments.hasSynced() && statefulSets.hasSynced() && pods.hasSynced();
        }

        Map<String, SharedIndexInformer<?>> named() {
            Map<String, SharedIndexInformer<?>> m = new LinkedHashMap<>();
            m.put("deployments", deployments);
            m.put("statefulsets", statefulSets);
            m.put("pods", pods);
            m.put("horizontalpodautoscalers", hpas);
            if (scaledObjects != null) {
                m.put("scaledobjects", scaledObjects);
            }
            return m;
        }

        Collection<SharedIndexInformer<?>> all() {
            return named().values();
        }

        void close() {
            for (SharedIndexInformer<?> i : all()) {
                i.stop();
            }
        }
    }
}
