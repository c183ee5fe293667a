package io.headroom.kube;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    static final Map<SignalName, String> QUERIES = new LinkedHashMap<>(Map.of(
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
        // Headroom holds the current replicas and raises them to the floor: KEDA's currentReplicasIfHigher; KEDA
        // falls back after failureThreshold failed reads, Headroom on its failureThreshold-th tick: one less.
        assertEquals(Map.of("failureThreshold", 2, "replicas", 5, "behavior", "currentReplicasIfHigher"),
                spec.get("fallback"));
        assertEquals(List.of(), KedaCrdSchema.get().problems(so), "KEDA's CRD schema stores it");
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
    void exportThenImportGivesBackTheWholeClass() {
        Policy p = policy();
        ScaledObjectExport.Export e = ScaledObjectExport.of("invoices", TARGET, p, QUERIES, "http://prom:9090");
        GenericKubernetesResource so = new KubernetesSerialization().unmarshal(e.toYaml(), GenericKubernetesResource.class);
        ImportedClass back = ScaledObjectImport.from(so, "prod");
        assertEquals(TARGET, back.target());
        assertEquals(p, back.policy(), "KEDA's fields from the spec, the rest from Headroom's own annotation");
        assertEquals(QUERIES, back.signals(), "the slots query comes back as the class's own queries, not as queueLength");
    }

    /** Issue 26: Headroom's exported slots query came back as queueLength. Without the annotation it is still read. */
    @Test
    @SuppressWarnings("unchecked")
    void theSlotsQueryIsRecognisedEvenWithoutTheAnnotation() {
        ScaledObjectExport.Export e = ScaledObjectExport.of("invoices", TARGET, policy(), QUERIES, "http://prom:9090");
        Map<String, Object> object = e.object();
        ((Map<String, Object>) object.get("metadata")).remove("annotations");
        GenericKubernetesResource so = tools.jackson.databind.json.JsonMapper.builder().configureForJackson2().build().convertValue(object,
                GenericKubernetesResource.class);
        ImportedClass back = ScaledObjectImport.from(so, "prod");
        assertEquals(Map.of(Signals.ARRIVAL_RATE, QUERIES.get(Signals.ARRIVAL_RATE), Signals.MEAN_SERVICE,
                QUERIES.get(Signals.MEAN_SERVICE), Signals.QUEUE_LENGTH, QUERIES.get(Signals.QUEUE_LENGTH)), back.signals());
        assertEquals(90, back.policy().drainTargetSeconds());
        assertEquals(3, back.policy().slotsPerReplica() * back.policy().targetUtilization(), 1e-9,
                "the threshold is u × k");
        assertTrue(back.notes().stream().anyMatch(n -> n.contains("Headroom's own slots query")), back.notes().toString());
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> fallbacks() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("a floor: currentReplicasIfHigher", new Fallback(3, 4), 2,
                        Map.of("failureThreshold", 2, "replicas", 4, "behavior", "currentReplicasIfHigher")),
                org.junit.jupiter.params.provider.Arguments.of("no floor: currentReplicas (replicas never 0, or KEDA"
                        + " could scale a failing workload to zero)", new Fallback(1, null), 0,
                        Map.of("failureThreshold", 0, "replicas", 1, "behavior", "currentReplicas")),
                org.junit.jupiter.params.provider.Arguments.of("no floor, min 3", new Fallback(5, null), 3,
                        Map.of("failureThreshold", 4, "replicas", 3, "behavior", "currentReplicas")));
    }

    /** Export writes the KEDA fallback behaviour that is Headroom's own, and re-import gives the same fallback. */
    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("fallbacks")
    void theFallbackIsHeadroomsOwnBehaviour(String row, Fallback f, int min, Map<String, Object> expected) {
        Policy p = Policy.builder().minReplicas(min).fallback(f).build();
        ScaledObjectExport.Export e = ScaledObjectExport.of("c", TARGET, p, QUERIES, "http://prom:9090");
        assertEquals(expected, map(e.object(), "spec").get("fallback"), row);
        assertEquals(List.of(), KedaCrdSchema.get().problems(e.object()), row);
        GenericKubernetesResource so = new KubernetesSerialization().unmarshal(e.toYaml(), GenericKubernetesResource.class);
        assertEquals(f, ScaledObjectImport.from(so, "prod").policy().fallback(), row);
    }

    /** The schema check can fail: what the API server would refuse is found. */
    @Test
    @SuppressWarnings("unchecked")
    void kedasSchemaRefusesWhatTheApiServerWould() {
        assertTrue(KedaCrdSchema.get().celRuleIsTheOneChecked(), "KEDA's CRD still has the one CEL rule checked here: "
                + KedaCrdSchema.get().celRuleTexts());
        java.util.function.Function<java.util.function.Consumer<Map<String, Object>>, List<String>> problems = change -> {
            Map<String, Object> so = tools.jackson.databind.json.JsonMapper.builder().configureForJackson2().build().convertValue(
                    ScaledObjectExport.of("invoices", TARGET, policy(), QUERIES, "http://prom:9090").object(), Map.class);
            change.accept(so);
            return KedaCrdSchema.get().problems(so);
        };
        assertFalse(problems.apply(so -> map(((List<Object>) map(so, "spec").get("triggers")).get(0), "metadata")
                .put("threshold", 3)).isEmpty(), "trigger metadata is map[string]string");
        assertFalse(problems.apply(so -> map(so, "spec").put("pollingIntervall", 5)).isEmpty(), "an unknown field");
        assertFalse(problems.apply(so -> map(so, "spec", "fallback").put("behavior", "holdCurrent")).isEmpty(),
                "a fallback behaviour KEDA does not have");
        assertFalse(problems.apply(so -> map(so, "spec").put("minReplicaCount", 99)).isEmpty(), "min above max (CEL)");
        assertFalse(problems.apply(so -> map(so, "spec").remove("triggers")).isEmpty(), "triggers are required");
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
        assertEquals(Map.of("failureThreshold", 4, "replicas", 6, "behavior", "currentReplicasIfHigher"), spec.get("fallback"),
                "KEDA's static 6 after 4 failures is Headroom's floor 6 on the 5th tick, and back");
        assertEquals(List.of(), KedaCrdSchema.get().problems(out.object()));
        assertEquals("sum(mail_queue)", map(((List<?>) spec.get("triggers")).get(0), "metadata").get("query"),
                "only a queue length known: KEDA's length rule again");
        assertEquals("Mon–Fri 06:30–09:00 → 4", in.policy().scheduledFloors().get(0).describe());
        assertEquals("30 6 * * 1,2,3,4,5", map(((List<?>) spec.get("triggers")).get(1), "metadata").get("start"));
    }
}
