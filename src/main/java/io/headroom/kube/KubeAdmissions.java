package io.headroom.kube;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.AdmissionWrite;
import io.headroom.cluster.Admissions;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.cluster.AdmissionRefresh;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Admission on Kubernetes (ADR 0027): the namespace's {@value AdmissionEntry#CONFIG_MAP} ConfigMap, one key per
 * class whose value is a small JSON ({@code state, rate, reason, decidedAt, expiresAt, owner}, and
 * {@code degradeTo} when set). A write is a JSON merge patch of the class's key alone (other classes' keys, other
 * consoles' classes, stay), creating the ConfigMap when it is not there; it is sent once, fenced by the class's
 * workload lease right before it. A tick's refresh of a namespace's classes is one merge patch of all their keys,
 * each workload's lease checked once before it. One seam of {@link KubeClusterGateway}.
 */
record KubeAdmissions(KubeClusterGateway k) implements Admissions {

    @Override
    public AdmissionWrite publish(WorkloadRef ref, AdmissionEntry entry) {
        if (!AdmissionEntry.validKey(entry.className())) {
            return AdmissionWrite.refused("class name '" + entry.className() + "' cannot be a ConfigMap key"
                    + " (letters, digits, '-', '_' and '.' only): its admission is not published");
        }
        String refused = refusal(ref);
        return refused != null ? AdmissionWrite.refused(refused) : write(ref.namespace(), List.of(entry));
    }

    @Override
    public Map<String, AdmissionWrite> refresh(String context, String namespace, List<AdmissionRefresh> entries) {
        Map<String, AdmissionWrite> out = new LinkedHashMap<>();
        Map<WorkloadRef, String> refusals = new HashMap<>(); // one lease check per workload
        List<AdmissionEntry> write = new ArrayList<>();
        for (AdmissionRefresh r : entries) {
            AdmissionEntry e = r.entry();
            if (!r.ref().context().equals(context) || !r.ref().namespace().equals(namespace)) {
                out.put(e.className(), AdmissionWrite.refused("the workload of " + e.className() + " is not in "
                        + namespace + " of context '" + context + "': not refreshed with it"));
                continue;
            }
            if (!AdmissionEntry.validKey(e.className())) {
                out.put(e.className(), AdmissionWrite.refused("class name '" + e.className()
                        + "' cannot be a ConfigMap key: its admission is not published"));
                continue;
            }
            if (!refusals.containsKey(r.ref())) {
                refusals.put(r.ref(), refusal(r.ref()));
            }
            String refused = refusals.get(r.ref());
            if (refused != null) {
                out.put(e.className(), AdmissionWrite.refused(refused));
            } else {
                write.add(e);
            }
        }
        if (!write.isEmpty()) {
            AdmissionWrite w = write(namespace, write);
            write.forEach(e -> out.put(e.className(), w));
        }
        return out;
    }

    /**
     * Read-modify-write of the class's key, never on a stale entry: the ConfigMap is read from the API server
     * right before (not a watch cache, which may lag this console's own last write), the entry compared with
     * {@code decidedAt}, and the patch carries the ConfigMap's {@code resourceVersion}, so a write landing in
     * between makes the API server answer 409; then it is read and judged once more.
     */
    @Override
    public AdmissionWrite expire(WorkloadRef ref, String className, Instant at, Instant decidedAt) {
        for (int attempt = 0; ; attempt++) {
            ConfigMap cm;
            try {
                cm = map(ref.namespace()).get();
            } catch (KubernetesClientException e) {
                return AdmissionWrite.failed("admission in " + ref.namespace() + " could not be read: "
                        + KubeErrors.describe(e));
            }
            Map<String, String> data = cm == null ? null : cm.getData();
            String json = data == null ? null : data.get(className);
            AdmissionEntry now;
            try {
                now = json == null ? null : parse(className, json);
            } catch (IllegalStateException e) {
                return AdmissionWrite.failed(e.getMessage());
            }
            if (now == null || !now.expiresAt().isAfter(at)) {
                return AdmissionWrite.applied("no live admission published for " + className);
            }
            if (decidedAt != null && !now.decidedAt().equals(decidedAt)) {
                return AdmissionWrite.refused(now.changedSince(decidedAt));
            }
            String refused = refusal(ref);
            if (refused != null) {
                return AdmissionWrite.refused(refused);
            }
            AdmissionWrite w = write(ref.namespace(), List.of(now.expiringAt(at)), cm.getMetadata().getResourceVersion());
            if (w.outcome() != AdmissionWrite.Outcome.FAILED || !w.message().contains("HTTP 409") || attempt > 0) {
                return w;
            }
        }
    }

    @Override
    public Optional<AdmissionEntry> published(WorkloadRef ref, String className) {
        ConfigMap cm;
        try {
            cm = map(ref.namespace()).get();
        } catch (KubernetesClientException e) {
            throw new IllegalStateException("admission in " + ref.namespace() + " could not be read: "
                    + KubeErrors.describe(e), e);
        }
        Map<String, String> data = cm == null ? null : cm.getData();
        String json = data == null ? null : data.get(className);
        return json == null ? Optional.empty() : Optional.of(parse(className, json));
    }

    /** Null when the class's workload may be written now; else why not, naming a console that holds its lease. */
    private String refusal(WorkloadRef ref) {
        String held = k.heldBack(ref);
        return held != null ? held : k.handBackRefusal(ref);
    }

    private Resource<ConfigMap> map(String namespace) {
        return k.once.configMaps().inNamespace(namespace).withName(AdmissionEntry.CONFIG_MAP);
    }

    private AdmissionWrite write(String namespace, List<AdmissionEntry> entries) {
        return write(namespace, entries, null);
    }

    /**
     * One merge patch of the entries' keys alone (the ConfigMap created with them when it is not there); with
     * {@code resourceVersion}, only onto that version of the ConfigMap (409 when it moved meanwhile).
     */
    private AdmissionWrite write(String namespace, List<AdmissionEntry> entries, String resourceVersion) {
        Map<String, String> values = new LinkedHashMap<>();
        entries.forEach(e -> values.put(e.className(), json(e)));
        String what = entries.size() == 1 ? "admission of " + entries.get(0).className() + " ("
                + entries.get(0).label() + ") in " + namespace : "admission of " + entries.size() + " classes ("
                + String.join(", ", values.keySet()) + ") in " + namespace;
        try {
            ObjectNode patch = KubeClusterGateway.JSON.createObjectNode();
            if (resourceVersion != null) {
                patch.putObject("metadata").put("resourceVersion", resourceVersion);
            }
            ObjectNode data = patch.putObject("data");
            values.forEach(data::put);
            try {
                map(namespace).patch(PatchContext.of(PatchType.JSON_MERGE), KubeClusterGateway.JSON.writeValueAsString(patch));
            } catch (KubernetesClientException ex) {
                if (ex.getCode() != 404) {
                    throw ex;
                }
                k.once.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata()
                        .withName(AdmissionEntry.CONFIG_MAP).withNamespace(namespace)
                        .addToLabels("app.kubernetes.io/managed-by", "headroom").endMetadata()
                        .addToData(values).build()).create();
            }
            return AdmissionWrite.applied(what + " written");
        } catch (KubernetesClientException ex) {
            return AdmissionWrite.failed(what + " not written: " + KubeErrors.describe(ex));
        } catch (RuntimeException ex) {
            return AdmissionWrite.failed(what + " not written: " + KubeErrors.describe(ex));
        }
    }

    /** The key's value: the contract's JSON (ADR 0027). */
    static String json(AdmissionEntry e) {
        ObjectNode n = KubeClusterGateway.JSON.createObjectNode();
        n.put("state", e.state().name());
        if (e.rate() != null) {
            n.put("rate", e.rate());
        }
        n.put("reason", e.reason());
        n.put("decidedAt", e.decidedAt().toString());
        n.put("expiresAt", e.expiresAt().toString());
        n.put("owner", e.owner());
        if (e.degradeTo() != null) {
            n.put("degradeTo", e.degradeTo());
        }
        return KubeClusterGateway.JSON.writeValueAsString(n);
    }

    static AdmissionEntry parse(String className, String json) {
        try {
            JsonNode n = KubeClusterGateway.JSON.readTree(json);
            JsonNode rate = n.get("rate");
            JsonNode degrade = n.get("degradeTo");
            return new AdmissionEntry(className, AdmissionVerdict.State.valueOf(n.get("state").asString()),
                    rate == null || rate.isNull() ? null : rate.asDouble(), text(n, "reason"),
                    Instant.parse(n.get("decidedAt").asString()), Instant.parse(n.get("expiresAt").asString()),
                    text(n, "owner"), degrade == null || degrade.isNull() ? null : degrade.asString());
        } catch (RuntimeException e) { // JacksonException is one
            throw new IllegalStateException("the admission of " + className + " in " + AdmissionEntry.CONFIG_MAP
                    + " is not the contract's JSON: " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? "" : v.asString();
    }
}
