package io.headroom.decision;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the decision for one class remembers between ticks: the last tick's replicas, queue and
 * age (net growth, stall detection), the last known service time and pod start-up, telemetry
 * failures, idleness (cooldown), the concurrency governor, past recommendations (stabilisation
 * windows) and replica changes stamped with the time they were applied (rate policies).
 * Immutable: each decision returns the next memory.
 *
 * @param lastReplicas      spec replicas seen on the previous tick (or set by a change applied since), null before the first
 * @param lastTickAt        when the previous tick decided, null before the first
 * @param lastQueueLength   queue length seen on the previous tick, NaN when unknown
 * @param lastOldestAge     oldest age seen on the previous tick, NaN when unknown
 * @param stallSince        since when work has waited with idle slots and nothing completing, null when not
 * @param lastMeanService   the last known mean service time, NaN when never known
 * @param lastMeanServiceAt when it was sampled, null when never known
 * @param failureTicks      consecutive ticks with a required input missing or stale
 * @param lastActiveAt      the last time work was waiting or in flight, null before the first tick
 * @param startupSeconds    the last measured pod start-up (creation → ready), NaN when never measured
 * @param governor          the concurrency governor's state, {@link GovernorState#IDLE} without a limit
 * @param recommendations   past recommendations within the stabilisation windows
 * @param scaleEvents       replica changes (applied at, delta) within the rate policies' periods
 * @param upTarget          the last complete decision's target (before the rate policies) when it was above
 *                          the count it saw, null otherwise: while data is missing the decision keeps stepping
 *                          toward it (design.md §3.7)
 * @param suspectedAt       the replicas when a stall was first suspected (no in-flight series, nothing completing),
 *                          null when none is: the age term asks at most one step above it
 * @param samples           recent live samples of λ, completions and S, for estimates sized by events (§3.1)
 * @param inServiceLow      consecutive ticks up to the last whose complete answers had the queue empty and the jobs
 *                          in service below λ × S by more than its noise ({@link ForecastWindow#inServiceFell}): one
 *                          such reading is noise on about one tick in fifty, two in a row say the load fell
 */
public record ClassMemory(Integer lastReplicas, Instant lastTickAt, double lastQueueLength, double lastOldestAge,
                          Instant stallSince, double lastMeanService, Instant lastMeanServiceAt, int failureTicks,
                          Instant lastActiveAt, double startupSeconds, GovernorState governor,
                          List<Stamped> recommendations, List<Stamped> scaleEvents, Integer upTarget,
                          Integer suspectedAt, List<RateSample> samples, int inServiceLow) {

    /**
     * One tick's live rates: arrivals/s, completions/s and mean service seconds (NaN where unknown), each
     * over the source's own window. {@link EventWindow} pools them until they hold enough events.
     */
    public record RateSample(Instant at, double arrivalRate, double completionRate, double meanService) {
    }

    /**
     * A value at a time: a past recommendation or a replica change (delta) at the time it was applied.
     *
     * @param sustained for a recommendation, the part the scale-down window holds (without the share
     *                  that only drains a backlog); equal to {@code value} otherwise
     */
    public record Stamped(Instant at, int value, int sustained) {
        public Stamped(Instant at, int value) {
            this(at, value, value);
        }
    }

    public ClassMemory {
        recommendations = List.copyOf(recommendations);
        scaleEvents = List.copyOf(scaleEvents);
        samples = samples == null ? List.of() : List.copyOf(samples);
        if (governor == null) {
            governor = GovernorState.IDLE;
        }
    }

    /** The memory of a class never decided before. */
    public static ClassMemory initial() {
        return new ClassMemory(null, null, Double.NaN, Double.NaN, null, Double.NaN, null, 0, null, Double.NaN,
                GovernorState.IDLE, List.of(), List.of(), null, null, List.of(), 0);
    }

    /**
     * This memory after the loop applied a change from {@code from} to {@code to} replicas at
     * {@code at}: the rate policies count it from then (not from the next tick that sees it), and
     * the next tick does not count it again.
     */
    public ClassMemory applied(Instant at, int from, int to) {
        if (from == to) {
            return this;
        }
        List<Stamped> events = new ArrayList<>(scaleEvents);
        events.add(new Stamped(at, to - from));
        return new ClassMemory(to, lastTickAt, lastQueueLength, lastOldestAge, stallSince, lastMeanService,
                lastMeanServiceAt, failureTicks, lastActiveAt, startupSeconds, governor, recommendations, events, upTarget,
                suspectedAt, samples, inServiceLow);
    }

    /**
     * The memory a rule without age, stall or telemetry bookkeeping (a baseline) passes on: the
     * replicas it saw, when work was last active, its recommendations and the replica changes.
     */
    public ClassMemory next(int replicas, Instant at, Instant activeAt, List<Stamped> recs, List<Stamped> events) {
        return new ClassMemory(replicas, at, lastQueueLength, lastOldestAge, stallSince, lastMeanService,
                lastMeanServiceAt, failureTicks, activeAt, startupSeconds, governor, recs, events, upTarget, suspectedAt, samples,
                inServiceLow);
    }

    static List<Stamped> keepSince(List<Stamped> list, Instant now, Duration horizon) {
        Instant cutoff = now.minus(horizon);
        List<Stamped> kept = new ArrayList<>(list.size() + 1);
        for (Stamped s : list) {
            if (s.at().isAfter(cutoff)) {
                kept.add(s);
            }
        }
        return kept;
    }
}
