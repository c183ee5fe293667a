package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Decision;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: a pinned class's headline never says "10 → 6 replicas" while the pin holds it; it says the pin,
 * then what the decision would do. A freeze likewise; lifted, the decision's own headline is back.
 */
class DetailHeadlineTest {
    static final String CLS = "ledger-replay";

    static Decision decision(SandboxConsole c) {
        return c.lastTick().classes().stream().filter(s -> s.name().equals(CLS)).findFirst().orElseThrow().decision();
    }

    @Test
    void aPinOrAFreezeIsTheHeadlineAndTheDecisionWhatItWouldDo() {
        try (SandboxConsole c = SandboxConsole.open(7).supervised()) {
            c.run(Duration.ofMinutes(3));
            c.detail.select(CLS);
            // seed 7: ledger-replay's backlog grows; its decision wants more replicas than it has
            assertTrue(c.runUntil(() -> "up".equals(c.detail.directionProperty().get()), Duration.ofMinutes(10)));
            int pin = decision(c).currentReplicas();
            c.await(c.session().supervisor().setOverride(CLS, pin, c.now().plus(Duration.ofHours(1)), "hold for the db"));
            assertTrue(c.runUntil(() -> decision(c).currentReplicas() == pin
                    && decision(c).desiredReplicas() != pin, Duration.ofMinutes(2)), "the decision still wants a change");
            Decision d = decision(c);
            String headline = c.detail.headlineProperty().get();
            assertEquals("pinned at " + pin + " replicas · the decision would scale " + pin + " → "
                    + d.desiredReplicas() + " replicas", headline);
            assertEquals("hold", c.detail.directionProperty().get(), "the pin holds: no arrow up or down");

            c.await(c.session().supervisor().freeze(CLS, Duration.ofMinutes(30), "incident 4711"));
            c.tick(1);
            d = decision(c);
            assertTrue(c.detail.headlineProperty().get().startsWith("frozen at " + d.currentReplicas() + " replicas · "
                    + "the decision would "), c.detail.headlineProperty().get());

            c.await(c.session().supervisor().unfreeze(CLS, "over"));
            c.await(c.session().supervisor().clearOverride(CLS, "over"));
            c.tick(1);
            d = decision(c);
            assertEquals(d.currentReplicas() == d.desiredReplicas() ? "hold " + d.currentReplicas() + " replicas"
                    : d.currentReplicas() + " → " + d.desiredReplicas() + " replicas", c.detail.headlineProperty().get(),
                    "nothing holds it: the decision's own headline");
        }
    }

    /**
     * A proposal held unchanged for the operator to read (Supervisor.holdProposals: 30 s of wall time, half an
     * hour of the sandbox at 60×) while the decision has moved on: the headline said "6 → 8 replicas" beside a
     * card and a class line saying 6 → 5. It says the proposal waiting, then what the decision now asks.
     */
    @Test
    void aProposalHeldWhileTheDecisionMovedOnIsTheHeadlineAndTheDecisionWhatItNowAsks() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.run(Duration.ofMinutes(3));
            Decision d = decision(c);
            int from = d.currentReplicas();
            int shown = d.desiredReplicas() + 2 == from ? from + 1 : d.desiredReplicas() + 2;
            java.time.Instant now = c.now();
            io.headroom.supervise.Proposal held = new io.headroom.supervise.Proposal(CLS + "-3", CLS, "sandbox", from,
                    shown, now.minusSeconds(40), now.minusSeconds(40), now.plusSeconds(560), "", java.util.List.of());
            Headline h = Headline.of(d, null, null, now, held);
            String asks = from == d.desiredReplicas() ? "hold " + from + " replicas"
                    : "scale " + from + " → " + d.desiredReplicas() + " replicas";
            assertEquals("proposal " + from + " → " + shown + " waiting for you · the decision now would " + asks,
                    h.text());
            assertEquals(shown > from ? "up" : "down", h.direction(), "the proposal's direction: what an approval does");

            io.headroom.supervise.Proposal same = new io.headroom.supervise.Proposal(CLS + "-3", CLS, "sandbox", from,
                    d.desiredReplicas(), now, now, now.plusSeconds(600), "", java.util.List.of());
            assertEquals(Headline.of(d, null, null, now).text(), Headline.of(d, null, null, now, same).text(),
                    "a proposal of what the decision asks: the decision's own headline");
            io.headroom.supervise.Proposal moved = new io.headroom.supervise.Proposal(CLS + "-3", CLS, "sandbox",
                    from + 1, shown, now, now, now.plusSeconds(600), "", java.util.List.of());
            assertEquals(Headline.of(d, null, null, now).text(), Headline.of(d, null, null, now, moved).text(),
                    "a proposal from another count is withdrawn as moved: not the headline");
        }
    }
}
