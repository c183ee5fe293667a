package io.headroom.cluster;

/** Whether an event was written, and why not when it was not. */
public record EventResult(boolean posted, String problem) {
    public static EventResult ok() {
        return new EventResult(true, null);
    }

    public static EventResult notPosted(String why) {
        return new EventResult(false, why);
    }
}
