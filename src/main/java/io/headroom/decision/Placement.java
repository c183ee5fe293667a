package io.headroom.decision;

import io.headroom.decision.PlacementReason.Code;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Placement across a class's pools (design.md §2c, decision 0029), pure: the class's decided replicas split
 * over its pools in preference order, the preferred pool up to its bounds and availability, the rest to the
 * next. A pool whose new pods stay unschedulable past a deadline is unavailable (it keeps the pods it runs,
 * plus one probe pod) and gets its share back once a pod of it has been placed on a node since and nothing
 * has been unschedulable for the hysteresis. A
 * dependent pool is bounded by the replicas of the pool it depends on. What one call remembers for the next
 * is {@link Memory}: data in, data out, no clock.
 */
public final class Placement {

    private Placement() {
    }

    /**
     * One pool of a class: a Deployment consuming the class's queue.
     *
     * @param ceiling    a bound of the pool's own below maxReplicas (a quota, a node group's size), or null
     * @param costWeight what one replica of this pool costs relative to others (1 when not said)
     * @param dependsOn  the pool whose replicas bound this one's useful concurrency, or null
     */
    public record PoolSpec(String name, int maxReplicas, Integer ceiling, double costWeight, String dependsOn) {
        public PoolSpec {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("a pool needs a name");
            }
            if (maxReplicas < 0) {
                throw new IllegalArgumentException("maxReplicas must be >= 0, got " + maxReplicas);
            }
            if (ceiling != null && ceiling < 0) {
                throw new IllegalArgumentException("ceiling must be >= 0, got " + ceiling);
            }
            if (!(costWeight >= 0) || Double.isInfinite(costWeight)) {
                throw new IllegalArgumentException("costWeight must be >= 0, got " + costWeight);
            }
        }
    }

    /**
     * What a pool looks like now: its spec and ready replicas, its pods the scheduler could not place
     * (PodScheduled=False, reason Unschedulable) with the time the oldest of them has been so (null: none),
     * and the latest time one of its pods was placed on a node (PodScheduled=True; null: unknown).
     */
    public record PoolObservation(String pool, int specReplicas, int readyReplicas, int unschedulablePods,
                                  Instant unschedulableSince, Instant lastScheduledAt) {
        public PoolObservation {
            if (unschedulablePods > 0) {
                Objects.requireNonNull(unschedulableSince, "unschedulableSince");
            }
        }

        /** A pool whose last scheduling is not known. */
        public PoolObservation(String pool, int specReplicas, int readyReplicas, int unschedulablePods,
                               Instant unschedulableSince) {
            this(pool, specReplicas, readyReplicas, unschedulablePods, unschedulableSince, null);
        }

        /** The pods the scheduler placed (running or starting). */
        public int scheduled() {
            return Math.max(0, specReplicas - unschedulablePods);
        }
    }

    /**
     * @param unschedulableDeadline how long new pods may stay unschedulable before the pool is unavailable
     * @param recovery              how long nothing may be unschedulable before an unavailable pool is back
     */
    public record Timing(Duration unschedulableDeadline, Duration recovery) {
        public static final Timing DEFAULT = new Timing(Duration.ofSeconds(60), Duration.ofSeconds(180));

        public Timing {
            Objects.requireNonNull(unschedulableDeadline, "unschedulableDeadline");
            Objects.requireNonNull(recovery, "recovery");
        }
    }

    /**
     * What placement remembers about an unavailable pool between calls: since when and why, and since when
     * its capacity has shown itself back (a pod placed on a node, nothing unschedulable; null: not counting).
     */
    record PoolMemory(Instant unavailableSince, String why, Instant clearSince) {
    }

    /** What placement remembers between calls: the pools that are unavailable. */
    public record Memory(Map<String, PoolMemory> pools) {
        public static final Memory EMPTY = new Memory(Map.of());

        public Memory {
            pools = Collections.unmodifiableMap(new LinkedHashMap<>(pools));
        }

        /** When the pool became unavailable, or null while it is available. */
        public Instant unavailableSince(String pool) {
            PoolMemory m = pools.get(pool);
            return m == null ? null : m.unavailableSince();
        }
    }

    /**
     * One pool's share.
     *
     * @param replicas     the replicas counted toward the class's decided replicas
     * @param specReplicas what the pool's Deployment is asked for: {@code replicas}, plus one probe pod
     *                     while the pool is unavailable and the class needs more than it runs
     */
    public record PoolShare(String pool, int replicas, int specReplicas, boolean available,
                            List<PlacementReason> reasons) {
        public PoolShare {
            reasons = List.copyOf(reasons);
        }

        public boolean has(Code code) {
            return reasons.stream().anyMatch(r -> r.code() == code);
        }

        /** Why the pool got what it got, in words. */
        public String words() {
            StringBuilder b = new StringBuilder(pool).append(": ").append(replicas);
            if (specReplicas != replicas) {
                b.append(" (+").append(specReplicas - replicas).append(" probe)");
            }
            for (PlacementReason r : reasons) {
                b.append("; ").append(r.words());
            }
            return b.toString();
        }
    }

    /** The placement of one tick: a share per pool in preference order, what fits no pool, and the memory. */
    public record Result(int replicas, List<PoolShare> shares, int unplaced, Memory memory) {
        public Result {
            shares = List.copyOf(shares);
        }

        public PoolShare share(String pool) {
            for (PoolShare s : shares) {
                if (s.pool().equals(pool)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("no pool '" + pool + "'");
        }

        /** The replicas placed in some pool. */
        public int placed() {
            return replicas - unplaced;
        }

        /** Replicas weighted by their pool's cost weight. */
        public double cost(List<PoolSpec> pools) {
            double c = 0;
            for (PoolSpec p : pools) {
                c += share(p.name()).replicas() * p.costWeight();
            }
            return c;
        }

        /** The whole placement in one line of words. */
        public String explanation() {
            StringBuilder b = new StringBuilder();
            for (PoolShare s : shares) {
                b.append(b.length() == 0 ? "" : " | ").append(s.words());
            }
            if (unplaced > 0) {
                b.append(" | ").append(unplaced).append(unplaced == 1 ? " replica fits" : " replicas fit")
                        .append(" no pool");
            }
            return b.toString();
        }
    }

    /**
     * Splits {@code replicas} over {@code pools} (preference order). {@code observed} holds each pool's
     * state by name (a pool not in it has nothing unschedulable); {@code previous} is the last call's memory.
     */
    public static Result place(List<PoolSpec> pools, int replicas, Map<String, PoolObservation> observed,
                               Memory previous, Instant now, Timing timing) {
        if (pools.isEmpty()) {
            throw new IllegalArgumentException("placement needs at least one pool");
        }
        Map<String, PoolMemory> memory = new LinkedHashMap<>();
        Map<String, Integer> given = new LinkedHashMap<>();
        List<PoolShare> shares = new ArrayList<>();
        int remaining = Math.max(0, replicas);
        for (int i = 0; i < pools.size(); i++) {
            PoolSpec p = pools.get(i);
            PoolObservation o = observed.get(p.name());
            List<PlacementReason> reasons = new ArrayList<>();
            PoolMemory m = availability(p.name(), o, previous.pools().get(p.name()), now, timing, reasons);
            if (m != null) {
                memory.put(p.name(), m);
            }
            boolean available = m == null;
            int bound = p.maxReplicas();
            Code binding = Code.AT_MAX;
            String bindingWords = "maxReplicas " + p.maxReplicas() + " reached";
            if (p.ceiling() != null && p.ceiling() < bound) {
                bound = p.ceiling();
                binding = Code.AT_CEILING;
                bindingWords = "its ceiling of " + p.ceiling() + " reached";
            }
            if (p.dependsOn() != null) {
                Integer runtime = given.get(p.dependsOn());
                String whose = "given to";
                if (runtime == null) {
                    PoolObservation ro = observed.get(p.dependsOn());
                    runtime = ro == null ? 0 : ro.readyReplicas();
                    whose = "ready in";
                }
                if (runtime < bound) {
                    bound = runtime;
                    binding = Code.DEPENDENCY_BOUND;
                    bindingWords = "bounded by the " + runtime + " replicas " + whose + " '" + p.dependsOn()
                            + "', the pool it depends on";
                }
            }
            int give = Math.min(remaining, bound);
            int spec = give;
            if (!available) {
                int runs = o == null ? 0 : o.scheduled();
                if (runs < give) {
                    give = runs;
                    spec = give;
                    reasons.add(new PlacementReason(Code.UNAVAILABLE, "keeps the " + runs + " pods it runs"));
                }
                if (give < bound) {
                    spec = give + 1;
                    reasons.add(new PlacementReason(Code.PROBE,
                            "one pod more, to learn when its capacity is back"));
                }
            }
            if (give > 0 && available) {
                reasons.add(i == 0 || shares.stream().allMatch(s -> s.replicas() == 0) && allAvailable(shares)
                        ? new PlacementReason(Code.PREFERRED, "first choice, takes what the class needs")
                        : new PlacementReason(Code.OVERFLOW, "takes the " + give
                                + " the pools before it could not"));
            } else if (remaining == 0) {
                reasons.add(new PlacementReason(Code.NOT_NEEDED, "the pools before it take everything"));
            }
            if (give == bound && remaining > give) {
                reasons.add(new PlacementReason(binding, bindingWords + ": " + (remaining - give)
                        + " more go to the next pool"));
            }
            remaining -= give;
            given.put(p.name(), give);
            shares.add(new PoolShare(p.name(), give, spec, available, reasons));
        }
        return new Result(Math.max(0, replicas), shares, remaining, new Memory(memory));
    }

    private static boolean allAvailable(List<PoolShare> shares) {
        return shares.stream().allMatch(PoolShare::available);
    }

    /**
     * The pool's availability now: null when available, else what to remember. Adds the reasons that say so.
     */
    private static PoolMemory availability(String pool, PoolObservation o, PoolMemory before, Instant now,
                                           Timing timing, List<PlacementReason> reasons) {
        boolean stuck = o != null && o.unschedulablePods() > 0;
        if (before == null) {
            if (!stuck) {
                return null;
            }
            Duration pending = Duration.between(o.unschedulableSince(), now);
            if (pending.compareTo(timing.unschedulableDeadline()) < 0) {
                return null;
            }
            String why = o.unschedulablePods() + (o.unschedulablePods() == 1 ? " pod" : " pods")
                    + " unschedulable for " + pending.toSeconds() + " s (deadline "
                    + timing.unschedulableDeadline().toSeconds() + " s)";
            reasons.add(new PlacementReason(Code.UNAVAILABLE, "unavailable: " + why));
            return new PoolMemory(now, why, null);
        }
        if (stuck) {
            reasons.add(new PlacementReason(Code.UNAVAILABLE, unavailableFor(before, now) + ": it became so with "
                    + before.why()));
            return new PoolMemory(before.unavailableSince(), before.why(), null);
        }
        boolean placedSince = o != null && o.lastScheduledAt() != null
                && o.lastScheduledAt().isAfter(before.unavailableSince());
        if (before.clearSince() == null && !placedSince) {
            // Nothing pends, and no pod of it has been placed since: no evidence its capacity is back.
            reasons.add(new PlacementReason(Code.UNAVAILABLE, unavailableFor(before, now) + ": it became so with "
                    + before.why() + "; no pod of it placed on a node since"));
            return new PoolMemory(before.unavailableSince(), before.why(), null);
        }
        Instant clear = before.clearSince() == null ? now : before.clearSince();
        Duration quiet = Duration.between(clear, now);
        if (quiet.compareTo(timing.recovery()) >= 0) {
            reasons.add(new PlacementReason(Code.CAPACITY_BACK, "capacity back: nothing unschedulable for "
                    + quiet.toSeconds() + " s"));
            return null;
        }
        reasons.add(new PlacementReason(Code.RECOVERING, "unavailable (" + before.why() + "); nothing unschedulable"
                + " for " + quiet.toSeconds() + " s of the " + timing.recovery().toSeconds() + " s it must stay so"));
        return new PoolMemory(before.unavailableSince(), before.why(), clear);
    }

    /**
     * "unavailable for 75 s": how long, not the instant (the decision knows no zone to say a time of day in; the
     * console's time zone is the UI's).
     */
    private static String unavailableFor(PoolMemory m, Instant now) {
        long s = Math.max(0, Duration.between(m.unavailableSince(), now).toSeconds());
        return "unavailable for " + Figures.fmtDuration(s);
    }
}
