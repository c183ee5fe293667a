package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.ObserveOnlyActuator;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: the pod rows never move under the operator's attention. On the sandbox's cluster, replicas
 * lowered under the pointer leave the gone pods' rows where they were, greyed and without Drain…; raised,
 * the new pods come below; the cluster's order comes back once the pointer leaves.
 */
class PodRowsHoldTest {
    static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    static final String CLASS = "enrichment";

    final SandboxWorld world = SandboxCatalog.defaultWorld(SandboxCatalog.DEFAULT_SEED, T0);
    final ManualClock clock = new ManualClock(T0);
    final ControlLoop loop = new ControlLoop(SandboxCatalog.defaultClasses().stream()
            .map(SandboxCatalog.Entry::workloadClass).toList(), new SandboxCluster(world, clock).ports(),
            new SandboxMetrics(world, clock), new ObserveOnlyActuator(), clock);
    final PodPanelViewModel vm = new PodPanelViewModel();
    int t;

    ClassSnapshot tick() {
        t += 5;
        clock.set(T0.plusSeconds(t));
        return loop.tick().classes().stream().filter(s -> s.name().equals(CLASS)).findFirst().orElseThrow();
    }

    /** Ticks until the class's pods are listed as {@code wanted} says, showing each tick. */
    ClassSnapshot until(Predicate<ClassSnapshot> wanted) {
        for (int i = 0; i < 200; i++) {
            ClassSnapshot s = tick();
            vm.show(s);
            if (wanted.test(s)) {
                return s;
            }
        }
        throw new AssertionError("never came");
    }

    static List<String> names(List<PodPanelViewModel.PodRow> rows) {
        return rows.stream().map(r -> r.name() + (r.gone() ? " (gone)" : "")).toList();
    }

    @Test
    void podsThatWentStayGreyedAndNewOnesComeBelowUntilThePointerLeaves() {
        world.setReplicas(CLASS, 4);
        until(s -> s.workload().pods().size() == 4 && s.workload().pods().stream().noneMatch(p -> p.terminating()));
        List<String> before = names(vm.rows());

        vm.attention().pointerProperty().set(true); // the operator aims at a pod's Drain…
        world.setReplicas(CLASS, 2);
        until(s -> s.workload().pods().size() == 2);
        List<String> held = names(vm.rows());
        assertEquals(4, held.size(), "every row stays where it was: " + held);
        assertEquals(2, held.stream().filter(n -> n.endsWith("(gone)")).count(), held.toString());
        for (int i = 0; i < 4; i++) {
            assertTrue(held.get(i).startsWith(before.get(i)), "row " + i + " kept its place: " + before + " " + held);
        }
        assertTrue(vm.rows().stream().filter(PodPanelViewModel.PodRow::gone).noneMatch(PodPanelViewModel.PodRow::drainable),
                "nothing to drain on a gone pod's row");
        assertTrue(vm.summaryProperty().get().startsWith("2 pods"), "the summary counts what runs: "
                + vm.summaryProperty().get());

        world.setReplicas(CLASS, 3);
        until(s -> s.workload().pods().size() == 3);
        List<String> grown = names(vm.rows());
        assertEquals(held.subList(0, 4), grown.subList(0, 4), "a new pod comes below: " + grown);
        assertEquals(5, grown.size(), grown.toString());
        assertTrue(vm.attention().waitingProperty().get());

        vm.attention().pointerProperty().set(false);
        assertEquals(3, vm.rows().size(), "the pointer left: the cluster's order " + names(vm.rows()));
        assertFalse(vm.rows().stream().anyMatch(PodPanelViewModel.PodRow::gone));
        assertFalse(vm.attention().waitingProperty().get());
    }

    @Test
    void anotherClassInViewShowsItsOwnRowsAtOnceEvenUnderThePointer() {
        until(s -> !s.workload().pods().isEmpty());
        vm.attention().pointerProperty().set(true);
        ClassSnapshot other = loop.tick().classes().stream().filter(s -> s.name().equals("ledger-replay"))
                .findFirst().orElseThrow();
        vm.show(other);
        assertEquals(other.workload().pods().stream().map(p -> p.name()).toList(), names(vm.rows()));
    }
}
