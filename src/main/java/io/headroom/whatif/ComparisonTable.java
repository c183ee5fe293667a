package io.headroom.whatif;

import io.headroom.baseline.Baselines;
import io.headroom.baseline.KedaLengthRule;
import io.headroom.decision.Policy;
import java.util.List;
import java.util.Locale;

/**
 * The what-if comparison as an operator reads it: one row per measure, the live policy beside the
 * edited one, the change, and KEDA's rule as the third run. The What-if window and
 * {@code headroom whatif} print these same rows, so the two cannot disagree on the same history.
 */
public final class ComparisonTable {

    /** The seed both the window and the command line replay with: the same history gives the same runs. */
    public static final long SEED = 1;
    /** KEDA's listLength for the third run unless the operator picks another. */
    public static final double DEFAULT_KEDA_LIST_LENGTH = 5;

    private ComparisonTable() {
    }

    /** One line of the comparison. */
    public record Row(String what, String current, String edited, String change, String keda) {
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
        return List.of(
                row("Desired replicas, end", c.current().finalDesired(), c.edited().finalDesired(),
                        k == null ? Double.NaN : c.baseline().finalDesired(), ""),
                row("Oldest age, max", a.maxOldestAgeSeconds(), b.maxOldestAgeSeconds(),
                        k == null ? Double.NaN : k.maxOldestAgeSeconds(), " s"),
                row("Oldest age, p95", a.p95OldestAgeSeconds(), b.p95OldestAgeSeconds(),
                        k == null ? Double.NaN : k.p95OldestAgeSeconds(), " s"),
                new Row("Time over objective", objective(a.ageObjectiveViolationSeconds(), current),
                        objective(b.ageObjectiveViolationSeconds(), edited), change(a.ageObjectiveViolationSeconds(),
                        b.ageObjectiveViolationSeconds(), " s"),
                        k == null ? "" : objective(k.ageObjectiveViolationSeconds(), current)),
                row("Replica-hours", c.current().replicaHours(), c.edited().replicaHours(),
                        k == null ? Double.NaN : c.baseline().replicaHours(), " h"),
                row("Scale events", a.scaleEvents(), b.scaleEvents(), k == null ? Double.NaN : k.scaleEvents(), ""),
                row("Jobs completed", a.jobsCompleted(), b.jobsCompleted(), k == null ? Double.NaN : k.jobsCompleted(), ""));
    }

    private static String objective(double seconds, Policy p) {
        return p.maxAgeSeconds() == null ? "no objective" : num(seconds) + " s (objective " + num(p.maxAgeSeconds())
                + " s)";
    }

    private static Row row(String what, double a, double b, double keda, String unit) {
        return new Row(what, num(a) + unit, num(b) + unit, change(a, b, unit), Double.isNaN(keda) ? "" : num(keda) + unit);
    }

    private static String change(double a, double b, String unit) {
        double d = b - a;
        return d == 0 ? "same" : (d > 0 ? "+" : "−") + num(Math.abs(d)) + unit;
    }

    /** A whole number as such, else two decimals under 10 and one above. */
    public static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e9) {
            return Long.toString((long) v);
        }
        return String.format(Locale.ROOT, Math.abs(v) < 10 ? "%.2f" : "%.1f", v);
    }
}
