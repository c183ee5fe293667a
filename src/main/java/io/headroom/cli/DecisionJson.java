package io.headroom.cli;

import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import io.headroom.decision.Term;
import java.util.List;

/** The parts of a decision that {@code plan --json} and {@code simulate --json} print alike. */
final class DecisionJson {

    private DecisionJson() {
    }

    /** Every term with its number and formula, in the order the stages wrote them. */
    static void terms(ObjectNode o, List<Term> terms, Integer governorLimit) {
        ArrayNode a = o.putArray("terms");
        for (Term t : terms) {
            ObjectNode n = a.addObject();
            n.put("name", t.name());
            if (Double.isFinite(t.value())) {
                n.put("value", Math.round(t.value() * 1000) / 1000.0);
            } else {
                n.putNull("value");
            }
            n.put("formula", t.formula());
        }
        if (governorLimit == null) {
            o.putNull("governorLimit");
        } else {
            o.put("governorLimit", governorLimit);
        }
    }
}
