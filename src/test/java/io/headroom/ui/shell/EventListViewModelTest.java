package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.supervise.Freeze;
import io.headroom.supervise.Mode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The event list without the toolkit: bounded, newest first, and nothing stale once a state ends. */
class EventListViewModelTest {
    static final Instant T0 = IncidentBannerViewModelTest.T0;

    @Test
    void keepsTheLastHundredNewestFirst() {
        EventListViewModel vm = new EventListViewModel();
        for (int i = 0; i < 150; i++) {
            vm.outcome(T0.plusSeconds(i), true, "event " + i);
        }
        assertEquals(EventListViewModel.LIMIT, vm.events().size());
        assertEquals("event 149", vm.events().get(0).text());
        assertEquals("event 50", vm.events().get(EventListViewModel.LIMIT - 1).text());
        assertTrue(vm.headlineProperty().get().endsWith("  event 149"), vm.headlineProperty().get());
    }

    @Test
    void aStatesMessagesGoWhenItEndsAndAnExpiryIsSaid() {
        EventListViewModel events = new EventListViewModel();
        IncidentBannerViewModel banner = new IncidentBannerViewModel();
        banner.setOnChange(c -> events.apply(c).forEach(text -> events.add(c.at(), EventListViewModel.Level.WARN,
                "notified: " + text, null)));
        banner.apply(IncidentBannerViewModelTest.state(T0, null,
                IncidentBannerViewModelTest.cls("a", Mode.SUPERVISED, null, null)));

        Freeze f = new Freeze("deploy", T0.plus(Duration.ofMinutes(5)), "carol", T0);
        events.outcome(T0, true, "a frozen until 13:05"); // the supervisor's echo of the command
        events.outcome(T0, true, "b: 4 → 3");
        banner.apply(IncidentBannerViewModelTest.state(T0.plusSeconds(1), null,
                IncidentBannerViewModelTest.cls("a", Mode.SUPERVISED, f, null)));
        assertTrue(texts(events).get(0).startsWith("FROZEN a · “deploy” · by carol"), texts(events).toString());

        banner.apply(IncidentBannerViewModelTest.state(T0.plusSeconds(301), null,
                IncidentBannerViewModelTest.cls("a", Mode.SUPERVISED, null, null)));
        List<String> after = texts(events);
        assertTrue(after.stream().noneMatch(t -> t.contains("frozen until") || t.startsWith("FROZEN")),
                "nothing says a is frozen once it is not: " + after);
        assertEquals("The freeze of a expired: it acts by its mode again", after.get(1));
        assertEquals("notified: The freeze of a expired: it acts by its mode again", after.get(0));
        assertTrue(after.contains("b: 4 → 3"), "other events stay");
    }

    @Test
    void aForecastFloorIsAStandingStateItsStartAndItsEndAreEvents() {
        EventListViewModel events = new EventListViewModel();
        IncidentBannerViewModel banner = new IncidentBannerViewModel();
        banner.setOnChange(events::apply);
        io.headroom.supervise.ClassSupervision none = IncidentBannerViewModelTest.cls("a", Mode.SUPERVISED, null, null);
        banner.apply(IncidentBannerViewModelTest.state(T0, null, none));
        io.headroom.decision.ForecastFloor f = new io.headroom.decision.ForecastFloor(24, T0.plusSeconds(60),
                T0.plusSeconds(900), "the last 5 weekdays rose from 5 to 38 jobs/s at 09:00");
        io.headroom.supervise.ClassSupervision held = new io.headroom.supervise.ClassSupervision("a", Mode.SUPERVISED,
                null, null, null, null, null, f, "approved by alice");
        banner.apply(IncidentBannerViewModelTest.state(T0.plusSeconds(1), null, held));
        assertTrue(texts(events).get(0).startsWith("FLOOR a · forecast floor 24 from "), texts(events).toString());
        assertTrue(texts(events).get(0).contains("(approved by alice)"), texts(events).toString());
        assertEquals("Cancel floor", banner.incidents().get(0).liftLabel());

        banner.apply(IncidentBannerViewModelTest.state(T0.plusSeconds(901), null, none));
        List<String> after = texts(events);
        assertEquals("The forecast floor of a ended: the reactive decision alone rules again", after.get(0));
        assertTrue(after.stream().noneMatch(t -> t.startsWith("FLOOR")), "nothing stale: " + after);
    }

    static List<String> texts(EventListViewModel vm) {
        return vm.events().stream().map(EventListViewModel.ConsoleEvent::text).toList();
    }
}
