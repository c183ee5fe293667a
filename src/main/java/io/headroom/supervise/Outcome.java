package io.headroom.supervise;

/**
 * What an operator command did: {@link Done}, {@link Refused} (nothing changed, and why in a kind the
 * code can tell apart) or {@link Failed} (it was tried and did not work). {@link #message()} is the
 * sentence the status line shows.
 */
public sealed interface Outcome permits Outcome.Done, Outcome.Refused, Outcome.Failed {

    /** The sentence for the operator. */
    String message();

    /** True when the command did what it was asked. */
    default boolean ok() {
        return this instanceof Done;
    }

    /** Done as asked. */
    record Done(String message) implements Outcome {
    }

    /** Not done, and nothing changed: {@code why} says of what kind the reason is. */
    record Refused(Why why, String message) implements Outcome {
    }

    /** Tried, and it did not work (a cluster write failed, a command broke). */
    record Failed(String message) implements Outcome {
    }

    /** Why a command was refused. */
    enum Why {
        /** The command itself is not valid (a negative count, no reason, an end in the past). */
        INVALID,
        /** What it names is not there (an unknown class, a proposal no longer pending, nothing to lift). */
        NOT_FOUND,
        /** Something the operator set holds the class (a freeze, a pin, a running drain). */
        HELD,
        /** The world moved since (replicas changed, too late to cancel). */
        MOVED,
        /** Its record could not be written to the journal: no record, no action. */
        UNJOURNALED,
        /** The cluster says no or cannot be read (a drain that cannot be planned, a dry run that fails). */
        CLUSTER
    }

    static Outcome ok(String message) {
        return new Done(message);
    }

    static Outcome refused(Why why, String message) {
        return new Refused(why, message);
    }

    static Outcome failed(String message) {
        return new Failed(message);
    }
}
