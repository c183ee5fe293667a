package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.HeadroomPause;
import io.headroom.kube.MockCluster;
import io.headroom.kube.MockSessionFixture;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A class placed across pools (decision 0029) is one class with several Deployments: a session opened on a
 * workloads file with {@code pools:} watches every pool's Deployment; at exit a kept pause is written on each of
 * them, found again as leftovers on each, and handing the class back clears it from each.
 */
class PoolsHandBackTest extends MockSessionFixture {

    static String pooled(String prometheusUrl) {
        return "prometheus: {url: \"" + prometheusUrl + "\", timeoutSeconds: 1}\n"
                + "classes:\n"
                + "  - name: render\n"
                + "    context: up\n"
                + "    namespace: shop\n"
                + "    pools:\n"
                + "      - {name: spot, target: {name: render-spot}, maxReplicas: 4}\n"
                + "      - {name: on-demand, target: {name: render-on-demand}, maxReplicas: 4, costWeight: 3}\n"
                + "    signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}\n"
                + "    policy: {pollIntervalSeconds: 1}\n";
    }

    @BeforeEach
    void setUp() {
        cluster.deployment("shop", "render-spot", 3);
        cluster.deployment("shop", "render-on-demand", 1);
    }

    @Test
    void aKeptPauseIsWrittenOnEveryPoolFoundOnEachAndHandedBackFromEach() throws Exception {
        session = cluster.session(dir, "up", "shop", pooled(MockCluster.unreachableUrl()), journal, "ana@oncall");
        WorkloadClass render = session.loop().classes().get(0);
        assertTrue(render.pooled());
        assertEquals(List.of("render-spot", "render-on-demand"),
                render.pools().targets().stream().map(r -> r.name()).toList());
        MockCluster.await("both pools in the cache", Duration.ofSeconds(10), () -> render.pools().targets().stream()
                .allMatch(r -> session.loop().cluster().workloads().workload(r).isPresent()));

        Instant pinEnd = Instant.now().plus(Duration.ofMinutes(30));
        assertTrue(session.supervisor().setOverride("render", 4, pinEnd, "spot incident").get(15, TimeUnit.SECONDS).ok());
        List<HandBack.Item> items = session.handBack().atExit().get(10, TimeUnit.SECONDS);
        assertEquals(List.of("render"), items.stream().map(HandBack.Item::className).toList());
        HandBack.Report kept = session.handBack().finish(items, Map.of("render", HandBack.Choice.KEEP),
                HandBack.EXIT_DEADLINE).get(15, TimeUnit.SECONDS);
        assertTrue(kept.ok(), kept.summary());
        for (String d : List.of("render-spot", "render-on-demand")) {
            Map<String, String> a = cluster.deploymentAnnotations("shop", d);
            assertEquals("ana@oncall", a.get(HeadroomPause.OWNER), d + ": " + a);
        }

        Leftovers.Found found = session.leftovers().find().get(10, TimeUnit.SECONDS);
        assertEquals(List.of("render-spot", "render-on-demand"), found.leftovers().stream()
                .filter(l -> l instanceof Leftover.Pause).map(l -> ((Leftover.Pause) l).workload().name()).toList(),
                found.toString());

        HandBack.Report back = session.handBack().finish(session.handBack().atExit().get(10, TimeUnit.SECONDS),
                Map.of("render", HandBack.Choice.HAND_BACK), HandBack.EXIT_DEADLINE).get(15, TimeUnit.SECONDS);
        assertTrue(back.ok(), back.summary());
        for (String d : List.of("render-spot", "render-on-demand")) {
            Map<String, String> a = cluster.deploymentAnnotations("shop", d);
            assertTrue(a.keySet().stream().noneMatch(k -> k.startsWith("headroom.io/paused")), d + ": " + a);
        }
    }
}
