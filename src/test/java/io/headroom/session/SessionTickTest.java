package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** One enriched value per tick, from the session: what a view used to compute for itself. */
class SessionTickTest {
    static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");

    @Test
    void eachTickArrivesOnceWithAccessAutoscalersHealthAndSupervision() {
        try (Session s = Session.sandbox(7, NOW, Duration.ofMinutes(2), new MemoryJournal())) {
            List<SessionTick> got = new CopyOnWriteArrayList<>();
            Runnable unsubscribe = s.subscribe(got::add);
            assertEquals(1, got.size(), "at once: the state before the first tick");
            assertNull(got.get(0).result());
            assertFalse(got.get(0).newTick());
            assertNotNull(got.get(0).supervision());

            s.warmUp(Duration.ofMinutes(1));
            List<SessionTick> ticks = got.stream().filter(SessionTick::newTick).toList();
            long expected = Duration.ofMinutes(1).toMillis() / s.tick().toMillis() + 1;
            assertEquals(expected, ticks.size(), "one per loop tick");
            Set<String> classes = s.loop().classes().stream().map(WorkloadClass::name).collect(Collectors.toSet());
            for (SessionTick t : ticks) {
                assertEquals(classes, t.access().keySet());
                assertEquals(classes, t.autoscalers().keySet());
                assertNotNull(t.cluster());
                assertNotNull(t.metrics());
                assertNotNull(t.supervision());
            }
            assertTrue(ticks.get(ticks.size() - 1).access().values().stream().allMatch(a -> a.allowed()),
                    "the sandbox may be scaled: " + ticks.get(ticks.size() - 1).access());
            assertTrue(ticks.get(1).result().at().isAfter(ticks.get(0).result().at()), "in order");

            unsubscribe.run();
            int before = got.size();
            s.warmUp(Duration.ofSeconds(30));
            assertEquals(before, got.size(), "nothing after unsubscribing");
        }
    }

    @Test
    void aFreezeBetweenTicksRepublishesTheLastTickWithTheNewState() throws Exception {
        try (Session s = Session.sandbox(7, NOW, Duration.ofMinutes(2), new MemoryJournal())) {
            List<SessionTick> got = new CopyOnWriteArrayList<>();
            s.subscribe(got::add);
            s.warmUp(Duration.ofSeconds(20));
            SessionTick lastTick = got.get(got.size() - 1);
            assertTrue(lastTick.newTick());
            assertNull(lastTick.supervision().freezeAll());

            assertTrue(s.supervisor().freeze(null, Duration.ofMinutes(10), "incident 4711").get(10, TimeUnit.SECONDS)
                    .ok());
            SessionTick after = got.get(got.size() - 1);
            assertFalse(after.newTick(), "not a new tick");
            assertSame(lastTick.result(), after.result(), "the same tick");
            assertEquals(lastTick.access(), after.access());
            assertNotNull(after.supervision().freezeAll(), "with the freeze");
            assertEquals("incident 4711", after.supervision().freezeAll().reason());

            List<SessionTick> late = new CopyOnWriteArrayList<>();
            s.subscribe(late::add);
            assertEquals(1, late.size());
            assertTrue(late.get(0).newTick(), "a late subscriber gets the last tick as new to it");
            assertSame(lastTick.result(), late.get(0).result());
            assertNotNull(late.get(0).supervision().freezeAll());
        }
    }
}
