package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.DependencyGuard;
import io.headroom.decision.Fallback;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import io.headroom.decision.ScheduledFloor;
import io.headroom.decision.Signals;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A class's policy as a KEDA ScaledObject, field by field, and back through import-keda. */
class ScaledObjectExportTest {
    static final WorkloadRef TARGET = new WorkloadRef("prod", "billing", "Deployment", "invoice-worker");
    static final Map<String, String> QUERIES = new LinkedHashMap<>(Map.of(
            Signals.QUEUE_LENGTH, "sum(queue_waiting{queue=\"invoices\"})",
            Signals.ARRIVAL_RATE, "sum(rate(jobs_enqueued_total{queue=\"invoices\"}[1m]))",
            Signals.MEAN_SERVICE, "sum(rate(job_seconds_sum[1m])) / sum(rate(job_seconds_count[1m]))",
            Signals.OLDEST_AGE, "max(queue_oldest_age_seconds{queue=\"invoices\"})"));

    static Policy policy() {
        return Policy.builder().slotsPerReplica(4).targetUtilization(0.75).drainTargetSeconds(90).maxAgeSeconds(120.0)
                .minReplicas(2).maxReplicas(40).cooldownSeconds(180).pollIntervalSeconds(20)
                .scaleUp(new ScalingBehavior(30, List.of(ScalingRule.pods(6, 30)), ScalingBehavior.SelectPolicy.MAX))
                .scaleDown(new ScalingBehavior(600, List.of(ScalingRule.percent(50, 60)), ScalingBehavior.SelectPolicy.MIN))
                .fallback(new Fallback(3, 5))
                .ceilings(List.of(CeilingSpec.budget("db", 200, 10)))
                .dependencyGuard(new DependencyGuard(250, "db p95 ms"))
                .scheduledFloors(List.of(new ScheduledFloor(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY),
                        LocalTime.of(8, 0), LocalTime.of(20, 0), 3)))
                .timeZone(ZoneId.of("Europe/Berlin")).build();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o, String... path) {
        Object cur = o;
        for (String p : path) {
            cur = ((Map<String, Object>) cur).get(p);
        }
        return (Map<String, Object>) cur;
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyFieldKedaCanExpressIsThere() {
        ScaledObjectExport.Export e = ScaledObjectExport.of("invoices", TARGET, policy(), QUERIES, "http://prom:9090");
        Map<String, Object> so = e.object();
        assertEquals("keda.sh/v1alpha1", so.get("apiVersion"));
        assertEquals("billing", map(so, "metadata").get("namespace"));
        Map<String, Object> spec = map(so, "spec");
        assertEquals(Map.of("kind", "Deployment", "name", "invoice-worker"), spec.get("scaleTargetRef"));
        assertEquals(20, spec.get("pollingInterval"));
        assertEquals(180, spec.get("cooldownPeriod"));
        assertEquals(2, spec.get("minReplicaCount"));
        assertEquals(40, spec.get("maxReplicaCount"));
        assertEquals(Map.of("failureThreshold", 3, "replicas", 5), spec.get("fallback"));
        Map<String, Object> down = map(spec, "advanced", "horizontalPodAutoscalerConfig", "behavior", "scaleDown");
        assertEquals(600, down.get("stabilizationWindowSeconds"));
        assertEquals("Min", down.get("selectPolicy"));
        List<Object> triggers = (List<Object>) spec.get("triggers");
        Map<String, Object> prom = map(triggers.get(0), "metadata");
        // ceil(value / (u × k)) with value = λ × S + L × S / D is Headroom's slot estimate at steady state.
        assertEquals("3", prom.get("threshold"));
        assertEquals("(sum(rate(jobs_enqueued_total{queue=\"invoices\"}[1m]))) * (sum(rate(job_seconds_sum[1m])) /"
                + " sum(rate(job_seconds_count[1m]))) + (sum(queue_waiting{queue=\"invoices\"})) * (sum(rate("
                + "job_seconds_sum[1m])) / sum(rate(job_seconds_count[1m]))) / 90", prom.get("query"));
        assertEquals("false", prom.get("ignoreNullValues"), "a missing value is not 0");
        Map<String, Object> cron = map(triggers.get(1), "metadata");
        assertEquals("0 8 * * 1,2,3,4,5", cron.get("start"));
        assertEquals("0 20 * * 1,2,3,4,5", cron.get("end"));
        assertEquals("Europe/Berlin", cron.get("timezone"));
        assertEquals("3", cron.get("desiredReplicas"));
        String notes = String.join("\n", e.notes());
        for (String said : List.of("age objective", "reaction-gap reserve", "ceiling db", "concurrency governor")) {
            assertTrue(notes.contains(said), "says what KEDA cannot express: " + said + "\n" + notes);
        }
        assertTrue(notes.contains("ceiling db, floor(200 / 10 per replica) = 20 replicas: a budget KEDA cannot split"
                + " per replica"), "a budget ceiling is exported as a budget, not flattened: " + notes);
        assertTrue(e.toYaml().contains("# not expressible in KEDA: ceiling db, floor(200 / 10 per replica) = 20"
                + " replicas"), e.toYaml());
        assertEquals(40, map(e.object(), "spec").get("maxReplicaCount"), "maxReplicaCount stays the policy's max");
        assertTrue(e.toYaml().startsWith("# Exported from Headroom class invoices"), e.toYaml());
        // KEDA's trigger metadata is map[string]string: a bare 3 would fail the CRD's validation.
        assertTrue(e.toYaml().contains("threshold: \"3\""), e.toYaml());
        assertTrue(e.toYaml().contains("desiredReplicas: \"3\""), e.toYaml());
    }

    @Test
    void exportThenImportGivesBackWhatKedaCanHold() {
        Policy p = policy();
        ScaledObjectExport.Export e = ScaledObjectExport.of("invoices", TARGET, p, QUERIES, "http://prom:9090");
        GenericKubernetesResource so = new KubernetesSerialization().unmarshal(e.toYaml(), GenericKubernetesResource.class);
        ImportedClass back = ScaledObjectImport.from(so, "prod");
        assertEquals(TARGET, back.target());
        Policy q = back.policy();
        assertEquals(p.minReplicas(), q.minReplicas());
        assertEquals(p.maxReplicas(), q.maxReplicas());
        assertEquals(p.cooldownSeconds(), q.cooldownSeconds());
        assertEquals(p.pollIntervalSeconds(), q.pollIntervalSeconds());
        assertEquals(p.scaleUp(), q.scaleUp());
        assertEquals(p.scaleDown(), q.scaleDown());
        assertEquals(p.fallback(), q.fallback());
        assertEquals(p.scheduledFloors(), q.scheduledFloors());
        assertEquals(p.timeZone(), q.timeZone());
    }

    @Test
    void importThenExportKeepsTheScaledObjectsFields() {
        String yaml = """
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: mailer, namespace: comms}
                spec:
                  scaleTargetRef: {name: mailer}
                  pollingInterval: 15
                  cooldownPeriod: 120
                  minReplicaCount: 1
                  maxReplicaCount: 25
                  fallback: {failureThreshold: 4, replicas: 6}
                  triggers:
                    - type: prometheus
                      metadata: {serverAddress: "http://prom:9090", query: "sum(mail_queue)", threshold: "10"}
                    - type: cron
                      metadata: {timezone: UTC, start: "30 6 * * 1-5", end: "0 9 * * 1-5", desiredReplicas: "4"}
                """;
        ImportedClass in = ScaledObjectImport.from(new KubernetesSerialization().unmarshal(yaml,
                GenericKubernetesResource.class), "prod");
        ScaledObjectExport.Export out = ScaledObjectExport.of(in.name(), in.target(), in.policy(), in.signals(),
                "http://prom:9090");
        Map<String, Object> spec = map(out.object(), "spec");
        assertEquals(15, spec.get("pollingInterval"));
        assertEquals(120, spec.get("cooldownPeriod"));
        assertEquals(1, spec.get("minReplicaCount"));
        assertEquals(25, spec.get("maxReplicaCount"));
        assertEquals(Map.of("failureThreshold", 4, "replicas", 6), spec.get("fallback"));
        assertEquals("sum(mail_queue)", map(((List<?>) spec.get("triggers")).get(0), "metadata").get("query"),
                "only a queue length known: KEDA's length rule again");
        assertEquals("Mon–Fri 06:30–09:00 → 4", in.policy().scheduledFloors().get(0).describe());
        assertEquals("30 6 * * 1,2,3,4,5", map(((List<?>) spec.get("triggers")).get(1), "metadata").get("start"));
    }
}
