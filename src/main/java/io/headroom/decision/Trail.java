package io.headroom.decision;

import java.util.ArrayList;
import java.util.List;

/** What the stages of one decision wrote down as they went: terms with numbers, reasons, and the story. */
final class Trail {
    final List<Term> terms = new ArrayList<>();
    final List<Reason> reasons = new ArrayList<>();
    final List<String> story = new ArrayList<>();

    void term(String name, double value, String formula) {
        terms.add(new Term(name, value, formula));
    }

    void reason(Reason.Code code) {
        reasons.add(Reason.of(code));
    }

    void reason(Reason.Code code, String detail) {
        reasons.add(Reason.of(code, detail));
    }

    void say(String part) {
        story.add(part);
    }

    boolean has(Reason.Code code) {
        for (Reason r : reasons) {
            if (r.code() == code) {
                return true;
            }
        }
        return false;
    }

    void addAll(Behaviour.Result r) {
        terms.addAll(r.terms());
        reasons.addAll(r.reasons());
        story.addAll(r.story());
    }
}
