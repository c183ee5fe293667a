package io.headroom.decision;

import java.util.ArrayList;
import java.util.List;

/**
 * What the stages of one decision wrote down as they went: terms with numbers, reasons, and the story.
 * A trail that does not {@link #explains() explain} keeps the terms' numbers and the reasons but no
 * words: its terms' formulas are empty and its story stays empty (stages skip building the words when
 * {@link #explains()} is false; whatever they pass is dropped here anyway).
 */
final class Trail {
    final List<Term> terms = new ArrayList<>();
    final List<Reason> reasons = new ArrayList<>();
    final List<String> story = new ArrayList<>();
    private final boolean explains;

    Trail() {
        this(true);
    }

    Trail(boolean explains) {
        this.explains = explains;
    }

    /** False when only the numbers are wanted: a stage builds no formula or story sentence then. */
    boolean explains() {
        return explains;
    }

    void term(String name, double value, String formula) {
        terms.add(new Term(name, value, explains ? formula : ""));
    }

    void reason(Reason.Code code) {
        reasons.add(Reason.of(code));
    }

    void reason(Reason.Code code, String detail) {
        reasons.add(Reason.of(code, detail));
    }

    void reason(Reason.Code code, SignalName signal) {
        reasons.add(Reason.of(code, signal));
    }

    void say(String part) {
        if (explains) {
            story.add(part);
        }
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
        if (explains) {
            terms.addAll(r.terms());
            story.addAll(r.story());
        } else {
            for (Term term : r.terms()) {
                terms.add(new Term(term.name(), term.value(), ""));
            }
        }
        reasons.addAll(r.reasons());
    }
}
