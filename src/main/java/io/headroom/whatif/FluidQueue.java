package io.headroom.whatif;

/**
 * A queue as a fluid: jobs arrive at a piecewise-constant rate, wait in FIFO order and are served
 * by {@code slots} slots that each finish work at {@code 1 / service} per second. Between changes
 * (a bucket boundary, a pod becoming ready, a scale) the state follows the fluid equations exactly,
 * in closed form, so advancing over any span costs O(1) however many jobs arrive in it: a day at tens
 * of jobs a second is a few hundred thousand pieces of arithmetic, not millions of events.
 *
 * <p>The oldest waiting job's age comes from the cumulative curves: the jobs that left the queue so
 * far ({@code dispatched}) are the first ones to arrive, so the head of the queue arrived when the
 * arrival curve reached that count. Not thread-safe; one replay run owns one queue.
 */
final class FluidQueue {

    private static final double EPS = 1e-9;

    /** Arrival rate of bucket {@code i}, over [i × width, min((i + 1) × width, end)). */
    private final double[] rate;
    /** Jobs arrived before bucket {@code i} starts (without the initial backlog); length buckets + 1. */
    private final double[] cumulative;
    private final double width;
    private final double end;
    private final double initialBacklog;
    private final double service;

    private double now;
    private double backlog;
    private double busy;
    private double dispatched;
    private double completed;
    private int slots;

    /**
     * @param rate           jobs/s per bucket, from time 0, each {@code width} seconds long (the last cut at {@code end});
     *                       kept, not copied (a day is 86,400 of them): the caller must not change it afterwards
     * @param initialBacklog jobs waiting at time 0 (they count as arrived at 0)
     * @param service        mean service time of a job, seconds
     * @param slots          slots serving at time 0
     */
    FluidQueue(double[] rate, double width, double end, double initialBacklog, double service, int slots) {
        if (!(width > 0) || !(service > 0) || !(end >= 0) || initialBacklog < 0 || slots < 0) {
            throw new IllegalArgumentException("bad fluid queue: width " + width + ", service " + service);
        }
        this.rate = rate;
        this.width = width;
        this.end = end;
        this.initialBacklog = initialBacklog;
        this.service = service;
        this.cumulative = new double[rate.length + 1];
        for (int i = 0; i < rate.length; i++) {
            double len = Math.max(0, Math.min(end, (i + 1) * width) - i * width);
            cumulative[i + 1] = cumulative[i] + rate[i] * len;
        }
        this.backlog = initialBacklog;
        this.slots = slots;
        fill();
    }

    double now() {
        return now;
    }

    /** Jobs waiting (not yet taken by a slot). */
    double backlog() {
        return backlog;
    }

    /** Jobs being served. */
    double busy() {
        return busy;
    }

    /** Jobs finished since time 0. */
    double completed() {
        return completed;
    }

    /** Jobs arrived in [0, t) (without the initial backlog). */
    double arrivals(double t) {
        if (!(t > 0)) {
            return 0;
        }
        if (t >= end) {
            return cumulative[rate.length];
        }
        int i = Math.min(rate.length - 1, (int) (t / width));
        return cumulative[i] + rate[i] * (t - i * width);
    }

    /** Age of the oldest waiting job at {@link #now()}; 0 when none waits. */
    double oldestAge() {
        if (backlog <= EPS) {
            return 0;
        }
        if (dispatched < initialBacklog) {
            return now; // the initial backlog arrived at 0
        }
        return Math.max(0, now - arrivalTimeOf(dispatched - initialBacklog));
    }

    /** When the arrival curve reached {@code count} jobs (the job at that position arrived). */
    private double arrivalTimeOf(double count) {
        // The first bucket whose end count is past count: a binary search over the cumulative curve.
        int lo = 0;
        int hi = rate.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid + 1] > count) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if (rate.length == 0 || !(rate[lo] > 0)) {
            return now;
        }
        return lo * width + (count - cumulative[lo]) / rate[lo];
    }

    /** Slots that serve from now on (ready, not terminating pods × slots per pod). */
    void setSlots(int slots) {
        this.slots = Math.max(0, slots);
        fill();
    }

    /** Advances to {@code t}, bucket by bucket; an earlier {@code t} is a no-op. */
    void advanceTo(double t) {
        while (now < t) {
            int i = (int) (now / width);
            double boundary = (i + 1) * width;
            double lambda = i < rate.length && now < end ? rate[i] : 0;
            if (now >= end) {
                boundary = Double.POSITIVE_INFINITY;
            } else {
                boundary = Math.min(boundary, end);
            }
            double to = Math.min(t, boundary);
            if (!(to > now)) {
                to = Math.nextUp(now); // rounding at a boundary: always make progress
            }
            step(to - now, lambda);
            now = to;
        }
    }

    /** Waiting jobs move into free slots at once. */
    private void fill() {
        if (backlog > 0 && busy < slots) {
            double d = Math.min(backlog, slots - busy);
            backlog -= d;
            busy += d;
            dispatched += d;
            if (backlog < EPS) {
                backlog = 0;
            }
        }
    }

    /** {@code span} seconds at arrival rate {@code lambda} and constant slots, in closed form. */
    private void step(double span, double lambda) {
        double left = span;
        double capacity = slots / service; // jobs/s the slots finish when all are busy
        for (int guard = 0; left > 0 && guard < 16; guard++) {
            fill();
            if (busy > slots + EPS) {
                // More work in flight than slots (pods going away finish theirs): no new work starts until it has drained to the slots.
                double toSlots = slots > 0 ? service * Math.log(busy / slots) : Double.POSITIVE_INFINITY;
                double dt = Math.min(left, toSlots);
                double x = dt == toSlots ? slots : busy * Math.exp(-dt / service);
                completed += busy - x;
                busy = x;
                backlog += lambda * dt;
                left -= dt;
                continue;
            }
            if (backlog > 0 || busy >= slots - EPS && lambda * service >= slots) {
                // Every slot busy: the backlog moves at arrivals minus capacity.
                busy = slots;
                double net = lambda - capacity;
                double dt = left;
                boolean drained = false;
                if (net < 0 && backlog > 0) {
                    double toEmpty = backlog / -net;
                    if (toEmpty <= left) {
                        dt = toEmpty;
                        drained = true;
                    }
                }
                backlog = drained ? 0 : Math.max(0, backlog + net * dt);
                completed += capacity * dt;
                dispatched += capacity * dt;
                left -= dt;
                continue;
            }
            // Nothing waits and there is room: busy relaxes towards λS (every arrival starts at once).
            double target = lambda * service;
            double dt = left;
            double x;
            if (target > slots) {
                double toSlots = service * Math.log((target - busy) / (target - slots));
                if (toSlots <= left) {
                    dt = toSlots;
                }
                x = dt == toSlots ? slots : target + (busy - target) * Math.exp(-dt / service);
            } else {
                x = target + (busy - target) * Math.exp(-dt / service);
            }
            completed += lambda * dt - (x - busy);
            dispatched += lambda * dt;
            busy = x;
            left -= dt;
        }
    }
}
