package io.headroom.supervise;

/** The last thing supervision did for a class, as a kind the UI can tell apart and a sentence it shows. */
public record LastAction(Kind kind, String text) {

    /** What kind of thing happened. */
    public enum Kind {
        PROPOSED, REVISED, WITHDRAWN, REJECTED, APPLIED, FAILED, OVERRIDE_ENDED,
        /** A drain moved (its own detail says how); the drain itself is shown apart. */
        DRAIN,
        /** A forecast floor began to be held, lapsed or was cancelled (issue 29). */
        FLOOR
    }

    public static LastAction of(Kind kind, String text) {
        return new LastAction(kind, text);
    }

    @Override
    public String toString() {
        return text;
    }
}
