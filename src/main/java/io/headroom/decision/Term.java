package io.headroom.decision;

/** One step of the decision with its number and how it was computed, e.g. {@code slots = 12}. */
public record Term(String name, double value, String formula) {
}
