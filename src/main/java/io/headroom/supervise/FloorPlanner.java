package io.headroom.supervise;

import io.headroom.decision.ForecastFloor;
import io.headroom.decision.Observation;
import io.headroom.loop.WorkloadClass;
import java.time.Instant;

/**
 * Where the supervisor's predictive proposals come from (issue 29): the class's forecast, planned against what it
 * runs now ({@code forecast/Anticipation}, wired by the session). Calculated apart from acted on: a plan is data;
 * {@link ForecastFloors} decides whether it is proposed, applied or ignored. Called on the loop's thread.
 */
@FunctionalInterface
public interface FloorPlanner {

    /** The floor to hold ahead of the class's next forecast rise, or null when the forecast gives none now. */
    Planned plan(WorkloadClass cls, Observation observation, Instant now);

    /**
     * A floor ahead of a forecast rise.
     *
     * @param floor  what to hold, from when, until when, and the forecast in words
     * @param riseAt when the rise is due: a proposal not approved by then leaves the inbox
     * @param words  the proposal in words ("hold 24 replicas from 08:52 for the forecast rise at 09:00: …")
     */
    record Planned(ForecastFloor floor, Instant riseAt, String words) {
        public Planned {
            java.util.Objects.requireNonNull(floor, "floor");
            java.util.Objects.requireNonNull(riseAt, "riseAt");
            words = words == null || words.isBlank() ? floor.why() : words;
        }
    }

    /** No forecast: nothing is ever planned. */
    FloorPlanner NONE = (cls, observation, now) -> null;
}
