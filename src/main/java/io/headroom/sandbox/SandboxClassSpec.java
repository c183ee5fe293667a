package io.headroom.sandbox;

import io.headroom.cluster.WorkloadRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One simulated workload class: its arrival programme, service times, pods and the trouble it
 * gets into (a saturating dependency, a poison message, metric outages). Times are seconds since
 * the world's start; with {@code repeatSeconds} every timed feature repeats with that period.
 *
 * @param repeatSeconds period of the programme (segments, poison, outages), or {@code null} to play it once
 * @param dependency    {@code null} when the class calls no dependency
 * @param poison        {@code null} when no poison message arrives
 * @param podMemoryMb   mean per-pod memory, or {@code null} when the class reports none
 * @param costSegments  windows in which arriving jobs cost more (their service time is multiplied)
 */
public record SandboxClassSpec(
        String name,
        double baseRate,
        List<RateSegment> segments,
        Double repeatSeconds,
        ServiceTime service,
        int concurrency,
        double startupSeconds,
        int initialReplicas,
        int initialBacklog,
        Dependency dependency,
        Poison poison,
        List<Window> outages,
        Double podMemoryMb,
        WorkloadRef target,
        List<CostSegment> costSegments,
        List<Double> podHangs) {

    /** Context and namespace of every sandbox workload. */
    public static final String CONTEXT = "sandbox";

    public SandboxClassSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a sandbox class needs a name");
        }
        if (!(baseRate >= 0) || Double.isInfinite(baseRate)) {
            throw new IllegalArgumentException("baseRate must be >= 0, got " + baseRate);
        }
        segments = segments == null ? List.of() : List.copyOf(segments);
        outages = outages == null ? List.of() : List.copyOf(outages);
        costSegments = costSegments == null ? List.of() : List.copyOf(costSegments);
        podHangs = podHangs == null ? List.of() : List.copyOf(podHangs);
        for (Double h : podHangs) {
            if (h == null || !(h >= 0) || h.isInfinite()) {
                throw new IllegalArgumentException("a pod hang needs a time >= 0, got " + h);
            }
        }
        if (repeatSeconds != null) {
            if (!(repeatSeconds > 0) || repeatSeconds.isInfinite()) {
                throw new IllegalArgumentException("repeatSeconds must be > 0, got " + repeatSeconds);
            }
            // A segment past the period would never play and would make the rate function ambiguous.
            for (RateSegment s : segments) {
                if (s.toSeconds() > repeatSeconds) {
                    throw new IllegalArgumentException("segments must end within repeatSeconds ("
                            + repeatSeconds + "), got to " + s.toSeconds());
                }
            }
            for (CostSegment c : costSegments) {
                if (c.toSeconds() > repeatSeconds) {
                    throw new IllegalArgumentException("cost segments must end within repeatSeconds ("
                            + repeatSeconds + "), got to " + c.toSeconds());
                }
            }
        }
        Objects.requireNonNull(service, "service");
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be >= 1, got " + concurrency);
        }
        if (!(startupSeconds >= 0) || Double.isInfinite(startupSeconds)) {
            throw new IllegalArgumentException("startupSeconds must be >= 0, got " + startupSeconds);
        }
        if (initialReplicas < 0) {
            throw new IllegalArgumentException("initialReplicas cannot be negative, got " + initialReplicas);
        }
        if (initialBacklog < 0) {
            throw new IllegalArgumentException("initialBacklog cannot be negative, got " + initialBacklog);
        }
        if (podMemoryMb != null && (!(podMemoryMb > 0) || podMemoryMb.isInfinite())) {
            throw new IllegalArgumentException("podMemoryMb must be > 0, got " + podMemoryMb);
        }
        if (target == null) {
            target = new WorkloadRef(CONTEXT, CONTEXT, "Deployment", name);
        }
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Arrival rate (jobs/s) at {@code t} seconds since start, following the programme. */
    public double rateAt(double t) {
        double local = localTime(t);
        for (RateSegment s : segments) {
            if (local >= s.fromSeconds() && local < s.toSeconds()) {
                return s.rateAt(local);
            }
        }
        return baseRate;
    }

    /** How many times its usual service time a job arriving at {@code t} takes (1 outside cost segments). */
    public double costAt(double t) {
        double local = localTime(t);
        for (CostSegment c : costSegments) {
            if (local >= c.fromSeconds() && local < c.toSeconds()) {
                return c.factor();
            }
        }
        return 1;
    }

    /** Whether metrics of this class are in an outage at {@code t}. */
    public boolean inOutage(double t) {
        double local = localTime(t);
        for (Window w : outages) {
            if (w.contains(local)) {
                return true;
            }
        }
        return false;
    }

    /** Time within the programme's period. */
    double localTime(double t) {
        if (repeatSeconds == null) {
            return t;
        }
        double local = t % repeatSeconds;
        return local < 0 ? local + repeatSeconds : local;
    }

    /**
     * One part of the arrival programme: {@code rate} across [from, to), or a linear ramp from
     * {@code rate} to {@code rampToRate} when that is set.
     */
    public record RateSegment(double fromSeconds, double toSeconds, double rate, Double rampToRate) {
        public RateSegment {
            if (!(fromSeconds >= 0) || Double.isInfinite(fromSeconds)) {
                throw new IllegalArgumentException("from must be >= 0, got " + fromSeconds);
            }
            if (!(toSeconds > fromSeconds) || Double.isInfinite(toSeconds)) {
                throw new IllegalArgumentException("to must be after from (" + fromSeconds + "), got " + toSeconds);
            }
            if (!(rate >= 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("rate must be >= 0, got " + rate);
            }
            if (rampToRate != null && (!(rampToRate >= 0) || rampToRate.isInfinite())) {
                throw new IllegalArgumentException("rampTo must be >= 0, got " + rampToRate);
            }
        }

        public static RateSegment constant(double from, double to, double rate) {
            return new RateSegment(from, to, rate, null);
        }

        public static RateSegment ramp(double from, double to, double rate, double rampTo) {
            return new RateSegment(from, to, rate, rampTo);
        }

        double rateAt(double local) {
            if (rampToRate == null) {
                return rate;
            }
            double f = (local - fromSeconds) / (toSeconds - fromSeconds);
            return rate + (rampToRate - rate) * f;
        }

        /** An upper bound of the rate across the segment (a ramp is linear, so an end). */
        double maxRate() {
            return rampToRate == null ? rate : Math.max(rate, rampToRate);
        }
    }

    /**
     * Jobs arriving in [from, to) take {@code factor} times their usual service time: a burst of
     * expensive jobs (a bulk re-render, a tenant with large inputs) rather than of more jobs.
     */
    public record CostSegment(double fromSeconds, double toSeconds, double factor) {
        public CostSegment {
            if (!(fromSeconds >= 0) || Double.isInfinite(fromSeconds)) {
                throw new IllegalArgumentException("from must be >= 0, got " + fromSeconds);
            }
            if (!(toSeconds > fromSeconds) || Double.isInfinite(toSeconds)) {
                throw new IllegalArgumentException("to must be after from (" + fromSeconds + "), got " + toSeconds);
            }
            if (!(factor > 0) || factor > 1000) {
                throw new IllegalArgumentException("factor must be in (0, 1000], got " + factor);
            }
        }
    }

    /** Distribution of job service times. */
    public enum Distribution { CONSTANT, EXPONENTIAL, LOGNORMAL, UNIFORM }

    /**
     * Service time of one job. For UNIFORM the mean is derived from min and max; for LOGNORMAL
     * {@code cv} (default 0.5) is the coefficient of variation.
     */
    public record ServiceTime(Distribution distribution, double meanSeconds, Double cv,
                              Double minSeconds, Double maxSeconds) {
        public static final double DEFAULT_CV = 0.5;

        public ServiceTime {
            if (distribution == null) {
                throw new IllegalArgumentException("distribution is required");
            }
            if (distribution == Distribution.UNIFORM) {
                if (minSeconds == null || maxSeconds == null) {
                    throw new IllegalArgumentException("a uniform distribution needs minSeconds and maxSeconds");
                }
                if (!(minSeconds >= 0) || minSeconds.isInfinite()) {
                    throw new IllegalArgumentException("minSeconds must be >= 0, got " + minSeconds);
                }
                if (!(maxSeconds > 0) || maxSeconds.isInfinite() || maxSeconds < minSeconds) {
                    throw new IllegalArgumentException("maxSeconds must be > 0 and >= minSeconds ("
                            + minSeconds + "), got " + maxSeconds);
                }
                meanSeconds = (minSeconds + maxSeconds) / 2;
            } else if (!(meanSeconds > 0) || Double.isInfinite(meanSeconds)) {
                throw new IllegalArgumentException("meanSeconds must be > 0, got " + meanSeconds);
            }
            if (distribution == Distribution.LOGNORMAL) {
                if (cv == null) {
                    cv = DEFAULT_CV;
                }
                if (!(cv > 0) || cv.isInfinite()) {
                    throw new IllegalArgumentException("cv must be > 0, got " + cv);
                }
            }
        }

        public static ServiceTime constant(double mean) {
            return new ServiceTime(Distribution.CONSTANT, mean, null, null, null);
        }

        public static ServiceTime exponential(double mean) {
            return new ServiceTime(Distribution.EXPONENTIAL, mean, null, null, null);
        }

        public static ServiceTime lognormal(double mean, double cv) {
            return new ServiceTime(Distribution.LOGNORMAL, mean, cv, null, null);
        }

        public static ServiceTime uniform(double min, double max) {
            return new ServiceTime(Distribution.UNIFORM, Double.NaN, null, min, max);
        }
    }

    /**
     * A downstream that slows down past {@code limit} concurrent calls: service time and latency
     * are multiplied by {@code 1 + slope × (inFlight − limit) / limit}.
     */
    public record Dependency(int limit, double slope, double baseLatencyMs) {
        public Dependency {
            if (limit < 1) {
                throw new IllegalArgumentException("limit must be >= 1, got " + limit);
            }
            if (!(slope >= 0) || Double.isInfinite(slope)) {
                throw new IllegalArgumentException("slope must be >= 0, got " + slope);
            }
            if (!(baseLatencyMs > 0) || Double.isInfinite(baseLatencyMs)) {
                throw new IllegalArgumentException("baseLatencyMs must be > 0, got " + baseLatencyMs);
            }
        }

        /** Slow-down factor with {@code inFlight} concurrent calls; 1 up to the limit. */
        public double factor(int inFlight) {
            return inFlight <= limit ? 1.0 : 1.0 + slope * (inFlight - limit) / limit;
        }
    }

    /** A poison message at the head of the ordered queue from {@code atSeconds} until dead-lettered at {@code clearAtSeconds} (never when null). */
    public record Poison(double atSeconds, Double clearAtSeconds) {
        public Poison {
            if (!(atSeconds >= 0) || Double.isInfinite(atSeconds)) {
                throw new IllegalArgumentException("atSeconds must be >= 0, got " + atSeconds);
            }
            if (clearAtSeconds != null && (!(clearAtSeconds > atSeconds) || clearAtSeconds.isInfinite())) {
                throw new IllegalArgumentException("clearAtSeconds must be after atSeconds (" + atSeconds
                        + "), got " + clearAtSeconds);
            }
        }
    }

    /** A half-open time window [from, to) in seconds. */
    public record Window(double fromSeconds, double toSeconds) {
        public Window {
            if (!(fromSeconds >= 0) || Double.isInfinite(fromSeconds)) {
                throw new IllegalArgumentException("from must be >= 0, got " + fromSeconds);
            }
            if (!(toSeconds > fromSeconds) || Double.isInfinite(toSeconds)) {
                throw new IllegalArgumentException("to must be after from (" + fromSeconds + "), got " + toSeconds);
            }
        }

        boolean contains(double t) {
            return t >= fromSeconds && t < toSeconds;
        }
    }

    /** Mutable builder with the sandbox's defaults (1 pod, concurrency 1, 30 s start-up, 1 s exponential service). */
    public static final class Builder {
        private final String name;
        private double baseRate;
        private final List<RateSegment> segments = new ArrayList<>();
        private Double repeatSeconds;
        private ServiceTime service = ServiceTime.exponential(1);
        private int concurrency = 1;
        private double startupSeconds = 30;
        private int initialReplicas = 1;
        private int initialBacklog;
        private Dependency dependency;
        private Poison poison;
        private final List<Window> outages = new ArrayList<>();
        private Double podMemoryMb;
        private WorkloadRef target;
        private final List<CostSegment> costSegments = new ArrayList<>();
        private final List<Double> podHangs = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        public Builder baseRate(double v) { baseRate = v; return this; }
        public Builder segment(double from, double to, double rate) { segments.add(RateSegment.constant(from, to, rate)); return this; }
        public Builder ramp(double from, double to, double rate, double rampTo) { segments.add(RateSegment.ramp(from, to, rate, rampTo)); return this; }
        public Builder segments(List<RateSegment> v) { segments.clear(); segments.addAll(v); return this; }
        public Builder repeatSeconds(Double v) { repeatSeconds = v; return this; }
        public Builder service(ServiceTime v) { service = v; return this; }
        public Builder concurrency(int v) { concurrency = v; return this; }
        public Builder startupSeconds(double v) { startupSeconds = v; return this; }
        public Builder initialReplicas(int v) { initialReplicas = v; return this; }
        public Builder initialBacklog(int v) { initialBacklog = v; return this; }
        public Builder dependency(Dependency v) { dependency = v; return this; }
        public Builder poison(Poison v) { poison = v; return this; }
        public Builder outage(double from, double to) { outages.add(new Window(from, to)); return this; }
        public Builder outages(List<Window> v) { outages.clear(); outages.addAll(v); return this; }
        public Builder podMemoryMb(Double v) { podMemoryMb = v; return this; }
        public Builder target(WorkloadRef v) { target = v; return this; }
        public Builder cost(double from, double to, double factor) { costSegments.add(new CostSegment(from, to, factor)); return this; }
        public Builder costSegments(List<CostSegment> v) { costSegments.clear(); costSegments.addAll(v); return this; }
        /** At {@code atSeconds} the oldest healthy ready pod hangs: alive and ready, it completes nothing again. */
        public Builder podHang(double atSeconds) { podHangs.add(atSeconds); return this; }
        public Builder podHangs(List<Double> v) { podHangs.clear(); podHangs.addAll(v); return this; }

        public SandboxClassSpec build() {
            return new SandboxClassSpec(name, baseRate, segments, repeatSeconds, service, concurrency,
                    startupSeconds, initialReplicas, initialBacklog, dependency, poison, outages,
                    podMemoryMb, target, costSegments, podHangs);
        }
    }
}
