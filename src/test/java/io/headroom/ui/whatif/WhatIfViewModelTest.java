package io.headroom.ui.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.whatif.LoadHistory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The what-if view model without a window: edits, a replay per edit, results an edit overtook dropped. */
class WhatIfViewModelTest {
    final Policy live = Policy.builder().slotsPerReplica(2).minReplicas(2).maxReplicas(10).maxAgeSeconds(30.0)
            .pollIntervalSeconds(5).build();
    final List<Runnable> fxQueue = new ArrayList<>();
    final List<Runnable> background = new ArrayList<>();

    static LoadHistory steady(double seconds) {
        int n = (int) (seconds / 5) + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = 1_796_000_000 + 5.0 * i;
            r[i] = 3;
            s[i] = 1;
        }
        return new LoadHistory(t, r, s, 0, 3);
    }

    WhatIfViewModel vm() {
        return new WhatIfViewModel("orders", live, WhatIfViewModelTest::steady, background::add, fxQueue::add, 1);
    }

    void runAll() {
        while (!background.isEmpty() || !fxQueue.isEmpty()) {
            new ArrayList<>(background).forEach(Runnable::run);
            background.clear();
            new ArrayList<>(fxQueue).forEach(Runnable::run);
            fxQueue.clear();
        }
    }

    @Test
    void anInvalidEditSaysWhichFieldAndReplaysNothing() {
        WhatIfViewModel vm = vm();
        vm.maxReplicasProperty().set(1);
        vm.replay();
        assertTrue(vm.statusProperty().get().startsWith("Not replayed: maxReplicas (1) is below minReplicas (2)"),
                vm.statusProperty().get());
        assertTrue(background.isEmpty());
        vm.maxReplicasProperty().set(10);
        vm.maxAgeSecondsProperty().set("soon");
        vm.replay();
        assertEquals("Not replayed: age objective: \"soon\" is not a number of seconds", vm.statusProperty().get());
    }

    @Test
    void aReplayOvertakenByAnEditIsDropped() {
        WhatIfViewModel vm = vm();
        vm.replay();
        vm.maxReplicasProperty().set(2);
        vm.replay(); // the second replay's result is the one shown
        java.util.Collections.reverse(background); // the first replay finishes last
        runAll();
        assertEquals(7, vm.rows().size());
        assertEquals("2", vm.rows().get(0).edited(), "capped at 2: " + vm.rows());
        assertTrue(vm.rows().stream().allMatch(row -> !row.keda().isEmpty()), "KEDA's rule is the third column");
        assertTrue(vm.statusProperty().get().contains("KEDA's rule (listLength 5)"), vm.statusProperty().get());
        assertEquals(2, vm.comparisonProperty().get().edited().finalDesired(), "the charts get the run that was shown");
        assertEquals(3, vm.comparisonProperty().get().current().finalDesired());
        assertEquals(live, vm.current(), "the live policy object is untouched");
        vm.reset();
        assertEquals(10, vm.maxReplicasProperty().get());
        assertEquals("30", vm.maxAgeSecondsProperty().get());
    }

    @Test
    void aCeilingCanBeCappedForTheReplayAndABadCapIsNamed() {
        Policy withCeiling = live.toBuilder().ceilings(List.of(io.headroom.decision.CeilingSpec.budget("db", 40, 4)))
                .build();
        WhatIfViewModel vm = new WhatIfViewModel("orders", withCeiling, WhatIfViewModelTest::steady, background::add,
                fxQueue::add, 1);
        assertEquals(List.of("db"), vm.ceilings().stream().map(WhatIfViewModel.CeilingEdit::name).toList());
        assertEquals("40 / 4 per replica", vm.ceilings().get(0).describe());
        vm.ceilings().get(0).capProperty().set("x2");
        vm.replay();
        assertEquals("Not replayed: ceiling db: \"x2\" is not a whole number of replicas", vm.statusProperty().get());
        vm.ceilings().get(0).capProperty().set("2");
        vm.replay();
        runAll();
        assertEquals("3", vm.rows().get(0).current(), "the live ceiling (10) does not bind");
        assertEquals("2", vm.rows().get(0).edited(), "capped by the edited ceiling");
        vm.reset();
        assertEquals("", vm.ceilings().get(0).capProperty().get());
    }

    @Test
    void theEditedPolicyIsCopiedAsABlockTheWorkloadsFileReadsBack() throws Exception {
        WhatIfViewModel vm = vm();
        vm.maxReplicasProperty().set(6);
        vm.targetUtilizationProperty().set(0.5);
        String yaml = vm.editedYaml();
        io.headroom.config.ConfigNode root = io.headroom.config.ConfigTree.parse("w.yaml", yaml,
                io.headroom.config.ConfigTree.Format.YAML);
        Policy back = io.headroom.config.PolicyReader.read(((io.headroom.config.ConfigNode.MapNode) root).fields()
                .get("policy"));
        assertEquals(vm.edited(), back);
        assertEquals(6, back.maxReplicas());
        assertTrue(vm.statusProperty().get().startsWith("Copied the edited policy"));
        vm.maxAgeSecondsProperty().set("x");
        assertEquals(null, vm.editedYaml());
        assertTrue(vm.statusProperty().get().startsWith("Not copied: age objective"));
    }
}
