package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ScheduledFloor;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * KEDA's cron trigger read as KEDA reads it, ported from kedacore/keda
 * {@code pkg/scalers/cron_scaler_test.go}: the rows of {@code testCronMetadata}
 * ({@code TestCronParseMetadata}: which metadata KEDA accepts), and {@code TestIsActive} /
 * {@code TestIsActiveRange} (when the trigger is active), here as the floors Headroom holds and
 * checked minute by minute against KEDA's rule.
 */
class KedaCronTest {
    static final String SRC = "cron_scaler_test.go ";

    /** One row of testCronMetadata: the metadata and whether KEDA refuses it. */
    static Stream<Arguments> testCronMetadata() {
        return Stream.of(
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[0] (empty)", null, null, null, null, true),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[1] validCronMetadata", "Etc/UTC",
                        "0 0 * * Thu", "59 23 * * Thu", "10", false),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[2] validCronMetadata2", "Etc/UTC",
                        "0 */2 * * *", "0 1-23/2 * * *", "10", false),
                // Valid for KEDA; 48 windows a week-day are more floors than a policy holds: refused with that reason.
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[3] validCronMetadata3", "Etc/UTC",
                        "0,30 * * * *", "15,45 * * * *", "10", false),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[4] (no desiredReplicas)", "Asia/Kolkata",
                        "30 * * * *", "45 * * * *", null, true),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[5] (no timezone)", null, "30 * * * *",
                        "45 * * * *", "10", true),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[6] (start range)", "Asia/Kolkata",
                        "30-33 * * * *", "45 * * * *", "10", false),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[7] (end range)", "Asia/Kolkata",
                        "30 * * * *", "45-50 * * * *", "10", false),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[8] (negative start)", "Asia/Kolkata",
                        "-30 * * * *", "45 * * * *", "10", true),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[9] (negative end)", "Asia/Kolkata",
                        "30 * * * *", "-50 * * * *", "10", true),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[10] (negative month)", "Asia/Kolkata",
                        "30 * * * *", "50 * * -3 *", "10", true),
                Arguments.of(SRC + "TestCronParseMetadata testCronMetadata[11] (start = end)", "Asia/Kolkata",
                        "30 * * * *", "30 * * * *", "10", true));
    }

    /**
     * KEDA's refusals are Headroom's: the trigger is not imported and the note says KEDA refuses it
     * too. KEDA's valid rows are imported as floors, or named with the reason they have no floor form.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("testCronMetadata")
    void kedaRefusesWhatHeadroomRefuses(String row, String tz, String start, String end, String desired,
                                        boolean kedaRefuses) {
        ImportedClass c = ScaledObjectImport.from(ScaledObjectImportTest.parse(cronObject(tz, start, end, desired)), "prod");
        String note = c.notes().stream().filter(n -> n.startsWith("cron trigger")).findFirst().orElseThrow();
        if (kedaRefuses) {
            assertTrue(c.policy().scheduledFloors().isEmpty(), row);
            assertTrue(note.contains("was not imported") && (note.contains("KEDA") || note.contains("refuses")), note);
        } else if (row.contains("validCronMetadata3")) {
            assertTrue(note.contains("48 different windows") || note.contains("more than"), note);
            assertTrue(c.policy().scheduledFloors().isEmpty(), row);
        } else {
            assertTrue(note.contains("→ scheduled floor"), note);
            assertEquals(tz, c.policy().timeZone().getId(), row);
            assertTrue(c.toYaml().contains("timeZone: " + tz), "the zone is written into the YAML: " + c.toYaml());
            assertTrue(c.toYaml().contains("scheduledFloors:"), c.toYaml());
            // Minute by minute, the floors are active exactly when KEDA's rule says so.
            assertMatchesKeda(start, end, c.policy().scheduledFloors());
        }
    }

    /** TestIsActive: validCronMetadata is active all of Thursday but its last minute (23:59 is the end). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("isActive")
    void whenTheTriggerIsActive(String row, String start, String end, List<ScheduledFloor> expected) {
        KedaCron.Result r = KedaCron.floors(start, end, 10);
        assertNull(r.problem(), row);
        assertEquals(expected, r.floors(), row);
        assertMatchesKeda(start, end, r.floors());
    }

    static Stream<Arguments> isActive() {
        List<ScheduledFloor> evenHours = new java.util.ArrayList<>();
        for (int h = 0; h < 24; h += 2) {
            evenHours.add(new ScheduledFloor(EnumSet.allOf(DayOfWeek.class), LocalTime.of(h, 0), LocalTime.of(h + 1, 0), 10));
        }
        return Stream.of(
                Arguments.of(SRC + "TestIsActive (validCronMetadata: active on Thursday)", "0 0 * * Thu", "59 23 * * Thu",
                        List.of(new ScheduledFloor(EnumSet.of(DayOfWeek.THURSDAY), LocalTime.MIDNIGHT, LocalTime.of(23, 59),
                                10))),
                Arguments.of(SRC + "TestIsActiveRange (validCronMetadata2: active in even hours)", "0 */2 * * *",
                        "0 1-23/2 * * *", evenHours),
                Arguments.of("scalers/cron.md (docs): 6 AM to 8 PM", "0 6 * * *", "0 20 * * *",
                        List.of(new ScheduledFloor(EnumSet.allOf(DayOfWeek.class), LocalTime.of(6, 0), LocalTime.of(20, 0),
                                10))),
                Arguments.of("a night window past midnight, weekdays (Headroom's own export)", "0 22 * * 1,2,3,4,5",
                        "0 6 * * 2,3,4,5,6", List.of(new ScheduledFloor(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY),
                                LocalTime.of(22, 0), LocalTime.of(6, 0), 10))),
                Arguments.of("day names and a range (robfig: MON-FRI)", "30 8 * * MON-FRI", "0 18 * * mon-fri",
                        List.of(new ScheduledFloor(EnumSet.range(DayOfWeek.MONDAY, DayOfWeek.FRIDAY), LocalTime.of(8, 30),
                                LocalTime.of(18, 0), 10))));
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("a day of the month", "0 8 1 * *", "0 20 1 * *", "days of the month"),
                Arguments.of("some months only", "0 8 * 1-6 *", "0 20 * 1-6 *", "some months"),
                Arguments.of("Monday 08:00 to Friday 20:00, one stretch", "0 8 * * 1", "0 20 * * 5", "at a stretch"),
                Arguments.of("day of week 7 (robfig's range is 0-6)", "0 8 * * 7", "0 20 * * 7", "above maximum"),
                Arguments.of("a descriptor", "@daily", "0 20 * * *", "descriptors"),
                Arguments.of("six fields", "0 0 8 * * *", "0 0 20 * * *", "exactly 5 fields"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void schedulesWithoutAFloorFormAreRefusedWithTheReason(String row, String start, String end, String reason) {
        KedaCron.Result r = KedaCron.floors(start, end, 2);
        assertTrue(r.floors().isEmpty(), row);
        assertTrue(r.problem() != null && r.problem().contains(reason), row + ": " + r.problem());
    }

    /** The floors are active at exactly the minutes KEDA's rule (next end before next start) is. */
    static void assertMatchesKeda(String start, String end, List<ScheduledFloor> floors) {
        boolean[] keda = KedaCron.active(KedaCron.parse(start), KedaCron.parse(end));
        ZonedDateTime monday = ZonedDateTime.of(2026, 1, 5, 0, 0, 0, 0, ZoneOffset.UTC); // a Monday
        for (int m = 0; m < keda.length; m++) {
            ZonedDateTime t = monday.plusMinutes(m);
            boolean headroom = floors.stream().anyMatch(f -> f.activeAt(t));
            if (headroom != keda[m]) {
                throw new AssertionError("at " + t.getDayOfWeek() + " " + t.toLocalTime() + " KEDA is "
                        + (keda[m] ? "active" : "inactive") + " and the floors are not");
            }
        }
    }

    static String cronObject(String tz, String start, String end, String desired) {
        StringBuilder md = new StringBuilder();
        if (tz != null) {
            md.append("        timezone: \"").append(tz).append("\"\n");
        }
        if (start != null) {
            md.append("        start: \"").append(start).append("\"\n");
        }
        if (end != null) {
            md.append("        end: \"").append(end).append("\"\n");
        }
        if (desired != null) {
            md.append("        desiredReplicas: \"").append(desired).append("\"\n");
        }
        return """
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: cron, namespace: ops}
                spec:
                  scaleTargetRef: {name: worker}
                  triggers:
                    - type: cron
                      metadata:
                """ + (md.length() == 0 ? "        {}\n" : md.toString());
    }
}
