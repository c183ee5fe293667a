package io.headroom.testing;

import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import java.time.Instant;
import java.util.Arrays;

/**
 * A class's history with office hours (the week what-if's tests, issue 29): 1 job/s, 60 jobs/s 09:00–17:00 UTC on
 * weekdays (the week starting {@link #MONDAY}), 2 s a job, the queue empty, 2 replicas.
 */
public final class OfficeWeek {
    /** Monday 2026-11-30 00:00 UTC. */
    public static final double MONDAY = Instant.parse("2026-11-30T00:00:00Z").getEpochSecond();

    private OfficeWeek() {
    }

    /** Class "orders": {@code points} + 1 points a {@code step} apart from {@code from} (epoch seconds). */
    public static ClassHistory history(double from, int points, double step) {
        ClassHistory h = new ClassHistory("orders", points + 2);
        for (int i = 0; i <= points; i++) {
            double t = from + step * i;
            double inDay = (t - MONDAY) % 86_400;
            boolean weekend = (int) ((t - MONDAY) / 86_400) % 7 >= 5;
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = !weekend && inDay >= 9 * 3600 && inDay < 17 * 3600 ? 60 : 1;
            row[Series.MEAN_SERVICE.ordinal()] = 2;
            row[Series.QUEUE_LENGTH.ordinal()] = 0;
            row[Series.REPLICAS.ordinal()] = 2;
            h.append(t, row);
        }
        return h;
    }
}
