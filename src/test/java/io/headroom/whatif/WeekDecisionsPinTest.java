package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.headroom.decision.Policy;
import io.headroom.decision.Term;
import io.headroom.sim.Simulator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * Pins every decision of a week's what-if (issue 29's benchmark week: {@code WeekWhatIfBenchmark}'s load and policy,
 * live, with predictive floors and KEDA's rule at listLength 5, fluid, 15 s ticks) to what the code decided before
 * the what-if was made faster (commit b29fa73), so that an optimisation which changes any decision fails here.
 *
 * <p>Per run the golden file holds the summary figures to the last bit, the targets tick by tick (run-length
 * encoded, so a failure shows where the first one differs) and a SHA-256 of every tick's numbers: target, count,
 * ready, slots, queue, age, arrival rate, governor limit, reasons and every term's name and value (the reaction
 * gap's {@code absorbs} and {@code reserve} among them). The words are not pinned: the what-if decides without them.
 * The text this run produced is written to {@code target/week-decisions.actual.txt}.
 */
class WeekDecisionsPinTest {

    static final String GOLDEN = "/whatif/week-decisions.txt";

    @Test
    void aWeeksWhatIfDecidesExactlyAsBefore() throws IOException {
        String actual = describe(compare());
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target", "week-decisions.actual.txt"), actual);
        String expected;
        try (InputStream in = WeekDecisionsPinTest.class.getResourceAsStream(GOLDEN)) {
            assertNotNull(in, "golden file " + GOLDEN);
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String[] want = expected.split("\n");
        String[] got = actual.split("\n");
        // Line by line first, so a failure names the run and the first tick that moved.
        for (int i = 0; i < Math.min(want.length, got.length); i++) {
            assertEquals(want[i], got[i], "line " + (i + 1) + " of " + GOLDEN);
        }
        assertEquals(want.length, got.length, "lines in " + GOLDEN);
    }

    static Replay.Comparison compare() {
        double monday = Instant.parse("2026-11-30T00:00:00Z").getEpochSecond();
        LoadHistory week = week(monday, 7, 15);
        Policy live = Policy.builder().slotsPerReplica(4).maxAgeSeconds(20.0).minReplicas(1).maxReplicas(100)
                .pollIntervalSeconds(15).build();
        return Replay.compare(week, live, live, ComparisonTable.SEED, ComparisonTable.keda(5.0), Predictive.of(week),
                Replay.Progress.NONE, Replay.Model.FLUID, Runnable::run);
    }

    /** The benchmark's week: 1 job/s, 60 jobs/s 09:00–17:00 on weekdays (10 on the weekend), 2 s a job. */
    static LoadHistory week(double monday, int days, double step) {
        double day = 86_400;
        int n = (int) (days * day / step) + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = monday + step * i;
            double inDay = (step * i) % day;
            boolean weekend = (int) (step * i / day) % 7 >= 5;
            double ramp = Math.min(1, Math.max(0, (inDay - 9 * 3600) / 120))
                    - Math.min(1, Math.max(0, (inDay - 17 * 3600) / 120));
            r[i] = 1 + (weekend ? 9 : 59) * ramp;
            s[i] = 2;
        }
        return new LoadHistory(t, r, s, 0, 2);
    }

    static String describe(Replay.Comparison c) {
        StringBuilder b = new StringBuilder();
        run(b, "live", c.current());
        run(b, "predictive", c.predictive());
        run(b, "keda5", c.baseline());
        Predictive.Summary p = c.predictiveSummary();
        b.append("predictive summary: ").append(p.forecastsMade()).append(' ').append(p.forecastsGiven()).append(' ')
                .append(p.floorsPlanned()).append(' ').append(p.heldSeconds()).append(' ').append(p.firstFloorAt())
                .append('\n');
        return b.toString();
    }

    private static void run(StringBuilder b, String name, Replay.Run run) {
        Simulator.ClassSummary s = run.summary();
        b.append(name).append(" summary: maxAge ").append(s.maxOldestAgeSeconds()).append(" p95 ")
                .append(s.p95OldestAgeSeconds()).append(" violation ").append(s.ageObjectiveViolationSeconds())
                .append(" replicaSeconds ").append(s.replicaSeconds()).append(" scaleEvents ").append(s.scaleEvents())
                .append(" completed ").append(s.jobsCompleted()).append(" ticks ").append(run.ticks().size()).append('\n');
        // Targets, run-length encoded: "value×ticks" in order, 40 runs a line.
        b.append(name).append(" targets:");
        int runs = 0;
        int i = 0;
        var ticks = run.ticks();
        while (i < ticks.size()) {
            int v = ticks.get(i).desiredReplicas();
            int j = i;
            while (j < ticks.size() && ticks.get(j).desiredReplicas() == v) {
                j++;
            }
            if (runs > 0 && runs % 40 == 0) {
                b.append('\n').append(name).append(" targets:");
            }
            b.append(' ').append(v).append('x').append(j - i);
            runs++;
            i = j;
        }
        b.append('\n');
        b.append(name).append(" ticks sha256: ").append(digest(ticks)).append('\n');
    }

    private static String digest(java.util.List<Simulator.TickLine> ticks) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder line = new StringBuilder();
        for (Simulator.TickLine l : ticks) {
            line.setLength(0);
            line.append(bits(l.t())).append('|').append(l.desiredReplicas()).append('|').append(l.replicas()).append('|')
                    .append(l.readyReplicas()).append('|').append(l.estimatedSlots()).append('|')
                    .append(bits(l.queueLength())).append('|').append(bits(l.oldestAgeSeconds())).append('|')
                    .append(bits(l.arrivalRate())).append('|').append(bits(l.meanServiceSeconds())).append('|')
                    .append(l.governorLimit()).append('|').append(l.bindingCeiling()).append('|').append(l.reasons());
            for (Term t : l.terms()) {
                line.append('|').append(t.name()).append('=').append(bits(t.value()));
            }
            line.append('\n');
            md.update(line.toString().getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static String bits(double v) {
        return String.format(Locale.ROOT, "%x", Double.doubleToLongBits(v));
    }
}
