package io.headroom.exporter;

/**
 * One exported value: a signal of one queue ({@code state} is empty except for {@link Family#JOBS}).
 * Queue and state names come from the queue system: they are label values, never parsed.
 */
public record Sample(Family family, String queue, String state, double value) {

    /** The metric families, one per signal, each with a {@code queue} label (ADR 0010's grouped queries). */
    public enum Family {
        LENGTH("headroom_queue_length", "jobs waiting to be taken"),
        OLDEST_AGE("headroom_queue_oldest_age_seconds", "age of the oldest waiting job, in seconds"),
        IN_FLIGHT("headroom_queue_in_flight", "jobs taken by a worker and not yet finished"),
        JOBS("headroom_queue_jobs", "jobs by the state the queue system keeps them in");

        private final String metric;
        private final String help;

        Family(String metric, String help) {
            this.metric = metric;
            this.help = help;
        }

        public String metric() {
            return metric;
        }

        public String help() {
            return help;
        }
    }

    public static Sample of(Family family, String queue, double value) {
        return new Sample(family, queue, "", value);
    }
}
