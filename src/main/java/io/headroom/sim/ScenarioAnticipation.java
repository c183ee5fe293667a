package io.headroom.sim;

import io.headroom.forecast.Anticipation;

/**
 * How the simulator forecasts for classes whose policy says {@code forecast: propose} or {@code auto} (issue 29), a
 * scenario's {@code anticipation:} block. Each such class keeps its own arrivals and service-time history as the run
 * goes, forecasts it every {@code everySeconds} with the console's {@code Forecaster} at {@code slotSeconds}, and holds
 * {@code Anticipation.plan}'s floor in the observation each tick (a proposal counts as approved at once).
 *
 * @param historyDays  days of history before t=0, generated from each class's own programme (its arrival rate and
 *                     mean service time × cost, repeated by {@code repeatSeconds}, else by the run's length) with
 *                     Poisson noise from the seed, so a forecast exists from the start; 0 for none
 * @param slotSeconds  the forecast's slot (divides a day, at least 60 s)
 * @param neighbourSlots slots either side of the same time of day pooled into a slot's quantiles (the forecaster's 1
 *                     suits 5-minute slots and rises a few minutes early or late; 0 for load that comes on the minute)
 * @param everySeconds how often a new forecast is made (the floor is planned every tick from the latest)
 * @param settings     the quantile, buffer, horizon and margin of the floor
 */
public record ScenarioAnticipation(double historyDays, double slotSeconds, int neighbourSlots, double everySeconds,
        Anticipation.Settings settings) {

    /** No history before t=0, 5-minute slots, a forecast every 5 minutes, p80 with a 60 s buffer. */
    public static final ScenarioAnticipation DEFAULTS = new ScenarioAnticipation(0, 300, 1, 300,
            Anticipation.Settings.DEFAULTS);

    public ScenarioAnticipation {
        if (!(historyDays >= 0) || historyDays > 28 || !(slotSeconds >= 60) || 86_400 % slotSeconds != 0
                || neighbourSlots < 0 || neighbourSlots > 12 || !(everySeconds > 0) || settings == null) {
            throw new IllegalArgumentException("anticipation settings out of range: " + historyDays + " days, "
                    + slotSeconds + " s slots, every " + everySeconds + " s");
        }
    }
}
