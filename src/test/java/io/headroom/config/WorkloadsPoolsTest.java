package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement.PoolSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A class's pools (issue 30, decision 0029): read in preference order, every problem located. */
class WorkloadsPoolsTest {

    static final String HEAD = """
            prometheus: {url: http://h}
            classes:
              - name: q
                context: dev
                namespace: jobs
                signals: {queueLength: a, oldestAge: b, arrivalRate: c, meanService: d}
            """;

    static WorkloadsFile read(String yaml) throws ConfigException {
        return WorkloadsFile.read("w.yaml", yaml, ConfigTree.Format.YAML, null);
    }

    @Test
    void poolsAreReadInPreferenceOrderEachWithItsOwnTarget() throws Exception {
        ClassConfig c = read(HEAD + """
                    pools:
                      - {name: spot, target: {name: worker-spot}, maxReplicas: 20, ceiling: 8, costWeight: 1}
                      - {name: on-demand, target: {name: worker-od}, maxReplicas: 10, costWeight: 3.5}
                      - {name: orchestration, target: {name: orch}, maxReplicas: 5, dependsOn: spot}
                """).classConfig("q").orElseThrow();
        assertEquals(List.of("spot", "on-demand", "orchestration"), c.pools().stream().map(p -> p.spec().name()).toList());
        ClassPool spot = c.pools().get(0);
        assertEquals(new PoolSpec("spot", 20, 8, 1, null), spot.spec());
        assertEquals("dev/jobs/deployment/worker-spot", spot.target().toString());
        assertEquals(new PoolSpec("on-demand", 10, null, 3.5, null), c.pools().get(1).spec());
        assertEquals("spot", c.pools().get(2).spec().dependsOn());
        assertEquals(spot.target(), c.target(), "the first pool is the class's target");
        assertTrue(c.placed());
    }

    @Test
    void aPoolsBrokerQueryIsReadEachTickAsASignalOfItsOwn() throws Exception {
        ClassConfig c = read(HEAD + """
                    pools:
                      - name: spot
                        target: {name: worker-spot}
                        maxReplicas: 20
                        failedAcquisitions: 'sum(rate(broker_acquire_failures_total{pool="spot"}[1m]))'
                      - {name: on-demand, target: {name: worker-od}, maxReplicas: 10}
                """).classConfig("q").orElseThrow();
        ClassPool spot = c.pools().get(0);
        assertEquals("sum(rate(broker_acquire_failures_total{pool=\"spot\"}[1m]))", spot.failedAcquisitionsQuery());
        assertEquals(io.headroom.decision.Signals.failedAcquisitions("spot"), spot.failedAcquisitions());
        assertEquals(spot.failedAcquisitionsQuery(), c.query(io.headroom.decision.Signals.failedAcquisitions("spot")),
                "read with the class's signals, through its metrics source");
        assertNull(c.pools().get(1).failedAcquisitions(), "on-demand has no broker figure");
        assertNull(c.query(io.headroom.decision.Signals.failedAcquisitions("on-demand")));
        var pools = c.workloadClass().pools().pools();
        assertEquals(io.headroom.decision.Signals.failedAcquisitions("spot"), pools.get(0).failedAcquisitions());
        assertNull(pools.get(1).failedAcquisitions());
    }

    @Test
    void aClassWithoutPoolsIsOnePoolItsTarget() throws Exception {
        ClassConfig c = read(HEAD + "    target: {name: worker}\n").classConfig("q").orElseThrow();
        assertEquals(1, c.pools().size());
        ClassPool only = c.pools().get(0);
        assertEquals(c.target(), only.target());
        assertEquals(new PoolSpec("worker", c.policy().maxReplicas(), null, 1, null), only.spec());
        assertNull(only.spec().dependsOn());
        assertTrue(!c.placed());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no target nor pools | '    policy: {maxReplicas: 3}'                                              | w.yaml:3: classes[0].target: is required
            target and pools    | '    target: {name: w}\\n    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2}' | w.yaml:9: classes[0].pools: give either target or pools, not both
            empty pools         | '    pools: []'                                                             | w.yaml:7: classes[0].pools: must name at least one pool
            pool no target      | '    pools:\\n      - {name: a, maxReplicas: 2}'                           | w.yaml:8: classes[0].pools[0].target: is required
            pool no max         | '    pools:\\n      - {name: a, target: {name: x}}'                        | w.yaml:8: classes[0].pools[0].maxReplicas: is required
            pool zero max       | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 0}'        | w.yaml:8: classes[0].pools[0].maxReplicas: must be in [1, 100000], got 0
            pool kind           | '    pools:\\n      - {name: a, target: {kind: Job, name: x}, maxReplicas: 2}' | w.yaml:8: classes[0].pools[0].target.kind: must be Deployment or StatefulSet, got "Job"
            negative weight     | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2, costWeight: -1}' | w.yaml:8: classes[0].pools[0].costWeight: must be in [0, 1000000], got -1
            ceiling above max   | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2, ceiling: 3}' | w.yaml:8: classes[0].pools[0].ceiling: must be in [0, 2] (at most maxReplicas), got 3
            unknown dependency  | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2, dependsOn: b}' | w.yaml:8: classes[0].pools[0].dependsOn: no pool 'b' in this class
            depends on itself   | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2, dependsOn: a}' | w.yaml:8: classes[0].pools[0].dependsOn: a pool cannot depend on itself
            dependency cycle    | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2, dependsOn: b}\\n      - {name: b, target: {name: y}, maxReplicas: 2, dependsOn: a}' | w.yaml:9: classes[0].pools[1].dependsOn: 'b' and 'a' depend on each other
            same name twice     | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2}\\n      - {name: a, target: {name: y}, maxReplicas: 2}' | w.yaml:9: classes[0].pools[1].name: pool name 'a' is used twice (first at line 8)
            same target twice   | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2}\\n      - {name: b, target: {name: x}, maxReplicas: 2}' | w.yaml:9: classes[0].pools[1].target: pool 'a' already scales dev/jobs/deployment/x
            blank broker query  | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2, failedAcquisitions: " "}' | w.yaml:8: classes[0].pools[0].failedAcquisitions: must not be blank
            grouped broker query | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2, failedAcquisitions: {grouped: a, by: pool, value: a}}' | w.yaml:8: classes[0].pools[0].failedAcquisitions: give its PromQL (one number: failed acquisitions per second), not a grouped query
            unknown pool field  | '    pools:\\n      - {name: a, target: {name: x}, maxReplicas: 2, weight: 2}' | w.yaml:8: classes[0].pools[0].weight: unknown field
            """)
    void poolProblemsAreLocated(String name, String tail, String expected) {
        String yaml = HEAD + tail.replace("\\n", "\n") + "\n";
        ConfigException e = assertThrows(ConfigException.class, () -> read(yaml));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage() + "\nin\n" + yaml);
    }
}
