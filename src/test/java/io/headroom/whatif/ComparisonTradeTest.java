package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.headroom.decision.Policy;
import io.headroom.sim.Simulator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The trade a what-if edit makes, in one sentence: time over the objective against replica-hours. */
class ComparisonTradeTest {
    static final Policy WITH_OBJECTIVE = Policy.builder().maxAgeSeconds(45.0).build();

    static Replay.Run run(double violationSeconds, double replicaHours) {
        return new Replay.Run(new Simulator.ClassSummary("c", 0, 0, violationSeconds, replicaHours * 3600, 0, 0),
                List.of());
    }

    static String trade(double va, double ha, double vb, double hb) {
        return ComparisonTable.trade(new Replay.Comparison(run(va, ha), run(vb, hb), 3600, 0, List.of(), null, null),
                WITH_OBJECTIVE, WITH_OBJECTIVE);
    }

    @Test
    void warmCapacityBuysTimeUnderTheObjectiveWithReplicaHours() {
        assertEquals("Trade: 120 s less time over the objective for 2 more replica-hours (60 s per replica-hour).",
                trade(150, 3, 30, 5));
        assertEquals("Trade: 2 fewer replica-hours at the cost of 120 s more time over the objective "
                + "(60 s per replica-hour saved).", trade(30, 5, 150, 3));
    }

    @Test
    void anEditBetterOrWorseOnBothSaysSo() {
        assertEquals("Better on both: 100 s less time over the objective and 1 fewer replica-hours.",
                trade(150, 5, 50, 4));
        assertEquals("Worse on both: 100 s more time over the objective and 1 more replica-hours.",
                trade(50, 4, 150, 5));
        assertEquals("Same replica-hours with 10 s less time over the objective.", trade(20, 4, 10, 4));
    }

    @Test
    void noTradeWhenNothingChangesAsShownOrThereIsNoObjective() {
        assertNull(trade(10, 4, 10, 4));
        Policy none = Policy.builder().build();
        assertNull(ComparisonTable.trade(new Replay.Comparison(run(0, 3), run(0, 5), 3600, 0, List.of(), null, null),
                none, none));
    }
}
