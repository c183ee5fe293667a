package io.headroom.sandbox;

import io.headroom.decision.AdmissionVerdict;
import java.time.Instant;

/**
 * The producers of one sandbox class and what they obey before they submit a job (design.md §2b, ADR 0027).
 * FREE (the default): every job is submitted, as before admission existed. OBEY: the class's admission as
 * published: OPEN submits, THROTTLE submits through a token bucket at the advertised rate (a second's worth
 * of burst), CLOSED submits nothing; after the entry's {@code expiresAt} the producers fail open (their
 * documented default). LIMIT: a fixed concurrency limit, the baseline admission is measured against: a job
 * is refused while the jobs in flight plus waiting are {@code limit} or more. A refused job is counted and
 * retried after {@code retrySeconds} (and refused again, and retried, until it is let in): no work is lost
 * silently. The jobs let in are the queue's, and their age is what the objective judges. Guarded by the
 * world's lock: the world calls it from its events, and the setters take the lock themselves.
 */
public final class ProducerGate {

    /** What the producers obey. */
    public enum Mode { FREE, OBEY, LIMIT }

    /**
     * The producers' side at one moment.
     *
     * @param rate         jobs/s while THROTTLE; NaN otherwise
     * @param jobsRejected jobs refused at least once (each counted once)
     * @param rejections   refusals, retries included
     * @param held         jobs refused and waiting to retry now
     */
    public record View(Mode mode, AdmissionVerdict.State state, double rate, long admitted, long jobsRejected,
                       long rejections, int held) {
    }

    /** The retry delay when none is given: a producer's back-off after a refusal. */
    public static final double DEFAULT_RETRY_SECONDS = 30;

    private final SandboxWorld world;
    private Mode mode = Mode.FREE;
    private double retrySeconds = DEFAULT_RETRY_SECONDS;
    private int limit = Integer.MAX_VALUE;
    private AdmissionVerdict.State state = AdmissionVerdict.State.OPEN;
    private double rate = Double.NaN;
    private double tokens;
    private double refilledAt;
    private double expiresAt = Double.POSITIVE_INFINITY;
    private long admitted;
    private long jobsRejected;
    private long rejections;
    private int held;

    ProducerGate(SandboxWorld world) {
        this.world = world;
    }

    /** The producers obey the class's admission from now on, retrying a refused job after {@code retrySeconds}. */
    public void obey(double retrySeconds) {
        synchronized (world) {
            mode = Mode.OBEY;
            this.retrySeconds = checked(retrySeconds);
        }
    }

    /** The producers refuse a job while {@code n} or more are in flight or waiting (the fixed-limit baseline). */
    public void limit(int n, double retrySeconds) {
        if (n < 1) {
            throw new IllegalArgumentException("a concurrency limit must be >= 1, got " + n);
        }
        synchronized (world) {
            mode = Mode.LIMIT;
            limit = n;
            this.retrySeconds = checked(retrySeconds);
        }
    }

    /**
     * The admission the producers read now: OPEN, THROTTLE at {@code rate} jobs/s, or CLOSED, valid until
     * {@code expiresAt} (null: until replaced). Ignored by FREE and LIMIT producers, kept for when they obey.
     */
    public void admission(AdmissionVerdict.State newState, double newRate, Instant expiresAt) {
        synchronized (world) {
            double now = world.elapsedSeconds();
            refill(now);
            if (newState == AdmissionVerdict.State.THROTTLE && !(newRate > 0)) {
                throw new IllegalArgumentException("a throttle needs a positive rate, got " + newRate);
            }
            if (newState == AdmissionVerdict.State.THROTTLE && state != AdmissionVerdict.State.THROTTLE) {
                tokens = burst(newRate);
            }
            state = newState;
            rate = newState == AdmissionVerdict.State.THROTTLE ? newRate : Double.NaN;
            tokens = Math.min(tokens, burst(rate));
            this.expiresAt = expiresAt == null ? Double.POSITIVE_INFINITY : world.toSeconds(expiresAt);
        }
    }

    public View view() {
        synchronized (world) {
            boolean expired = world.elapsedSeconds() >= expiresAt;
            AdmissionVerdict.State s = expired ? AdmissionVerdict.State.OPEN : state;
            return new View(mode, s, s == AdmissionVerdict.State.THROTTLE ? rate : Double.NaN, admitted,
                    jobsRejected, rejections, held);
        }
    }

    double retrySeconds() {
        return retrySeconds;
    }

    /** A job offered at {@code now} (fresh, or a retry) with {@code inSystem} jobs in flight or waiting: let in? */
    boolean admit(double now, boolean fresh, int inSystem) {
        if (!fresh) {
            held--;
        }
        boolean in = switch (mode) {
            case FREE -> true;
            case LIMIT -> inSystem < limit;
            case OBEY -> obeys(now);
        };
        if (in) {
            admitted++;
            return true;
        }
        rejections++;
        if (fresh) {
            jobsRejected++;
        }
        held++;
        return false;
    }

    private boolean obeys(double now) {
        if (now >= expiresAt) {
            return true; // the entry expired: the producers' default, fail-open
        }
        return switch (state) {
            case OPEN -> true;
            case CLOSED -> false;
            case THROTTLE -> {
                refill(now);
                if (tokens >= 1) {
                    tokens -= 1;
                    yield true;
                }
                yield false;
            }
        };
    }

    private void refill(double now) {
        if (state == AdmissionVerdict.State.THROTTLE && now > refilledAt) {
            tokens = Math.min(burst(rate), tokens + (now - refilledAt) * rate);
        }
        refilledAt = Math.max(refilledAt, now);
    }

    private static double burst(double rate) {
        return Double.isFinite(rate) ? Math.max(1, rate) : 0;
    }

    private static double checked(double retrySeconds) {
        if (!(retrySeconds > 0) || Double.isInfinite(retrySeconds)) {
            throw new IllegalArgumentException("a retry delay must be > 0 s, got " + retrySeconds);
        }
        return retrySeconds;
    }
}
