package io.headroom.ui.detail;

import io.headroom.decision.Decision;
import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Freeze;
import io.headroom.supervise.Proposal;
import io.headroom.supervise.ReplicaOverride;
import java.time.Instant;

/**
 * The decision's headline in the detail, as the operator should read it (issue 28): "10 → 6 replicas" only
 * when the decision is what will happen. A freeze or a pin holds the class, so the headline says the hold
 * first and what the decision would do second ("pinned at 10 replicas · the decision would scale 10 → 6"):
 * never a change the console is not going to make. Freeze beats pin, as in the supervisor's precedence.
 */
record Headline(String text, String direction) {

    static Headline of(Decision d, ClassSupervision c, Freeze freezeAll, Instant now) {
        return of(d, c, freezeAll, now, null);
    }

    /**
     * As above, with the class's pending proposal: one held unchanged for the operator to read while the
     * decision moved on (the supervisor's minimum time to act) is what an approval would do, so the headline
     * says it first and what the decision now asks second.
     */
    static Headline of(Decision d, ClassSupervision c, Freeze freezeAll, Instant now, Proposal pending) {
        int from = d.currentReplicas();
        int to = d.desiredReplicas();
        String would = from == to ? "hold " + replicas(from) : from + " → " + to + " replicas";
        Freeze freeze = active(freezeAll, now) ? freezeAll : c != null && active(c.freeze(), now) ? c.freeze() : null;
        if (freeze != null) {
            return new Headline("frozen at " + replicas(from) + " · the decision would " + (from == to ? would
                    : "scale " + would), "hold");
        }
        ReplicaOverride pin = c == null ? null : c.override();
        if (pin != null && pin.activeAt(now)) {
            String held = "pinned at " + replicas(pin.replicas()) + (from == pin.replicas() ? "" : " (now " + from + ")");
            return new Headline(held + " · the decision would " + (from == to ? would : "scale " + would),
                    pin.replicas() > from ? "up" : pin.replicas() < from ? "down" : "hold");
        }
        if (pending != null && pending.floor() == null && pending.from() == from && pending.to() != to) {
            return new Headline("proposal " + from + " → " + pending.to() + " waiting for you · the decision now would "
                    + (from == to ? would : "scale " + would), pending.to() > from ? "up" : "down");
        }
        return new Headline(from == to ? would : from + " → " + to + " replicas",
                to > from ? "up" : to < from ? "down" : "hold");
    }

    private static boolean active(Freeze f, Instant now) {
        return f != null && f.activeAt(now);
    }

    private static String replicas(int n) {
        return n + " replica" + (n == 1 ? "" : "s");
    }
}
