package io.headroom.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.WorkloadRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finds which HPA or KEDA ScaledObject manages a workload and describes it in its own terms.
 * Pure: the caller passes the objects (from the informers' caches).
 */
public final class Autoscalers {
    /** KEDA's override: while set, KEDA scales the target to this count and stops autoscaling. */
    public static final String PAUSED_REPLICAS = "autoscaling.keda.sh/paused-replicas";
    private static final Pattern SECRETISH = Pattern.compile("(?i).*(password|passwd|secret|token|key|auth|credential|connection|sasl).*");

    private Autoscalers() {
    }

    /** The ScaledObject whose scaleTargetRef is the workload, if any. */
    public static Optional<GenericKubernetesResource> scaledObjectFor(WorkloadRef ref, List<GenericKubernetesResource> sos) {
        for (GenericKubernetesResource so : sos) {
            Map<String, Object> target = Maps.map(so.getAdditionalProperties(), "spec", "scaleTargetRef");
            String kind = Maps.string(target, "kind");
            if (ref.name().equals(Maps.string(target, "name")) && sameKind(ref.kind(), kind == null ? "Deployment" : kind)) {
                return Optional.of(so);
            }
        }
        return Optional.empty();
    }

    /** The HPA whose scaleTargetRef is the workload, if any (KEDA's own HPAs included). */
    public static Optional<HorizontalPodAutoscaler> hpaFor(WorkloadRef ref, List<HorizontalPodAutoscaler> hpas) {
        for (HorizontalPodAutoscaler h : hpas) {
            if (h.getSpec() != null && h.getSpec().getScaleTargetRef() != null
                    && ref.name().equals(h.getSpec().getScaleTargetRef().getName())
                    && sameKind(ref.kind(), h.getSpec().getScaleTargetRef().getKind())) {
                return Optional.of(h);
            }
        }
        return Optional.empty();
    }

    /** Whether an HPA was created by a KEDA ScaledObject (its owner, or KEDA's naming). */
    static boolean ownedByKeda(HorizontalPodAutoscaler h) {
        List<OwnerReference> owners = h.getMetadata().getOwnerReferences();
        if (owners != null) {
            for (OwnerReference o : owners) {
                if ("ScaledObject".equals(o.getKind())) {
                    return true;
                }
            }
        }
        return h.getMetadata().getName() != null && h.getMetadata().getName().startsWith("keda-hpa-");
    }

    /** Who manages the workload: KEDA (ScaledObject) first, then a plain HPA, else NONE. */
    public static AutoscalerView view(WorkloadRef ref, List<GenericKubernetesResource> sos, List<HorizontalPodAutoscaler> hpas) {
        Optional<GenericKubernetesResource> so = scaledObjectFor(ref, sos);
        if (so.isPresent()) {
            return kedaView(ref, so.get(), hpas);
        }
        Optional<HorizontalPodAutoscaler> hpa = hpaFor(ref, hpas);
        return hpa.map(h -> hpaView(ref, h)).orElse(AutoscalerView.none(ref));
    }

    static AutoscalerView kedaView(WorkloadRef ref, GenericKubernetesResource so, List<HorizontalPodAutoscaler> hpas) {
        Map<String, Object> props = so.getAdditionalProperties();
        String hpaName = Maps.string(props, "status", "hpaName");
        if (hpaName == null) {
            hpaName = "keda-hpa-" + so.getMetadata().getName();
        }
        Integer current = null;
        Integer desired = null;
        for (HorizontalPodAutoscaler h : hpas) {
            if (hpaName.equals(h.getMetadata().getName()) && h.getStatus() != null) {
                current = h.getStatus().getCurrentReplicas();
                desired = h.getStatus().getDesiredReplicas();
            }
        }
        List<AutoscalerView.Trigger> triggers = new ArrayList<>();
        for (Object t : Maps.list(props, "spec", "triggers")) {
            triggers.add(new AutoscalerView.Trigger(Maps.string(t, "type"), Maps.string(t, "name"),
                    redact(Maps.map(t, "metadata"))));
        }
        Map<String, String> ann = so.getMetadata().getAnnotations();
        Integer paused = null;
        if (ann != null && ann.get(PAUSED_REPLICAS) != null) {
            try {
                paused = Integer.parseInt(ann.get(PAUSED_REPLICAS).trim());
            } catch (NumberFormatException e) {
                paused = null;
            }
        }
        Integer min = Maps.integer(props, "spec", "minReplicaCount");
        Integer max = Maps.integer(props, "spec", "maxReplicaCount");
        return new AutoscalerView(AutoscalerView.Kind.KEDA, ref, so.getMetadata().getName(), min == null ? 0 : min,
                max == null ? 100 : max, current, desired, paused, triggers, hpaName);
    }

    static AutoscalerView hpaView(WorkloadRef ref, HorizontalPodAutoscaler h) {
        List<AutoscalerView.Trigger> metrics = new ArrayList<>();
        if (h.getSpec().getMetrics() != null) {
            for (MetricSpec m : h.getSpec().getMetrics()) {
                Map<String, String> md = new LinkedHashMap<>();
                String name = null;
                if (m.getResource() != null) {
                    name = m.getResource().getName();
                    if (m.getResource().getTarget() != null) {
                        md.put("target", describeTarget(m.getResource().getTarget()));
                    }
                } else if (m.getExternal() != null && m.getExternal().getMetric() != null) {
                    name = m.getExternal().getMetric().getName();
                    md.put("target", describeTarget(m.getExternal().getTarget()));
                } else if (m.getPods() != null && m.getPods().getMetric() != null) {
                    name = m.getPods().getMetric().getName();
                    md.put("target", describeTarget(m.getPods().getTarget()));
                }
                metrics.add(new AutoscalerView.Trigger(m.getType(), name, md));
            }
        }
        Integer current = h.getStatus() == null ? null : h.getStatus().getCurrentReplicas();
        Integer desired = h.getStatus() == null ? null : h.getStatus().getDesiredReplicas();
        Integer min = h.getSpec().getMinReplicas() == null ? 1 : h.getSpec().getMinReplicas();
        return new AutoscalerView(AutoscalerView.Kind.HPA, ref, h.getMetadata().getName(), min,
                h.getSpec().getMaxReplicas(), current, desired, null, metrics, h.getMetadata().getName());
    }

    private static String describeTarget(io.fabric8.kubernetes.api.model.autoscaling.v2.MetricTarget t) {
        if (t == null) {
            return "";
        }
        if (t.getAverageUtilization() != null) {
            return "averageUtilization " + t.getAverageUtilization() + "%";
        }
        if (t.getAverageValue() != null) {
            return "averageValue " + t.getAverageValue();
        }
        return "value " + t.getValue();
    }

    /** Trigger settings with anything that looks like a secret replaced, so views and logs stay clean. */
    static Map<String, String> redact(Map<String, Object> md) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : md.entrySet()) {
            String v = String.valueOf(e.getValue());
            boolean fromEnvOrRef = e.getKey().endsWith("FromEnv") || e.getKey().endsWith("Ref");
            if (SECRETISH.matcher(e.getKey()).matches() && !fromEnvOrRef) {
                v = "(redacted)";
            } else {
                v = v.replaceAll("(://)[^/@\\s]*@", "$1(redacted)@");
            }
            out.put(e.getKey(), v);
        }
        return out;
    }

    static boolean sameKind(String a, String b) {
        return a != null && b != null && a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
    }

    /** Why an HPA-managed workload is refused, and what the operator can do. */
    static String hpaRefusal(AutoscalerView v) {
        return "refused: HorizontalPodAutoscaler " + v.target().namespace() + "/" + v.name() + " manages "
                + v.target().kind() + " " + v.target().name() + " (" + v.minReplicas() + ".." + v.maxReplicas()
                + " replicas) and would undo any change within its next sync; Headroom does not fight it. "
                + "Keep this class in observe mode, or remove the HPA (or move the workload to KEDA, whose "
                + "paused-replicas annotation Headroom can set) to let Headroom actuate.";
    }
}
