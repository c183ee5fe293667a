package io.headroom.loop;

/** What the actuator did with one decision, as data for the UI, the journal and the CLI. */
public record Actuation(Kind kind, int from, int to, String message) {

    /** NONE: nothing to do; APPLIED/FAILED: a scale was attempted; WITHHELD: a mode kept it from acting. */
    public enum Kind { NONE, APPLIED, FAILED, WITHHELD }

    public static Actuation none(int replicas) {
        return new Actuation(Kind.NONE, replicas, replicas, "no change");
    }
}
