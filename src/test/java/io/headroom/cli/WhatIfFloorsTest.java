package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import io.headroom.cli.WhatIfCommandTest.Run;
import org.junit.jupiter.api.Test;

/**
 * Warm capacity as an economic choice (issue 15 item 4): a scheduled floor edited in a what-if shows
 * its trade, time over the age objective saved against replica-hours spent.
 */
class WhatIfFloorsTest {
    static final String SCENARIO = "examples/scenarios/warm-floor.yaml";

    static JsonNode row(JsonNode o, String what) {
        for (JsonNode r : o.get("rows")) {
            if (r.get("what").asString("").equals(what)) {
                return r;
            }
        }
        throw new AssertionError("no row " + what + " in " + o);
    }

    @Test
    void removingTheMorningFloorSavesReplicaHoursAndTheOldestJobWaitsLonger() throws Exception {
        Run r = WhatIfCommandTest.run("--scenario", SCENARIO, "--class", "morning-reports", "--window", "45m",
                "--set", "scheduledFloors=none", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = new ObjectMapper().readTree(r.out());
        assertEquals("worse", row(o, "Oldest age, max").get("verdict").asString(""), o.toString());
        assertEquals("better", row(o, "Replica-hours").get("verdict").asString(""), o.toString());
        // The replay starts pods in 30 s, so the cold start stays just inside the 45 s objective here.
        assertEquals("same", row(o, "Time over objective").get("verdict").asString(""), o.toString());
        String trade = o.get("trade").asString("");
        assertTrue(trade.startsWith("Same time over the objective with ") && trade.endsWith(" fewer replica-hours."),
                trade);
    }

    @Test
    void anEarlierFloorIsTypedAsTheExplanationWritesIt() throws Exception {
        Run r = WhatIfCommandTest.run("--scenario", SCENARIO, "--class", "morning-reports", "--window", "45m",
                "--set", "scheduledFloors=Mon-Fri 07:30-18:00 -> 8");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("scheduledFloors=Mon-Fri 07:30-18:00 -> 8"), r.out());
        assertTrue(r.out().contains("more replica-hours"), r.out());
    }

    @Test
    void aFloorThatIsNotOneIsRefusedInPlainWords() {
        Run r = WhatIfCommandTest.run("--scenario", SCENARIO, "--class", "morning-reports",
                "--set", "scheduledFloors=Mon-Fry 07:30-18:00 -> 8");
        assertEquals(ExitCode.USAGE, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("scheduledFloors") && r.err().contains("\"fry\" is not a day"), r.err());
    }
}
