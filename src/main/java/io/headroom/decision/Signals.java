package io.headroom.decision;

/** Names of the standard per-class signals (design.md §3). Ceilings may name further signals. */
public final class Signals {
    public static final SignalName QUEUE_LENGTH = SignalName.of("queueLength");
    public static final SignalName OLDEST_AGE = SignalName.of("oldestAge");
    public static final SignalName ARRIVAL_RATE = SignalName.of("arrivalRate");
    public static final SignalName MEAN_SERVICE = SignalName.of("meanService");
    public static final SignalName QUEUED_SERVICE = SignalName.of("queuedServiceSeconds");
    public static final SignalName IN_FLIGHT = SignalName.of("inFlight");
    public static final SignalName COMPLETION_RATE = SignalName.of("completionRate");
    public static final SignalName DEPENDENCY = SignalName.of("dependency");
    public static final SignalName POD_MEMORY = SignalName.of("podMemory");
    /**
     * Jobs in flight per pod (one series per pod, told apart by its {@code pod} label), read on
     * demand by drains. Not a decision input: several series by design, so it is not in
     * {@link #STANDARD} and never read in a control tick.
     */
    public static final SignalName POD_IN_FLIGHT = SignalName.of("podInFlight");
    /**
     * Jobs finished per pod, a counter (one series per pod, told apart by its {@code pod} label): with
     * {@link #POD_IN_FLIGHT}, tells a worker that is alive but not making progress (STUCK) and the pod
     * panel's completions. Not a decision input of its own, like {@link #POD_IN_FLIGHT}.
     */
    public static final SignalName POD_COMPLETED = SignalName.of("podCompleted");

    /**
     * The current replica count read from metrics, for a workloads file with no cluster to ask (plan,
     * what-if); optional, and not a decision input of its own.
     */
    public static final SignalName REPLICAS = SignalName.of("replicas");

    /**
     * Jobs the class's producers hold back because admission refused them, waiting to retry (a gauge the
     * producers export, ADR 0027). Shown in the work strip; not a decision input and not in {@link #STANDARD}:
     * a class whose producers report nothing simply has none.
     */
    public static final SignalName ADMISSION_HELD = SignalName.of("admissionHeld");

    /** The key of a pool's {@link #failedAcquisitions} query in the workloads file. */
    public static final String FAILED_ACQUISITIONS = "failedAcquisitions";

    /**
     * A pool's broker's failed acquisitions per second (a pool's optional {@code failedAcquisitions:} query,
     * decision 0029): read each tick with the class's signals, one name per pool, e.g.
     * {@code pool:spot:failedAcquisitions}. Not in {@link #STANDARD}: placement reads it, not the scaling
     * decision.
     */
    public static SignalName failedAcquisitions(String pool) {
        return SignalName.of("pool:" + pool + ":" + FAILED_ACQUISITIONS);
    }

    /** Every standard signal, in display order. */
    public static final java.util.List<SignalName> STANDARD = java.util.List.of(
            QUEUE_LENGTH, OLDEST_AGE, ARRIVAL_RATE, MEAN_SERVICE, QUEUED_SERVICE,
            IN_FLIGHT, COMPLETION_RATE, DEPENDENCY, POD_MEMORY);

    private Signals() {
    }
}
