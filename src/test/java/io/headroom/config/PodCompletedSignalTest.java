package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@code podCompleted}: a per-pod completion counter in a class's signals (issue 15, item 3). */
class PodCompletedSignalTest {
    static final String PROM = "prometheus: {url: 'http://127.0.0.1:9090'}\n";

    @Test
    void theExampleReadsItAndAClassWithoutItHasNone() throws Exception {
        WorkloadsFile f = WorkloadsFile.read(Path.of("examples/workloads.yaml"));
        ClassConfig pay = f.classConfig("payments").orElseThrow();
        assertEquals("sum by (pod) (worker_jobs_completed_total{queue=\"payments\"})", pay.podCompletedQuery());
        assertTrue(pay.queries().values().stream().noneMatch(q -> q.contains("worker_jobs_completed_total")),
                "not a tick query");
        ClassConfig plain = WorkloadsFileTest.read(PROM + WorkloadsFileTest.CLASS).classes().get(0);
        assertNull(plain.podCompletedQuery());
    }

    @Test
    void aGroupedFormOrACeilingNamingItIsRefused() {
        String grouped = PROM + WorkloadsFileTest.CLASS + "      podCompleted: {grouped: \"sum by (pod) (c)\", by: pod, value: x}\n";
        ConfigException e = assertThrows(ConfigException.class, () -> WorkloadsFileTest.read(grouped));
        assertTrue(e.getMessage().contains("signals.podCompleted: is one series per pod"), e.getMessage());

        String ceiling = PROM + WorkloadsFileTest.CLASS + "      podCompleted: sum by (pod) (c)\n"
                + "    policy:\n      ceilings:\n        - {name: x, budgetSignal: podCompleted, perReplica: 1,"
                + " conservativeReplicas: 1}\n";
        e = assertThrows(ConfigException.class, () -> WorkloadsFileTest.read(ceiling));
        assertTrue(e.getMessage().contains("'podCompleted' is one series per pod"), e.getMessage());
    }
}
