package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Fallback;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import io.headroom.decision.ScheduledFloor;
import io.headroom.decision.Signals;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every ScaledObject of the corpus (KEDA's own documentation and e2e templates) imported: what each
 * maps to, that every one of its fields is either mapped or named in a note, and that its class's
 * export passes KEDA's CRD schema.
 */
class KedaCorpusTest {

    static ImportedClass imported(String file) {
        return ScaledObjectImport.from(KedaCorpus.get(file).object(), "prod");
    }

    static String notes(ImportedClass c) {
        return String.join("\n", c.notes());
    }

    static void said(ImportedClass c, String... words) {
        String n = notes(c);
        for (String w : words) {
            assertTrue(n.contains(w), "a note says \"" + w + "\":\n" + n);
        }
    }

    /** What each corpus object becomes. */
    static Stream<Arguments> expectations() {
        List<Arguments> rows = new ArrayList<>();
        add(rows, "docs-cron-cpu.yaml", c -> {
            assertEquals(List.of(new ScheduledFloor(EnumSet.allOf(DayOfWeek.class), LocalTime.of(6, 0), LocalTime.of(20, 0),
                    1)), c.policy().scheduledFloors());
            assertEquals("Asia/Kolkata", c.policy().timeZone().getId());
            assertEquals(4, c.policy().maxReplicas());
            said(c, "cpu trigger 2 (value 80) was not imported", "not on the pods' cpu");
        });
        add(rows, "docs-cron-fixed.yaml", c -> {
            assertEquals(10, c.policy().scheduledFloors().get(0).replicas());
            assertEquals("Asia/Kolkata", c.policy().timeZone().getId());
            assertEquals(0, c.policy().minReplicas());
            assertEquals(300, c.policy().cooldownSeconds());
            said(c, "→ scheduled floor every day 06:00–20:00 → 10 in Asia/Kolkata", "no queue-length trigger found");
        });
        add(rows, "docs-pause-both.yaml", c -> {
            assertEquals(0, c.pause().replicas());
            assertTrue(c.pause().paused());
            assertEquals("paused in KEDA at 0 replicas", c.pause().label());
            assertTrue(c.toYaml().contains("# PAUSED in KEDA: paused at 0 replicas"), c.toYaml());
        });
        add(rows, "docs-prometheus.yaml", c -> {
            assertEquals("sum(rate(http_requests_total{deployment=\"my-deployment\"}[2m]))",
                    c.signals().get(Signals.QUEUE_LENGTH));
            assertNull(c.pause());
            said(c, "threshold 100 per replica is replaced", "KEDA defaults used", "ignoreNullValues true, its default");
        });
        add(rows, "docs-prometheus-bearer.yaml", c -> {
            assertEquals(12, c.policy().maxReplicas());
            said(c, "TriggerAuthentication 'keda-prom-creds' is not read", "settings not carried over: authModes");
        });
        add(rows, "docs-rabbitmq.yaml", c -> {
            assertTrue(c.signals().isEmpty());
            said(c, "rabbitmq trigger 1 was not imported");
        });
        add(rows, "docs-redis-lists.yaml", c -> {
            assertEquals("redis_key_size{key=\"mylist\"}", c.signals().get(Signals.QUEUE_LENGTH));
            said(c, "listLength 10 per replica on list 'mylist'", "settings not carried over: address",
                    "TriggerAuthentication 'keda-trigger-auth-redis-secret'");
        });
        add(rows, "docs-solace.yaml", c -> {
            assertEquals(new ScalingBehavior(60, List.of(ScalingRule.pods(1, 10)), ScalingBehavior.SelectPolicy.MAX),
                    c.policy().scaleDown());
            assertEquals(new ScalingBehavior(0, List.of(ScalingRule.pods(5, 3)), ScalingBehavior.SelectPolicy.MAX),
                    c.policy().scaleUp());
            assertEquals(3, c.policy().pollIntervalSeconds());
            assertEquals(60, c.policy().cooldownSeconds());
            said(c, "restoreToOriginalReplicaCount true", "solace-direct-messaging trigger 1 was not imported");
        });
        add(rows, "docs-spec-advanced.yaml", c -> {
            assertEquals(new Fallback(4, 6), c.policy().fallback(), "currentReplicasIfHigher is Headroom's floor");
            said(c, "scaleDown.tolerance 0.1", "initialCooldownPeriod 0 s", "idleReplicaCount 0",
                    "restoreToOriginalReplicaCount true", "horizontalPodAutoscalerConfig.name keda-hpa-spec-overview",
                    "fallback (currentReplicasIfHigher)", "failureThreshold 4");
        });
        add(rows, "e2e-cron.yaml", c -> {
            assertEquals(24, c.policy().scheduledFloors().size(), "one window an hour, every day");
            assertEquals(new ScheduledFloor(EnumSet.allOf(DayOfWeek.class), LocalTime.of(0, 15), LocalTime.of(0, 16), 4),
                    c.policy().scheduledFloors().get(0));
            assertEquals("Etc/UTC", c.policy().timeZone().getId());
            assertTrue(c.toYaml().contains("timeZone: Etc/UTC") && c.toYaml().contains("scheduledFloors:"), c.toYaml());
        });
        add(rows, "e2e-custom-hpa-name.yaml", c -> said(c, "horizontalPodAutoscalerConfig.name custom-hpa-name-test-custom-hpa",
                "metrics-api trigger 1 was not imported"));
        add(rows, "e2e-fallback-current.yaml", c -> {
            assertEquals(new Fallback(2, null), c.policy().fallback());
            said(c, "fallback (currentReplicas)", "after 1 failed read KEDA falls back on the next");
        });
        add(rows, "e2e-fallback-if-higher.yaml", c -> {
            assertEquals(new Fallback(2, 3), c.policy().fallback());
            said(c, "at 0 replicas KEDA's HPA is idle and applies no fallback; Headroom raises 0 to the floor too");
        });
        add(rows, "e2e-fallback-if-lower.yaml", c -> {
            assertEquals(new Fallback(2, null), c.policy().fallback());
            said(c, "fallback (currentReplicasIfLower)", "a cap here, not a floor");
        });
        add(rows, "e2e-fallback-scaling-modifiers.yaml", c -> {
            assertEquals(new Fallback(4, 4), c.policy().fallback());
            said(c, "fallback (scalingModifiers)", "formula \"primary ?? secondary ?? 8\"");
        });
        add(rows, "e2e-fallback-static-default.yaml", c -> {
            assertEquals(new Fallback(4, 3), c.policy().fallback());
            said(c, "fallback (static)", "down as well as up", "never scales down on missing data");
        });
        add(rows, "e2e-fallback-static.yaml", c -> assertEquals(new Fallback(2, 3), c.policy().fallback()));
        add(rows, "e2e-fallback-value-metric.yaml", c -> said(c, "metrics-api trigger 1 was not imported"));
        add(rows, "e2e-idle-replicas.yaml", c -> {
            assertEquals(2, c.policy().minReplicas());
            said(c, "idleReplicaCount 0: KEDA scales to 0");
        });
        add(rows, "e2e-initial-cooldown.yaml", c -> {
            assertEquals(5, c.policy().cooldownSeconds());
            said(c, "initialCooldownPeriod 120 s");
        });
        add(rows, "e2e-pause-scale-in.yaml", c -> {
            assertTrue(c.pause().scaleIn() && !c.pause().paused());
            assertEquals("scale-in paused in KEDA", c.pause().label());
        });
        add(rows, "e2e-pause-scale-out.yaml", c -> assertEquals("scale-out paused in KEDA", c.pause().label()));
        add(rows, "e2e-paused-replicas.yaml", c -> assertEquals(0, c.pause().replicas()));
        add(rows, "e2e-paused.yaml", c -> {
            assertTrue(c.pause().paused());
            assertNull(c.pause().replicas());
            said(c, "PAUSED in KEDA: paused (autoscaling.keda.sh/paused): KEDA stopped autoscaling and keeps the current");
        });
        add(rows, "e2e-polling-cooldown.yaml", c -> {
            assertEquals(1, c.policy().pollIntervalSeconds());
            assertEquals(0, c.policy().cooldownSeconds());
        });
        add(rows, "e2e-prometheus.yaml", c -> said(c, "activationThreshold 20", "threshold 20 per replica"));
        add(rows, "e2e-redis-lists.yaml", c -> {
            assertEquals("redis_key_size{key=\"queue\"}", c.signals().get(Signals.QUEUE_LENGTH));
            said(c, "settings not carried over: hostFromEnv, portFromEnv", "activationListLength 10");
        });
        add(rows, "e2e-restore-original.yaml", c -> said(c, "restoreToOriginalReplicaCount true"));
        add(rows, "e2e-scaling-modifiers.yaml", c -> {
            assertEquals(new Fallback(4, 5), c.policy().fallback());
            said(c, "formula \"metrics_api + kw_trig\"", "activationTarget \"2\"");
        });
        return rows.stream();
    }

    private static void add(List<Arguments> rows, String file, Consumer<ImportedClass> check) {
        rows.add(Arguments.of(file, check));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("expectations")
    void eachObjectImportsAsKedaMeansIt(String file, Consumer<ImportedClass> check) {
        check.accept(imported(file));
    }

    @Test
    void everyCorpusFileHasItsExpectationOrIsTheBadOne() {
        List<String> covered = expectations().map(a -> (String) a.get()[0]).toList();
        for (KedaCorpus.Entry e : KedaCorpus.all()) {
            assertTrue(covered.contains(e.file()) || e.file().equals("e2e-fallback-rollout.yaml"), e.file());
        }
        assertTrue(KedaCorpus.all().size() >= 20, "at least ~20 real objects");
    }

    @Test
    void aTargetHeadroomCannotScaleIsSkippedByNameAndTheOthersImported() {
        ScaledObjectImport.Listing l = ScaledObjectImport.of(KedaCorpus.all().stream().map(KedaCorpus.Entry::object)
                .toList(), "prod");
        assertEquals(List.of(new ScaledObjectImport.Skipped("fallback-test-ns-rollout/fallback-test-so",
                "it scales a Rollout; Headroom scales Deployments and StatefulSets")), l.skipped());
        assertEquals(KedaCorpus.all().size() - 1, l.imported().size());
    }

    /** Every field of every object is mapped to the policy or named in a note: nothing dropped without a word. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("importable")
    void everyFieldIsMappedOrNamed(KedaCorpus.Entry e) {
        ImportedClass c = ScaledObjectImport.from(e.object(), "prod");
        String n = notes(c);
        List<String> unsaid = new ArrayList<>();
        Map<String, Object> spec = Maps.map(e.object().getAdditionalProperties(), "spec");
        leaves("", spec, (path, value) -> {
            if (!mapped(path, value, n) && !n.contains(last(path))) {
                unsaid.add(path);
            }
        });
        int i = 0;
        for (Object t : Maps.list(spec, "triggers")) {
            i++;
            String type = String.valueOf(Maps.at(t, "type"));
            String name = (String) Maps.at(t, "name");
            String label = type + " trigger " + (name == null ? i : "'" + name + "'");
            String note = c.notes().stream().filter(x -> x.startsWith(label)).findFirst().orElse(null);
            if (note == null) {
                unsaid.add("triggers[" + (i - 1) + "] (no note starts with " + label + ")");
                continue;
            }
            if (note.contains("was not imported")) {
                continue; // the whole trigger is named, with why
            }
            for (String k : Maps.map(t, "metadata").keySet()) {
                if (!List.of("query", "threshold", "listName", "listLength", "start", "end", "timezone",
                        "desiredReplicas").contains(k) && !note.contains(k)) {
                    unsaid.add("triggers[" + (i - 1) + "].metadata." + k);
                }
            }
            if (Maps.at(t, "authenticationRef") != null && !note.contains("TriggerAuthentication")) {
                unsaid.add("triggers[" + (i - 1) + "].authenticationRef");
            }
            if ("Value".equals(Maps.at(t, "metricType")) && !note.contains("metricType Value")) {
                unsaid.add("triggers[" + (i - 1) + "].metricType");
            }
        }
        var ann = e.object().getMetadata().getAnnotations();
        if (ann != null) {
            ann.keySet().stream().filter(k -> k.contains("keda.sh/")).filter(k -> !n.contains(k)).forEach(unsaid::add);
        }
        assertEquals(List.of(), unsaid, "fields neither mapped nor named in a note:\n" + n);
    }

    static Stream<KedaCorpus.Entry> importable() {
        return KedaCorpus.all().stream().filter(e -> !e.file().equals("e2e-fallback-rollout.yaml"));
    }

    /** Mapped to a policy field or a signal; a trigger's own fields are checked against its note above. */
    private static boolean mapped(String path, Object value, String notes) {
        String p = path.replaceAll("\\[\\d+]", "[]");
        if (p.startsWith("triggers[]")) {
            return true;
        }
        if (p.equals("scaleTargetRef.apiVersion")) {
            return "apps/v1".equals(value);
        }
        if (p.equals("advanced.restoreToOriginalReplicaCount")) {
            return Boolean.FALSE.equals(value);
        }
        return List.of("scaleTargetRef.name", "scaleTargetRef.kind", "minReplicaCount", "maxReplicaCount",
                "cooldownPeriod", "pollingInterval", "fallback.failureThreshold", "fallback.replicas", "fallback.behavior")
                .contains(p) || p.matches("advanced\\.horizontalPodAutoscalerConfig\\.behavior\\.scale(Up|Down)\\."
                + "(stabilizationWindowSeconds|selectPolicy|policies\\[]\\.(type|value|periodSeconds))");
    }

    /** The field's own key, or its last two for a key as common as "name". */
    private static String last(String path) {
        String[] p = path.replaceAll("\\[\\d+]", "").split("\\.");
        String key = p[p.length - 1];
        return key.equals("name") && p.length > 1 ? p[p.length - 2] + "." + key : key;
    }

    private static void leaves(String prefix, Object v, java.util.function.BiConsumer<String, Object> out) {
        if (v instanceof Map<?, ?> m) {
            m.forEach((k, x) -> leaves(prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k, x, out));
        } else if (v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                leaves(prefix + "[" + i + "]", l.get(i), out);
            }
        } else {
            out.accept(prefix, v);
        }
    }

    /** Each object's class, its required signals filled in, exported: KEDA's CRD schema stores it. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("importable")
    void everyExportPassesKedasCrdSchema(KedaCorpus.Entry e) {
        ImportedClass c = ScaledObjectImport.from(e.object(), "prod");
        ScaledObjectExport.Export x = ScaledObjectExport.of(c.name(), c.target(), c.policy(), KedaCorpus.filled(c),
                "http://prometheus.monitoring:9090");
        assertEquals(List.of(), KedaCrdSchema.get().problems(x.object()), x.toYaml());
        assertFalse(x.toYaml().contains("behavior: static"), "Headroom's fallback is never KEDA's static one");
    }
}
