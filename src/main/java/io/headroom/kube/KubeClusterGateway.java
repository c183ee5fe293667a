package io.headroom.kube;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;
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
 * {@link ClusterGateway} against a Kubernetes API through fabric8. Reads come from informers (one
 * list, then a watch per resource type and namespace; fabric8 re-lists on reconnect and 410 Gone),
 * never from polling: Deployments, StatefulSets, their Pods, HPAs and, when the CRD is served, KEDA
 * ScaledObjects (as generic resources). Writes go through the scale subresource with the observed
 * resourceVersion; a KEDA-managed workload is frozen/overridden through KEDA's paused-replicas
 * annotation and an HPA-managed one is refused with the reason. With a {@link LeaseKeeper}, only the
 * console holding a workload's lease writes to it, and every write is fenced: the Lease is re-read
 * right before the request ({@link LeaseKeeper#fence}).
 *
 * <p>{@link #open} returns at once: the first contact with the API server (a probe, KEDA discovery)
 * runs on a thread of its own and is retried with backoff; until it succeeds, reads answer with a
 * clear problem ("connecting…", "unreachable: …") and writes are refused, so one unreachable cluster
 * never holds up another. Every write and Lease request is sent once ({@link KubeConnection#once()}):
 * a 500 or 429 is reported, not retried on the caller's thread, and a Retry-After keeps the class from
 * being written again before the server's time.
 *
 * <p>All methods are safe on any thread but the FX thread; reads are cache lookups.
 */
public final class KubeClusterGateway implements io.headroom.cluster.Workloads, io.headroom.cluster.Health,
        AutoCloseable {
    static final Logger LOG = Logger.getLogger(KubeClusterGateway.class.getName());
    /** KEDA's ScaledObject, read as a generic resource so Headroom needs no KEDA classes. */
    public static final ResourceDefinitionContext SCALED_OBJECTS = new ResourceDefinitionContext.Builder()
            .withGroup("keda.sh").withVersion("v1alpha1").withKind("ScaledObject").withPlural("scaledobjects")
            .withNamespaced(true).build();
    /**
     * How long the first contact may take before the context reads as unreachable (it keeps trying):
     * the connection's {@link KubeTimeouts#connectDeadline()}, 10 s unless set.
     */
    final Duration connectDeadline;
    /** A first-contact probe that waited this long before it failed met silence, not a refusal. */
    final Duration silence;
    /** The last failed probe waited {@link #silence} or more (loop and connector threads read it). */
    volatile boolean silent;
    /** Waits between first-contact attempts: doubling from the first, capped at the last. */
    static final Duration CONNECT_RETRY_FIRST = Duration.ofSeconds(1);
    static final Duration CONNECT_RETRY_MAX = Duration.ofSeconds(30);
    /** How long after opening a read may wait for the first contact and the first sync (never later). */
    static final Duration START_GRACE = Duration.ofSeconds(5);

    final KubeConnection connection;
    final KubernetesClient client;
    /** The same client without fabric8's retries: every write, the reads a write makes, probes. */
    final KubernetesClient once;
    final Clock clock;
    final LeaseKeeper leases;
    final Permissions permissions;
    final long resyncMillis;
    /** Who sets this console's drain marks: the lease identity, or one made for this gateway. */
    final String owner;
    final Set<String> namespaces = ConcurrentHashMap.newKeySet();
    final Map<String, NamespaceWatch> watches = new ConcurrentHashMap<>();
    final List<Consumer<ClusterEvent>> listeners = new CopyOnWriteArrayList<>();
    /** Per class, no write before this instant: the API server asked so (429/503 with Retry-After). */
    final Map<WorkloadRef, Instant> notBefore = new ConcurrentHashMap<>();
    final CompletableFuture<Void> connected = new CompletableFuture<>();
    /** Completed when the first contact attempt fails (reads stop waiting for it). */
    final CompletableFuture<Void> firstFailure = new CompletableFuture<>();
    final long createdNanos = System.nanoTime();
    final ScheduledExecutorService connector;
    volatile Instant connectingSince;
    volatile String unreachable;
    volatile int connectAttempts;
    volatile boolean closed;
    volatile Boolean keda;
    volatile Instant lastEventAt;
    volatile String lastError;
    volatile Instant lastErrorAt;
    volatile Instant staleSince;
    volatile Instant lastProbeAt;
    final java.util.concurrent.atomic.AtomicBoolean probing = new java.util.concurrent.atomic.AtomicBoolean();
    private final KubeScaling scaling = new KubeScaling(this);
    private final KubePauses pauses = new KubePauses(this);
    private final KubeDrainMarks drainMarks = new KubeDrainMarks(this);
    private final KubeNodes nodes = new KubeNodes(this);
    private final KubeTeamEvents events = new KubeTeamEvents(this);
    private final KubeAdmissions admissions = new KubeAdmissions(this);

    /**
     * A gateway that connects on {@code connector} (call {@link #connect()}, or use {@link #open}).
     *
     * @param leases null for a console that never contends (single-user tools, tests of other features)
     * @param resync how often informers re-deliver their cache (no API requests), e.g. 10 minutes
     */
    public KubeClusterGateway(KubeConnection connection, Clock clock, LeaseKeeper leases, Duration resync) {
        this.connection = connection;
        this.connectDeadline = connection.timeouts().connectDeadline();
        this.silence = connection.timeouts().silence();
        this.client = connection.client();
        this.once = connection.once();
        this.clock = clock;
        this.leases = leases;
        this.permissions = new Permissions(once, clock, Duration.ofMinutes(1));
        this.resyncMillis = resync.toMillis();
        this.owner = leases != null ? leases.identity() : HolderIdentity.current();
        this.connector = io.headroom.threads.NamedThreads.single("headroom-connect-" + connection.context().name());
    }

    /**
     * Opens a gateway for the targets' namespaces and returns at once: the first contact runs in the
     * background, with a deadline, retried until the API server answers (see the class comment).
     */
    public static KubeClusterGateway open(KubeConnection connection, Collection<WorkloadRef> targets, Clock clock,
                                          LeaseKeeper leases) {
        KubeClusterGateway g = new KubeClusterGateway(connection, clock, leases, Duration.ofMinutes(10));
        for (WorkloadRef r : targets) {
            g.watch(r.namespace());
        }
        g.connect();
        return g;
    }

    /** Starts the first contact in the background (idempotent while connecting). */
    public void connect() {
        if (connectingSince == null) {
            connectingSince = clock.instant();
            connector.execute(this::attemptConnect);
        }
    }

    /** One first-contact attempt on the connector's thread: probe, discover KEDA, start the informers. */
    void attemptConnect() {
        if (closed || connected.isDone()) {
            return;
        }
        connectAttempts++;
        Instant attempt = clock.instant();
        try {
            connection.probe();
        } catch (RuntimeException e) {
            if (!(e instanceof KubernetesClientException k) || k.getCode() <= 0) {
                unreachable = KubeErrors.describe(e);
                // A probe that waited long and then failed ("Socket closed": the client gave up) met silence.
                silent = !clock.instant().isBefore(attempt.plus(silence));
                recordError(e);
                firstFailure.complete(null);
                long wait = Math.min(CONNECT_RETRY_MAX.toMillis(),
                        CONNECT_RETRY_FIRST.toMillis() << Math.min(10, connectAttempts - 1));
                LOG.log(Level.FINE, () -> contextName() + " unreachable (" + unreachable + "); next try in " + wait + " ms");
                if (!closed) {
                    connector.schedule(this::attemptConnect, wait, TimeUnit.MILLISECONDS);
                }
                return;
            }
            recordError(e); // the server answered (401, 403, …): connected; health shows the error
        }
        kedaInstalled();
        unreachable = null;
        connected.complete(null);
        for (String ns : namespaces) {
            watches.computeIfAbsent(ns, NamespaceWatch::new);
        }
        connector.shutdown(); // its work is done: informers reconnect on fabric8's own threads
    }

    /**
     * Only in the first {@link #START_GRACE} after this gateway was made: waits (at most what is left
     * of it) until {@code ready} holds, so the first tick decides a reachable cluster's classes instead
     * of reporting "connecting…" or "still syncing" for a moment. A refused connection ends the wait at
     * once; later reads never wait.
     */
    void awaitStart(java.util.function.BooleanSupplier ready, CompletableFuture<?> done) {
        long left = createdNanos + START_GRACE.toNanos() - System.nanoTime();
        if (left <= 0 || ready.getAsBoolean() || closed) {
            return;
        }
        CompletableFuture<?> failed = firstFailure;
        try {
            CompletableFuture.anyOf(done, failed).get(left, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // the grace ran out, or the wait failed: the caller reports what it finds
        }
    }

    /**
     * The first contact's state in the operator's words, for the console's connection progress:
     * {@code null} reason while connecting or connected; the reason (credential-free) once an
     * attempt failed; {@code timedOut} once {@link #connectDeadline} passed without an answer, or the last attempt failed only after {@link #silence} of silence. Field
     * reads only: safe on the FX thread.
     */
    public record FirstContact(String server, boolean connected, String failure, boolean timedOut) {
    }

    public FirstContact firstContact() {
        Instant since = connectingSince;
        boolean late = since != null && !clock.instant().isBefore(since.plus(connectDeadline));
        return new FirstContact(connection.context().server(), connected.isDone(), unreachable,
                !connected.isDone() && (unreachable == null ? late : silent));
    }

    /** Whether the first contact succeeded: reads come from informers, writes may be sent. */
    public boolean isConnected() {
        return connected.isDone();
    }

    /**
     * Why this context cannot be read or written yet, or null once connected: "connecting…" during the
     * first {@link #connectDeadline}, then "unreachable: why" (it keeps trying in the background).
     */
    public String connectionProblem() {
        if (connected.isDone()) {
            return null;
        }
        String why = unreachable;
        Instant since = connectingSince;
        boolean late = since != null && !clock.instant().isBefore(since.plus(connectDeadline));
        if (why == null && !late) {
            return "context '" + contextName() + "': connecting… to " + connection.context().server();
        }
        return "context '" + contextName() + "' unreachable: " + (why != null ? why
                : "no answer from " + connection.context().server() + " within " + seconds(connectDeadline) + " s")
                + " (observe-only; still trying)";
    }

    /** The namespace's informers; refuses (with the reason) while the context is not connected. */
    NamespaceWatch watchOf(String namespace) {
        awaitStart(() -> connected.isDone() || unreachable != null, connected);
        String problem = connectionProblem();
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        namespaces.add(namespace);
        return watches.computeIfAbsent(namespace, NamespaceWatch::new);
    }

    /**
     * This context's ports, assembled: this gateway reads workloads and health; one adapter per seam
     * ({@link KubeScaling}, {@link KubePauses}, {@link KubeDrainMarks}, {@link KubeNodes}, {@link KubeTeamEvents})
     * writes through its connection and lease. Closing the set closes this gateway.
     */
    public io.headroom.cluster.ClusterPorts ports() {
        return io.headroom.cluster.ClusterPorts.builder(contextName()).workloads(this).scaling(scaling).pauses(pauses)
                .drainMarks(drainMarks).nodes(nodes).events(events).admissions(admissions).health(this).adapter(this).closer(this).build();
    }

    public io.headroom.cluster.Scaling scaling() {
        return scaling;
    }

    public io.headroom.cluster.Pauses pauses() {
        return pauses;
    }

    public io.headroom.cluster.DrainMarks drainMarks() {
        return drainMarks;
    }

    public io.headroom.cluster.Nodes nodes() {
        return nodes;
    }

    public io.headroom.cluster.TeamEvents events() {
        return events;
    }

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
                k = once.supports("keda.sh/v1alpha1", "ScaledObject");
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
        namespaces.add(namespace);
        if (connected.isDone()) {
            watches.computeIfAbsent(namespace, NamespaceWatch::new);
        }
    }

    /**
     * Waits until the first contact succeeded and every watched namespace has synced, up to
     * {@code timeout}. For start-up off the FX thread and tests.
     */
    public boolean awaitSynced(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            connected.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (Exception e) {
            return false;
        }
        for (String ns : namespaces) {
            NamespaceWatch w = watches.computeIfAbsent(ns, NamespaceWatch::new);
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
        NamespaceWatch w = synced(ref);
        HasMetadata obj = isStatefulSet(ref) ? w.statefulSets.getStore().getByKey(key(ref))
                : w.deployments.getStore().getByKey(key(ref));
        Instant asOf = w.asOf(clock.instant());
        return Optional.ofNullable(obj).map(o -> state(ref, o, w, asOf));
    }

    /** The namespace's view once its workloads and pods are synced (waiting only at start); throws while syncing. */
    NamespaceWatch synced(WorkloadRef ref) {
        NamespaceWatch w = watchOf(ref.namespace());
        if (!w.workloadsSynced()) {
            awaitStart(w::workloadsSynced, CompletableFuture.allOf(w.deployments.start().toCompletableFuture(),
                    w.statefulSets.start().toCompletableFuture(), w.pods.start().toCompletableFuture()));
        }
        if (!w.workloadsSynced()) {
            throw new IllegalStateException("cluster view of namespace " + ref.namespace() + " is still syncing");
        }
        return w;
    }

    Optional<WorkloadState> fetch(WorkloadRef ref) {
        NamespaceWatch w = watchOf(ref.namespace());
        HasMetadata obj = isStatefulSet(ref)
                ? once.apps().statefulSets().inNamespace(ref.namespace()).withName(ref.name()).get()
                : once.apps().deployments().inNamespace(ref.namespace()).withName(ref.name()).get();
        Instant now = clock.instant();
        return Optional.ofNullable(obj).map(o -> state(ref, o, w, now));
    }

    /** @param observedAt when what {@code obj} says was last known to be current (a cache whose watches are down: when they were last open) */
    WorkloadState state(WorkloadRef ref, HasMetadata obj, NamespaceWatch w, Instant observedAt) {
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
                pods.add(PodReads.pod(p));
            }
        }
        pods.sort((a, b) -> a.name().compareTo(b.name()));
        if (ready == null && obj.getMetadata().getGeneration() != null) {
            // No controller status yet: count what the pods say.
            ready = (int) pods.stream().filter(p -> p.ready() && !p.terminating()).count();
        }
        Long generation = obj.getMetadata().getGeneration();
        return new WorkloadState(ref, spec == null ? 1 : spec, ready == null ? 0 : ready,
                obj.getMetadata().getResourceVersion(), pods, observedAt, generation == null ? 0 : generation);
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
    static Map<String, String> matchLabels(LabelSelector selector) {
        return selector == null || selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
    }

    /** Whether a workload whose selector requires {@code match} owns the pod. */
    static boolean selects(Map<String, String> match, Pod p) {
        Map<String, String> labels = p.getMetadata().getLabels();
        return !match.isEmpty() && labels != null && labels.entrySet().containsAll(match.entrySet());
    }

    /** The cached workload's selector labels, or null when the cache does not have the workload. */
    static Map<String, String> matchLabels(WorkloadRef ref, NamespaceWatch w) {
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

    static Instant instant(String ts) {
        try {
            return ts == null ? null : Instant.parse(ts);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public AutoscalerView autoscaler(WorkloadRef ref) {
        NamespaceWatch w = watchOf(ref.namespace());
        List<GenericKubernetesResource> sos = w.scaledObjects == null ? List.of() : w.scaledObjects.getStore().list();
        return Autoscalers.view(ref, sos, w.hpas.getStore().list());
    }

    /**
     * Null when this console may write to {@code ref} now; otherwise the refusal. Takes the lease when
     * free, then fences: the Lease is re-read right before the write and must still be this console's.
     */
    String leaseRefusal(WorkloadRef ref) {
        if (leases == null) {
            return null;
        }
        if (!leases.holds(ref)) {
            LeaseState s = leases.acquire(ref);
            if (!s.mine()) {
                return "observe only: " + s.note();
            }
        }
        String fenced = leases.fence(ref);
        return fenced == null ? null : "observe only: " + fenced;
    }

    /**
     * {@link #leaseRefusal} for the hand-back's writes (KEDA's pause removed, a pause kept or ended), in
     * the words the exit dialog shows: who holds the workload's lease, and that nothing was written.
     */
    String handBackRefusal(WorkloadRef ref) {
        String refused = leaseRefusal(ref);
        if (refused == null) {
            return null;
        }
        String what = ref.kind() + " " + ref.namespace() + "/" + ref.name();
        String holder = leases.state(ref).map(LeaseState::holder)
                .filter(h -> !h.isBlank() && !h.equals(leases.identity())).orElse(null);
        return holder != null
                ? "another console (" + holder + ") holds the lease for " + what + ": nothing was written"
                : "nothing was written to " + what + ": " + refused;
    }

    /** Null when {@code ref} may be written now; otherwise why not (the server asked to wait, or not connected). */
    String heldBack(WorkloadRef ref) {
        String problem = connectionProblem();
        if (problem != null) {
            return problem;
        }
        Instant until = notBefore.get(ref);
        if (until == null) {
            return null;
        }
        Instant now = clock.instant();
        if (!now.isBefore(until)) {
            notBefore.remove(ref, until);
            return null;
        }
        return "not written: the API server asked for no more requests until " + until + " (retry after "
                + seconds(Duration.between(now, until)) + " s)";
    }

    static long seconds(Duration d) {
        return Math.max(1, (d.toMillis() + 999) / 1000);
    }

    /** The workload itself through the client that sends each request once (writes, and reads right before them). */
    Resource<? extends HasMetadata> workloadNow(WorkloadRef ref) {
        return isStatefulSet(ref) ? once.apps().statefulSets().inNamespace(ref.namespace()).withName(ref.name())
                : once.apps().deployments().inNamespace(ref.namespace()).withName(ref.name());
    }

    /**
     * The workload's annotations read from the API server (null when it or they are missing), asked as the
     * console starts (waiting for the first contact within the start's grace); throws, in words, when unreachable.
     */
    Map<String, String> annotationsAtStart(WorkloadRef ref) {
        awaitStart(() -> connected.isDone() || unreachable != null, connected);
        String problem = connectionProblem();
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        HasMetadata obj = workloadNow(ref).get();
        return obj == null ? null : obj.getMetadata().getAnnotations();
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

    static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JacksonException e) {
            throw new IllegalStateException(e);
        }
    }

    static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().build();

    /**
     * After a 429 or 5xx: when the server said how long to wait (Retry-After, or the Status's
     * retryAfterSeconds), holds every write to {@code ref} until then and says so; null otherwise.
     */
    String holdFor(WorkloadRef ref, KubernetesClientException e, String path, long startedNanos) {
        if (e.getCode() != 429 && e.getCode() < 500) {
            return null;
        }
        java.util.OptionalLong header = connection.retryAfter().since(path, startedNanos);
        Long secs = header.isPresent() ? Long.valueOf(header.getAsLong()) : null;
        if (secs == null && e.getStatus() != null && e.getStatus().getDetails() != null
                && e.getStatus().getDetails().getRetryAfterSeconds() != null) {
            secs = Math.min(RetryAfter.MAX_SECONDS, Math.max(0, e.getStatus().getDetails().getRetryAfterSeconds()));
        }
        if (secs == null || secs <= 0) {
            return null;
        }
        Instant until = clock.instant().plusSeconds(secs);
        notBefore.merge(ref, until, (a, b) -> a.isAfter(b) ? a : b);
        return "retry after " + secs + " s (the API server asked; " + ref + " is not written again before "
                + until + ")";
    }

    ScaleResult writeFailure(WorkloadRef ref, String what, int replicas, KubernetesClientException e,
                                     String path, long startedNanos) {
        return switch (e.getCode()) {
            case 409 -> ScaleResult.of(ScaleResult.Outcome.CONFLICT, replicas,
                    what + " moved since it was read (stale resourceVersion); not overwritten");
            case 403 -> ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, what + ": forbidden: " + KubeErrors.describe(e));
            case 404 -> ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, what + ": not found");
            default -> {
                recordError(e);
                String wait = holdFor(ref, e, path, startedNanos);
                yield ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, what + ": " + KubeErrors.describe(e)
                        + (wait == null ? "" : "; " + wait));
            }
        };
    }

    /** A raw request through the client's own HTTP stack (auth, counter, TLS), sent once; returns the status code. */
    int send(String method, String path, String json) {
        String base = once.getMasterUrl().toString();
        byte[] body = json.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpRequest req = once.getHttpClient().newHttpRequestBuilder()
                .uri(base + (base.endsWith("/") ? "" : "/") + path)
                .method(method, "application/json", new java.io.ByteArrayInputStream(body), (long) body.length)
                .build();
        try {
            HttpResponse<String> r = once.getHttpClient().sendAsync(req, String.class).get(30, TimeUnit.SECONDS);
            return r.code();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KubernetesClientException("interrupted");
        } catch (Exception e) {
            throw new KubernetesClientException("request failed: " + io.headroom.ErrorWords.of(e));
        }
    }

    // ------------------------------------------------------------------ health

    @Override
    public ClusterHealth health() {
        String problem = connectionProblem();
        if (problem != null) {
            return new ClusterHealth(false, false, connectingSince, lastEventAt, problem, lastErrorAt,
                    connection.requests().count(), List.of(problem), connection.warnings());
        }
        List<String> notReady = new ArrayList<>();
        boolean live = true;
        boolean synced = true;
        for (NamespaceWatch w : watches.values()) {
            for (Map.Entry<String, SharedIndexInformer<?>> e : w.named().entrySet()) {
                SharedIndexInformer<?> i = e.getValue();
                if (!i.hasSynced()) {
                    synced = false;
                    notReady.add(e.getKey() + " in " + w.namespace + " (not synced)");
                } else if (!i.isWatching()) {
                    live = false;
                    notReady.add(e.getKey() + " in " + w.namespace + " (watch down)");
                }
            }
        }
        live = live && synced;
        Instant now = clock.instant();
        if (live) {
            staleSince = null;
        } else {
            if (staleSince == null) {
                staleSince = now;
            }
            if (synced) {
                probeIfUnexplained(now); // an initial list that fails reports through the informers' handler
            }
        }
        return new ClusterHealth(live, synced, staleSince, lastEventAt, lastError, lastErrorAt,
                connection.requests().count(), notReady, connection.warnings());
    }

    /**
     * While watches are down, fabric8 retries them inside its watch manager and reports nothing, so
     * the outage would have no reason. One cheap request ({@code GET /version}, no retries) off the
     * caller's thread records what the API answers: refused, TLS, 401 with an expired token. Again
     * every 30 s while the outage lasts, so the reason stays current; never more than every 5 s.
     */
    void probeIfUnexplained(Instant now) {
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
        io.headroom.threads.NamedThreads.start("headroom-api-probe-" + contextName(), () -> {
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
        });
    }

    void recordError(Throwable t) {
        lastError = KubeErrors.describe(t);
        lastErrorAt = clock.instant();
    }

    @Override
    public void close() {
        closed = true;
        connector.shutdownNow();
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

    static String key(WorkloadRef ref) {
        return ref.namespace() + "/" + ref.name();
    }

    static boolean isStatefulSet(WorkloadRef ref) {
        return ref.kind().toLowerCase(Locale.ROOT).equals("statefulset");
    }

    // ------------------------------------------------------------------ informers

    /** The informers of one namespace. */
    final class NamespaceWatch {
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

        /** When the workload watches were last seen open: what the cache holds is current as of then. */
        private volatile Instant liveAt;

        /**
         * How current a read of this namespace's cache is at {@code now}: {@code now} while its workload
         * watches are open; once one is down (the API server went away), the last time they were seen
         * open, so a reader can tell the last known from the current.
         */
        Instant asOf(Instant now) {
            Instant live = liveAt;
            if (deployments.isWatching() && statefulSets.isWatching() && pods.isWatching() || live == null) {
                liveAt = now; // the first read after the initial list: the list is as of now
                return now;
            }
            return live;
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
