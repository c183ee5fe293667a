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
public final class KubeClusterGateway implements io.headroom.cluster.Workloads, io.headroom.cluster.Scaling,
        io.headroom.cluster.Pauses, io.headroom.cluster.DrainMarks, io.headroom.cluster.Nodes,
        io.headroom.cluster.TeamEvents, io.headroom.cluster.Health, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(KubeClusterGateway.class.getName());
    /** KEDA's ScaledObject, read as a generic resource so Headroom needs no KEDA classes. */
    public static final ResourceDefinitionContext SCALED_OBJECTS = new ResourceDefinitionContext.Builder()
            .withGroup("keda.sh").withVersion("v1alpha1").withKind("ScaledObject").withPlural("scaledobjects")
            .withNamespaced(true).build();
    /**
     * How long the first contact may take before the context reads as unreachable (it keeps trying):
     * the connection's {@link KubeTimeouts#connectDeadline()}, 10 s unless set.
     */
    private final Duration connectDeadline;
    /** A first-contact probe that waited this long before it failed met silence, not a refusal. */
    private final Duration silence;
    /** The last failed probe waited {@link #silence} or more (loop and connector threads read it). */
    private volatile boolean silent;
    /** Waits between first-contact attempts: doubling from the first, capped at the last. */
    static final Duration CONNECT_RETRY_FIRST = Duration.ofSeconds(1);
    static final Duration CONNECT_RETRY_MAX = Duration.ofSeconds(30);
    /** How long after opening a read may wait for the first contact and the first sync (never later). */
    static final Duration START_GRACE = Duration.ofSeconds(5);

    private final KubeConnection connection;
    private final KubernetesClient client;
    /** The same client without fabric8's retries: every write, the reads a write makes, probes. */
    private final KubernetesClient once;
    private final Clock clock;
    private final LeaseKeeper leases;
    private final Permissions permissions;
    private final long resyncMillis;
    /** Who sets this console's drain marks: the lease identity, or one made for this gateway. */
    private final String owner;
    private final Set<String> namespaces = ConcurrentHashMap.newKeySet();
    private final Map<String, NamespaceWatch> watches = new ConcurrentHashMap<>();
    private final List<Consumer<ClusterEvent>> listeners = new CopyOnWriteArrayList<>();
    /** Per class, no write before this instant: the API server asked so (429/503 with Retry-After). */
    private final Map<WorkloadRef, Instant> notBefore = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> connected = new CompletableFuture<>();
    /** Completed when the first contact attempt fails (reads stop waiting for it). */
    private final CompletableFuture<Void> firstFailure = new CompletableFuture<>();
    private final long createdNanos = System.nanoTime();
    private final ScheduledExecutorService connector;
    private volatile Instant connectingSince;
    private volatile String unreachable;
    private volatile int connectAttempts;
    private volatile boolean closed;
    private volatile Boolean keda;
    private volatile Instant lastEventAt;
    private volatile String lastError;
    private volatile Instant lastErrorAt;
    private volatile Instant staleSince;
    private volatile Instant lastProbeAt;
    private final java.util.concurrent.atomic.AtomicBoolean probing = new java.util.concurrent.atomic.AtomicBoolean();

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
    private void attemptConnect() {
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
    private void awaitStart(java.util.function.BooleanSupplier ready, CompletableFuture<?> done) {
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
    private NamespaceWatch watchOf(String namespace) {
        awaitStart(() -> connected.isDone() || unreachable != null, connected);
        String problem = connectionProblem();
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        namespaces.add(namespace);
        return watches.computeIfAbsent(namespace, NamespaceWatch::new);
    }

    /** This context's ports, assembled: the adapter behind each, closing them closes this gateway. */
    public io.headroom.cluster.ClusterPorts ports() {
        return io.headroom.cluster.ClusterPorts.builder(contextName()).workloads(this).scaling(this).pauses(this)
                .drainMarks(this).nodes(this).events(this).health(this).adapter(this).closer(this).build();
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
    private NamespaceWatch synced(WorkloadRef ref) {
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

    /**
     * A core/v1 Event on the workload, from component {@code headroom}, instance this console's
     * identity. Sent once (no retries), so a slow or refusing API server costs one request.
     */
    @Override
    public io.headroom.cluster.EventResult postEvent(WorkloadRef ref, io.headroom.cluster.TeamEvent e) {
        try {
            NamespaceWatch w = watchOf(ref.namespace());
            HasMetadata obj = !w.workloadsSynced() ? null : isStatefulSet(ref)
                    ? w.statefulSets.getStore().getByKey(key(ref)) : w.deployments.getStore().getByKey(key(ref));
            String ts = e.at().toString();
            io.fabric8.kubernetes.api.model.Event ev = new io.fabric8.kubernetes.api.model.EventBuilder()
                    .withNewMetadata().withGenerateName(ref.name() + ".headroom-").withNamespace(ref.namespace())
                    .addToLabels("app.kubernetes.io/managed-by", "headroom").endMetadata()
                    .withNewInvolvedObject().withApiVersion("apps/v1").withKind(isStatefulSet(ref) ? "StatefulSet" : "Deployment")
                    .withName(ref.name()).withNamespace(ref.namespace())
                    .withUid(obj == null ? null : obj.getMetadata().getUid()).endInvolvedObject()
                    .withReason(e.reason()).withMessage(io.headroom.config.UntrustedText.line(e.message(), 1000))
                    .withType(e.warning() ? "Warning" : "Normal")
                    .withNewSource().withComponent("headroom").endSource()
                    .withReportingComponent("headroom.io/console").withReportingInstance(owner)
                    .withFirstTimestamp(ts).withLastTimestamp(ts).withCount(1)
                    .build();
            once.v1().events().inNamespace(ref.namespace()).resource(ev).create();
            return io.headroom.cluster.EventResult.ok();
        } catch (KubernetesClientException ex) {
            return io.headroom.cluster.EventResult.notPosted(KubeErrors.describe(ex));
        } catch (RuntimeException ex) {
            return io.headroom.cluster.EventResult.notPosted(KubeErrors.describe(ex));
        }
    }

    /**
     * The Headroom events (label {@code app.kubernetes.io/managed-by=headroom}, reason {@code Headroom…})
     * in the watched namespaces and in {@code default} (where node events live), from {@code since}
     * on, oldest first. One list per namespace, sent once; a namespace that cannot be read is said.
     */
    @Override
    public io.headroom.cluster.TimelineRead teamEvents(Instant since) {
        List<io.headroom.cluster.TimelineEvent> events = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        java.util.Set<String> where = new java.util.TreeSet<>(namespaces);
        where.add("default");
        for (String ns : where) {
            try {
                for (io.fabric8.kubernetes.api.model.Event e : once.v1().events().inNamespace(ns)
                        .withLabel("app.kubernetes.io/managed-by", "headroom").list().getItems()) {
                    io.headroom.cluster.TimelineEvent t = timelineEvent(e);
                    if (t != null && (since == null || !t.at().isBefore(since))) {
                        events.add(t);
                    }
                }
            } catch (KubernetesClientException ex) {
                problems.add("events in namespace " + ns + " could not be read: " + KubeErrors.describe(ex));
            } catch (RuntimeException ex) {
                problems.add("events in namespace " + ns + " could not be read: " + KubeErrors.describe(ex));
            }
        }
        events.sort(java.util.Comparator.comparing(io.headroom.cluster.TimelineEvent::at));
        return new io.headroom.cluster.TimelineRead(events, problems, true);
    }

    /** A Headroom event as the timeline shows it; null for another reason or one without a time. */
    private io.headroom.cluster.TimelineEvent timelineEvent(io.fabric8.kubernetes.api.model.Event e) {
        String reason = e.getReason();
        if (reason == null || !reason.startsWith("Headroom")) {
            return null;
        }
        Instant at = null;
        for (String t : new String[] {e.getEventTime() == null ? null : e.getEventTime().getTime(),
                e.getLastTimestamp(), e.getFirstTimestamp(), e.getMetadata().getCreationTimestamp()}) {
            if (at == null && t != null && !t.isBlank()) {
                try {
                    at = Instant.parse(t);
                } catch (java.time.format.DateTimeParseException ignored) {
                    // the next time the event carries
                }
            }
        }
        if (at == null) {
            return null;
        }
        String message = io.headroom.config.UntrustedText.line(e.getMessage() == null ? "" : e.getMessage(), 1000);
        var o = e.getInvolvedObject();
        String console = e.getReportingInstance() != null && !e.getReportingInstance().isBlank()
                ? e.getReportingInstance() : e.getSource() == null ? null : e.getSource().getHost();
        return new io.headroom.cluster.TimelineEvent(at, io.headroom.config.UntrustedText.line(reason, 128), message,
                "Warning".equals(e.getType()), io.headroom.cluster.TimelineEvent.actorOf(message),
                console == null ? null : io.headroom.config.UntrustedText.line(console, 200), contextName(),
                o == null ? null : o.getKind(), o == null || o.getNamespace() == null ? e.getMetadata().getNamespace()
                : o.getNamespace(), o == null ? null : io.headroom.config.UntrustedText.line(o.getName(), 253));
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
    private WorkloadState state(WorkloadRef ref, HasMetadata obj, NamespaceWatch w, Instant observedAt) {
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
        Long generation = obj.getMetadata().getGeneration();
        return new WorkloadState(ref, spec == null ? 1 : spec, ready == null ? 0 : ready,
                obj.getMetadata().getResourceVersion(), pods, observedAt, generation == null ? 0 : generation);
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
                deletionCost(ann.get(PodMarks.DELETION_COST_ANNOTATION)), ann.get(PodMarks.DRAIN_ANNOTATION), null,
                ann.get(PodMarks.OWNER_ANNOTATION), deletionCost(ann.get(PodMarks.PRIOR_COST_ANNOTATION)));
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
        NamespaceWatch w = watchOf(ref.namespace());
        List<GenericKubernetesResource> sos = w.scaledObjects == null ? List.of() : w.scaledObjects.getStore().list();
        return Autoscalers.view(ref, sos, w.hpas.getStore().list());
    }

    // ------------------------------------------------------------------ permissions and leases

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        String action = "scale " + ref;
        String problem = connectionProblem();
        if (problem != null) {
            return ActionCheck.denied(action, "observe only: " + problem);
        }
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

    /**
     * Null when this console may write to {@code ref} now; otherwise the refusal. Takes the lease when
     * free, then fences: the Lease is re-read right before the write and must still be this console's.
     */
    private String leaseRefusal(WorkloadRef ref) {
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
    private String handBackRefusal(WorkloadRef ref) {
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
    private String heldBack(WorkloadRef ref) {
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

    private static long seconds(Duration d) {
        return Math.max(1, (d.toMillis() + 999) / 1000);
    }

    // ------------------------------------------------------------------ writes

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                             io.headroom.cluster.Redecision.Redecider redecider, int maxAttempts) {
        return io.headroom.cluster.Scaling.redecided(this, ref, replicas, expectedResourceVersion, redecider,
                maxAttempts, (want, version) -> scale(ref, want, version));
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
        if (replicas < 0) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "replicas cannot be negative");
        }
        String held = heldBack(ref);
        if (held != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, held);
        }
        AutoscalerView v = autoscaler(ref);
        if (v.kind() == AutoscalerView.Kind.HPA) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, Autoscalers.hpaRefusal(v));
        }
        if (v.kind() == AutoscalerView.Kind.KEDA) {
            return pauseKeda(ref, v, replicas, expectedResourceVersion, false);
        }
        return putScale(ref, replicas, expectedResourceVersion, false);
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
        return io.headroom.cluster.Scaling.redecided(this, ref, replicas, expectedResourceVersion, redecider, maxAttempts,
                (want, version) -> bumped(ref, want, version, bump));
    }

    private ScaleResult bumped(WorkloadRef ref, int replicas, String expectedResourceVersion,
                               io.headroom.cluster.ReplicaBump bump) {
        if (replicas < 0 || heldBack(ref) != null || autoscaler(ref).kind() != AutoscalerView.Kind.NONE) {
            return scale(ref, replicas, expectedResourceVersion); // refused as a scale is, or KEDA's own pause
        }
        String what = ref.kind() + " " + ref.namespace() + "/" + ref.name();
        long started = System.nanoTime();
        try {
            Resource<? extends HasMetadata> res = workloadNow(ref);
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
            ann.put(io.headroom.cluster.ReplicaBump.OWNER, bump == null ? null : bump.owner() != null ? bump.owner() : owner);
            ann.put(io.headroom.cluster.ReplicaBump.UNTIL, bump == null ? null : bump.until().toString());
            ann.put(io.headroom.cluster.ReplicaBump.FROM, bump == null ? null : Integer.toString(bump.from()));
            ann.put(io.headroom.cluster.ReplicaBump.TO, bump == null ? null : Integer.toString(bump.to()));
            ann.put(io.headroom.cluster.ReplicaBump.REASON, bump == null ? null
                    : io.headroom.config.UntrustedText.line(bump.reason(), 500));
            Map<String, Object> metadata = new LinkedHashMap<>();
            metadata.put("resourceVersion", version);
            metadata.put("annotations", ann);
            String patch = json(Map.of("metadata", metadata, "spec", Map.of("replicas", replicas)));
            String refused = leaseRefusal(ref); // the fence: right before the write, after the read
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, refused);
            }
            int from = replicasOf(cur);
            res.patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "scaled " + what + " " + from + " → " + replicas
                    + (bump == null ? " (Headroom's bump record removed)" : " (bump recorded: " + bump.reason()
                    + ", until " + bump.until() + ")"));
        } catch (KubernetesClientException e) {
            return writeFailure(ref, what, replicas, e, "/apis/apps/v1/namespaces/" + ref.namespace(), started);
        }
    }

    private static int replicasOf(HasMetadata workload) {
        Integer r = workload instanceof io.fabric8.kubernetes.api.model.apps.Deployment d && d.getSpec() != null
                ? d.getSpec().getReplicas()
                : workload instanceof io.fabric8.kubernetes.api.model.apps.StatefulSet st && st.getSpec() != null
                ? st.getSpec().getReplicas() : null;
        return r == null ? 1 : r;
    }

    /** The workload itself through the client that sends each request once (writes, and reads right before them). */
    private Resource<? extends HasMetadata> workloadNow(WorkloadRef ref) {
        return isStatefulSet(ref) ? once.apps().statefulSets().inNamespace(ref.namespace()).withName(ref.name())
                : once.apps().deployments().inNamespace(ref.namespace()).withName(ref.name());
    }

    /**
     * The workload's annotations read from the API server (null when it or they are missing), asked as the
     * console starts (waiting for the first contact within the start's grace); throws, in words, when unreachable.
     */
    private Map<String, String> annotationsAtStart(WorkloadRef ref) {
        awaitStart(() -> connected.isDone() || unreachable != null, connected);
        String problem = connectionProblem();
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
        HasMetadata obj = workloadNow(ref).get();
        return obj == null ? null : obj.getMetadata().getAnnotations();
    }

    /** The bump recorded on the workload, read from the API server; its owner and reason made safe to show. */
    @Override
    public Optional<io.headroom.cluster.ReplicaBump> replicaBump(WorkloadRef ref) {
        try {
            Map<String, String> ann = annotationsAtStart(ref);
            if (ann == null || !ann.containsKey(io.headroom.cluster.ReplicaBump.OWNER)) {
                return Optional.empty();
            }
            Instant until = instant(ann.get(io.headroom.cluster.ReplicaBump.UNTIL));
            return Optional.of(new io.headroom.cluster.ReplicaBump(
                    io.headroom.config.UntrustedText.line(ann.get(io.headroom.cluster.ReplicaBump.OWNER), 200),
                    until == null ? Instant.EPOCH : until, count(ann.get(io.headroom.cluster.ReplicaBump.FROM)),
                    count(ann.get(io.headroom.cluster.ReplicaBump.TO)),
                    io.headroom.config.UntrustedText.line(ann.getOrDefault(io.headroom.cluster.ReplicaBump.REASON, ""), 500)));
        } catch (KubernetesClientException e) {
            recordError(e);
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
        String problem = connectionProblem();
        if (problem != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, problem);
        }
        AutoscalerView v = autoscaler(ref);
        if (v.kind() == AutoscalerView.Kind.HPA) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, Autoscalers.hpaRefusal(v));
        }
        if (v.kind() == AutoscalerView.Kind.KEDA) {
            return pauseKeda(ref, v, replicas, null, true);
        }
        return putScale(ref, replicas, null, true);
    }

    private static String scalePath(WorkloadRef ref) {
        return (isStatefulSet(ref) ? "/apis/apps/v1/namespaces/%s/statefulsets/%s/scale"
                : "/apis/apps/v1/namespaces/%s/deployments/%s/scale").formatted(ref.namespace(), ref.name());
    }

    private ScaleResult putScale(WorkloadRef ref, int replicas, String expectedResourceVersion, boolean dryRun) {
        String what = (dryRun ? "dry run: " : "") + ref.kind() + " " + ref.namespace() + "/" + ref.name();
        long started = System.nanoTime();
        try {
            Resource<? extends HasMetadata> res = workloadNow(ref);
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
                int code = send("PUT", scalePath(ref).substring(1) + "?dryRun=All",
                        client.getKubernetesSerialization().asJson(wanted));
                if (code / 100 == 2) {
                    return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas,
                            what + " would scale " + from + " → " + replicas + " (server accepted, nothing changed)");
                }
                return ScaleResult.of(code == 409 ? ScaleResult.Outcome.CONFLICT
                        : code == 403 ? ScaleResult.Outcome.REFUSED : ScaleResult.Outcome.FAILED, replicas,
                        what + " rejected by the server: HTTP " + code);
            }
            String refused = leaseRefusal(ref); // the fence: right before the write, after the read
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, refused);
            }
            res.scale(wanted);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "scaled " + what + " " + from + " → " + replicas);
        } catch (KubernetesClientException e) {
            return writeFailure(ref, what, replicas, e, scalePath(ref), started);
        }
    }

    private ScaleResult pauseKeda(WorkloadRef ref, AutoscalerView v, int replicas, String expectedResourceVersion,
                                  boolean dryRun) {
        String what = (dryRun ? "dry run: " : "") + "KEDA-managed " + ref + " (ScaledObject " + v.name() + ")";
        String path = "/apis/keda.sh/v1alpha1/namespaces/%s/scaledobjects/%s".formatted(ref.namespace(), v.name());
        long started = System.nanoTime();
        try {
            if (expectedResourceVersion != null) {
                Optional<WorkloadState> now = fetch(ref);
                if (now.isPresent() && !expectedResourceVersion.equals(now.get().resourceVersion())) {
                    return ScaleResult.of(ScaleResult.Outcome.CONFLICT, replicas, what + " moved since it was read (resourceVersion "
                            + expectedResourceVersion + " → " + now.get().resourceVersion() + ")");
                }
            }
            Resource<GenericKubernetesResource> so = once.genericKubernetesResources(SCALED_OBJECTS)
                    .inNamespace(ref.namespace()).withName(v.name());
            GenericKubernetesResource cur = so.get();
            if (cur == null) {
                return ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, what + ": the ScaledObject is gone");
            }
            // KEDA's pause and who wrote it, until when, in one write: never a pause nobody owns.
            Map<String, String> ann = new LinkedHashMap<>();
            ann.put(Autoscalers.PAUSED_REPLICAS, Integer.toString(replicas));
            ann.put(io.headroom.cluster.HeadroomPause.OWNER, owner);
            ann.put(io.headroom.cluster.HeadroomPause.UNTIL,
                    clock.instant().plus(io.headroom.cluster.HeadroomPause.WRITTEN_FOR).toString());
            ann.put(io.headroom.cluster.HeadroomPause.REASON, "Headroom scaled it to " + replicas
                    + " (KEDA paused until handed back)");
            String patch = json(Map.of("metadata", Map.of("resourceVersion", cur.getMetadata().getResourceVersion(),
                    "annotations", ann)));
            PatchContext ctx = new PatchContext.Builder().withPatchType(PatchType.JSON_MERGE)
                    .withDryRun(dryRun ? List.of("All") : null).build();
            if (!dryRun) {
                String refused = leaseRefusal(ref);
                if (refused != null) {
                    return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, refused);
                }
            }
            so.patch(ctx, patch);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, what + (dryRun ? " would be" : " is")
                    + " paused at " + replicas + " replicas via " + Autoscalers.PAUSED_REPLICAS
                    + ": KEDA scales it to " + replicas + " and stops autoscaling until handed back");
        } catch (KubernetesClientException e) {
            return writeFailure(ref, what, replicas, e, path, started);
        }
    }

    /** Removes KEDA's paused-replicas annotation: KEDA autoscales the workload again. */
    @Override
    public ScaleResult handBack(WorkloadRef ref) {
        String held = heldBack(ref);
        if (held != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, held);
        }
        AutoscalerView v = autoscaler(ref);
        if (v.kind() != AutoscalerView.Kind.KEDA) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, "no KEDA ScaledObject manages " + ref
                    + (v.kind() == AutoscalerView.Kind.HPA ? " (an HPA does, and it was never paused)" : ""));
        }
        String what = "KEDA-managed " + ref + " (ScaledObject " + v.name() + ")";
        String path = "/apis/keda.sh/v1alpha1/namespaces/%s/scaledobjects/%s".formatted(ref.namespace(), v.name());
        long started = System.nanoTime();
        try {
            // Read the ScaledObject itself: the cache may not show a pause made a moment ago.
            GenericKubernetesResource so = once.genericKubernetesResources(SCALED_OBJECTS).inNamespace(ref.namespace())
                    .withName(v.name()).get();
            Map<String, String> ann = so == null ? null : so.getMetadata().getAnnotations();
            if (ann == null || !ann.containsKey(Autoscalers.PAUSED_REPLICAS)) {
                return ScaleResult.of(ScaleResult.Outcome.APPLIED, v.currentReplicas() == null ? 0 : v.currentReplicas(),
                        what + " is already under KEDA's control (not paused)");
            }
            String refused = handBackRefusal(ref);
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, refused);
            }
            // KEDA's pause and Headroom's record of it go in one write (JSON patch "remove", RFC 6902: unambiguous,
            // where a merge patch's null may be stored as a value): neither is ever left without the other.
            once.genericKubernetesResources(SCALED_OBJECTS).inNamespace(ref.namespace()).withName(v.name())
                    .patch(PatchContext.of(PatchType.JSON), removeAnnotations(ann, PAUSE_ANNOTATIONS));
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, v.currentReplicas() == null ? 0 : v.currentReplicas(),
                    what + " handed back to KEDA (" + Autoscalers.PAUSED_REPLICAS + " removed)");
        } catch (KubernetesClientException e) {
            return writeFailure(ref, what, 0, e, path, started);
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
        String held = heldBack(ref);
        if (held != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, at, held);
        }
        String what = ref.kind() + " " + ref.namespace() + "/" + ref.name();
        long started = System.nanoTime();
        try {
            Resource<? extends HasMetadata> res = workloadNow(ref);
            Optional<WorkloadState> now = fetch(ref);
            if (now.isEmpty()) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, at, "no workload " + ref);
            }
            String refused = handBackRefusal(ref);
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
                once.genericKubernetesResources(SCALED_OBJECTS).inNamespace(ref.namespace())
                        .withName(so.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE),
                                mergeAnnotations(soAnn));
                keda = "; KEDA ScaledObject " + so.getMetadata().getName() + " stays paused at "
                        + (paused == null ? Integer.toString(replicas) : paused) + " (" + Autoscalers.PAUSED_REPLICAS + ")";
            }
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "pause kept on " + what + " by "
                    + pause.owner() + " until " + pause.until() + keda);
        } catch (KubernetesClientException e) {
            return writeFailure(ref, "keep the pause on " + what, at, e,
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
        String held = heldBack(ref);
        if (held != null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, held);
        }
        String what = ref.kind() + " " + ref.namespace() + "/" + ref.name();
        long started = System.nanoTime();
        try {
            Resource<? extends HasMetadata> res = workloadNow(ref);
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
            String refused = handBackRefusal(ref);
            if (refused != null) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, 0, refused);
            }
            if (patch != null) {
                res.patch(PatchContext.of(PatchType.JSON), patch);
            }
            String keda = "";
            if (kedaPausedByUs) {
                String soPatch = removeAnnotations(soAnn, handBackToKeda ? PAUSE_ANNOTATIONS : PAUSE_RECORD);
                once.genericKubernetesResources(SCALED_OBJECTS).inNamespace(ref.namespace())
                        .withName(so.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON), soPatch);
                keda = handBackToKeda ? "; handed back to KEDA (ScaledObject " + so.getMetadata().getName() + ", "
                        + Autoscalers.PAUSED_REPLICAS + " removed)"
                        : "; KEDA stays paused (ScaledObject " + so.getMetadata().getName() + ", "
                        + Autoscalers.PAUSED_REPLICAS + " " + soAnn.get(Autoscalers.PAUSED_REPLICAS) + "), no longer Headroom's";
            }
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, 0, (handBackToKeda ? "pause on " + what + " ended"
                    : "Headroom's record of the pause on " + what + " cleared") + keda);
        } catch (KubernetesClientException e) {
            return writeFailure(ref, (handBackToKeda ? "end the pause on " : "clear the pause's record on ") + what, 0, e,
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
            Map<String, String> ann = annotationsAtStart(ref);
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
            recordError(e);
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
        if (!kedaInstalled()) {
            return null;
        }
        List<GenericKubernetesResource> sos = once.genericKubernetesResources(SCALED_OBJECTS)
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
        return json(Map.of("metadata", Map.of("annotations", ann)));
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
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
        return ops.isEmpty() ? null : json(ops);
    }

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
        String held = heldBack(ref);
        if (held != null) {
            return PodMarks.Result.refused(pods, held);
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
        Permission patch = permissions.can("patch", "pods", ref.namespace());
        if (!patch.allowed()) {
            return PodMarks.Result.refused(pods, "not permitted to patch pods in " + ref.namespace() + ": "
                    + patch.reason());
        }
        NamespaceWatch w = watchOf(ref.namespace());
        if (!w.workloadsSynced()) {
            return PodMarks.Result.refused(pods, "cluster view of namespace " + ref.namespace() + " is still syncing");
        }
        Map<String, String> match = matchLabels(ref, w);
        if (match == null) {
            return PodMarks.Result.refused(pods, "no workload " + ref);
        }
        String refused = leaseRefusal(ref); // the fence, right before the patches
        if (refused != null) {
            return PodMarks.Result.refused(pods, refused);
        }
        Instant expires = expiresAt != null ? expiresAt : clock.instant().plus(PodMarks.DEFAULT_TTL);
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String name : new LinkedHashSet<>(pods)) {
            Pod cached = w.pods.getStore().getByKey(ref.namespace() + "/" + name);
            if (cached == null) {
                failed.add(name + ": not found in namespace " + ref.namespace());
            } else if (!selects(match, cached)) {
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
            marks.put(PodMarks.OWNER_ANNOTATION, owner);
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
                p = once.pods().inNamespace(ref.namespace()).withName(p.getMetadata().getName()).get();
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
        String held = heldBack(ref); // not connected, or the server asked to wait: the caller retries later
        if (held != null) {
            return PodMarks.Result.refused(pods, held);
        }
        NamespaceWatch w = watchOf(ref.namespace());
        Map<String, String> match = w.workloadsSynced() ? matchLabels(ref, w) : null;
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (String name : new LinkedHashSet<>(pods)) {
            Pod cached = w.pods.getStore().getByKey(ref.namespace() + "/" + name);
            if (cached != null && match != null && !selects(match, cached)) {
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
        NamespaceWatch w = synced(ref); // "no marks" only from a view that has seen the pods
        Map<String, String> match = matchLabels(ref, w);
        if (match == null) {
            return List.of();
        }
        List<PodMarks.Found> out = new ArrayList<>();
        for (Pod p : w.pods.getStore().list()) {
            Map<String, String> ann = annotations(p);
            String id = ann.get(PodMarks.DRAIN_ANNOTATION);
            if (id != null && selects(match, p)) {
                out.add(new PodMarks.Found(p.getMetadata().getName(), id, ann.get(PodMarks.OWNER_ANNOTATION),
                        instant(ann.get(PodMarks.EXPIRES_ANNOTATION))));
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
        String held = heldBack(ref);
        if (held != null) {
            return PodMarks.Result.refused(names, held);
        }
        NamespaceWatch w = watchOf(ref.namespace());
        List<String> done = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (PodMarks.Found f : marks) {
            Pod cached = w.pods.getStore().getByKey(ref.namespace() + "/" + f.pod());
            String why = restore(ref, f.pod(), cached, m -> f.drainId().equals(m.get(PodMarks.DRAIN_ANNOTATION))
                    && instant(m.get(PodMarks.EXPIRES_ANNOTATION)) != null
                    && !now.isBefore(instant(m.get(PodMarks.EXPIRES_ANNOTATION))));
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
        return once.pods().inNamespace(namespace).withName(name).get();
    }

    private static Map<String, String> annotations(Pod p) {
        Map<String, String> a = p.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    private static final String GONE = "gone";
    private static final String CONFLICT = "conflict";
    private static final ObjectMapper JSON = new ObjectMapper();

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
            body = JSON.writeValueAsString(Map.of("metadata", meta));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        long started = System.nanoTime();
        try {
            once.pods().inNamespace(ref.namespace()).withName(pod).patch(PatchContext.of(PatchType.JSON_MERGE), body);
            return null;
        } catch (KubernetesClientException e) {
            return switch (e.getCode()) {
                case 404 -> GONE;
                case 409 -> CONFLICT;
                case 403 -> "forbidden: " + KubeErrors.describe(e);
                default -> {
                    if (e.getCode() <= 0 || e.getCode() >= 500) {
                        recordError(e); // the API's trouble, not this pod's: health shows it
                    }
                    String wait = holdFor(ref, e, "/api/v1/namespaces/" + ref.namespace() + "/pods/" + pod, started);
                    yield KubeErrors.describe(e) + (wait == null ? "" : "; " + wait);
                }
            };
        }
    }

    /**
     * After a 429 or 5xx: when the server said how long to wait (Retry-After, or the Status's
     * retryAfterSeconds), holds every write to {@code ref} until then and says so; null otherwise.
     */
    private String holdFor(WorkloadRef ref, KubernetesClientException e, String path, long startedNanos) {
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

    private ScaleResult writeFailure(WorkloadRef ref, String what, int replicas, KubernetesClientException e,
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

    // ------------------------------------------------------------------ nodes (node drains)

    /** Every node of this context with the pods bound to it: two reads of the API server (not a cache). */
    @Override
    public List<io.headroom.cluster.NodeState> nodes(String context) {
        if (!contextName().equals(context)) {
            return List.of();
        }
        Map<String, List<io.headroom.cluster.NodePod>> byNode = new java.util.HashMap<>();
        for (Pod p : once.pods().inAnyNamespace().list().getItems()) {
            String n = p.getSpec() == null ? null : p.getSpec().getNodeName();
            if (n != null) {
                byNode.computeIfAbsent(n, k -> new ArrayList<>()).add(nodePod(p));
            }
        }
        List<io.headroom.cluster.NodeState> out = new ArrayList<>();
        for (io.fabric8.kubernetes.api.model.Node n : once.nodes().list().getItems()) {
            out.add(nodeState(n, byNode.getOrDefault(n.getMetadata().getName(), List.of())));
        }
        out.sort(java.util.Comparator.comparing(n -> n.ref().name()));
        return out;
    }

    /** One node and its pods, read from the API server now (a field selector on spec.nodeName). */
    @Override
    public Optional<io.headroom.cluster.NodeState> node(io.headroom.cluster.NodeRef ref) {
        if (!contextName().equals(ref.context())) {
            return Optional.empty();
        }
        io.fabric8.kubernetes.api.model.Node n = once.nodes().withName(ref.name()).get();
        if (n == null) {
            return Optional.empty();
        }
        List<io.headroom.cluster.NodePod> pods = new ArrayList<>();
        for (Pod p : once.pods().inAnyNamespace().withField("spec.nodeName", ref.name()).list().getItems()) {
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
                instant(ann.get(io.headroom.cluster.CordonMark.AT_ANNOTATION)),
                ann.get(io.headroom.cluster.CordonMark.WHY_ANNOTATION),
                ann.get(io.headroom.cluster.CordonMark.DRAIN_ANNOTATION),
                instant(ann.get(io.headroom.cluster.CordonMark.EXPIRES_ANNOTATION))) : null;
        return new io.headroom.cluster.NodeState(new io.headroom.cluster.NodeRef(contextName(), n.getMetadata().getName()),
                n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable()), ready, sorted,
                clock.instant(), mark);
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
        if (annotations(p).containsKey("kubernetes.io/config.mirror")) {
            kind = "Node"; // a static pod's mirror: the kubelet owns it
        }
        return new io.headroom.cluster.NodePod(p.getMetadata().getNamespace(), p.getMetadata().getName(),
                p.getStatus() == null ? "Unknown" : p.getStatus().getPhase(), kind, owner,
                instant(p.getMetadata().getDeletionTimestamp()), annotations(p).get(PodMarks.DRAIN_ANNOTATION));
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
        if (!contextName().equals(ref.context())) {
            return io.headroom.cluster.NodeResult.failed("node " + ref + " is not in context " + contextName());
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
            body = JSON.writeValueAsString(patch);
        } catch (JsonProcessingException e) {
            return io.headroom.cluster.NodeResult.failed("cordon patch not written: " + e.getOriginalMessage());
        }
        try {
            once.nodes().withName(ref.name()).patch(PatchContext.of(PatchType.JSON_MERGE), body);
            return io.headroom.cluster.NodeResult.ok((unschedulable ? "cordoned " : "uncordoned ") + ref.name());
        } catch (KubernetesClientException e) {
            return io.headroom.cluster.NodeResult.failed(e.getCode() == 404 ? "no node " + ref.name()
                    : KubeErrors.describe(e));
        }
    }

    /**
     * One policy/v1 Eviction, POSTed once to the pod's eviction subresource with no delete options (the
     * pod's own grace period). fabric8's {@code evict()} answers a 429 with a bare false; the API server's
     * Status says which PodDisruptionBudget refused ({@code details.causes[].reason DisruptionBudget}), so
     * the request goes through the client's own HTTP stack (auth, TLS) and the Status is read here.
     */
    @Override
    public io.headroom.cluster.EvictionResult evict(String context, String namespace, String pod) {
        if (!contextName().equals(context)) {
            return io.headroom.cluster.EvictionResult.failed("context " + context + " is not " + contextName());
        }
        String body = "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":"
                + quote(pod) + ",\"namespace\":" + quote(namespace) + "}}";
        String base = once.getMasterUrl().toString();
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        HttpRequest req = once.getHttpClient().newHttpRequestBuilder()
                .uri(base + (base.endsWith("/") ? "" : "/") + "api/v1/namespaces/" + namespace + "/pods/" + pod
                        + "/eviction")
                .post("application/json", new java.io.ByteArrayInputStream(bytes), (long) bytes.length)
                .build();
        HttpResponse<String> r;
        try {
            r = once.getHttpClient().sendAsync(req, String.class).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return io.headroom.cluster.EvictionResult.failed("interrupted");
        } catch (Exception e) {
            recordError(e);
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
            com.fasterxml.jackson.databind.JsonNode status = JSON.readTree(body == null ? "{}" : body);
            if (status.hasNonNull("message")) {
                message = io.headroom.config.UntrustedText.line(status.get("message").asText(), 300);
            }
            com.fasterxml.jackson.databind.JsonNode details = status.path("details");
            if (retry == 0 && details.hasNonNull("retryAfterSeconds")) {
                retry = Math.min(RetryAfter.MAX_SECONDS, Math.max(0, details.get("retryAfterSeconds").asLong()));
            }
            for (com.fasterxml.jackson.databind.JsonNode c : details.path("causes")) {
                String kind = c.hasNonNull("reason") ? c.get("reason").asText() : c.path("type").asText("");
                if ("DisruptionBudget".equals(kind) && c.hasNonNull("message")) {
                    String m = io.headroom.config.UntrustedText.line(c.get("message").asText(), 300);
                    java.util.regex.Matcher x = java.util.regex.Pattern.compile("disruption budget (\\S+)").matcher(m);
                    budget = x.find() ? x.group(1) : "(unnamed)";
                    message = m;
                }
            }
        } catch (JsonProcessingException e) {
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
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A core/v1 Event on the node (in namespace default, where node events live), sent once. */
    @Override
    public io.headroom.cluster.EventResult postNodeEvent(io.headroom.cluster.NodeRef ref, io.headroom.cluster.TeamEvent e) {
        try {
            String ts = e.at().toString();
            io.fabric8.kubernetes.api.model.Event ev = new io.fabric8.kubernetes.api.model.EventBuilder()
                    .withNewMetadata().withGenerateName(ref.name() + ".headroom-").withNamespace("default")
                    .addToLabels("app.kubernetes.io/managed-by", "headroom").endMetadata()
                    .withNewInvolvedObject().withApiVersion("v1").withKind("Node").withName(ref.name())
                    .endInvolvedObject()
                    .withReason(e.reason()).withMessage(io.headroom.config.UntrustedText.line(e.message(), 1000))
                    .withType(e.warning() ? "Warning" : "Normal")
                    .withNewSource().withComponent("headroom").endSource()
                    .withReportingComponent("headroom.io/console").withReportingInstance(owner)
                    .withFirstTimestamp(ts).withLastTimestamp(ts).withCount(1)
                    .build();
            once.v1().events().inNamespace("default").resource(ev).create();
            return io.headroom.cluster.EventResult.ok();
        } catch (KubernetesClientException ex) {
            return io.headroom.cluster.EventResult.notPosted(KubeErrors.describe(ex));
        } catch (RuntimeException ex) {
            return io.headroom.cluster.EventResult.notPosted(KubeErrors.describe(ex));
        }
    }

    /** A raw request through the client's own HTTP stack (auth, counter, TLS), sent once; returns the status code. */
    private int send(String method, String path, String json) {
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

    private void recordError(Throwable t) {
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
