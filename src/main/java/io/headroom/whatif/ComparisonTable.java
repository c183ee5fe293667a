package io.headroom.whatif;

import io.headroom.baseline.Baselines;
import io.headroom.baseline.KedaLengthRule;
import io.headroom.decision.Policy;
import java.util.List;
import java.util.Locale;

/**
 * The what-if comparison as an operator reads it: one row per measure, the live policy beside the
 * edited one, the change, KEDA's rule as the third run, and the live policy with predictive floors. The What-if window and
 * {@code headroom whatif} print these same rows, so the two cannot disagree on the same history.
 */
public final class ComparisonTable {

    /** The seed both the window and the command line replay with: the same history gives the same runs. */
    public static final long SEED = 1;
    /** KEDA's listLength for the third run unless the operator picks another. */
    public static final double DEFAULT_KEDA_LIST_LENGTH = 5;

    private ComparisonTable() {
    }

    /**
     * How the edited policy's figure compares with the live one's, for the operator: fewer seconds
     * over the objective is better, more replica-hours is worse. A figure with no better side (the
     * desired replicas at the end) is {@link #NOT_JUDGED}.
     */
    public enum Verdict {
        BETTER("better"), WORSE("worse"), SAME("same"), NOT_JUDGED("");

        private final String word;

        Verdict(String word) {
            this.word = word;
        }

        /** "better", "worse", "same", or blank when not judged. */
        public String word() {
            return word;
        }
    }

    /** Which way is better for a measure. */
    enum Better { LOWER, HIGHER, NEITHER }

    /**
     * One line of the comparison.
     *
     * @param change  the difference with an arrow and the verdict in words, e.g. "−12 s ▼ better"
     * @param verdict the same verdict as data, for colour
     * @param predictive the live policy with the floors auto mode would hold ({@link Predictive}); blank without
     */
    public record Row(String what, String current, String edited, String change, String keda, Verdict verdict,
                      String predictive) {
        /** A row without a predictive run. */
        public Row(String what, String current, String edited, String change, String keda, Verdict verdict) {
            this(what, current, edited, change, keda, verdict, "");
        }
    }

    /** KEDA's length rule with that listLength as the third run, or null for none (null or not > 0). */
    public static Baselines.Named keda(Double listLength) {
        return listLength == null || !(listLength > 0) ? null
                : new Baselines.Named("KEDA's rule (listLength " + num(listLength) + ")", KedaLengthRule.of(listLength));
    }

    /** The rows of a comparison of {@code current} against {@code edited}. */
    public static List<Row> rows(Replay.Comparison c, Policy current, Policy edited) {
        var a = c.current().summary();
        var b = c.edited().summary();
        var k = c.baseline() == null ? null : c.baseline().summary();
        var f = c.predictive() == null ? null : c.predictive().summary();
        return List.of(
                row("Desired replicas, end", c.current().finalDesired(), c.edited().finalDesired(),
                        k == null ? Double.NaN : c.baseline().finalDesired(),
                        f == null ? Double.NaN : c.predictive().finalDesired(), "", Better.NEITHER),
                row("Oldest age, max", a.maxOldestAgeSeconds(), b.maxOldestAgeSeconds(),
                        k == null ? Double.NaN : k.maxOldestAgeSeconds(),
                        f == null ? Double.NaN : f.maxOldestAgeSeconds(), " s", Better.LOWER),
                row("Oldest age, p95", a.p95OldestAgeSeconds(), b.p95OldestAgeSeconds(),
                        k == null ? Double.NaN : k.p95OldestAgeSeconds(),
                        f == null ? Double.NaN : f.p95OldestAgeSeconds(), " s", Better.LOWER),
                new Row("Time over objective", objective(a.ageObjectiveViolationSeconds(), current),
                        objective(b.ageObjectiveViolationSeconds(), edited), change(a.ageObjectiveViolationSeconds(),
                        b.ageObjectiveViolationSeconds(), " s", Better.LOWER),
                        k == null ? "" : objective(k.ageObjectiveViolationSeconds(), current),
                        verdict(a.ageObjectiveViolationSeconds(), b.ageObjectiveViolationSeconds(), Better.LOWER),
                        f == null ? "" : objective(f.ageObjectiveViolationSeconds(), current)),
                row("Replica-hours", c.current().replicaHours(), c.edited().replicaHours(),
                        k == null ? Double.NaN : c.baseline().replicaHours(),
                        f == null ? Double.NaN : c.predictive().replicaHours(), " h", Better.LOWER),
                row("Scale events", a.scaleEvents(), b.scaleEvents(), k == null ? Double.NaN : k.scaleEvents(),
                        f == null ? Double.NaN : f.scaleEvents(), "", Better.LOWER),
                row("Jobs completed", a.jobsCompleted(), b.jobsCompleted(), k == null ? Double.NaN : k.jobsCompleted(),
                        f == null ? Double.NaN : f.jobsCompleted(), "", Better.HIGHER));
    }

    /**
     * What the predictive floors did against the live policy reactive, in one sentence: time over the objective
     * saved (or not) for the replica-hours the floors held, and what the run did; null without a predictive run.
     */
    public static String predictive(Replay.Comparison c, Policy current) {
        if (c.predictive() == null) {
            return null;
        }
        String did = c.predictiveSummary().words();
        if (c.predictiveSummary().floorsPlanned() == 0) {
            return "With predictive: " + did + ".";
        }
        double va = c.current().summary().ageObjectiveViolationSeconds();
        double vp = c.predictive().summary().ageObjectiveViolationSeconds();
        double ha = c.current().replicaHours();
        double hp = c.predictive().replicaHours();
        String time = current.maxAgeSeconds() == null ? "no age objective"
                : verdict(va, vp, Better.LOWER) == Verdict.SAME ? "the same time over the objective (" + num(va) + " s)"
                : num(Math.abs(va - vp)) + " s " + (vp < va ? "less" : "more") + " time over the objective ("
                + num(vp) + " s against " + num(va) + " s)";
        String hours = verdict(ha, hp, Better.LOWER) == Verdict.SAME ? "the same replica-hours"
                : num(Math.abs(hp - ha)) + " replica-hours " + (hp > ha ? "more" : "fewer");
        return "With predictive: " + time + " for " + hours + " than the live policy reactive; " + did + ".";
    }

    /**
     * The trade the edit makes, in one sentence: time over the age objective saved against
     * replica-hours spent (warm capacity's price), or the other way round; better or worse on both;
     * null when the edit changes neither as shown or the class has no objective.
     */
    public static String trade(Replay.Comparison c, Policy current, Policy edited) {
        if (current.maxAgeSeconds() == null && edited.maxAgeSeconds() == null) {
            return null;
        }
        double va = c.current().summary().ageObjectiveViolationSeconds();
        double vb = c.edited().summary().ageObjectiveViolationSeconds();
        double ha = c.current().replicaHours();
        double hb = c.edited().replicaHours();
        Verdict v = verdict(va, vb, Better.LOWER);
        Verdict h = verdict(ha, hb, Better.LOWER);
        if (v == Verdict.SAME && h == Verdict.SAME) {
            return null;
        }
        String saved = num(Math.abs(va - vb)) + " s " + (vb < va ? "less" : "more") + " time over the objective";
        String spent = num(Math.abs(hb - ha)) + " " + (hb > ha ? "more" : "fewer") + " replica-hours";
        if (v == Verdict.BETTER && h == Verdict.WORSE) {
            return "Trade: " + saved + " for " + spent + " (" + num((va - vb) / (hb - ha)) + " s per replica-hour).";
        }
        if (v == Verdict.WORSE && h == Verdict.BETTER) {
            return "Trade: " + spent + " at the cost of " + saved + " (" + num((vb - va) / (ha - hb))
                    + " s per replica-hour saved).";
        }
        if (v == Verdict.SAME) {
            return "Same time over the objective with " + spent + ".";
        }
        if (h == Verdict.SAME) {
            return "Same replica-hours with " + saved + ".";
        }
        return (v == Verdict.BETTER ? "Better on both: " : "Worse on both: ") + saved + " and " + spent + ".";
    }

    /**
     * The verdict on {@code edited} against {@code live}: figures equal as shown (to the digits
     * {@link #num} prints) are the same, so a difference nobody can read is not coloured.
     */
    static Verdict verdict(double live, double edited, Better better) {
        if (num(live).equals(num(edited))) {
            return Verdict.SAME;
        }
        return switch (better) {
            case NEITHER -> Verdict.NOT_JUDGED;
            case LOWER -> edited < live ? Verdict.BETTER : Verdict.WORSE;
            case HIGHER -> edited > live ? Verdict.BETTER : Verdict.WORSE;
        };
    }

    private static String objective(double seconds, Policy p) {
        return p.maxAgeSeconds() == null ? "no objective" : num(seconds) + " s (objective " + num(p.maxAgeSeconds())
                + " s)";
    }

    private static Row row(String what, double a, double b, double keda, double predictive, String unit,
                           Better better) {
        return new Row(what, num(a) + unit, num(b) + unit, change(a, b, unit, better),
                Double.isNaN(keda) ? "" : num(keda) + unit, verdict(a, b, better),
                Double.isNaN(predictive) ? "" : num(predictive) + unit);
    }

    /** "same", or the difference with an arrow (▲ more, ▼ less) and, where one side is better, the word. */
    private static String change(double a, double b, String unit, Better better) {
        Verdict v = verdict(a, b, better);
        if (v == Verdict.SAME) {
            return "same";
        }
        double d = b - a;
        return (d > 0 ? "+" : "−") + num(Math.abs(d)) + unit + (d > 0 ? " ▲" : " ▼")
                + (v.word().isEmpty() ? "" : " " + v.word());
    }

    /** A whole number as such, else two decimals under 10 and one above. */
    public static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e9) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, Math.abs(v) < 10 ? "%.2f" : "%.1f", v);
    }
}
