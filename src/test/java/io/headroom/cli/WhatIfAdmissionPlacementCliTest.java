package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code headroom whatif} on a placed class and on a class whose producers obey admission (issue 30): the
 * placement vs one pool and admission off vs on tables, in text and JSON, from the scenarios in examples/.
 */
class WhatIfAdmissionPlacementCliTest {

    private static String run(List<String> args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = WhatIfCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Clock.systemUTC(), (f, c, n, w, e) -> {
                    throw new WhatIfCommand.LoadFailure("no Prometheus in this test");
                });
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aPlacedClassIsReplayedOnItsPoolsAndOnTheFirstAloneWithThatPoolsNodesGone() {
        String text = run(List.of("--scenario", "examples/scenarios/spot-lost-mid-burst.yaml", "--class",
                "checkout-events", "--keda-list-length", "0"));
        assertTrue(text.contains("placement under the live policy: spot's nodes gone from "), text);
        assertTrue(text.contains("One pool (spot)") && text.contains("Placed (spot, on-demand)"), text);
        assertTrue(text.matches("(?s).*Replica-hours by pool +spot only +spot [0-9.]+ h, on-demand [0-9.]+ h.*"), text);
        assertTrue(!text.contains("admission under the live policy"), "its producers obey nothing: no admission table");

        JsonNode o = JsonMapper.builder().build().readTree(run(List.of("--scenario",
                "examples/scenarios/spot-lost-mid-burst.yaml", "--class", "checkout-events", "--json")));
        assertTrue(o.get("admission").isNull());
        JsonNode p = o.get("placement");
        assertTrue(p.get("replicaHoursByPool").get("on-demand").asDouble() > 0, p.toString());
        JsonNode violation = p.get("rows").get(0);
        assertEquals("Time over objective", violation.get("what").asString());
        assertEquals("better", violation.get("verdict").asString(), "on-demand takes the burst spot cannot: " + p);
        assertTrue(p.get("movedAfterSeconds").asDouble() > 0, p.toString());
    }

    @Test
    void aClassWhoseProducersObeyAdmissionIsReplayedWithAdmissionOffAndOn() {
        JsonNode o = JsonMapper.builder().build().readTree(run(List.of("--scenario",
                "examples/scenarios/admission-burst.yaml", "--class", "pdf-ingest", "--json")));
        assertTrue(o.get("placement").isNull(), "one pool");
        JsonNode rows = o.get("admission").get("rows");
        JsonNode held = null;
        for (JsonNode r : rows) {
            if (r.get("what").asString().equals("Jobs held back by admission")) {
                held = r;
            }
        }
        assertEquals("0", held.get("off").asString(), "producers that obey nothing hold nothing back");
        assertTrue(Long.parseLong(held.get("on").asString()) > 0, "the burst outruns the ready capacity: " + held);
        assertEquals("Time over objective, admitted jobs", rows.get(0).get("what").asString());
    }
}
