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
        assertEquals(new Fallback(4, 6), p.fallback());
        assertEquals(new ScalingBehavior(600, List.of(ScalingRule.pods(2, 60)), ScalingBehavior.SelectPolicy.MAX),
                p.scaleDown());
        assertEquals(new ScalingBehavior(0, List.of(ScalingRule.percent(200, 30), ScalingRule.pods(5, 30)),
                ScalingBehavior.SelectPolicy.MAX), p.scaleUp());
        assertEquals("sum(orders_queue_depth{queue=\"orders\"})", c.signals().get(Signals.QUEUE_LENGTH),
                "the prometheus query is the queue-length signal; the redis list does not override it");
        assertTrue(c.notes().stream().anyMatch(n -> n.contains("redis trigger") && n.contains("orders-retry")), c.notes().toString());
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
}
