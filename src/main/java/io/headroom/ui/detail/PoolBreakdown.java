package io.headroom.ui.detail;

import io.headroom.decision.Placement;
import io.headroom.decision.PlacementReason;
import io.headroom.decision.PlacementReason.Code;
import io.headroom.loop.ClassSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-pool breakdown of a placed class (decision 0029) as the detail shows it: one row per pool in
 * preference order with its share, what its Deployment runs, whether it is available and why not, its bounds,
 * its cost weight and why it got what it got; and the replicas waiting for a pool. Pure: from the snapshot's
 * {@link ClassSnapshot#placement()} and what each pool was seen running ({@link ClassSnapshot#pools()}), and, where
 * the console knows them, the pools' specs ({@link Facts}, whose observations, when given, take precedence).
 */
public final class PoolBreakdown {

    private PoolBreakdown() {
    }

    /**
     * What the console knows of a class's pools beside the placement: their specs (bounds, cost weight) and
     * each pool's observed replicas and unschedulable pods. Either may be empty when not known.
     */
    public record Facts(List<Placement.PoolSpec> specs, Map<String, Placement.PoolObservation> observed) {
        public static final Facts NONE = new Facts(List.of(), Map.of());

        public Facts {
            specs = specs == null ? List.of() : List.copyOf(specs);
            observed = observed == null ? Map.of() : Map.copyOf(observed);
        }

        Placement.PoolSpec spec(String pool) {
            return specs.stream().filter(s -> s.name().equals(pool)).findFirst().orElse(null);
        }
    }

    /**
     * One pool's row.
     *
     * @param share     the replicas placement gave it, e.g. "12 repl." or "3 repl. +1 probe"
     * @param specReady its Deployment's spec / ready replicas as seen, "—" when not known
     * @param bound     its bound, e.g. "max 20", "ceiling 8 (max 20)", "depends on runtime"
     * @param cost      its cost weight, e.g. "×1", "×3"; "—" when not known
     * @param state     "available", or why not in words ("unavailable: 3 pods unschedulable for 75 s …")
     * @param why       why it got what it got, in words
     */
    public record PoolRow(String pool, int replicas, String share, String specReady, String bound, String cost,
                          boolean available, String state, String why) {
    }

    /**
     * Replicas the class needs that no available pool takes.
     *
     * @param unplaced the replicas that fit no pool
     * @param pending  pods Pending (unschedulable) in the pools that are unavailable
     */
    public record Waiting(int unplaced, int pending, String words) {
        public static final Waiting NONE = new Waiting(0, 0, "");

        public int total() {
            return unplaced + pending;
        }
    }

    /** The rows, in preference order; empty for a class with one pool (no placement). */
    public static List<PoolRow> rows(ClassSnapshot s, Facts facts) {
        if (s == null || s.placement() == null) {
            return List.of();
        }
        Facts f = facts == null ? Facts.NONE : facts;
        List<PoolRow> rows = new ArrayList<>();
        for (Placement.PoolShare share : s.placement().shares()) {
            Placement.PoolSpec spec = f.spec(share.pool());
            Placement.PoolObservation seen = seen(s, f, share.pool());
            int probe = share.specReplicas() - share.replicas();
            String shareText = share.replicas() + " repl." + (probe > 0 ? " +" + probe + " probe" : "");
            String specReady = seen == null ? "—" : seen.specReplicas() + " / " + seen.readyReplicas();
            String bound = spec == null ? "—" : bound(spec);
            String cost = spec == null ? "—" : "×" + io.headroom.decision.Figures.fmt(spec.costWeight());
            String state = "available";
            List<String> why = new ArrayList<>();
            for (PlacementReason r : share.reasons()) {
                boolean saysState = !share.available() && state.equals("available")
                        && (r.code() == Code.UNAVAILABLE || r.code() == Code.RECOVERING);
                if (saysState) {
                    state = times(r.words());
                    if (!state.startsWith("unavailable")) {
                        state = "unavailable: " + state;
                    }
                } else {
                    why.add(times(r.words()));
                }
            }
            if (!share.available() && state.equals("available")) {
                state = "unavailable";
            }
            if (seen != null && seen.unschedulablePods() > 0) {
                String now = seen.unschedulablePods() + (seen.unschedulablePods() == 1 ? " pod" : " pods")
                        + " unschedulable for " + Math.max(0, java.time.Duration.between(seen.unschedulableSince(),
                        s.at()).toSeconds()) + " s";
                if (!state.contains(now)) {
                    state += " · now " + now; // the words say how it was when it became unavailable
                }
            }
            String broker = broker(seen, s.placement().memory().failingSince(share.pool()), s.at());
            if (!broker.isEmpty() && !state.contains("broker")) { // an unavailable pool's words may say it already
                state += " · " + broker;
            }
            rows.add(new PoolRow(share.pool(), share.replicas(), shareText, specReady, bound, cost,
                    share.available(), state, why.isEmpty() ? "nothing to place" : String.join("; ", why)));
        }
        return rows;
    }

    /** What waits for a pool: the replicas no pool fits and the pods pending in unavailable pools. */
    public static Waiting waiting(ClassSnapshot s, Facts facts) {
        if (s == null || s.placement() == null) {
            return Waiting.NONE;
        }
        Facts f = facts == null ? Facts.NONE : facts;
        int unplaced = s.placement().unplaced();
        int pending = 0;
        List<String> where = new ArrayList<>();
        for (Placement.PoolShare share : s.placement().shares()) {
            Placement.PoolObservation seen = seen(s, f, share.pool());
            if (!share.available() && seen != null && seen.unschedulablePods() > 0) {
                int n = seen.unschedulablePods();
                pending += n;
                where.add(n + (n == 1 ? " pod" : " pods") + " pending in " + share.pool() + " with no node for "
                        + (n == 1 ? "it" : "them") + " (unavailable)");
            }
        }
        if (f.observed().isEmpty() && s.pools().isEmpty() && s.workload() != null && !unavailable(s).isEmpty()) {
            // A snapshot without each pool's observation: the pools' pods together (the class's workload) hold
            // the scheduler's word on each pod, not which pool it belongs to.
            int stuck = (int) s.workload().pods().stream().filter(p -> !p.terminating() && p.unschedulable()).count();
            if (stuck > 0) {
                pending = stuck;
                where.add(stuck + (stuck == 1 ? " pod" : " pods") + " pending with no node for "
                        + (stuck == 1 ? "it" : "them") + " (Unschedulable)");
            }
        }
        if (unplaced + pending == 0) {
            return Waiting.NONE;
        }
        List<String> parts = new ArrayList<>();
        if (unplaced > 0) {
            parts.add(unplaced + (unplaced == 1 ? " replica fits" : " replicas fit") + " no available pool");
        }
        parts.addAll(where);
        int total = unplaced + pending;
        return new Waiting(unplaced, pending, total + (total == 1 ? " replica" : " replicas")
                + " waiting for a pool: " + String.join("; ", parts));
    }

    /**
     * The broker's figure as the pool's state line says it: "broker: 0 failed acquisitions/s", or with how long
     * failures have been seen; empty without a broker query or a figure (the reasons say "no broker figure" once).
     */
    private static String broker(Placement.PoolObservation seen, java.time.Instant failingSince, java.time.Instant at) {
        io.headroom.decision.Signal figure = seen == null ? null : seen.failedAcquisitions();
        if (figure == null || !figure.present() || figure.value() < 0) {
            return "";
        }
        String words = "broker: " + io.headroom.decision.Figures.fmt(figure.value()) + " failed acquisitions/s";
        if (figure.value() > 0 && failingSince != null) {
            long s = Math.max(0, java.time.Duration.between(failingSince, at).toSeconds());
            words += s == 0 ? ", first seen this tick" : " for " + s + " s";
        }
        return words;
    }

    /** What a pool was seen running: the console's facts when they say, else the live loop's snapshot. */
    private static Placement.PoolObservation seen(ClassSnapshot s, Facts f, String pool) {
        Placement.PoolObservation o = f.observed().get(pool);
        return o != null ? o : s.pools().get(pool);
    }

    /** The names of the unavailable pools, in preference order (empty: none, or one pool). */
    public static List<String> unavailable(ClassSnapshot s) {
        if (s == null || s.placement() == null) {
            return List.of();
        }
        return s.placement().shares().stream().filter(p -> !p.available()).map(Placement.PoolShare::pool).toList();
    }

    private static String bound(Placement.PoolSpec p) {
        String b = p.ceiling() != null && p.ceiling() < p.maxReplicas()
                ? "ceiling " + p.ceiling() + " (max " + p.maxReplicas() + ")" : "max " + p.maxReplicas();
        return p.dependsOn() == null ? b : b + ", ≤ " + p.dependsOn();
    }

    private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z");

    /** The decision's words with its instants as the operator's time of day ("since 10:04:12"). */
    public static String times(String words) {
        Matcher m = INSTANT.matcher(words);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(b, Matcher.quoteReplacement(io.headroom.ui.Format.time(java.time.Instant.parse(m.group()))));
        }
        m.appendTail(b);
        return b.toString();
    }
}
