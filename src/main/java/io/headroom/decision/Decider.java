package io.headroom.decision;

import java.time.Instant;

/**
 * A scaling rule as a pure function: one class's policy, what one tick observed, what it
 * remembers and the time in; a {@link Decision} (with the next memory) out. Headroom's own rule is
 * {@link DecisionEngine#decide}; the rules it is judged against live in {@code io.headroom.baseline}.
 */
@FunctionalInterface
public interface Decider {

    /** Headroom's decision (design.md §3). */
    Decider HEADROOM = DecisionEngine::decide;

    /**
     * Headroom's decision without its words ({@link DecisionEngine#decideNumbers}): the same numbers,
     * for replays whose ticks are read as numbers only.
     */
    Decider HEADROOM_NUMBERS = DecisionEngine::decideNumbers;

    Decision decide(String className, Policy policy, Observation obs, ClassMemory memory, Instant now);
}
