package io.headroom.decision;

/** Names of the standard per-class signals (design.md §3). Ceilings may name further signals. */
public final class Signals {
    public static final String QUEUE_LENGTH = "queueLength";
    public static final String OLDEST_AGE = "oldestAge";
    public static final String ARRIVAL_RATE = "arrivalRate";
    public static final String MEAN_SERVICE = "meanService";
    public static final String QUEUED_SERVICE = "queuedServiceSeconds";
    public static final String IN_FLIGHT = "inFlight";
    public static final String COMPLETION_RATE = "completionRate";
    public static final String DEPENDENCY = "dependency";
    public static final String POD_MEMORY = "podMemory";
    /**
     * Jobs in flight per pod (one series per pod, told apart by its {@code pod} label), read on
     * demand by drains. Not a decision input: several series by design, so it is not in
     * {@link #STANDARD} and never read in a control tick.
     */
    public static final String POD_IN_FLIGHT = "podInFlight";
    /**
     * Jobs finished per pod, a counter (one series per pod, told apart by its {@code pod} label): with
     * {@link #POD_IN_FLIGHT}, tells a worker that is alive but not making progress (STUCK) and the pod
     * panel's completions. Not a decision input of its own, like {@link #POD_IN_FLIGHT}.
     */
    public static final String POD_COMPLETED = "podCompleted";

    /** Every standard signal, in display order. */
    public static final java.util.List<String> STANDARD = java.util.List.of(
            QUEUE_LENGTH, OLDEST_AGE, ARRIVAL_RATE, MEAN_SERVICE, QUEUED_SERVICE,
            IN_FLIGHT, COMPLETION_RATE, DEPENDENCY, POD_MEMORY);

    private Signals() {
    }
}
