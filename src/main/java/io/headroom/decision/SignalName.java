package io.headroom.decision;

import java.util.Objects;

/**
 * The name of a per-class signal: one of the standard names in {@link Signals} or a further signal a
 * ceiling names in the workloads file (design.md §3.4). A type of its own so that a signal's name is never
 * mistaken for a class name, a query or a label: maps of readings are keyed by it, and the workloads file's
 * keys become one at the edge where the file is read.
 *
 * @param id the name as written in the workloads file and the journal, e.g. {@code oldestAge}
 */
public record SignalName(String id) implements Comparable<SignalName> {

    public SignalName {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("a signal name cannot be blank");
        }
    }

    /** The signal called {@code id}. */
    public static SignalName of(String id) {
        return new SignalName(id);
    }

    /** True for the nine standard signals a decision reads (not the per-pod ones). */
    public boolean standard() {
        return Signals.STANDARD.contains(this);
    }

    @Override
    public int compareTo(SignalName other) {
        return id.compareTo(other.id);
    }

    /** The name as the file and the journal write it. */
    @Override
    public String toString() {
        return id;
    }
}
