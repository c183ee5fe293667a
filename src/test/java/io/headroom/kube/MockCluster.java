package io.headroom.kube;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerSpecBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.WorkloadsFile;
import io.headroom.journal.Journal;
import io.headroom.session.Session;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * A fabric8 mock API server on loopback in mixed mode: expectations first (for what CRUD mode cannot
 * answer: SelfSubjectAccessReview, dry runs), CRUD for everything else. Plus fixtures and a
 * kubeconfig writer. Kube tests get one per test from {@link MockApiServerExtension}; the few members
 * tests of other packages (the console's UI tests) need are public.
 */
public final class MockCluster implements AutoCloseable {
    /** The mock server logs every request at INFO; keep test output readable. Held strongly so the level sticks. */
    static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_LOG.setLevel(Level.WARNING);
    }

    /**
     * KEDA's ScaledObject {@code shop/orders-so} on Deployment {@code orders} with every part Headroom reads:
     * bounds, cooldown and polling, fallback, the HPA behaviour, a Prometheus and a Redis trigger (its
     * password must never be shown).
     */
    public static final String ORDERS_SCALED_OBJECT = """
            apiVersion: keda.sh/v1alpha1
            kind: ScaledObject
            metadata:
              name: orders-so
              namespace: shop
            spec:
              scaleTargetRef:
                name: orders
              minReplicaCount: 1
              maxReplicaCount: 30
              cooldownPeriod: 120
              pollingInterval: 15
              fallback:
                failureThreshold: 4
                replicas: 6
              advanced:
                horizontalPodAutoscalerConfig:
                  behavior:
                    scaleDown:
                      stabilizationWindowSeconds: 600
                      policies:
                        - type: Pods
                          value: 2
                          periodSeconds: 60
                    scaleUp:
                      stabilizationWindowSeconds: 0
                      selectPolicy: Max
                      policies:
                        - type: Percent
                          value: 200
                          periodSeconds: 30
                        - type: Pods
                          value: 5
                          periodSeconds: 30
              triggers:
                - type: prometheus
                  metadata:
                    serverAddress: http://prometheus.monitoring:9090
                    query: sum(orders_queue_depth{queue="orders"})
                    threshold: "50"
                - type: redis
                  metadata:
                    address: redis.shop:6379
                    listName: orders-retry
                    listLength: "10"
                    password: hunter2
            """;

    /**
     * A KEDA ScaledObject {@code ns/name} that scales Deployment {@code target} from 1 to 30 on one
     * Prometheus trigger (the queue depth of orders, threshold 50); {@code moreMetadata}: YAML lines to
     * add under {@code metadata} (indented by two spaces, each ending in a newline), or "".
     */
    public static String prometheusScaledObject(String ns, String name, String target, String moreMetadata) {
        return """
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata:
                  name: %s
                  namespace: %s
                %sspec:
                  scaleTargetRef:
                    name: %s
                  minReplicaCount: 1
                  maxReplicaCount: 30
                  triggers:
                    - type: prometheus
                      metadata:
                        serverAddress: http://prometheus.monitoring:9090
                        query: sum(orders_queue_depth)
                        threshold: "50"
                """.formatted(name, ns, moreMetadata, target);
    }

    /** The mock itself, for expectations ({@code server.expect()...}) where CRUD mode is not the answer wanted. */
    public final KubernetesMockServer server;
    public final KubernetesClient admin;
    /** Every PATCH this server received, with its body (the CRUD mock consumes recorded bodies). */
    final List<Patch> patches = new CopyOnWriteArrayList<>();
    /** Watch events this server holds back while told to: a watch that lags ({@link #holdWatchEvents}). */
    private final WatchLag watchLag = new WatchLag();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<KubeClusterGateway> gateways = new CopyOnWriteArrayList<>();

    /** Every POST or PUT of a ScaledObject with {@code dryRun=All}: answered as the API server does, nothing stored. */
    public final List<String> dryRuns = new CopyOnWriteArrayList<>();

    /** One PATCH as it arrived. */
    record Patch(String path, String contentType, String body) {
    }

    /** Serving https with the mock's own self-signed certificate (not for 127.0.0.1): a client that checks refuses it. */
    private final boolean https;

    public MockCluster() {
        this(0, false, false);
    }

    /**
     * An API server on loopback behind a self-signed certificate issued to another name, as a lab cluster
     * reached with {@code insecure-skip-tls-verify}: only a client that checks nothing talks to it.
     */
    public static MockCluster withSelfSignedTls() {
        return new MockCluster(0, false, true);
    }

    private MockCluster(int port, boolean restarted) {
        this(port, restarted, false);
    }

    private MockCluster(int port, boolean restarted, boolean https) {
        this.https = https;
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                restarted ? new RestartedDispatcher(responses, patches, dryRuns, watchLag)
                        : new MergePatchDispatcher(responses, patches, dryRuns, watchLag),
                https);
        server.init(InetAddress.getLoopbackAddress(), port);
        admin = server.createClient();
    }

    /**
     * An API server back on the port of one that went away, with its own (empty) store and no watch
     * history from before it started: a watch that resumes from a resourceVersion it never served gets
     * the answer a real API server gives when its watch cache no longer holds that resourceVersion, an
     * {@code ERROR} event carrying a 410 Gone status ("too old resource version"), upon which clients
     * re-list. (Left alone, the mock accepts any resourceVersion and replays nothing, so an object
     * deleted while the client was away would stay in its cache for ever.)
     */
    static MockCluster restartedOn(int port) {
        return new MockCluster(port, true);
    }

    /**
     * Mixed mode with JSON merge patches as RFC 7386 (and the API server) has them: a null removes
     * the field. The CRUD mock would store the null as a value, so a merge patch holding nulls is
     * merged here, onto the object the mock holds, and handed on as a JSON patch that sets each
     * top-level field it touches (expectations, resourceVersion checks and watch events still apply).
     */
    private static class MergePatchDispatcher extends KubernetesMixedDispatcher {
        private static final ObjectMapper JSON = new ObjectMapper();
        private final List<Patch> patches;
        private final List<String> dryRuns;
        private final WatchLag watchLag;

        MergePatchDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses, List<Patch> patches,
                             List<String> dryRuns, WatchLag watchLag) {
            super(responses);
            this.patches = patches;
            this.dryRuns = dryRuns;
            this.watchLag = watchLag;
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            return watchLag.wrap(request, dispatchNow(request));
        }

        private MockResponse dispatchNow(RecordedRequest request) {
            String p = request.getPath();
            if (p != null && p.contains("/scaledobjects") && p.contains("dryRun=All")
                    && ("POST".equals(request.getMethod()) || "PUT".equals(request.getMethod()))) {
                return dryRun(request, super::dispatch, dryRuns);
            }
            if ("GET".equals(request.getMethod()) && request.getPath().contains("fieldSelector=spec.nodeName")) {
                // CRUD mode filters by labels, not by spec.nodeName: hand over every pod (the gateway checks
                // each pod's node itself), as an API server without the index would.
                String path = request.getPath().replaceAll("fieldSelector=spec.nodeName(%3D|=)[^&]*&?", "")
                        .replaceAll("[?&]$", "");
                return super.dispatch(new RecordedRequest(request.getHttpVersion(), HttpMethod.GET, path,
                        request.getHeaders(), request.getBody()));
            }
            if (!"PATCH".equals(request.getMethod())) {
                return super.dispatch(request);
            }
            String type = request.getHeader("Content-Type");
            // getBytes(), not getUtf8Body(): reading the body that way would leave the mock nothing to apply.
            String body = request.getBody() == null ? "" : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
            patches.add(new Patch(request.getPath(), type, body));
            if (type == null || !type.startsWith("application/merge-patch+json")) {
                return super.dispatch(request);
            }
            try {
                JsonNode patch = JSON.readTree(body);
                if (!hasNull(patch)) {
                    return super.dispatch(request);
                }
                String path = request.getPath();
                int q = path.indexOf('?');
                MockResponse current = super.dispatch(new RecordedRequest(request.getHttpVersion(), HttpMethod.GET,
                        q < 0 ? path : path.substring(0, q), request.getHeaders(), new Buffer()));
                if (current.code() != 200) {
                    return current;
                }
                JsonNode before = JSON.readTree(current.getBody().readUtf8());
                JsonNode after = merge(before.deepCopy(), patch);
                ArrayNode ops = JSON.createArrayNode();
                patch.propertyNames().iterator().forEachRemaining(field -> {
                    if (after.has(field)) {
                        ops.addObject().put("op", "add").put("path", "/" + field).set("value", after.get(field));
                    } else if (before.has(field)) {
                        ops.addObject().put("op", "remove").put("path", "/" + field);
                    }
                });
                Headers headers = request.getHeaders().newBuilder()
                        .set("Content-Type", "application/json-patch+json").build();
                return super.dispatch(new RecordedRequest(request.getHttpVersion(), HttpMethod.PATCH, path, headers,
                        new Buffer(JSON.writeValueAsBytes(ops))));
            } catch (tools.jackson.core.JacksonException e) {
                throw new UncheckedIOException(new IOException(e));
            }
        }

        private static boolean hasNull(JsonNode n) {
            if (n.isNull()) {
                return true;
            }
            for (JsonNode child : n) {
                if (hasNull(child)) {
                    return true;
                }
            }
            return false;
        }

        /** RFC 7386 §2. */
        private static JsonNode merge(JsonNode target, JsonNode patch) {
            if (!patch.isObject()) {
                return patch;
            }
            ObjectNode t = target != null && target.isObject() ? (ObjectNode) target : JSON.createObjectNode();
            patch.properties().iterator().forEachRemaining(e -> {
                if (e.getValue().isNull()) {
                    t.remove(e.getKey());
                } else {
                    t.set(e.getKey(), merge(t.get(e.getKey()), e.getValue()));
                }
            });
            return t;
        }
    }

    /**
     * A POST or PUT with {@code dryRun=All} answered as the API server does, from what CRUD mode
     * ({@code crud}) holds: stored nothing, a clash or a stale resourceVersion is a 409.
     */
    private static MockResponse dryRun(RecordedRequest request, java.util.function.Function<RecordedRequest, MockResponse> crud,
                               List<String> dryRuns) {
        String path = request.getPath();
        dryRuns.add(request.getMethod() + " " + path);
        String body = request.getBody() == null ? "" : new String(request.getBody().getBytes(), StandardCharsets.UTF_8);
        String bare = path.substring(0, path.indexOf('?'));
        try {
            ObjectNode sent = (ObjectNode) MergePatchDispatcher.JSON.readTree(body);
            if ("POST".equals(request.getMethod())) {
                String name = sent.path("metadata").path("name").asString("");
                MockResponse existing = crud.apply(new RecordedRequest(request.getHttpVersion(), HttpMethod.GET,
                        bare + "/" + name, request.getHeaders(), new Buffer()));
                if (existing.code() == 200) {
                    return new MockResponse().setResponseCode(409).setBody("{\"kind\":\"Status\",\"code\":409}");
                }
                return new MockResponse().setResponseCode(201).setBody(MergePatchDispatcher.JSON.writeValueAsString(sent));
            }
            MockResponse current = crud.apply(new RecordedRequest(request.getHttpVersion(), HttpMethod.GET, bare,
                    request.getHeaders(), new Buffer()));
            if (current.code() != 200) {
                return current;
            }
            JsonNode now = MergePatchDispatcher.JSON.readTree(current.getBody().readUtf8());
            String rv = now.path("metadata").path("resourceVersion").asString("");
            String sentRv = sent.path("metadata").path("resourceVersion").asString("");
            if (!sentRv.isEmpty() && !sentRv.equals(rv)) {
                return new MockResponse().setResponseCode(409).setBody("{\"kind\":\"Status\",\"code\":409}");
            }
            ((ObjectNode) sent.path("metadata")).put("resourceVersion", rv);
            return new MockResponse().setResponseCode(200).setBody(MergePatchDispatcher.JSON.writeValueAsString(sent));
        } catch (Exception e) {
            return new MockResponse().setResponseCode(500).setBody(String.valueOf(e));
        }
    }

    /** Expires watches of a collection this server has not listed yet (see {@link #restartedOn}). */
    private static final class RestartedDispatcher extends MergePatchDispatcher {
        static final String GONE = "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version\","
                + "\"reason\":\"Expired\",\"code\":410}}";
        private final Set<String> listed = ConcurrentHashMap.newKeySet();

        RestartedDispatcher(Map<ServerRequest, Queue<ServerResponse>> responses, List<Patch> patches,
                            List<String> dryRuns, WatchLag watchLag) {
            super(responses, patches, dryRuns, watchLag);
        }

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            String path = request.getPath();
            int q = path.indexOf('?');
            String collection = q < 0 ? path : path.substring(0, q);
            boolean watch = q >= 0 && ("&" + path.substring(q + 1) + "&").contains("&watch=true&");
            if ("GET".equals(request.getMethod())) {
                if (!watch) {
                    listed.add(collection);
                } else if (!listed.contains(collection)) {
                    return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {
                        @Override
                        public void onOpen(WebSocket ws, Response response) {
                            ws.send(GONE);
                            ws.close(1000, "");
                        }
                    });
                }
            }
            return super.dispatch(request);
        }
    }

    /**
     * From now on, holds back the watch events of every collection whose path contains {@code resource} (e.g.
     * {@code "/deployments"}) until {@link #releaseWatchEvents()}: the API server has the writes, a client's
     * watch cache does not, as when watch delivery lags a poll (a reconnect, a relist, a loaded API server).
     * Reads of the server itself ({@link #admin}) are not held.
     */
    public void holdWatchEvents(String resource) {
        watchLag.hold(resource);
    }

    /** Delivers every held watch event, in the order the server sent them, and holds no more. */
    public int releaseWatchEvents() {
        return watchLag.release();
    }

    /** Watch events held back now. */
    public int heldWatchEvents() {
        return watchLag.held();
    }

    /**
     * The watch events a lagging watch holds back: each watch's WebSocket is wrapped, so the CRUD mock's
     * sends to it are queued while its collection is held and go out, in order, on release.
     */
    private static final class WatchLag {
        private String resource;
        private final List<Runnable> queued = new ArrayList<>();
        private final Set<String> queuedFor = new java.util.HashSet<>();

        synchronized void hold(String r) {
            resource = r;
        }

        synchronized int release() {
            resource = null;
            int n = queued.size();
            queued.forEach(Runnable::run);
            queued.clear();
            queuedFor.clear();
            return n;
        }

        synchronized int held() {
            return queued.size();
        }

        /** Sends now, or queues while {@code path}'s collection is held (and behind what that watch has queued). */
        private synchronized boolean send(String path, Runnable sending) {
            if ((resource != null && path.contains(resource)) || queuedFor.contains(path)) {
                queued.add(sending);
                queuedFor.add(path);
            } else {
                sending.run();
            }
            return true;
        }

        MockResponse wrap(RecordedRequest request, MockResponse response) {
            String path = request.getPath();
            WebSocketListener inner = response.getWebSocketListener();
            if (inner == null || path == null || !path.contains("watch=true")) {
                return response;
            }
            return response.withWebSocketUpgrade(new WebSocketListener() {
                private WebSocket lagging(WebSocket ws) {
                    return new WebSocket() {
                        @Override
                        public RecordedRequest request() {
                            return ws.request();
                        }

                        @Override
                        public boolean send(String text) {
                            return WatchLag.this.send(path, () -> ws.send(text));
                        }

                        @Override
                        public boolean send(byte[] bytes) {
                            return WatchLag.this.send(path, () -> ws.send(bytes));
                        }

                        @Override
                        public boolean close(int code, String reason) {
                            return ws.close(code, reason);
                        }
                    };
                }

                @Override
                public void onBeforeAccept(WebSocket ws, Response r) {
                    inner.onBeforeAccept(lagging(ws), r);
                }

                @Override
                public void onOpen(WebSocket ws, Response r) {
                    inner.onOpen(lagging(ws), r);
                }

                @Override
                public void onMessage(WebSocket ws, String text) {
                    inner.onMessage(lagging(ws), text);
                }

                @Override
                public void onClosing(WebSocket ws, int code, String reason) {
                    inner.onClosing(lagging(ws), code, reason);
                }

                @Override
                public void onClosed(WebSocket ws, int code, String reason) {
                    inner.onClosed(lagging(ws), code, reason);
                }

                @Override
                public void onFailure(WebSocket ws, Throwable t, Response r) {
                    inner.onFailure(lagging(ws), t, r);
                }
            });
        }
    }

    /** The path of SelfSubjectAccessReviews, which CRUD mode would store and answer without a status. */
    static final String ACCESS_REVIEWS = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";

    /** Answers every SelfSubjectAccessReview from now on: allowed or not, with RBAC's reason. */
    public void answerAccessReviews(boolean allowed, String reason) {
        server.expect().post().withPath(ACCESS_REVIEWS).andReturn(201, "{\"apiVersion\":\"authorization.k8s.io/v1\","
                + "\"kind\":\"SelfSubjectAccessReview\",\"status\":{\"allowed\":" + allowed
                + (reason == null ? "" : ",\"reason\":\"" + reason + "\"") + "}}").always();
    }

    /** A pod's annotations as the API server has them now (null when the pod is gone). */
    public Map<String, String> annotations(String ns, String pod) {
        var p = admin.pods().inNamespace(ns).withName(pod).get();
        if (p == null) {
            return null;
        }
        return p.getMetadata().getAnnotations() == null ? Map.of() : p.getMetadata().getAnnotations();
    }

    public String url() {
        return (https ? "https" : "http") + "://127.0.0.1:" + server.getPort();
    }

    /** A Deployment of {@code replicas} whose selector and pod template carry {@code app=name}. */
    public Deployment deployment(String ns, String name, int replicas) {
        return deployment(ns, name, replicas, Map.of());
    }

    /** As {@link #deployment(String, String, int)}, with {@code labels} on the Deployment itself. */
    public Deployment deployment(String ns, String name, int replicas, Map<String, String> labels) {
        return admin.apps().deployments().inNamespace(ns).resource(new DeploymentBuilder()
                .withNewMetadata().withName(name).withNamespace(ns).addToLabels(labels).endMetadata()
                .withNewSpec().withReplicas(replicas).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("w").withImage("worker").endContainer().endSpec()
                .endTemplate().endSpec().build()).create();
    }

    /** A Ready, Running pod of {@code app} (label {@code app}) on {@code node}, or a Pending one that is not ready. */
    public void pod(String ns, String app, String name, boolean ready, String node) {
        pod(ns, app, name, ready, node, Map.of());
    }

    /** A pod of {@code app} carrying {@code annotations} (e.g. drain marks someone else set). */
    public void pod(String ns, String app, String name, boolean ready, String node, Map<String, String> annotations) {
        newPod(ns, name).app(app).ready(ready).onNode(node).annotations(annotations).create();
    }

    /** A pod to describe before {@link PodFixture#create()}: Ready and Running unless told, created at 10:00 UTC. */
    public PodFixture newPod(String ns, String name) {
        return new PodFixture(ns, name);
    }

    /** One pod's fixture: labels, annotations, node, owner, readiness; {@link #create()} writes it. */
    public final class PodFixture {
        private final String ns;
        private final String name;
        private final Map<String, String> labels = new LinkedHashMap<>();
        private final Map<String, String> annotations = new LinkedHashMap<>();
        private String node;
        private boolean ready = true;
        private String ownerKind;
        private String owner;
        private String created = "2026-12-01T10:00:00Z";
        private String scheduledStatus;
        private String scheduledReason;
        private String scheduledAt;

        private PodFixture(String ns, String name) {
            this.ns = ns;
            this.name = name;
        }

        /** Labelled {@code app=app}, as the workload's selector picks it. */
        public PodFixture app(String app) {
            return labels(Map.of("app", app));
        }

        public PodFixture labels(Map<String, String> more) {
            labels.putAll(more);
            return this;
        }

        public PodFixture annotations(Map<String, String> more) {
            annotations.putAll(more);
            return this;
        }

        public PodFixture onNode(String nodeName) {
            node = nodeName;
            return this;
        }

        /** Ready and Running, or Pending and not ready. */
        public PodFixture ready(boolean isReady) {
            ready = isReady;
            return this;
        }

        /** Controlled by {@code kind}/{@code ownerName} (e.g. a ReplicaSet or a DaemonSet), uid {@code ownerName-uid}. */
        public PodFixture ownedBy(String kind, String ownerName) {
            ownerKind = kind;
            owner = ownerName;
            return this;
        }

        public PodFixture created(String timestamp) {
            created = timestamp;
            return this;
        }

        /** Pending: the scheduler found no node for it since {@code timestamp} (PodScheduled=False, Unschedulable). */
        public PodFixture unschedulableSince(String timestamp) {
            ready = false;
            node = null;
            scheduledStatus = "False";
            scheduledReason = "Unschedulable";
            scheduledAt = timestamp;
            return this;
        }

        /** Placed on a node at {@code timestamp} (PodScheduled=True). */
        public PodFixture scheduledAt(String timestamp) {
            scheduledStatus = "True";
            scheduledReason = null;
            scheduledAt = timestamp;
            return this;
        }

        public Pod create() {
            PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).addToLabels(labels)
                    .addToAnnotations(annotations).withCreationTimestamp(created).endMetadata()
                    .withNewSpec().withNodeName(node).addNewContainer().withName("w").withImage("worker").endContainer()
                    .endSpec()
                    .withNewStatus().withPhase(ready ? "Running" : "Pending")
                    .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition()
                    .endStatus();
            if (scheduledStatus != null) {
                b.editStatus().addNewCondition().withType("PodScheduled").withStatus(scheduledStatus)
                        .withReason(scheduledReason).withLastTransitionTime(scheduledAt).endCondition().endStatus();
            }
            if (owner != null) {
                b.editMetadata().addNewOwnerReference().withApiVersion("apps/v1").withKind(ownerKind).withName(owner)
                        .withUid(owner + "-uid").withController(true).endOwnerReference().endMetadata();
            }
            return admin.pods().inNamespace(ns).resource(b.build()).create();
        }
    }

    /** A schedulable node whose Ready condition is True. */
    public void node(String name) {
        admin.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().endSpec().withNewStatus().addNewCondition().withType("Ready").withStatus("True")
                .endCondition().endStatus().build()).create();
    }

    /** Whether {@code node} is cordoned on the server. */
    public boolean cordoned(String node) {
        return Boolean.TRUE.equals(admin.nodes().withName(node).get().getSpec().getUnschedulable());
    }

    /** KEDA installed: its ScaledObject CRD ({@code keda.sh/v1alpha1}), so discovery finds the kind. */
    public void kedaInstalled() {
        admin.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("scaledobjects.keda.sh").endMetadata()
                .withNewSpec().withGroup("keda.sh").withScope("Namespaced")
                .withNewNames().withKind("ScaledObject").withPlural("scaledobjects").withSingular("scaledobject").endNames()
                .addNewVersion().withName("v1alpha1").withServed(true).withStorage(true).endVersion()
                .endSpec().build()).create();
    }

    /** Creates the ScaledObject written in {@code yaml} (namespace from its metadata). */
    public GenericKubernetesResource scaledObject(String yaml) {
        GenericKubernetesResource so = admin.getKubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
        return admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                .inNamespace(so.getMetadata().getNamespace()).resource(so).create();
    }

    /** The ScaledObject as the server has it now (null when there is none). */
    public GenericKubernetesResource scaledObject(String ns, String name) {
        return admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace(ns).withName(name).get();
    }

    /**
     * An {@code autoscaling/v2} HPA on Deployment {@code deployment}, {@code min}..{@code max} replicas;
     * with a CPU utilization target when {@code cpuPercent} is not null.
     */
    public void hpa(String ns, String name, String deployment, int min, int max, Integer cpuPercent) {
        HorizontalPodAutoscalerSpecBuilder spec = new HorizontalPodAutoscalerSpecBuilder()
                .withNewScaleTargetRef().withApiVersion("apps/v1").withKind("Deployment").withName(deployment)
                .endScaleTargetRef().withMinReplicas(min).withMaxReplicas(max);
        if (cpuPercent != null) {
            spec.addNewMetric().withType("Resource").withNewResource().withName("cpu").withNewTarget()
                    .withType("Utilization").withAverageUtilization(cpuPercent).endTarget().endResource().endMetric();
        }
        admin.autoscaling().v2().horizontalPodAutoscalers().inNamespace(ns).resource(new HorizontalPodAutoscalerBuilder()
                .withNewMetadata().withName(name).withNamespace(ns).endMetadata().withSpec(spec.build()).build())
                .create();
    }

    /** The Lease that fences actuation of {@code ref}, as the server has it now (null when there is none). */
    public Lease lease(WorkloadRef ref) {
        return admin.leases().inNamespace(ref.namespace()).withName(LeaseKeeper.leaseName(ref)).get();
    }

    /** The Events in {@code ns}, as {@code kubectl get events} lists them. */
    public List<Event> events(String ns) {
        return admin.v1().events().inNamespace(ns).list().getItems();
    }

    /** A Deployment's replicas as the server has them now. */
    public int replicas(String ns, String name) {
        return admin.apps().deployments().inNamespace(ns).withName(name).get().getSpec().getReplicas();
    }

    /** A Deployment's annotations as the server has them now (empty when none). */
    public Map<String, String> deploymentAnnotations(String ns, String name) {
        Map<String, String> a = admin.apps().deployments().inNamespace(ns).withName(name).get().getMetadata()
                .getAnnotations();
        return a == null ? Map.of() : a;
    }

    /** A loopback URL nothing listens on (the port was free a moment ago): a Prometheus or a cluster that is down. */
    public static String unreachableUrl() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    /**
     * A workloads file: Prometheus at {@code prometheusUrl} (1 s timeout) and, for each (name, context,
     * namespace, Deployment) four of {@code classes}, a class polled every second whose signals'
     * queries are placeholders.
     */
    public static String workloads(String prometheusUrl, String... classes) {
        StringBuilder yaml = new StringBuilder("prometheus: {url: \"" + prometheusUrl + "\", timeoutSeconds: 1}\nclasses:\n");
        for (int i = 0; i < classes.length; i += 4) {
            yaml.append("  - {name: ").append(classes[i]).append(", context: ").append(classes[i + 1])
                    .append(", namespace: ").append(classes[i + 2]).append(", target: {kind: Deployment, name: ")
                    .append(classes[i + 3]).append("},\n     signals: {queueLength: q, oldestAge: a, arrivalRate: r, "
                            + "meanService: s},\n     policy: {pollIntervalSeconds: 1}}\n");
        }
        return yaml.toString();
    }

    /**
     * A console's session on this server as {@code headroom --config} starts one: a kubeconfig with the one
     * context {@code ctx} (namespace {@code ns}, token auth) and {@code workloadsYaml} as the workloads
     * file, both written into {@code dir}. {@code operator} null: the kubeconfig user ({@code u-ctx}).
     */
    public Session session(Path dir, String ctx, String ns, String workloadsYaml, Journal journal, String operator)
            throws Exception {
        Path kubeconfig = kubeconfig(dir, "config.yaml", ctx, "t0ken-for-the-test", ctx, url(), ns);
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, workloadsYaml);
        return Session.connect(WorkloadsFile.read(workloads), Contexts.load(List.of(kubeconfig)), journal, operator);
    }

    /** A console's two files: the kubeconfig and the workloads file. */
    public record ConsoleFiles(Path kubeconfig, Path workloads) {
    }

    /**
     * The shop the console's exit and start-up tests run: Deployments {@code shop/orders} (3 replicas)
     * and {@code shop/indexer} (2) on this server, every access review allowed, and in {@code dir} a
     * kubeconfig (context {@code up}, token auth) and a workloads file with the classes {@code orders}
     * and {@code indexing}, Prometheus at {@code prometheusUrl} with {@code timeoutSeconds}.
     */
    public ConsoleFiles shop(Path dir, String prometheusUrl, int timeoutSeconds) throws IOException {
        answerAccessReviews(true, null);
        deployment("shop", "orders", 3);
        deployment("shop", "indexer", 2);
        Path kubeconfig = kubeconfig(dir, "config.yaml", "up", "t0ken-for-the-test", "up", url(), "shop");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, workloads(prometheusUrl, "orders", "up", "shop", "orders",
                "indexing", "up", "shop", "indexer").replace("timeoutSeconds: 1}", "timeoutSeconds: " + timeoutSeconds + "}"));
        return new ConsoleFiles(kubeconfig, workloads);
    }

    /** Writes a kubeconfig with one context per (name, cluster url, namespace); each user authenticates with {@code token}. */
    public static Path kubeconfig(Path dir, String file, String current, String token, String... ctxUrlNs)
            throws IOException {
        return kubeconfigWithUser(dir, file, current, "    token: " + token + "\n", ctxUrlNs);
    }

    /**
     * Writes a kubeconfig whose users authenticate through an exec credential plugin
     * ({@code client.authentication.k8s.io/v1}) run as {@code plugin}.
     */
    static Path execKubeconfig(Path dir, String file, String current, Path plugin, String... ctxUrlNs)
            throws IOException {
        return kubeconfigWithUser(dir, file, current, "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
                + "      command: " + plugin.toAbsolutePath() + "\n      interactiveMode: Never\n", ctxUrlNs);
    }

    /** {@code user} is the YAML under each {@code users[].user}, indented by four spaces. */
    private static Path kubeconfigWithUser(Path dir, String file, String current, String user, String... ctxUrlNs)
            throws IOException {
        StringBuilder clusters = new StringBuilder();
        StringBuilder contexts = new StringBuilder();
        StringBuilder users = new StringBuilder();
        for (int i = 0; i < ctxUrlNs.length; i += 3) {
            String ctx = ctxUrlNs[i];
            clusters.append("- name: cl-").append(ctx).append("\n  cluster:\n    server: ").append(ctxUrlNs[i + 1]).append('\n');
            contexts.append("- name: ").append(ctx).append("\n  context:\n    cluster: cl-").append(ctx)
                    .append("\n    user: u-").append(ctx).append("\n    namespace: ").append(ctxUrlNs[i + 2]).append('\n');
            users.append("- name: u-").append(ctx).append("\n  user:\n").append(user);
        }
        String yaml = "apiVersion: v1\nkind: Config\n" + (current == null ? "" : "current-context: " + current + "\n")
                + "clusters:\n" + clusters + "contexts:\n" + contexts + "users:\n" + users;
        Path p = dir.resolve(file);
        Files.writeString(p, yaml);
        return p;
    }

    /** Every request this server has recorded and not yet handed out, oldest first (waits briefly for stragglers). */
    List<RecordedRequest> takeRequests() throws InterruptedException {
        List<RecordedRequest> all = new ArrayList<>();
        for (RecordedRequest r = server.takeRequest(1, TimeUnit.SECONDS); r != null;
             r = server.takeRequest(200, TimeUnit.MILLISECONDS)) {
            all.add(r);
        }
        return all;
    }

    /**
     * Points fabric8's kubeconfig lookup (the {@code kubeconfig} system property, read before the
     * {@code KUBECONFIG} variable) at {@code files} until closed, as a console started with
     * {@code KUBECONFIG=a:b} sees them.
     */
    static AutoCloseable kubeconfigEnvironment(Path... files) {
        String before = System.getProperty("kubeconfig");
        System.setProperty("kubeconfig", String.join(File.pathSeparator,
                Arrays.stream(files).map(Path::toString).toList()));
        return () -> {
            if (before == null) {
                System.clearProperty("kubeconfig");
            } else {
                System.setProperty("kubeconfig", before);
            }
        };
    }

    /** Captures what Headroom logs (every level, under {@code io.headroom}) until closed. */
    static final class LogCapture extends Handler implements AutoCloseable {
        private final Logger root = Logger.getLogger("io.headroom");
        private final Level level = root.getLevel();
        private final List<String> lines = new CopyOnWriteArrayList<>();

        LogCapture() {
            root.setLevel(Level.ALL);
            root.addHandler(this);
        }

        @Override
        public void publish(LogRecord rec) {
            lines.add(rec.getLoggerName() + " " + rec.getMessage() + " "
                    + (rec.getParameters() == null ? "" : Arrays.toString(rec.getParameters())) + " "
                    + (rec.getThrown() == null ? "" : rec.getThrown()));
        }

        List<String> lines() {
            return List.copyOf(lines);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            root.removeHandler(this);
            root.setLevel(level);
        }
    }

    /** Waits for a condition with a deadline (no fixed sleeps). */
    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000); // poll the condition, bounded by the deadline
        }
    }

    /** Opens a console's connection to this server through a generated kubeconfig (token auth). */
    public KubeConnection connect(Path dir, String ctx) throws IOException {
        return connect(dir, ctx, b -> { });
    }

    /** As {@link #connect(Path, String)}, with a client setting the test needs (e.g. a short watch reconnect interval). */
    KubeConnection connect(Path dir, String ctx, Consumer<KubernetesClientBuilder> tweak) throws IOException {
        Path cfg = kubeconfig(dir, ctx + "-" + System.nanoTime() + ".yaml", ctx, "t0ken-" + ctx, ctx, url(), "default");
        return Contexts.load(List.of(cfg)).customize(tweak).open(ctx);
    }

    /**
     * Opens a console's gateway on this server (token kubeconfig, context "dev"), watching the
     * targets' namespaces, and waits for its first sync. Closed with this cluster.
     */
    KubeClusterGateway openGateway(Path dir, WorkloadRef... targets) throws IOException {
        KubeClusterGateway g = KubeClusterGateway.open(connect(dir, targets[0].context()), List.of(targets),
                java.time.Clock.systemUTC(), null);
        gateways.add(g);
        if (!g.awaitSynced(Duration.ofSeconds(15))) {
            throw new AssertionError("the gateway did not sync with the mock API server within 15 s");
        }
        return g;
    }

    /**
     * A second console on this server: its own gateway (context {@code ctx}) and its own
     * {@link LeaseKeeper} ({@code identity}, 30 s leases, renewed on its own thread), which takes the
     * Leases of {@code targets} now. Closed with this cluster.
     */
    public KubeClusterGateway otherConsoleHolding(Path dir, String ctx, String identity, WorkloadRef... targets)
            throws IOException {
        KubeConnection c = connect(dir, ctx);
        LeaseKeeper leases = new LeaseKeeper(c.client(), identity, java.time.Clock.systemUTC(), Duration.ofSeconds(30));
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(targets), java.time.Clock.systemUTC(), leases);
        gateways.add(g);
        if (!g.awaitSynced(Duration.ofSeconds(15))) {
            throw new AssertionError("the other console did not sync with the mock API server within 15 s");
        }
        for (WorkloadRef r : targets) {
            LeaseState s = leases.acquire(r);
            if (!s.mine()) {
                throw new AssertionError(identity + " could not take the lease for " + r + ": " + s.note());
            }
        }
        leases.start();
        return g;
    }

    /** Stops the server, its admin client and the gateways opened on it; a second call does nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (KubeClusterGateway g : gateways) {
            g.close();
            g.connection().close();
        }
        admin.close();
        try {
            server.destroy();
        } catch (IllegalStateException e) {
            // The mock's Vert.x shutdown can outlast its 10 s wait on a loaded machine; the test's
            // assertions are done by then, and a fixture that is slow to stop is not a test failure.
            MOCK_LOG.warning("mock API server was slow to stop: " + e.getMessage());
        }
    }
}
