package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ConfigNode;
import io.headroom.config.ConfigTree;
import io.headroom.config.PolicyReader;
import io.headroom.decision.Fallback;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import io.headroom.decision.Signals;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScaledObjectImportTest {

    static GenericKubernetesResource parse(String yaml) {
        return new KubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class);
    }

    @Test
    void aScaledObjectImportsToTheExpectedClassEntry() throws Exception {
        ImportedClass c = ScaledObjectImport.from(parse(AutoscalerCooperationTest.SCALED_OBJECT), "prod");
        assertEquals("orders-so", c.name());
        assertEquals(new WorkloadRef("prod", "shop", "Deployment", "orders"), c.target());
        Policy p = c.policy();
        assertEquals(1, p.minReplicas());
        assertEquals(30, p.maxReplicas());
        assertEquals(120, p.cooldownSeconds());
        assertEquals(15, p.pollIntervalSeconds());
        // KEDA falls back after 4 failed reads, on the 5th; static's 6 replicas become Headroom's floor.
        assertEquals(new Fallback(5, 6), p.fallback());
        assertEquals(new ScalingBehavior(600, List.of(ScalingRule.pods(2, 60)), ScalingBehavior.SelectPolicy.MAX),
                p.scaleDown());
        assertEquals(new ScalingBehavior(0, List.of(ScalingRule.percent(200, 30), ScalingRule.pods(5, 30)),
                ScalingBehavior.SelectPolicy.MAX), p.scaleUp());
        assertEquals("sum(orders_queue_depth{queue=\"orders\"})", c.signals().get(Signals.QUEUE_LENGTH),
                "the prometheus query is the queue-length signal; the redis list does not override it");
        assertTrue(c.notes().stream().anyMatch(n -> n.contains("redis trigger") && n.contains("orders-retry")
                && n.contains("was not imported")), c.notes().toString());
        assertTrue(c.notes().stream().anyMatch(n -> n.contains("threshold 50")), c.notes().toString());

        String yaml = c.toYaml();
        assertFalse(yaml.contains("hunter2"), "trigger secrets are never copied");
        assertTrue(yaml.startsWith("# Imported from KEDA ScaledObject shop/orders-so"), yaml);
        // The policy block reads back, through Headroom's own reader, to the same policy.
        ConfigNode root = ConfigTree.parse("import.yaml", yaml, ConfigTree.Format.YAML);
        ConfigNode entry = ((ConfigNode.ListNode) root).items().get(0);
        ConfigNode policy = ((ConfigNode.MapNode) entry).fields().get("policy");
        assertEquals(p, PolicyReader.read(policy));
        assertTrue(yaml.contains("queueLength:"), yaml);

        // Pasted under "classes:" of a workloads file it is refused until the operator adds what
        // KEDA does not know, then it loads as the same class.
        String file = "prometheus: {url: \"http://127.0.0.1:9090\"}\nclasses:\n" + yaml;
        io.headroom.config.ConfigException missing = org.junit.jupiter.api.Assertions.assertThrows(
                io.headroom.config.ConfigException.class, () -> io.headroom.config.WorkloadsFile.read("w.yaml", file,
                        ConfigTree.Format.YAML, java.nio.file.Path.of(".")));
        assertTrue(missing.getMessage().contains("signals.oldestAge: is required"), missing.getMessage());
        String reviewed = file.replaceAll("# (\\w+): <PromQL>.*", "$1: my_metric");
        io.headroom.config.WorkloadsFile wf = io.headroom.config.WorkloadsFile.read("w.yaml", reviewed,
                ConfigTree.Format.YAML, java.nio.file.Path.of("."));
        assertEquals(c.target(), wf.classes().get(0).target());
        assertEquals(p, wf.classes().get(0).policy());
    }

    @Test
    void aRedisOnlyScaledObjectGetsAQueueLengthSignalWithANoteAndKedaDefaults() {
        ImportedClass c = ScaledObjectImport.from(parse("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: mail, namespace: ops}
                spec:
                  scaleTargetRef: {name: mailer, kind: StatefulSet}
                  triggers:
                    - type: redis
                      metadata: {address: "redis:6379", listName: mail, listLength: "5"}
                """), "prod");
        assertEquals(new WorkloadRef("prod", "ops", "StatefulSet", "mailer"), c.target());
        assertEquals(0, c.policy().minReplicas());
        assertEquals(100, c.policy().maxReplicas());
        assertEquals(300, c.policy().cooldownSeconds());
        assertEquals(ScalingBehavior.defaultDown(), c.policy().scaleDown());
        assertEquals("redis_key_size{key=\"mail\"}", c.signals().get(Signals.QUEUE_LENGTH));
        assertTrue(c.notes().stream().anyMatch(n -> n.contains("listLength 5") && n.contains("redis_exporter")));
        assertTrue(c.notes().stream().anyMatch(n -> n.contains("KEDA defaults")));
    }

    static GenericKubernetesResource prometheusScaledObject(String name, String queue) {
        return parse("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: %s, namespace: shop}
                spec:
                  scaleTargetRef: {name: %s-worker}
                  triggers:
                    - type: prometheus
                      metadata:
                        serverAddress: http://prometheus:9090
                        query: sum(rabbitmq_queue_messages_ready{namespace="shop", queue="%s"})
                        threshold: "20"
                """.formatted(name, name, queue));
    }

    @Test
    void scaledObjectsWhoseQueriesDifferOnlyInTheQueueShareOneGroupedQuery() throws Exception {
        List<ImportedClass> imported = ScaledObjectImport.grouped(List.of(
                ScaledObjectImport.from(prometheusScaledObject("orders", "orders"), "prod"),
                ScaledObjectImport.from(prometheusScaledObject("billing", "billing"), "prod"),
                ScaledObjectImport.from(parse(AutoscalerCooperationTest.SCALED_OBJECT), "prod")));
        ImportedClass orders = imported.get(0);
        io.headroom.config.GroupedQuery g = orders.grouped().get(Signals.QUEUE_LENGTH);
        assertEquals(new io.headroom.config.GroupedQuery(
                "sum by (queue) (rabbitmq_queue_messages_ready{namespace=\"shop\"})", "queue", "orders"), g);
        assertEquals("billing", imported.get(1).grouped().get(Signals.QUEUE_LENGTH).value());
        assertEquals(g.key(), imported.get(1).grouped().get(Signals.QUEUE_LENGTH).key(), "one request for both");
        assertTrue(imported.get(2).grouped().isEmpty(), "a query no other class shares stays its own");
        assertTrue(orders.notes().stream().anyMatch(n -> n.contains("grouped query by queue")), orders.notes().toString());

        // Written out and read back as a workloads file, both classes hold the grouped form.
        StringBuilder file = new StringBuilder("prometheus: {url: \"http://127.0.0.1:9090\"}\nclasses:\n");
        for (ImportedClass c : imported.subList(0, 2)) {
            file.append(c.toYaml().replaceAll("# (\\w+): <PromQL>.*", "$1: my_metric")).append('\n');
        }
        io.headroom.config.WorkloadsFile wf = io.headroom.config.WorkloadsFile.read("w.yaml", file.toString(),
                ConfigTree.Format.YAML, java.nio.file.Path.of("."));
        assertEquals(g, wf.classConfig("orders").orElseThrow().groupedQuery(Signals.QUEUE_LENGTH));
        assertEquals("billing", wf.classConfig("billing").orElseThrow().groupedQuery(Signals.QUEUE_LENGTH).value());
    }

    static final String CRON_OBJECT = """
            apiVersion: keda.sh/v1alpha1
            kind: ScaledObject
            metadata: {name: reports, namespace: ops}
            spec:
              scaleTargetRef: {name: reporter}
              minReplicaCount: 0
              triggers:
                - type: prometheus
                  metadata: {serverAddress: "http://prom:9090", query: "sum(report_jobs)", threshold: "5"}
                - type: cron
                  metadata: {timezone: Europe/Berlin, start: "30 7 * * 1-5", end: "0 19 * * 1-5", desiredReplicas: "3"}
            """;

    /** Issue 26: a cron trigger was announced as a scheduled floor, but the YAML had no scheduledFloors/timeZone. */
    @Test
    void aCronTriggerWritesItsFloorsAndTimeZoneIntoTheYaml() throws Exception {
        ImportedClass c = ScaledObjectImport.from(parse(CRON_OBJECT), "prod");
        String file = "prometheus: {url: \"http://127.0.0.1:9090\"}\nclasses:\n"
                + c.toYaml().replaceAll("# (\\w+): <PromQL>.*", "$1: my_metric");
        io.headroom.config.WorkloadsFile wf = io.headroom.config.WorkloadsFile.read("w.yaml", file,
                ConfigTree.Format.YAML, java.nio.file.Path.of("."));
        Policy loaded = wf.classes().get(0).policy();
        assertEquals(List.of(new io.headroom.decision.ScheduledFloor(java.util.EnumSet.range(java.time.DayOfWeek.MONDAY,
                java.time.DayOfWeek.FRIDAY), java.time.LocalTime.of(7, 30), java.time.LocalTime.of(19, 0), 3)),
                loaded.scheduledFloors(), "the floor is in the file, not only in a note");
        assertEquals(java.time.ZoneId.of("Europe/Berlin"), loaded.timeZone(), "and so is its time zone");
        assertEquals(c.policy(), loaded);
    }

    /** Issue 26: a paused ScaledObject imported as active without a word. */
    @Test
    void aPausedObjectImportsAsVisiblyPaused() {
        ImportedClass c = ScaledObjectImport.from(parse(CRON_OBJECT.replace("metadata: {name: reports, namespace: ops}",
                "metadata: {name: reports, namespace: ops, annotations: {autoscaling.keda.sh/paused-replicas: \"2\"}}")),
                "prod");
        assertEquals(2, c.pause().replicas());
        assertEquals("paused in KEDA at 2 replicas", c.pause().label());
        String yaml = c.toYaml();
        assertTrue(yaml.lines().limit(3).anyMatch(l -> l.startsWith("# PAUSED in KEDA: paused at 2 replicas")), yaml);
    }

    /** Issue 26: one bad object made the whole namespace's import fail, and the error did not name it. */
    @Test
    void aBadObjectIsSkippedByNameAndTheOthersImported() {
        GenericKubernetesResource bad = parse("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: broken, namespace: ops}
                spec:
                  scaleTargetRef: {name: worker}
                  minReplicaCount: 5
                  maxReplicaCount: 2
                  triggers:
                    - type: prometheus
                      metadata: {query: "sum(q)", threshold: "1"}
                """);
        ScaledObjectImport.Listing l = ScaledObjectImport.of(List.of(parse(CRON_OBJECT), bad,
                prometheusScaledObject("orders", "orders")), "prod");
        assertEquals(List.of("reports", "orders"), l.imported().stream().map(ImportedClass::name).toList());
        assertEquals(List.of(new ScaledObjectImport.Skipped("ops/broken", "minReplicaCount 5 is above maxReplicaCount 2")),
                l.skipped());
    }

    /** A second queue trigger used to become a signal no workloads file accepts; now it is named, and the entry loads. */
    @Test
    void aSecondQueueTriggerIsNamedAndTheEntryStillLoads() throws Exception {
        ImportedClass c = ScaledObjectImport.from(parse("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: two, namespace: ops}
                spec:
                  scaleTargetRef: {name: worker}
                  triggers:
                    - type: prometheus
                      name: main
                      metadata: {query: "sum(main_queue)", threshold: "10"}
                    - type: prometheus
                      name: retries
                      metadata: {query: "sum(retry_queue)", threshold: "5"}
                """), "prod");
        assertEquals(java.util.Map.of(Signals.QUEUE_LENGTH, "sum(main_queue)"), c.signals());
        assertTrue(c.notes().stream().anyMatch(n -> n.startsWith("prometheus trigger 'retries' was not imported")
                && n.contains("sum(retry_queue)")), c.notes().toString());
        String file = "prometheus: {url: \"http://127.0.0.1:9090\"}\nclasses:\n"
                + c.toYaml().replaceAll("# (\\w+): <PromQL>.*", "$1: my_metric");
        assertEquals(1, io.headroom.config.WorkloadsFile.read("w.yaml", file, ConfigTree.Format.YAML,
                java.nio.file.Path.of(".")).classes().size());
    }

    /**
     * What KEDA itself refuses is a bad object here too, ported from kedacore/keda
     * apis/keda/v1alpha1/scaledobject_types_test.go (TestCheckReplicaCountBoundsAreValid, TestCheckFallbackValid).
     */
    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> kedaValidity() {
        String bounds = "scaledobject_types_test.go TestCheckReplicaCountBoundsAreValid ";
        String fb = "scaledobject_types_test.go TestCheckFallbackValid ";
        String fallback = "fallback: {failureThreshold: 3, replicas: 1}";
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of(bounds + "\"Valid: min 1, max 5, no idle\"",
                        "minReplicaCount: 1\n  maxReplicaCount: 5", "prometheus", null),
                org.junit.jupiter.params.provider.Arguments.of(bounds + "\"Valid: min 1, max 5, idle 0\"",
                        "minReplicaCount: 1\n  maxReplicaCount: 5\n  idleReplicaCount: 0", "prometheus", null),
                org.junit.jupiter.params.provider.Arguments.of(bounds + "\"Invalid: min 2 > max 1\"",
                        "minReplicaCount: 2\n  maxReplicaCount: 1", "prometheus", "minReplicaCount 2 is above maxReplicaCount 1"),
                org.junit.jupiter.params.provider.Arguments.of(bounds + "\"Invalid: idle 1 == min 1\"",
                        "minReplicaCount: 1\n  maxReplicaCount: 5\n  idleReplicaCount: 1", "prometheus",
                        "idleReplicaCount 1 must be less than minReplicaCount 1"),
                org.junit.jupiter.params.provider.Arguments.of(bounds + "\"Invalid: idle 2 > min 1\"",
                        "minReplicaCount: 1\n  maxReplicaCount: 5\n  idleReplicaCount: 2", "prometheus",
                        "idleReplicaCount 2 must be less than minReplicaCount 1"),
                org.junit.jupiter.params.provider.Arguments.of(fb + "\"No fallback configured\"", "", "couchdb", null),
                org.junit.jupiter.params.provider.Arguments.of(fb + "\"Explicit AverageValue metricType - valid\"",
                        fallback, "couchdb", null),
                org.junit.jupiter.params.provider.Arguments.of(fb + "\"CPU trigger - invalid\"", fallback, "cpu",
                        "its fallback needs a trigger other than cpu or memory"),
                org.junit.jupiter.params.provider.Arguments.of(fb + "\"Memory trigger - invalid\"", fallback, "memory",
                        "its fallback needs a trigger other than cpu or memory"),
                org.junit.jupiter.params.provider.Arguments.of(fb + "\"Multiple triggers with one CPU and one valid - valid\"",
                        fallback, "cpu,couchdb", null),
                org.junit.jupiter.params.provider.Arguments.of(fb + "\"Negative FailureThreshold - invalid\"",
                        "fallback: {failureThreshold: -1, replicas: 1}", "couchdb",
                        "fallback.failureThreshold must be at least 0"),
                org.junit.jupiter.params.provider.Arguments.of(fb + "\"Negative Replicas - invalid\"",
                        "fallback: {failureThreshold: 3, replicas: -1}", "couchdb", "fallback.replicas must be at least 0"),
                org.junit.jupiter.params.provider.Arguments.of(fb + "\"Using ScalingModifiers with AverageValue MetricType"
                        + " - valid\"", fallback + "\n  advanced: {scalingModifiers: {formula: \"x\", target: \"2\","
                        + " metricType: AverageValue}}", "cpu", null));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("kedaValidity")
    void whatKedaRefusesIsABadObject(String row, String specLines, String triggerTypes, String refusal) {
        StringBuilder triggers = new StringBuilder();
        for (String t : triggerTypes.split(",")) {
            triggers.append("    - type: ").append(t).append("\n      metadata: {value: \"1\"}\n");
        }
        GenericKubernetesResource so = parse("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: v, namespace: ops}
                spec:
                  scaleTargetRef: {name: worker}
                """ + "  " + specLines + "\n  triggers:\n" + triggers);
        ScaledObjectImport.Listing l = ScaledObjectImport.of(List.of(so), "prod");
        if (refusal == null) {
            assertEquals(List.of(), l.skipped(), row);
        } else {
            assertEquals(1, l.skipped().size(), row);
            assertTrue(l.skipped().get(0).why().startsWith(refusal), row + ": " + l.skipped().get(0).why());
            assertEquals("ops/v", l.skipped().get(0).object());
        }
    }
}
