package io.headroom.supervise;

/** What an operator command did, in a sentence for the status line. */
public record Outcome(boolean ok, String message) {
    public static Outcome ok(String message) {
        return new Outcome(true, message);
    }

    public static Outcome refused(String message) {
        return new Outcome(false, message);
    }
}
