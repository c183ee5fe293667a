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
 * The team timeline on Kubernetes: core/v1 Events on workloads and nodes, posted once, read back.
 * One seam of {@link KubeClusterGateway}, which holds the connection, the watch caches and the lease fence.
 */
record KubeTeamEvents(KubeClusterGateway k) implements io.headroom.cluster.TeamEvents {
    /**
     * A core/v1 Event on the workload, from component {@code headroom}, instance this console's
     * identity. Sent once (no retries), so a slow or refusing API server costs one request.
     */
    @Override
    public io.headroom.cluster.EventResult postEvent(WorkloadRef ref, io.headroom.cluster.TeamEvent e) {
        try {
            KubeClusterGateway.NamespaceWatch w = k.watchOf(ref.namespace());
            HasMetadata obj = !w.workloadsSynced() ? null : KubeClusterGateway.isStatefulSet(ref)
                    ? w.statefulSets.getStore().getByKey(KubeClusterGateway.key(ref)) : w.deployments.getStore().getByKey(KubeClusterGateway.key(ref));
            io.fabric8.kubernetes.api.model.ObjectReference involved = new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder()
                    .withApiVersion("apps/v1").withKind(KubeClusterGateway.isStatefulSet(ref) ? "StatefulSet" : "Deployment")
                    .withName(ref.name()).withNamespace(ref.namespace())
                    .withUid(obj == null ? null : obj.getMetadata().getUid()).build();
            io.fabric8.kubernetes.api.model.Event ev = event(ref.name(), ref.namespace(), involved, e);
            k.once.v1().events().inNamespace(ref.namespace()).resource(ev).create();
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
        java.util.Set<String> where = new java.util.TreeSet<>(k.namespaces);
        where.add("default");
        for (String ns : where) {
            try {
                for (io.fabric8.kubernetes.api.model.Event e : k.once.v1().events().inNamespace(ns)
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
                console == null ? null : io.headroom.config.UntrustedText.line(console, 200), k.contextName(),
                o == null ? null : o.getKind(), o == null || o.getNamespace() == null ? e.getMetadata().getNamespace()
                : o.getNamespace(), o == null ? null : io.headroom.config.UntrustedText.line(o.getName(), 253));
    }


    /** A core/v1 Event on the node (in namespace default, where node events live), sent once. */
    @Override
    public io.headroom.cluster.EventResult postNodeEvent(io.headroom.cluster.NodeRef ref, io.headroom.cluster.TeamEvent e) {
        try {
            io.fabric8.kubernetes.api.model.Event ev = event(ref.name(), "default", new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder()
                    .withApiVersion("v1").withKind("Node").withName(ref.name()).build(), e);
            k.once.v1().events().inNamespace("default").resource(ev).create();
            return io.headroom.cluster.EventResult.ok();
        } catch (KubernetesClientException ex) {
            return io.headroom.cluster.EventResult.notPosted(KubeErrors.describe(ex));
        } catch (RuntimeException ex) {
            return io.headroom.cluster.EventResult.notPosted(KubeErrors.describe(ex));
        }
    }

    /** One Headroom event on {@code involved}, from component {@code headroom}, instance this console's identity. */
    private io.fabric8.kubernetes.api.model.Event event(String name, String namespace,
                                                       io.fabric8.kubernetes.api.model.ObjectReference involved,
                                                       io.headroom.cluster.TeamEvent e) {
        String ts = e.at().toString();
        return new io.fabric8.kubernetes.api.model.EventBuilder()
                .withNewMetadata().withGenerateName(name + ".headroom-").withNamespace(namespace)
                .addToLabels("app.kubernetes.io/managed-by", "headroom").endMetadata()
                .withInvolvedObject(involved)
                .withReason(e.reason()).withMessage(io.headroom.config.UntrustedText.line(e.message(), 1000))
                .withType(e.warning() ? "Warning" : "Normal")
                .withNewSource().withComponent("headroom").endSource()
                .withReportingComponent("headroom.io/console").withReportingInstance(k.owner)
                .withFirstTimestamp(ts).withLastTimestamp(ts).withCount(1)
                .build();
    }
}
