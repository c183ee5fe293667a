package io.headroom.config;

import io.headroom.decision.SignalName;
import tools.jackson.core.JacksonException;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLGenerator;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes a {@link Policy} back as a {@code policy:} block {@link PolicyReader} reads to the same
 * policy: every field, in the reader's names. A ceiling that reads PromQL of the workloads file
 * ({@code budgetQuery}/{@code perReplicaQuery}) cannot be written without its query, which the policy
 * does not hold: it is left out and named in a comment, to be kept from the file.
 */
public final class PolicyWriter {

    private PolicyWriter() {
    }

    /** The policy as the reader's fields; ceilings fed by a file's PromQL are left out. */
    public static Map<String, Object> toMap(Policy p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("slotsPerReplica", p.slotsPerReplica());
        m.put("targetUtilization", p.targetUtilization());
        m.put("drainTargetSeconds", p.drainTargetSeconds());
        if (p.maxAgeSeconds() != null) {
            m.put("maxAgeSeconds", p.maxAgeSeconds());
        }
        m.put("minReplicas", p.minReplicas());
        m.put("maxReplicas", p.maxReplicas());
        m.put("cooldownSeconds", p.cooldownSeconds());
        m.put("pollIntervalSeconds", p.pollIntervalSeconds());
        if (p.expectedServiceSeconds() != null) {
            m.put("expectedServiceSeconds", p.expectedServiceSeconds());
        }
        m.put("startupSeconds", p.startupSeconds());
        if (!p.scheduledFloors().isEmpty()) {
            List<Map<String, Object>> floors = new ArrayList<>();
            for (io.headroom.decision.ScheduledFloor f : p.scheduledFloors()) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("days", f.dayRange().replace('–', '-'));
                e.put("from", f.from().toString());
                e.put("to", f.to().toString());
                e.put("replicas", f.replicas());
                floors.add(e);
            }
            m.put("scheduledFloors", floors);
            m.put("timeZone", p.timeZone().getId());
        }
        m.put("minDrainSeconds", p.minDrainSeconds());
        m.put("stuckAfterSeconds", p.stuckAfterSeconds());
        if (p.absorbStep() != null) {
            m.put("absorbStep", p.absorbStep());
        }
        if (p.forecastMode() != io.headroom.decision.ForecastMode.FORECAST_ONLY) {
            m.put("forecast", p.forecastMode().word());
        }
        m.put("scaleUp", behavior(p.scaleUp()));
        m.put("scaleDown", behavior(p.scaleDown()));
        Map<String, Object> fb = new LinkedHashMap<>();
        fb.put("failureThreshold", p.fallback().failureThreshold());
        if (p.fallback().floorReplicas() != null) {
            fb.put("floorReplicas", p.fallback().floorReplicas());
        }
        m.put("fallback", fb);
        List<Map<String, Object>> ceilings = new ArrayList<>();
        for (CeilingSpec c : p.ceilings()) {
            if (!fromQuery(c)) {
                ceilings.add(ceiling(c));
            }
        }
        m.put("ceilings", ceilings);
        if (p.dependencyGuard() != null) {
            Map<String, Object> g = new LinkedHashMap<>();
            g.put("threshold", p.dependencyGuard().threshold());
            if (p.dependencyGuard().label() != null) {
                g.put("label", p.dependencyGuard().label());
            }
            g.put("backoffRatio", p.dependencyGuard().backoffRatio());
            g.put("probeSeconds", p.dependencyGuard().probeSeconds());
            m.put("dependencyGuard", g);
        }
        return m;
    }

    /** A {@code policy:} block, indented for a class of a workloads file, with comments for what it leaves out. */
    public static String toYaml(Policy p) {
        StringBuilder sb = new StringBuilder();
        for (CeilingSpec c : p.ceilings()) {
            if (fromQuery(c)) {
                sb.append("# ceiling ").append(c.name()).append(" reads PromQL of the workloads file: keep it from there\n");
            } else if (c.dynamic() || c.perReplica().constant() != 1) {
                // A budget stays a budget: say what it comes to, as the console computes it.
                sb.append("# ceiling ").append(c.name()).append(": ").append(c.expression()).append('\n');
            }
        }
        try {
            ObjectMapper yaml = YAMLMapper.builder(YamlQuoting.factory())
                    .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
                    .enable(YAMLWriteFeature.MINIMIZE_QUOTES).configureForJackson2().build();
            return sb.append(yaml.writeValueAsString(Map.of("policy", toMap(p)))).toString();
        } catch (JacksonException e) {
            throw new UncheckedIOException(new java.io.IOException(e));
        }
    }

    /** True for a side read from a query of the workloads file (signal "ceiling:NAME:side"). */
    private static boolean fromQuery(CeilingSpec c) {
        return isQuery(c.budget().signal()) || isQuery(c.perReplica().signal());
    }

    private static boolean isQuery(SignalName signal) {
        return signal != null && signal.id().startsWith("ceiling:");
    }

    private static Map<String, Object> ceiling(CeilingSpec c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", c.name());
        if (!c.dynamic() && c.perReplica().constant() == 1 && c.budget().constant() == Math.rint(c.budget().constant())) {
            m.put("replicas", (int) c.budget().constant());
            return m;
        }
        if (c.budget().signal() != null) {
            m.put("budgetSignal", c.budget().signal().id());
        } else {
            m.put("budget", c.budget().constant());
        }
        if (c.perReplica().signal() != null) {
            m.put("perReplicaSignal", c.perReplica().signal().id());
        } else {
            m.put("perReplica", c.perReplica().constant());
        }
        if (c.conservativeReplicas() != null) {
            m.put("conservativeReplicas", c.conservativeReplicas());
        }
        return m;
    }

    /** A scaling behaviour as the HPA (and KEDA's advanced.horizontalPodAutoscalerConfig) writes it. */
    public static Map<String, Object> behavior(ScalingBehavior b) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("stabilizationWindowSeconds", b.stabilizationWindowSeconds());
        String sel = b.select().name().toLowerCase(Locale.ROOT);
        m.put("selectPolicy", Character.toUpperCase(sel.charAt(0)) + sel.substring(1));
        m.put("policies", policies(b));
        return m;
    }

    /**
     * A behaviour's rate policies as the HPA's {@code policies:} list ({@code type: Pods|Percent, value,
     * periodSeconds}): the workloads file and a KEDA ScaledObject's {@code advanced.horizontalPodAutoscalerConfig}
     * spell them alike, so both writers use this one.
     */
    public static List<Map<String, Object>> policies(ScalingBehavior b) {
        List<Map<String, Object>> rules = new ArrayList<>();
        for (ScalingRule r : b.rules()) {
            Map<String, Object> rm = new LinkedHashMap<>();
            rm.put("type", r.type() == ScalingRule.Type.PODS ? "Pods" : "Percent");
            rm.put("value", r.value());
            rm.put("periodSeconds", r.periodSeconds());
            rules.add(rm);
        }
        return rules;
    }
}
