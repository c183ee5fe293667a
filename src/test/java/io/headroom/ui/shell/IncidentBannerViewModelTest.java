package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Freeze;
import io.headroom.supervise.Mode;
import io.headroom.supervise.ReplicaOverride;
import io.headroom.supervise.SupervisionState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The banner's model without the toolkit: what stands, in which order, with which words, and what ended how. */
class IncidentBannerViewModelTest {
    static final Instant T0 = Instant.parse("2026-12-01T13:00:00Z");

    static ClassSupervision cls(String name, Mode mode, Freeze f, ReplicaOverride o) {
        return new ClassSupervision(name, mode, f, o, null, null, null);
    }

    static SupervisionState state(Instant at, Freeze all, ClassSupervision... classes) {
        Map<String, ClassSupervision> m = new LinkedHashMap<>();
        for (ClassSupervision c : classes) {
            m.put(c.className(), c);
        }
        return new SupervisionState(at, all, m, List.of(), List.of(), null);
    }

    static Freeze freeze(String reason, String by, Duration ttl) {
        return new Freeze(reason, T0.plus(ttl), by, T0);
    }

    @Test
    void nothingStandingShowsNoBanner() {
        IncidentBannerViewModel vm = new IncidentBannerViewModel();
        vm.apply(state(T0, null, cls("a", Mode.SUPERVISED, null, null)));
        assertFalse(vm.showingProperty().get());
        assertEquals(0, vm.visibleLines());
        assertEquals("", vm.moreProperty().get());
    }

    @Test
    void severalAtOnceAreOrderedWorstFirstAndCollapseToTheWorstAndACount() {
        IncidentBannerViewModel vm = new IncidentBannerViewModel();
        vm.apply(state(T0, freeze("incident 4711", "alice", Duration.ofMinutes(15)),
                cls("ledger", Mode.AUTO, null, null),
                cls("enrichment", Mode.SUPERVISED, null, new ReplicaOverride(10, T0.plusSeconds(600), "db failover",
                        "bob", T0)),
                cls("search", Mode.SUPERVISED, freeze("deploy", "carol", Duration.ofMinutes(5)), null)));
        List<Incident.Kind> kinds = vm.incidents().stream().map(Incident::kind).toList();
        assertEquals(List.of(Incident.Kind.FREEZE_ALL, Incident.Kind.FREEZE, Incident.Kind.OVERRIDE,
                Incident.Kind.AUTO), kinds);
        assertTrue(vm.showingProperty().get());
        assertEquals(1, vm.visibleLines(), "collapsed: the worst only");
        assertEquals("+3 more", vm.moreProperty().get());
        vm.toggleExpanded();
        assertEquals(4, vm.visibleLines(), "expanded: one line each");
        assertEquals("show less", vm.moreProperty().get());
    }

    @Test
    void aLineSaysWhatWhoWhyAndHowLongAndCountsDown() {
        IncidentBannerViewModel vm = new IncidentBannerViewModel();
        vm.apply(state(T0, null, cls("enrichment", Mode.SUPERVISED, null,
                new ReplicaOverride(10, T0.plusSeconds(754), "db failover", "bob", T0))));
        Incident pin = vm.incidents().get(0);
        String line = vm.line(pin);
        assertTrue(line.startsWith("PINNED enrichment · pinned to 10 · “db failover” · by bob · until "), line);
        assertTrue(line.endsWith("(12m 34s left)"), line);
        assertEquals("Clear override", pin.liftLabel());
        vm.tick(T0.plusSeconds(700));
        assertTrue(vm.line(pin).endsWith("(54 s left)"), vm.line(pin));
    }

    @Test
    void anExpiryIsToldApartFromALift() {
        IncidentBannerViewModel vm = new IncidentBannerViewModel();
        List<IncidentBannerViewModel.Change> changes = new ArrayList<>();
        vm.setOnChange(changes::add);
        Freeze f = freeze("deploy", "carol", Duration.ofMinutes(5));
        ReplicaOverride o = new ReplicaOverride(3, T0.plusSeconds(60), "test", "bob", T0);
        vm.apply(state(T0, null, cls("a", Mode.SUPERVISED, f, null), cls("b", Mode.SUPERVISED, null, o)));
        assertTrue(changes.isEmpty(), "what stands when the console opens is not news");

        // b's override runs out at its end; a's freeze is lifted a minute later, before its end.
        vm.apply(state(T0.plusSeconds(61), null, cls("a", Mode.SUPERVISED, f, null), cls("b", Mode.SUPERVISED, null, null)));
        assertEquals(1, changes.size());
        assertEquals(List.of("OVERRIDE:b"), changes.get(0).expired().stream().map(Incident::key).toList());
        vm.apply(state(T0.plusSeconds(120), null, cls("a", Mode.SUPERVISED, null, null), cls("b", Mode.SUPERVISED, null, null)));
        assertEquals(2, changes.size());
        assertEquals(List.of("FREEZE:a"), changes.get(1).ended().stream().map(Incident::key).toList());
        assertTrue(changes.get(1).expired().isEmpty(), "lifted, not expired");
        assertFalse(vm.showingProperty().get());
    }
}
