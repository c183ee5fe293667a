package io.headroom.kube;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.headroom.config.UntrustedText;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Applies an exported ScaledObject the careful way: first a server-side dry run (the API server,
 * KEDA's admission webhook included, says what it would store), then the difference against the
 * live object, field by field; the write happens only when asked, and only if the live object has
 * not changed since the difference was shown (its {@code resourceVersion}). Labels and annotations
 * already on the live object (KEDA pauses, kubectl's last-applied) are kept; the spec is replaced.
 * An Event on the ScaledObject says who applied what (best effort).
 */
public final class ScaledObjectApply {
    private static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().build();

    private ScaledObjectApply() {
    }

    /** One field that would change: {@code spec.minReplicaCount: 1 → 2}; null before = added, null after = removed. */
    public record Change(String path, String before, String after) {
        public String line() {
            if (before == null) {
                return "+ " + path + ": " + after;
            }
            if (after == null) {
                return "- " + path + ": " + before;
            }
            return "~ " + path + ": " + before + " → " + after;
        }
    }

    /**
     * What applying would do.
     *
     * @param liveResourceVersion null when there is no live object (the apply creates it)
     * @param desired             the object to write (the live metadata kept, the exported spec)
     */
    public record Plan(String namespace, String name, String liveResourceVersion, List<Change> changes,
                       GenericKubernetesResource desired, List<String> warnings) {
        public Plan {
            changes = List.copyOf(changes);
            warnings = List.copyOf(warnings);
        }

        public boolean creates() {
            return liveResourceVersion == null;
        }

        public boolean unchanged() {
            return !creates() && changes.isEmpty();
        }

        /** The difference as lines for a terminal or a dialog. */
        public String diff() {
            if (unchanged()) {
                return "the live ScaledObject " + namespace + "/" + name + " already matches";
            }
            StringBuilder sb = new StringBuilder(creates() ? "creates ScaledObject " : "changes ScaledObject ")
                    .append(namespace).append('/').append(name).append(":\n");
            for (Change c : changes) {
                sb.append("  ").append(c.line()).append('\n');
            }
            for (String w : warnings) {
                sb.append("warning: ").append(w).append('\n');
            }
            return sb.toString().stripTrailing();
        }
    }

    /** How an apply ended. */
    public sealed interface Outcome {
        /** Written; {@code event} is null when the Event was posted, else why not. */
        record Applied(String resourceVersion, String event) implements Outcome {
        }

        /** The live object changed after the difference was shown: nothing written. */
        record Changed(String message) implements Outcome {
        }

        /** The API server refused the write (RBAC, admission, …). */
        record Refused(String message) implements Outcome {
        }
    }

    /**
     * The plan: reads the live ScaledObject and dry-runs the write on the server. Nothing is stored.
     *
     * @param exported the ScaledObject as {@link ScaledObjectExport.Export#object()} gives it
     * @throws KubernetesClientException when the server refuses the dry run (its message says why)
     */
    public static Plan plan(KubernetesClient client, Map<String, Object> exported) {
        GenericKubernetesResource wanted = JSON.convertValue(exported, GenericKubernetesResource.class);
        String ns = Objects.requireNonNull(wanted.getMetadata().getNamespace(), "namespace");
        String name = Objects.requireNonNull(wanted.getMetadata().getName(), "name");
        Resource<GenericKubernetesResource> r = resource(client, ns, name);
        GenericKubernetesResource live = r.get();
        GenericKubernetesResource desired = merge(live, wanted);
        var target = client.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace(ns).resource(desired);
        GenericKubernetesResource dry = live == null ? target.dryRun().create() : target.dryRun().update();
        List<Change> changes = live == null ? diff(Map.of(), view(dry)) : diff(view(live), view(dry));
        return new Plan(ns, name, live == null ? null : live.getMetadata().getResourceVersion(), changes, desired,
                live == null ? List.of() : ownedElsewhere(live));
    }

    /**
     * Writes the plan. Refuses when the live object is no longer the one the plan was made against
     * (created, deleted or changed since), so what was reviewed is what is applied.
     *
     * @param actor who applies (for the Event), never a credential
     */
    public static Outcome apply(KubernetesClient client, Plan plan, String actor, Instant now) {
        Resource<GenericKubernetesResource> r = resource(client, plan.namespace(), plan.name());
        GenericKubernetesResource written;
        try {
            GenericKubernetesResource live = r.get();
            String rv = live == null ? null : live.getMetadata().getResourceVersion();
            if (!Objects.equals(rv, plan.liveResourceVersion())) {
                return new Outcome.Changed("the ScaledObject " + plan.namespace() + "/" + plan.name()
                        + (live == null ? " was deleted" : plan.creates() ? " was created by someone else" : " changed")
                        + " since the difference was shown; nothing was written: review it again");
            }
            // The desired object carries the reviewed resourceVersion: a change since is a 409, not an overwrite.
            var target = client.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                    .inNamespace(plan.namespace()).resource(plan.desired());
            written = plan.creates() ? target.create() : target.update();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return new Outcome.Changed("the ScaledObject " + plan.namespace() + "/" + plan.name()
                        + " changed while it was being written; nothing was written: review it again");
            }
            return new Outcome.Refused(KubeErrors.describe(e));
        }
        return new Outcome.Applied(written.getMetadata().getResourceVersion(), postEvent(client, plan, written, actor, now));
    }

    /**
     * {@link #plan(KubernetesClient, Map)} on a console's open connection (its client without retries),
     * for callers outside this package: a refused dry run is an {@link IllegalStateException} saying why.
     */
    public static Plan plan(KubeConnection connection, Map<String, Object> exported) {
        try {
            return plan(connection.once(), exported);
        } catch (KubernetesClientException e) {
            throw new IllegalStateException("the server refused the dry run: " + KubeErrors.describe(e), e);
        }
    }

    /** {@link #apply(KubernetesClient, Plan, String, Instant)} on a console's open connection. */
    public static Outcome apply(KubeConnection connection, Plan plan, String actor, Instant now) {
        return apply(connection.once(), plan, actor, now);
    }

    /** Who else writes this object: a GitOps or Helm owner puts its own spec back on its next sync. */
    static List<String> ownedElsewhere(GenericKubernetesResource live) {
        List<String> out = new ArrayList<>();
        Map<String, String> labels = live.getMetadata().getLabels() == null ? Map.of() : live.getMetadata().getLabels();
        Map<String, String> ann = live.getMetadata().getAnnotations() == null ? Map.of() : live.getMetadata().getAnnotations();
        String managedBy = labels.get("app.kubernetes.io/managed-by");
        if (managedBy != null && !managedBy.startsWith("headroom")) {
            out.add("managed by " + UntrustedText.line(managedBy, 100) + ": its next release or sync may put its own spec"
                    + " back; change it at the source too");
        }
        if (ann.keySet().stream().anyMatch(k -> k.startsWith("argocd.argoproj.io/"))
                || labels.containsKey("argocd.argoproj.io/instance")) {
            out.add("tracked by Argo CD: a sync will revert this unless the repository changes too");
        }
        if (labels.keySet().stream().anyMatch(k -> k.startsWith("kustomize.toolkit.fluxcd.io/")
                || k.startsWith("helm.toolkit.fluxcd.io/"))) {
            out.add("reconciled by Flux: a sync will revert this unless the repository changes too");
        }
        return out;
    }

    /** The live object's metadata with the exported labels and annotations added; the exported spec. */
    static GenericKubernetesResource merge(GenericKubernetesResource live, GenericKubernetesResource wanted) {
        GenericKubernetesResource out = JSON.convertValue(wanted, GenericKubernetesResource.class);
        if (live == null) {
            return out;
        }
        ObjectMeta m = JSON.convertValue(live.getMetadata(), ObjectMeta.class);
        Map<String, String> labels = new LinkedHashMap<>(m.getLabels() == null ? Map.of() : m.getLabels());
        if (wanted.getMetadata().getLabels() != null) {
            labels.putAll(wanted.getMetadata().getLabels());
        }
        Map<String, String> annotations = new LinkedHashMap<>(m.getAnnotations() == null ? Map.of() : m.getAnnotations());
        if (wanted.getMetadata().getAnnotations() != null) {
            annotations.putAll(wanted.getMetadata().getAnnotations());
        }
        m.setLabels(labels);
        m.setAnnotations(annotations);
        m.setManagedFields(null);
        out.setMetadata(m);
        return out;
    }

    /** What an operator reviews: labels, annotations and the spec, flattened to paths. */
    private static Map<String, String> view(GenericKubernetesResource o) {
        Map<String, String> flat = new LinkedHashMap<>();
        ObjectMeta m = o.getMetadata();
        if (m.getLabels() != null) {
            m.getLabels().forEach((k, v) -> flat.put("metadata.labels." + k, v));
        }
        if (m.getAnnotations() != null) {
            m.getAnnotations().forEach((k, v) -> {
                if (!k.equals("kubectl.kubernetes.io/last-applied-configuration")) {
                    flat.put("metadata.annotations." + k, v);
                }
            });
        }
        flatten("spec", o.getAdditionalProperties().get("spec"), flat);
        return flat;
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String path, Object v, Map<String, String> into) {
        if (v instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                into.put(path, "{}");
            }
            for (Map.Entry<String, Object> e : ((Map<String, Object>) map).entrySet()) {
                flatten(path + "." + e.getKey(), e.getValue(), into);
            }
        } else if (v instanceof List<?> list) {
            if (list.isEmpty()) {
                into.put(path, "[]");
            }
            for (int i = 0; i < list.size(); i++) {
                flatten(path + "[" + i + "]", list.get(i), into);
            }
        } else if (v != null) {
            // Numbers and strings alike: KEDA's metadata values are strings, "2" and 2 read the same here.
            into.put(path, UntrustedText.line(String.valueOf(v), 300));
        }
    }

    static List<Change> diff(Map<String, String> before, Map<String, String> after) {
        List<Change> out = new ArrayList<>();
        for (String path : new TreeSet<>(union(before, after))) {
            String b = before.get(path);
            String a = after.get(path);
            if (!Objects.equals(b, a)) {
                out.add(new Change(path, b, a));
            }
        }
        return out;
    }

    private static List<String> union(Map<String, String> a, Map<String, String> b) {
        List<String> keys = new ArrayList<>(a.keySet());
        keys.addAll(b.keySet());
        return keys;
    }

    private static Resource<GenericKubernetesResource> resource(KubernetesClient client, String ns, String name) {
        return client.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace(ns).withName(name);
    }

    private static String postEvent(KubernetesClient client, Plan plan, GenericKubernetesResource written, String actor,
                                    Instant now) {
        try {
            String ts = now.toString();
            int n = plan.changes().size();
            String message = UntrustedText.line(actor + (plan.creates() ? " created" : " applied") + " this ScaledObject from"
                    + " a Headroom export (" + n + " field" + (n == 1 ? "" : "s") + " changed)", 1000);
            client.v1().events().inNamespace(plan.namespace()).resource(new EventBuilder()
                    .withNewMetadata().withGenerateName(plan.name() + ".headroom-").withNamespace(plan.namespace())
                    .addToLabels("app.kubernetes.io/managed-by", "headroom").endMetadata()
                    .withNewInvolvedObject().withApiVersion("keda.sh/v1alpha1").withKind("ScaledObject")
                    .withName(plan.name()).withNamespace(plan.namespace()).withUid(written.getMetadata().getUid())
                    .endInvolvedObject()
                    .withReason("HeadroomAppliedScaledObject").withMessage(message).withType("Normal")
                    .withNewSource().withComponent("headroom").endSource()
                    .withReportingComponent("headroom.io/console").withReportingInstance(actor)
                    .withFirstTimestamp(ts).withLastTimestamp(ts).withCount(1).build()).create();
            return null;
        } catch (KubernetesClientException e) {
            return "the Event was not posted: " + KubeErrors.describe(e);
        }
    }
}
