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
 * next. A pool whose new pods stay unschedulable past a deadline, or whose broker reports failed acquisitions
 * continuously past it, is unavailable (it keeps the pods it runs, or none when its broker fails them, plus
 * one probe pod) and gets its share back, in one move bounded by its ready pods and one scale-up step, once
 * its capacity has shown itself back and stayed so for the hysteresis; meanwhile its share does not move. A
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
     * the latest time one of its pods was placed on a node (PodScheduled=True; null: unknown), and its
     * broker's failed acquisitions per second ({@code failedAcquisitions}: null when the pool has no such
     * query; a missing signal when it could not be read, which is evidence of nothing).
     */
    public record PoolObservation(String pool, int specReplicas, int readyReplicas, int unschedulablePods,
                                  Instant unschedulableSince, Instant lastScheduledAt, Signal failedAcquisitions) {
        public PoolObservation {
            if (unschedulablePods > 0) {
                Objects.requireNonNull(unschedulableSince, "unschedulableSince");
            }
        }

        /** A pool without a broker figure. */
        public PoolObservation(String pool, int specReplicas, int readyReplicas, int unschedulablePods,
                               Instant unschedulableSince, Instant lastScheduledAt) {
            this(pool, specReplicas, readyReplicas, unschedulablePods, unschedulableSince, lastScheduledAt, null);
        }

        /** A pool whose last scheduling is not known. */
        public PoolObservation(String pool, int specReplicas, int readyReplicas, int unschedulablePods,
                               Instant unschedulableSince) {
            this(pool, specReplicas, readyReplicas, unschedulablePods, unschedulableSince, null);
        }

        /** The same pool with its broker's failed acquisitions per second (null: no such query). */
        public PoolObservation withFailedAcquisitions(Signal figure) {
            return new PoolObservation(pool, specReplicas, readyReplicas, unschedulablePods, unschedulableSince,
                    lastScheduledAt, figure);
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

    /** What made a pool unavailable: the scheduler (pods Unschedulable) or its broker (failed acquisitions). */
    enum Cause { UNSCHEDULABLE, BROKER }

    /**
     * What placement remembers about an unavailable pool between calls: since when and why, since when its
     * capacity has shown itself back (null: not counting), and the replicas it was given last (its share does
     * not move while it recovers).
     */
    record PoolMemory(Instant unavailableSince, String why, Instant clearSince, Cause cause, int kept) {
    }

    /**
     * What placement remembers between calls: the pools that are unavailable, and since when each pool's broker
     * has reported failed acquisitions without a break (a figure of 0 ends it; a missing figure neither starts
     * nor ends it).
     */
    public record Memory(Map<String, PoolMemory> pools, Map<String, Instant> failingSince) {
        public static final Memory EMPTY = new Memory(Map.of(), Map.of());

        public Memory {
            pools = Collections.unmodifiableMap(new LinkedHashMap<>(pools));
            failingSince = Collections.unmodifiableMap(new LinkedHashMap<>(failingSince));
        }

        /** When the pool became unavailable, or null while it is available. */
        public Instant unavailableSince(String pool) {
            PoolMemory m = pools.get(pool);
            return m == null ? null : m.unavailableSince();
        }

        /** Since when the pool's broker has reported failed acquisitions, or null. */
        public Instant failingSince(String pool) {
            return failingSince.get(pool);
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
     * A pool whose capacity is back takes back at most its ready pods and one step of the HPA's default
     * scale-up behaviour.
     */
    public static Result place(List<PoolSpec> pools, int replicas, Map<String, PoolObservation> observed,
                               Memory previous, Instant now, Timing timing) {
        return place(pools, replicas, observed, previous, now, timing, ScalingBehavior.defaultUp());
    }

    /**
     * {@link #place(List, int, Map, Memory, Instant, Timing)} for a class scaling up by {@code up}: a pool whose
     * capacity has been back for the hysteresis takes back, in one move, at most its ready pods and one step
     * of {@code up} (what the class's scale-up would allow a workload of that many ready pods).
     */
    public static Result place(List<PoolSpec> pools, int replicas, Map<String, PoolObservation> observed,
                               Memory previous, Instant now, Timing timing, ScalingBehavior up) {
        if (pools.isEmpty()) {
            throw new IllegalArgumentException("placement needs at least one pool");
        }
        Objects.requireNonNull(up, "up");
        Map<String, Integer> held = new LinkedHashMap<>();
        Result r = split(pools, replicas, observed, previous, now, timing, up, Map.of(), held);
        if (r.unplaced() == 0 || held.isEmpty()) {
            return r;
        }
        // Work no other pool can take is not held back from a recovering pool: it takes up to the pods it has
        // placed, as before the hold (no move between pools, so nothing to keep still).
        Map<String, Integer> extra = new LinkedHashMap<>();
        int left = r.unplaced();
        for (Map.Entry<String, Integer> h : held.entrySet()) {
            int more = Math.min(left, h.getValue());
            if (more > 0) {
                extra.put(h.getKey(), more);
                left -= more;
            }
        }
        return extra.isEmpty() ? r : split(pools, replicas, observed, previous, now, timing, up, extra, new LinkedHashMap<>());
    }

    /**
     * One split. {@code extra}: replicas a recovering pool takes beyond its held share (work no other pool can
     * take); {@code held} receives, per recovering pool held below the pods it has placed, by how much.
     */
    private static Result split(List<PoolSpec> pools, int replicas, Map<String, PoolObservation> observed,
                                Memory previous, Instant now, Timing timing, ScalingBehavior up,
                                Map<String, Integer> extra, Map<String, Integer> held) {
        Map<String, PoolMemory> memory = new LinkedHashMap<>();
        Map<String, Instant> failing = new LinkedHashMap<>();
        Map<String, Integer> given = new LinkedHashMap<>();
        List<PoolShare> shares = new ArrayList<>();
        int remaining = Math.max(0, replicas);
        for (int i = 0; i < pools.size(); i++) {
            PoolSpec p = pools.get(i);
            PoolObservation o = observed.get(p.name());
            List<PlacementReason> reasons = new ArrayList<>();
            Signal figure = o == null ? null : o.failedAcquisitions();
            Instant failSince = failing(p.name(), figure, previous, now, failing, reasons);
            PoolMemory before = previous.pools().get(p.name());
            PoolMemory m = availability(o, before, figure, failSince, now, timing, reasons);
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
                boolean recovering = m.clearSince() != null && m.kept() >= 0;
                int keep;
                PlacementReason keepWords;
                if (recovering) {
                    // Its share does not move while it recovers: the work comes back in one move after the hold.
                    // Nor is it shrunk: a move never applied (a proposal not approved) leaves it running more than
                    // it was given, all of which stays (less the one pod that is its probe).
                    int more = extra.getOrDefault(p.name(), 0);
                    int runs = o == null ? 0 : o.scheduled();
                    keep = Math.max(m.kept(), runs - 1) + more;
                    keepWords = new PlacementReason(Code.RECOVERING, more > 0
                            ? "takes " + more + " more no other pool can, on the pods it has placed"
                            : "keeps its share of " + keep + " until then; the rest comes back in one move");
                    int placedPods = Math.min(o == null ? 0 : o.scheduled(), bound);
                    if (placedPods > keep && give > keep) {
                        held.put(p.name(), Math.min(placedPods, give) - keep);
                    }
                } else if (m.cause() == Cause.BROKER) {
                    keep = 0;
                    keepWords = new PlacementReason(Code.UNAVAILABLE, "its pods run but cannot acquire: its whole"
                            + " share moves on");
                } else {
                    keep = o == null ? 0 : o.scheduled();
                    keepWords = new PlacementReason(Code.UNAVAILABLE, "keeps the " + keep + " pods it runs");
                }
                if (keep < give) {
                    give = keep;
                    spec = give;
                    reasons.add(keepWords);
                } else if (recovering && extra.getOrDefault(p.name(), 0) > 0) {
                    reasons.add(keepWords);
                }
                if (give < bound) {
                    spec = give + 1;
                    reasons.add(new PlacementReason(Code.PROBE, recovering
                            ? "its probe pod stays while it recovers"
                            : m.cause() == Cause.BROKER ? "one pod stays, to learn when its broker succeeds again"
                            : "one pod more, to learn when its capacity is back"));
                }
                m = new PoolMemory(m.unavailableSince(), m.why(), m.clearSince(), m.cause(), give);
                memory.put(p.name(), m);
            } else if (before != null) {
                // Capacity back this tick: one move, of what it can take now.
                int ready = o == null ? 0 : o.readyReplicas();
                int step = Math.max(ready + 1, Behaviour.scaleUpLimit(up, ready, List.of(), now));
                if (step < give) {
                    give = step;
                    spec = give;
                    reasons.add(new PlacementReason(Code.CAPACITY_BACK, "takes back " + give + " in one move: its "
                            + ready + " ready " + (ready == 1 ? "pod" : "pods") + " and one scale-up step"));
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
        return new Result(Math.max(0, replicas), shares, remaining, new Memory(memory, failing));
    }

    private static boolean allAvailable(List<PoolShare> shares) {
        return shares.stream().allMatch(PoolShare::available);
    }

    /**
     * Since when the pool's broker has reported failed acquisitions without a break (recorded in {@code out}),
     * or null when it does not now (no query, a figure of 0, or no figure: the last is said in words, and keeps
     * the time it had, neither evidence of failures nor of their end).
     */
    private static Instant failing(String pool, Signal figure, Memory previous, Instant now, Map<String, Instant> out,
                                   List<PlacementReason> reasons) {
        if (figure == null) {
            return null;
        }
        Instant before = previous.failingSince(pool);
        // A rate below 0 is malformed (a deriv(), a counter read as a gauge), not "no failures": no figure either.
        String missing = !figure.present() ? figure.missingReason()
                : figure.value() < 0 ? Figures.fmt(figure.value()) + "/s, below 0: not a rate" : null;
        if (missing != null) {
            if (before != null) {
                out.put(pool, before);
            }
            reasons.add(new PlacementReason(Code.NO_BROKER_FIGURE, "no broker figure (" + missing
                    + "): not evidence either way, the pods alone decide"));
            return null;
        }
        if (figure.value() > 0) {
            Instant since = before == null ? now : before;
            out.put(pool, since);
            return since;
        }
        return null;
    }

    /**
     * The pool's availability now: null when available, else what to remember (its {@code kept} that of
     * {@code before}, -1 when it becomes unavailable now). Adds the reasons that say so.
     */
    private static PoolMemory availability(PoolObservation o, PoolMemory before, Signal figure, Instant failSince,
                                           Instant now, Timing timing, List<PlacementReason> reasons) {
        boolean stuck = o != null && o.unschedulablePods() > 0;
        boolean failingNow = failSince != null;
        if (before == null) {
            if (stuck) {
                Duration pending = Duration.between(o.unschedulableSince(), now);
                if (pending.compareTo(timing.unschedulableDeadline()) >= 0) {
                    String why = o.unschedulablePods() + (o.unschedulablePods() == 1 ? " pod" : " pods")
                            + " unschedulable for " + pending.toSeconds() + " s (deadline "
                            + timing.unschedulableDeadline().toSeconds() + " s)";
                    reasons.add(new PlacementReason(Code.UNAVAILABLE, "unavailable: " + why));
                    return new PoolMemory(now, why, null, Cause.UNSCHEDULABLE, -1);
                }
            }
            if (failingNow) {
                Duration failed = Duration.between(failSince, now);
                if (failed.compareTo(timing.unschedulableDeadline()) >= 0) {
                    String why = Figures.fmt(figure.value()) + " failed acquisitions/s for " + failed.toSeconds()
                            + " s (deadline " + timing.unschedulableDeadline().toSeconds() + " s)";
                    reasons.add(new PlacementReason(Code.UNAVAILABLE, "unavailable: broker reports " + why));
                    return new PoolMemory(now, why, null, Cause.BROKER, -1);
                }
            }
            return null;
        }
        String became = unavailableFor(before, now) + ": it became so " + (before.cause() == Cause.BROKER
                ? "when its broker reported " : "with ") + before.why();
        if (stuck || failingNow) {
            String still = stuck ? "" : "; its broker reports " + Figures.fmt(figure.value())
                    + " failed acquisitions/s now";
            reasons.add(new PlacementReason(Code.UNAVAILABLE, became + still));
            return new PoolMemory(before.unavailableSince(), before.why(), null, before.cause(), before.kept());
        }
        boolean brokerSays = before.cause() == Cause.BROKER && figure != null && figure.present();
        boolean evidence = brokerSays
                || o != null && o.lastScheduledAt() != null && o.lastScheduledAt().isAfter(before.unavailableSince());
        String quietWhat = before.cause() == Cause.BROKER ? "no failed acquisitions and nothing unschedulable"
                : "nothing unschedulable";
        if (before.clearSince() == null && !evidence) {
            // Nothing pends, and no pod of it has been placed since (nor has its broker said it succeeds):
            // no evidence its capacity is back.
            reasons.add(new PlacementReason(Code.UNAVAILABLE, became + (before.cause() == Cause.BROKER
                    ? "; no broker figure since, and no pod of it placed on a node since"
                    : "; no pod of it placed on a node since")));
            return new PoolMemory(before.unavailableSince(), before.why(), null, before.cause(), before.kept());
        }
        Instant clear = before.clearSince() == null ? now : before.clearSince();
        Duration quiet = Duration.between(clear, now);
        if (quiet.compareTo(timing.recovery()) >= 0) {
            reasons.add(new PlacementReason(Code.CAPACITY_BACK, "capacity back: " + quietWhat + " for "
                    + quiet.toSeconds() + " s"));
            return null;
        }
        reasons.add(new PlacementReason(Code.RECOVERING, "unavailable (" + (before.cause() == Cause.BROKER
                ? "its broker reported " : "") + before.why() + "); " + quietWhat
                + " for " + quiet.toSeconds() + " s of the " + timing.recovery().toSeconds() + " s it must stay so"));
        return new PoolMemory(before.unavailableSince(), before.why(), clear, before.cause(), before.kept());
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
