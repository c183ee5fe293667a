package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Reason.Code;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Scheduled floors: warm capacity for a time window, a term of the decision. */
class ScheduledFloorTest {
    static final ScheduledFloor WEEKDAYS = new ScheduledFloor(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY),
            LocalTime.of(8, 0), LocalTime.of(20, 0), 2);
    static final ScheduledFloor NIGHTS = new ScheduledFloor(EnumSet.of(DayOfWeek.FRIDAY), LocalTime.of(22, 0),
            LocalTime.of(6, 0), 5);

    static Stream<Arguments> times() {
        // 2026-01-02 is a Friday.
        return Stream.of(
                Arguments.of(WEEKDAYS, "2026-01-02T08:00:00Z", true),
                Arguments.of(WEEKDAYS, "2026-01-02T19:59:59Z", true),
                Arguments.of(WEEKDAYS, "2026-01-02T20:00:00Z", false),
                Arguments.of(WEEKDAYS, "2026-01-03T12:00:00Z", false),    // Saturday
                Arguments.of(NIGHTS, "2026-01-02T23:00:00Z", true),       // Friday night
                Arguments.of(NIGHTS, "2026-01-03T05:59:00Z", true),       // into Saturday morning
                Arguments.of(NIGHTS, "2026-01-03T23:00:00Z", false),      // Saturday night is not a Friday window
                Arguments.of(NIGHTS, "2026-01-02T05:00:00Z", false));     // Friday morning belongs to Thursday
    }

    @ParameterizedTest(name = "{0} at {1} → {2}")
    @MethodSource("times")
    void aWindowCoversItsDaysAndRunsPastMidnight(ScheduledFloor f, String at, boolean active) {
        assertEquals(active, f.activeAt(Instant.parse(at).atZone(ZoneId.of("UTC"))));
    }

    @Test
    void daysReadAsAnOperatorWritesThem() {
        assertEquals("Mon–Fri 08:00–20:00 → 2", WEEKDAYS.describe());
        assertEquals("Sat, Sun", new ScheduledFloor(EnumSet.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY),
                LocalTime.NOON, LocalTime.MIDNIGHT, 1).dayRange());
        assertEquals("every day", new ScheduledFloor(EnumSet.allOf(DayOfWeek.class), LocalTime.NOON,
                LocalTime.MIDNIGHT, 1).dayRange());
    }

    static Decision decide(Policy p, Instant at, double queue, double lambda, int current, ClassMemory m) {
        Map<SignalName, Signal> s = new HashMap<>();
        s.put(Signals.QUEUE_LENGTH, Signal.of(queue, at));
        s.put(Signals.ARRIVAL_RATE, Signal.of(lambda, at));
        s.put(Signals.MEAN_SERVICE, Signal.of(1, at));
        s.put(Signals.IN_FLIGHT, Signal.of(0, at));
        s.put(Signals.COMPLETION_RATE, Signal.of(lambda, at));
        return DecisionEngine.decide("c", p, new Observation(current, current, s), m, at);
    }

    @Test
    void aFloorRaisesTheDecisionInsideItsWindowAndNamesIt() {
        Policy p = Policy.builder().minReplicas(0).scheduledFloors(List.of(WEEKDAYS))
                .timeZone(ZoneId.of("Europe/Berlin")).build();
        // 07:30 UTC is 08:30 in Berlin on a Friday: the floor holds 2 though nothing arrives.
        Decision in = decide(p, Instant.parse("2026-01-02T07:30:00Z"), 0, 0, 2, ClassMemory.initial());
        assertEquals(2, in.desiredReplicas(), in.explanation());
        assertTrue(in.reasons().contains(Reason.of(Code.SCHEDULED_FLOOR, "Mon–Fri 08:00–20:00")), in.reasons().toString());
        assertEquals(2, in.term("scheduledFloor").value());
        assertTrue(in.explanation().contains("scheduled floor Mon–Fri 08:00–20:00 → 2"), in.explanation());
        // Saturday: no floor, and the idle class goes to zero after its cooldown.
        Instant sat = Instant.parse("2026-01-03T12:00:00Z");
        Decision first = decide(p, sat, 0, 0, 2, ClassMemory.initial());
        Decision out = decide(p, sat.plusSeconds(400), 0, 0, 1, first.memory());
        assertFalse(out.has(Code.SCHEDULED_FLOOR));
        assertEquals(0, out.desiredReplicas(), out.explanation());
    }

    @Test
    void aCeilingStillCapsAFloorAndTheEstimateStillAddsAboveIt() {
        Policy capped = Policy.builder().scheduledFloors(List.of(NIGHTS)).ceilings(List.of(CeilingSpec.replicas("db", 3)))
                .scaleDown(ScalingBehavior.defaultDown().withWindow(0)).build();
        Decision d = decide(capped, Instant.parse("2026-01-02T23:00:00Z"), 0, 0, 4, ClassMemory.initial());
        assertEquals(3, d.desiredReplicas(), "the ceiling protects a downstream; a floor is a preference");
        Policy busy = Policy.builder().scheduledFloors(List.of(NIGHTS)).maxReplicas(100).build();
        Decision e = decide(busy, Instant.parse("2026-01-02T23:00:00Z"), 0, 20, 5, ClassMemory.initial());
        assertTrue(e.desiredReplicas() > 5, "20 jobs/s of 1 s need more than the floor: " + e.explanation());
    }
}
