package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.History;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.ui.SandboxConsole;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The detail's charts in a fleet (issue 26): a day of chart series is about 1 MB a class, appended on the FX
 * thread every tick, so past {@link DetailViewModel#CHART_EVERY_CLASS_UP_TO} classes only the classes opened
 * are charted (the {@link DetailViewModel#KEEP_OPENED} most recent), each seeded from the domain history.
 */
class DetailFleetChartsTest {

    /** The sandbox's ticks dealt out to {@code n} classes named {@code fleet-0000…}. */
    static List<TickResult> fleetTicks(List<TickResult> ticks, int n) {
        List<TickResult> out = new ArrayList<>();
        List<ClassSnapshot> first = ticks.get(0).classes();
        WorkloadClass[] classes = new WorkloadClass[n];
        for (int i = 0; i < n; i++) {
            WorkloadClass base = first.get(i % first.size()).cls();
            classes[i] = new WorkloadClass(name(i), base.target(), base.policy(), base.drainOnScaleDown());
        }
        for (TickResult t : ticks) {
            List<ClassSnapshot> snaps = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ClassSnapshot s = t.classes().get(i % t.classes().size());
                snaps.add(new ClassSnapshot(classes[i], t.at(), s.observation(), s.workload(), s.decision(),
                        s.actuation(), s.problem(), s.signals()));
            }
            out.add(new TickResult(t.at(), snaps, t.context(), t.metricsSource()));
        }
        return out;
    }

    static String name(int i) {
        return String.format(Locale.ROOT, "fleet-%04d", i);
    }

    /** Every class's domain history: 100 points before the first tick, a ramp of oldest ages. */
    static History domain(int n, double before, double step) {
        History h = new History(Duration.ofSeconds((long) step), 500);
        double[] row = new double[ClassHistory.SERIES];
        for (int c = 0; c < n; c++) {
            for (int i = 0; i < 100; i++) {
                Arrays.fill(row, Double.NaN);
                row[Series.OLDEST_AGE.ordinal()] = i;
                h.of(name(c)).append(before - (100 - i) * step, row);
            }
        }
        return h;
    }

    record Fleet(DetailViewModel vm, List<TickResult> ticks) {
    }

    static Fleet fleet(int n) {
        List<TickResult> sandbox;
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(4);
            sandbox = new ArrayList<>(c.ticks());
        }
        List<TickResult> ticks = fleetTicks(sandbox, n);
        double first = ticks.get(0).at().getEpochSecond();
        DetailViewModel vm = new DetailViewModel(Clock.fixed(ticks.get(0).at(), ZoneOffset.UTC), Runnable::run);
        History h = domain(n, first, 15);
        vm.setDomainHistory(h::find, h.capacity(), Runnable::run);
        return new Fleet(vm, ticks);
    }

    @Test
    void aFewClassesAreEachChartedFromTheirFirstTick() {
        Fleet f = fleet(DetailViewModel.CHART_EVERY_CLASS_UP_TO);
        f.vm().apply(f.ticks());
        for (int i = 0; i < DetailViewModel.CHART_EVERY_CLASS_UP_TO; i++) {
            assertNotNull(f.vm().series(name(i)), name(i) + " is charted before it is opened");
        }
        assertEquals(f.ticks().size(), f.vm().series(name(49)).oldestAge.size(), "every tick appended");
    }

    @Test
    void aFleetChartsOnlyTheClassesOpenedEachSeededFromTheDomainHistory() {
        int n = DetailViewModel.CHART_EVERY_CLASS_UP_TO + 1;
        Fleet f = fleet(n);
        f.vm().apply(f.ticks().subList(0, 2));
        assertNotNull(f.vm().series(name(0)), "the class shown first is charted");
        assertNull(f.vm().series(name(42)), "a class nobody opened has no chart series");

        f.vm().select(name(42));
        ClassSeries cs = f.vm().series(name(42));
        assertNotNull(cs);
        assertEquals(100, cs.oldestAge.size(), "opened, its charts hold the domain history's past");
        assertEquals(99.0, cs.oldestAge.value(99));
        f.vm().apply(f.ticks().subList(2, 4));
        assertEquals(102, cs.oldestAge.size(), "and then every tick");
    }

    @Test
    void aFleetKeepsTheMostRecentlyOpenedAndSeedsAnEvictedClassAgain() {
        Fleet f = fleet(200);
        f.vm().apply(f.ticks().subList(0, 1));
        for (int i = 100; i < 100 + 3 * DetailViewModel.KEEP_OPENED; i++) {
            f.vm().select(name(i));
            f.vm().apply(f.ticks().subList(1, 2));
        }
        int charted = 0;
        for (int i = 0; i < 200; i++) {
            charted += f.vm().series(name(i)) == null ? 0 : 1;
        }
        assertTrue(charted <= DetailViewModel.KEEP_OPENED, "at most the most recently opened: " + charted);
        int last = 100 + 3 * DetailViewModel.KEEP_OPENED - 1;
        assertNotNull(f.vm().series(name(last)), "the class shown is always charted");
        assertNull(f.vm().series(name(100)), "the first opened has gone");

        f.vm().select(name(100));
        assertEquals(100, f.vm().series(name(100)).oldestAge.size(), "opened again, seeded again");
    }
}
