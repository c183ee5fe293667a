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
        vm.setDrainer((c, p, n, note) -> drains.add(new String[] {c, p, Integer.toString(n), note}));
        List<String[]> replaces = new ArrayList<>();
        vm.setReplacer((c, p, n, why) -> replaces.add(new String[] {c, p, Integer.toString(n), why}));

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
        assertEquals(1, replaces.size(), "a healthy pod is drained, not replaced");
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
