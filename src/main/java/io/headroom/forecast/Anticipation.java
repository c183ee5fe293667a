package io.headroom.forecast;

import io.headroom.decision.ForecastFloor;
import io.headroom.decision.Policy;
import java.time.Instant;
import java.util.Locale;

/**
 * From a class's forecasts to the capacity held ahead of the next rise (issue 29, decision 0030). Pure: forecasts,
 * the policy and the count running now in; a {@link Plan} out, with the floor (or none) and why in words.
 *
 * <p>Per forecast slot the need is Little's law, as the decision's slot estimate counts it: slots =
 * ceil((λ × S)<sub>q</sub> / targetUtilization), replicas = ceil(slots / slotsPerReplica), where (λ × S)<sub>q</sub>
 * is the chosen quantile (p80 by default) of the joint forecast of the work, each past day's arrivals times its own
 * service time at that time of day ({@link SlotsBand}). Without a joint forecast it is approximated by the arrivals'
 * quantile times the service-time forecast's median (or the mean service time given).
 *
 * <p>The rise is the first slot within the horizon whose replicas exceed what runs now by more than the margin (and
 * by at least one replica). The floor holds the highest replicas of the rise's run of slots (capped at max), from
 * start-up + one poll + the buffer ahead of the rise (not before now) until the forecast falls back to what runs now
 * (within the margin), or the horizon or the forecast's end. Never a floor at or below the current count: a forecast
 * never scales in.
 */
public final class Anticipation {

    private Anticipation() {
    }

    /**
     * How far ahead to look, at which quantile, and how early to start.
     *
     * @param quantile       the arrivals quantile the floor holds: 0.5, 0.8 or 0.95
     * @param bufferSeconds  held ahead of the rise beyond start-up and one poll
     * @param horizonSeconds how far ahead a rise is looked for (and the latest a floor lapses)
     * @param margin         a rise must exceed the replicas running now by more than this fraction (0.2 is 20 %)
     */
    public record Settings(double quantile, double bufferSeconds, double horizonSeconds, double margin) {

        /** p80, 60 s buffer, 2 h ahead, 20 % margin. */
        public static final Settings DEFAULTS = new Settings(0.8, 60, 2 * 3600, 0.2);

        public Settings {
            if (quantile != 0.5 && quantile != 0.8 && quantile != 0.95) {
                throw new IllegalArgumentException("the forecast's quantile is 0.5, 0.8 or 0.95, got " + quantile);
            }
            if (!(bufferSeconds >= 0) || !(horizonSeconds > 0) || !(margin >= 0) || Double.isInfinite(bufferSeconds)
                    || Double.isInfinite(horizonSeconds) || Double.isInfinite(margin)) {
                throw new IllegalArgumentException("anticipation settings out of range: " + this);
            }
        }

        public Settings withQuantile(double q) {
            return new Settings(q, bufferSeconds, horizonSeconds, margin);
        }

        /** "p80". */
        public String quantileWord() {
            return "p" + Math.round(quantile * 100);
        }
    }

    /**
     * What the forecast asks for now.
     *
     * @param floor the capacity to hold ahead of the rise, null when none
     * @param rise  the rise it holds for (in the arrivals' unit, {@code need} being the arrivals the running
     *              replicas serve), null when none
     * @param words why, or why none
     */
    public record Plan(ForecastFloor floor, Forecast.Rise rise, String words) {
        public static Plan none(String words) {
            return new Plan(null, null, words);
        }
    }

    /**
     * The plan at {@code now}.
     *
     * @param arrivals           the arrivals forecast (jobs/s); null or refused: no floor
     * @param service            the service-time forecast (s), null to use {@code meanServiceSeconds}; refused: no floor
     * @param meanServiceSeconds S where there is no service forecast for a slot
     * @param currentReplicas    what runs now (the rise must be above it)
     * @param startupSeconds     pod start-up (measured or the policy's)
     */
    public static Plan plan(Forecast arrivals, Forecast service, double meanServiceSeconds, Policy policy,
            int currentReplicas, double startupSeconds, Instant now, Settings settings) {
        return plan(arrivals, service, null, meanServiceSeconds, policy, currentReplicas, startupSeconds, now,
                settings);
    }

    /**
     * The plan at {@code now}, its slots the quantile of the joint forecast of the work where there is one.
     *
     * @param work the joint forecast of arrivals × service time (jobs in service), null or refused: the slots are the
     *             arrivals' quantile × the service time's median
     */
    public static Plan plan(Forecast arrivals, Forecast service, Forecast work, double meanServiceSeconds,
            Policy policy, int currentReplicas, double startupSeconds, Instant now, Settings settings) {
        if (arrivals == null) {
            return Plan.none("no forecast of arrivals yet");
        }
        if (!arrivals.available()) {
            return Plan.none("no forecast floor: arrivals: " + arrivals.reason());
        }
        if (service != null && !service.available()) {
            return Plan.none("no forecast floor: service time: " + service.reason());
        }
        double t0 = now.getEpochSecond() + now.getNano() / 1e9;
        SlotsBand band = SlotsBand.of(arrivals, service, work, meanServiceSeconds, policy.targetUtilization());
        double end = t0 + settings.horizonSeconds();
        int from = t0 < arrivals.start() ? 0 : arrivals.slotAt(t0);
        if (from < 0) {
            return Plan.none("no forecast floor: the forecast of arrivals ends before now (made at "
                    + ForecastWords.clock(arrivals.start(), arrivals.zone()) + ")");
        }
        // What runs now is at least min: a rise is judged against that, or the base load's need counts as one.
        int running = Math.max(currentReplicas, Math.min(policy.minReplicas(), policy.maxReplicas()));
        double threshold = Math.max(running * (1 + settings.margin()), running + 1 - 1e-9);
        int rise = -1;
        int riseReplicas = 0;
        for (int i = from; i < arrivals.slots() && arrivals.time(i) < end; i++) {
            int r = replicas(band, policy, settings, i);
            if (r > threshold) {
                rise = i;
                riseReplicas = r;
                break;
            }
        }
        if (rise < 0) {
            return Plan.none("no forecast rise above the " + currentReplicas + " replica" + plural(currentReplicas)
                    + " running now in the next " + ForecastWords.duration(settings.horizonSeconds()) + " ("
                    + settings.quantileWord() + ", margin " + Math.round(settings.margin() * 100) + " %)");
        }
        // The rise's run: while the need stays above what runs now (within the margin); the floor is its peak.
        int peak = rise;
        int peakReplicas = riseReplicas;
        int last = rise;
        for (int j = rise + 1; j < arrivals.slots() && arrivals.time(j) < end; j++) {
            int r = replicas(band, policy, settings, j);
            if (r <= threshold) {
                break;
            }
            last = j;
            if (r > peakReplicas) {
                peak = j;
                peakReplicas = r;
            }
        }
        double riseAt = Math.max(t0, arrivals.time(rise));
        double until = Math.min(end, arrivals.time(last) + arrivals.slotSeconds());
        double lead = Math.max(0, startupSeconds) + policy.pollIntervalSeconds() + settings.bufferSeconds();
        double startAt = Math.max(t0, riseAt - lead);
        int held = Math.min(peakReplicas, policy.maxReplicas());
        double sAtPeak = serviceAt(service, meanServiceSeconds, arrivals.time(peak));
        double lambdaPeak = quantile(arrivals, settings, peak);
        double served = sAtPeak > 0 ? currentReplicas * policy.slotsPerReplica() * policy.targetUtilization() / sAtPeak
                : Double.NaN;
        ZoneIdHolder z = new ZoneIdHolder(arrivals);
        String need = band.joint()[peak] ? settings.quantileWord() + " " + ForecastWords.number(band.at(settings
                .quantile(), peak) * policy.targetUtilization()) + " jobs in service (each past day's arrivals × its"
                + " service time)" : settings.quantileWord() + " " + ForecastWords.number(lambdaPeak) + " "
                + arrivals.unit() + " × " + ForecastWords.number(sAtPeak) + " s";
        String why = need + " at " + z.clock(arrivals.time(peak)) + " needs " + peakReplicas
                + " replica" + plural(peakReplicas) + (held < peakReplicas ? " (max " + policy.maxReplicas() + ")" : "")
                + ", " + currentReplicas + " run now; the rise is due at " + z.clock(riseAt) + ", held from "
                + z.clock(startAt) + " (start-up " + ForecastWords.number(Math.max(0, startupSeconds)) + " s + poll "
                + ForecastWords.number(policy.pollIntervalSeconds()) + " s + buffer "
                + ForecastWords.number(settings.bufferSeconds()) + " s ahead) until " + z.clock(until);
        Forecast.Rise r = new Forecast.Rise(riseAt, arrivals.p50()[rise], arrivals.p80()[rise], arrivals.time(peak),
                arrivals.p80()[peak], served, why);
        if (held <= currentReplicas) {
            return new Plan(null, r, "no forecast floor: the rise needs " + peakReplicas + " replicas but max is "
                    + policy.maxReplicas() + " and " + currentReplicas + " run now");
        }
        Instant fromI = instant(startAt);
        Instant untilI = instant(until);
        if (!untilI.isAfter(fromI)) {
            return new Plan(null, r, "no forecast floor: the rise ends before it could be held (" + why + ")");
        }
        String because = why + "; " + arrivals.reason();
        return new Plan(new ForecastFloor(held, fromI, untilI, because), r, "forecast floor " + held + ": " + because);
    }

    /** With {@link Settings#DEFAULTS}. */
    public static Plan plan(Forecast arrivals, Forecast service, double meanServiceSeconds, Policy policy,
            int currentReplicas, double startupSeconds, Instant now) {
        return plan(arrivals, service, meanServiceSeconds, policy, currentReplicas, startupSeconds, now,
                Settings.DEFAULTS);
    }

    /** Replicas the forecast's slot {@code i} needs (not capped at max). */
    static int replicas(SlotsBand band, Policy p, Settings s, int i) {
        double need = band.at(s.quantile(), i);
        if (!(need > 0)) {
            return 0;
        }
        double slots = Math.ceil(need - 1e-9);
        return (int) Math.min(Integer.MAX_VALUE, (long) Math.ceil(slots / p.slotsPerReplica() - 1e-9));
    }

    private static double quantile(Forecast f, Settings s, int i) {
        double[] q = s.quantile() == 0.5 ? f.p50() : s.quantile() == 0.95 ? f.p95() : f.p80();
        return q[i];
    }

    private static double serviceAt(Forecast service, double meanService, double t) {
        if (service != null) {
            int j = service.slotAt(t);
            if (j >= 0 && service.p50()[j] > 0) {
                return service.p50()[j];
            }
        }
        return meanService;
    }

    private static Instant instant(double epochSeconds) {
        long s = (long) Math.floor(epochSeconds);
        return Instant.ofEpochSecond(s, Math.round((epochSeconds - s) * 1e9));
    }

    private static String plural(int n) {
        return n == 1 ? "" : "s";
    }

    /** Times said in the forecast's zone, to the second when not on a minute. */
    private record ZoneIdHolder(Forecast f) {
        String clock(double t) {
            String hm = ForecastWords.clock(t, f.zone());
            long sec = (long) Math.floorMod((long) Math.floor(t), 60L);
            return sec == 0 ? hm : hm + String.format(Locale.ROOT, ":%02d", sec);
        }
    }
}
