package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodState;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.ObserveOnlyActuator;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import io.headroom.ui.Format;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pod panel against the sandbox's ground truth: payments-steady's worker that hangs at 700 s is the
 * one STUCK row once the decision flags it, every row's node, jobs in flight and recent completions are
 * the world's own, and Drain on the STUCK pod offers to replace it (a drain of a hung worker could never end).
 */
class PodPanelViewModelTest {
    static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    static final String CLASS = "payments-steady";

    @Test
    void theHungWorkerIsTheOneStuckRowAndEveryFigureIsTheWorlds() {
        SandboxWorld world = SandboxCatalog.defaultWorld(SandboxCatalog.DEFAULT_SEED, T0);
        ManualClock clock = new ManualClock(T0);
        List<WorkloadClass> classes = SandboxCatalog.defaultClasses().stream()
                .map(SandboxCatalog.Entry::workloadClass).toList();
        ControlLoop loop = new ControlLoop(classes, new SandboxCluster(world, clock).ports(), new SandboxMetrics(world, clock),
                new ObserveOnlyActuator(), clock);
        PodPanelViewModel vm = new PodPanelViewModel();
        List<String[]> drains = new ArrayList<>();
        vm.setDrainer((c, p, n, pool, note) -> drains.add(new String[] {c, p, Integer.toString(n), note,
                String.valueOf(pool)}));
        List<String[]> replaces = new ArrayList<>();
        vm.setReplacer((c, p, n, pool, why) -> replaces.add(new String[] {c, p, Integer.toString(n), why,
                String.valueOf(pool)}));

        Map<Integer, Map<String, double[]>> counters = new HashMap<>();
        boolean sawStuckBeforeItHung = false;
        ClassSnapshot last = null;
        for (int t = 5; t <= 1500; t += 5) {
            clock.set(T0.plusSeconds(t));
            TickResult r = loop.tick();
            last = r.classes().stream().filter(s -> s.name().equals(CLASS)).findFirst().orElseThrow();
            counters.put(t, copy(world.podProgress(CLASS)));
            vm.show(last);
            if (t < 700 && vm.rows().stream().anyMatch(PodPanelViewModel.PodRow::stuck)) {
                sawStuckBeforeItHung = true;
            }
        }
        assertFalse(sawStuckBeforeItHung, "nothing is STUCK before the worker hangs");
        assertNotNull(last.decision());

        List<String> hung = world.hungPods(CLASS);
        assertEquals(1, hung.size());
        String stuckPod = hung.get(0);
        List<PodPanelViewModel.PodRow> stuckRows = vm.rows().stream().filter(PodPanelViewModel.PodRow::stuck).toList();
        assertEquals(List.of(stuckPod), stuckRows.stream().map(PodPanelViewModel.PodRow::name).toList());
        assertEquals(last.decision().stuckPods(), List.of(stuckPod), "the panel shows the decision's finding");
        PodPanelViewModel.PodRow stuck = stuckRows.get(0);
        assertTrue(stuck.stuckDetail().startsWith("no completion for "), stuck.stuckDetail());
        assertEquals("0 in 5m 00s", stuck.completions(), "a hung worker finished nothing in the last 5 minutes");
        assertTrue(vm.summaryProperty().get().contains("1 STUCK"), vm.summaryProperty().get());

        // Every row is the world's pod: node, ready, jobs in flight, and completions over the last 5 minutes.
        Map<String, double[]> now = counters.get(1500);
        Map<String, double[]> before = counters.get(1200);
        List<PodState> pods = world.workload(CLASS).orElseThrow().pods();
        assertEquals(pods.stream().map(PodState::name).toList(), vm.rows().stream().map(PodPanelViewModel.PodRow::name).toList());
        for (PodPanelViewModel.PodRow row : vm.rows()) {
            PodState p = pods.stream().filter(x -> x.name().equals(row.name())).findFirst().orElseThrow();
            assertEquals(p.node(), row.node(), row.name());
            assertEquals(p.ready(), row.ready(), row.name());
            assertEquals(Format.number(now.get(row.name())[0]), row.inFlight(), row.name() + " in flight");
            if (before.containsKey(row.name())) {
                assertEquals(Format.number(now.get(row.name())[1] - before.get(row.name())[1]) + " in 5m 00s",
                        row.completions(), row.name() + " completions");
            }
            if (!row.name().equals(stuckPod)) {
                assertEquals("", row.stuckDetail());
            }
            assertEquals(Format.NO_DATA, row.drainMark(), "nothing is marked");
            assertTrue(row.drainable());
        }
        assertTrue(vm.rows().stream().filter(r -> !r.stuck()).anyMatch(r -> !r.completions().startsWith("0 ")),
                "healthy workers finish jobs");

        // Drain… on the STUCK pod offers to replace it (a drain of a hung worker could never end).
        vm.drain(stuckPod);
        assertEquals(List.of(), drains, "a STUCK pod is not drained the waiting way");
        assertEquals(1, replaces.size());
        assertEquals(CLASS, replaces.get(0)[0]);
        assertEquals(stuckPod, replaces.get(0)[1]);
        assertEquals(Integer.toString(last.workload().specReplicas()), replaces.get(0)[2]);
        assertEquals(stuck.stuckDetail(), replaces.get(0)[3]);
        String healthy = vm.rows().stream().filter(r -> !r.stuck()).findFirst().orElseThrow().name();
        vm.drain(healthy);
        assertEquals(1, drains.size());
        assertEquals(healthy, drains.get(0)[1]);
        assertNull(drains.get(0)[3], "a healthy pod's drain needs no note");
        assertEquals("null", drains.get(0)[4], "a class with one pool: its own workload is lowered");
        assertEquals("null", replaces.get(0)[4]);
        assertEquals(1, replaces.size(), "a healthy pod is drained, not replaced");
    }

    /**
     * A class placed across pools (the sandbox's render, spot then on-demand): a pod's drain lowers its own pool's
     * Deployment, so the panel hands on that pool and its replicas, as the cluster runs them, not only the class's
     * total (the dialog said "replicas 9 → 8" for a pool of 3).
     */
    @Test
    void aPooledPodsDrainNamesItsOwnPoolAndThatPoolsReplicas() {
        List<SandboxCatalog.Entry> entries = SandboxCatalog.withPlacementClass();
        SandboxWorld world = new SandboxWorld(entries.stream().map(SandboxCatalog.Entry::spec).toList(),
                SandboxCatalog.DEFAULT_SEED, T0);
        ManualClock clock = new ManualClock(T0);
        SandboxCluster cluster = new SandboxCluster(world, clock, SandboxCatalog.nodePools(entries));
        var ports = cluster.ports();
        ControlLoop loop = new ControlLoop(entries.stream().map(SandboxCatalog.Entry::workloadClass).toList(), ports,
                new SandboxMetrics(world, clock), new io.headroom.loop.DirectActuator(ports), clock);
        WorkloadClass render = entries.stream().map(SandboxCatalog.Entry::workloadClass)
                .filter(WorkloadClass::pooled).findFirst().orElseThrow();
        PodPanelViewModel vm = new PodPanelViewModel();
        List<Object[]> drains = new ArrayList<>();
        vm.setDrainer((c, p, n, pool, note) -> drains.add(new Object[] {c, p, n, pool}));

        // Until both pools run pods (spot loses its nodes for a while every ten minutes; on-demand takes the rest),
        // at a tick that polled the class: each pool's Deployment as the cluster has it when that tick reads it
        // (the tick may then scale it).
        ClassSnapshot s = null;
        Map<String, List<String>> podsByPool = new HashMap<>();
        Map<String, Integer> replicasByPool = new HashMap<>();
        for (int t = 5; t <= 3600 && podsByPool.values().stream().filter(l -> !l.isEmpty()).count() < 2; t += 5) {
            clock.set(T0.plusSeconds(t));
            Map<String, List<String>> pods = new HashMap<>();
            Map<String, Integer> replicas = new HashMap<>();
            for (var pool : render.pools().pools()) {
                var w = cluster.workload(pool.target()).orElseThrow();
                pods.put(pool.name(), w.pods().stream().filter(p -> !p.terminating()).map(PodState::name).toList());
                replicas.put(pool.name(), w.specReplicas());
            }
            ClassSnapshot polled = loop.tick().classes().stream().filter(x -> x.name().equals(render.name()))
                    .findFirst().orElseThrow();
            if (polled.at().equals(clock.instant())) {
                s = polled;
                podsByPool = pods;
                replicasByPool = replicas;
            }
        }
        assertNotNull(s);
        assertEquals(2, podsByPool.values().stream().filter(l -> !l.isEmpty()).count(), "both pools run pods: " + podsByPool);
        vm.show(s);
        for (var e : podsByPool.entrySet()) {
            String pod = e.getValue().get(0);
            if (vm.rows().stream().noneMatch(r -> r.name().equals(pod) && r.drainable() && !r.stuck())) {
                continue;
            }
            vm.drain(pod);
            Object[] d = drains.get(drains.size() - 1);
            assertEquals(pod, d[1]);
            assertEquals(s.workload().specReplicas(), d[2], "the class's total, for the warning below what it needs");
            ClassSnapshot.PodPool pool = (ClassSnapshot.PodPool) d[3];
            assertNotNull(pool, pod + " is in a pool");
            assertEquals(e.getKey(), pool.pool(), pod + " runs in " + e.getKey());
            assertEquals(replicasByPool.get(e.getKey()), pool.replicas(), "that pool's Deployment's replicas");
            assertTrue(pool.replicas() < s.workload().specReplicas(), "a pool's share, not the total: " + pool);
        }
        assertEquals(2, drains.size(), "a pod of each pool drained: " + podsByPool);
    }

    @Test
    void withoutATickOrAWorkloadThePanelSaysWhy() {
        PodPanelViewModel vm = new PodPanelViewModel();
        vm.show(null);
        assertEquals("no tick yet", vm.summaryProperty().get());
        assertTrue(vm.rows().isEmpty());
    }

    private static Map<String, double[]> copy(Map<String, double[]> m) {
        Map<String, double[]> out = new HashMap<>();
        m.forEach((k, v) -> out.put(k, v.clone()));
        return out;
    }
}
