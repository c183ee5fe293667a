package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ScheduledFloor;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Scheduled floors typed on one line (the What-if field, {@code --set scheduledFloors=…}). */
class FloorTextTest {

    @Test
    void whatTheExplanationWritesReadsBackToTheSameFloors() {
        List<ScheduledFloor> floors = List.of(
                new ScheduledFloor(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY), LocalTime.of(8, 0), LocalTime.of(20, 0), 2),
                new ScheduledFloor(EnumSet.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY), LocalTime.of(22, 0), LocalTime.of(6, 0), 1));
        String text = FloorText.format(floors);
        assertEquals("Mon–Fri 08:00–20:00 → 2; Sat, Sun 22:00–06:00 → 1", text);
        assertEquals(floors, FloorText.parse(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Mon-Fri 08:00-20:00 -> 2     | Mon–Fri 08:00–20:00 → 2",
            "monday 8:00 to 9:30 = 3      | Mon 08:00–09:30 → 3",
            "every day 00:00–06:00 → 0    | every day 00:00–06:00 → 0",
            "Sat,Sun 10:00-14:00 1        | Sat, Sun 10:00–14:00 → 1"})
    void anOperatorMayTypeItPlainly(String typed, String read) {
        assertEquals(read, FloorText.format(FloorText.parse(typed)));
    }

    @Test
    void blankOrNoneIsNoFloor() {
        assertTrue(FloorText.parse("  ").isEmpty());
        assertTrue(FloorText.parse("none").isEmpty());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "Mon-Fry 08:00-20:00 → 2 | \"fry\" is not a day",
            "Mon 8h-20:00 → 2        | is not a floor: write days, from–to and replicas",
            "Mon 25:00-20:00 → 2     | 25:00 is not a time of day HH:MM",
            "Mon 08:00-08:00 → 2     | from and to are both 08:00",
            "Mon 08:00-20:00 → two   | two is not a whole number of replicas",
            "Mon 08:00-20:00 → -1    | replicas must be 0 to"})
    void aWrongFloorIsRefusedNamingIt(String typed, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FloorText.parse(typed));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }
}
