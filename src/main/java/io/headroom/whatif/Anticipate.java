package io.headroom.whatif;

import io.headroom.decision.ForecastFloor;
import io.headroom.decision.Policy;
import io.headroom.forecast.Forecast;
import java.time.Instant;
import java.util.Optional;

/**
 * The floor auto mode holds at a tick, from the class's forecasts: the one place the what-if asks for it, so the
 * predictive run plans as the console does.
 */
final class Anticipate {

    /** Held beyond start-up and one poll, so the pods are ready before the rise rather than with it. */
    static final double BUFFER_SECONDS = 60;
    /** A rise is a slot whose p80 is this much above the need now. */
    static final double MARGIN = 0.2;

    private Anticipate() {
    }

    /**
     * @return the floor to hold from now, or null when no rise is due within start-up, a poll and the buffer
     */
    static ForecastFloor plan(Forecast arrivals, java.util.function.Supplier<Forecast> services, double meanServiceSeconds, Policy p,
                              int currentReplicas, double startupSeconds, Instant now) {
        if (arrivals == null || !arrivals.available() || !(meanServiceSeconds > 0)) {
            return null;
        }
        double startup = Double.isFinite(startupSeconds) ? startupSeconds : p.startupSeconds();
        double lead = startup + p.pollIntervalSeconds() + BUFFER_SECONDS;
        double perReplica = p.slotsPerReplica() * p.targetUtilization() / meanServiceSeconds; // jobs/s a replica takes
        double need = currentReplicas * perReplica;
        double t = now.getEpochSecond() + now.getNano() / 1e9;
        Optional<Forecast.Rise> rise = arrivals.nextRise(t, lead, need, MARGIN);
        if (rise.isEmpty()) {
            return null;
        }
        Forecast.Rise r = rise.get();
        double s = meanServiceSeconds;
        Forecast service = services.get();
        if (service != null && service.available()) {
            int i = service.slotAt(r.peakAt());
            if (i >= 0 && Double.isFinite(service.p50()[i]) && service.p50()[i] > 0) {
                s = service.p50()[i];
            }
        }
        int replicas = (int) Math.ceil(r.peakP80() * s / (p.slotsPerReplica() * p.targetUtilization()) - 1e-9);
        if (replicas <= currentReplicas) {
            return null;
        }
        Instant until = Instant.ofEpochSecond((long) Math.ceil(r.peakAt() + arrivals.slotSeconds()));
        if (!until.isAfter(now)) {
            return null;
        }
        return new ForecastFloor(replicas, now, until, r.why());
    }
}
