package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.Downsampler;
import io.headroom.history.History;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The detail's range selector without the toolkit (issue 13 item 2): the charts hold the day the
 * domain history keeps, each window from 5m to 24h is one of the selector's, and a 24 h view is
 * reduced to a few points per pixel column.
 */
class DetailRangeTest {

    private static final String CLASS = "payments-steady";

    /** A day of domain history before the sandbox's first tick, at its tick, as the start-up backfill leaves it. */
    private static History aDayBefore(SandboxConsole c) {
        History h = new History(c.session().tick());
        ClassHistory ch = h.of(CLASS);
        double end = c.session().clock().instant().getEpochSecond() - c.session().tick().toSeconds();
        double step = c.session().tick().toSeconds();
        double[] row = new double[ClassHistory.SERIES];
        int n = h.capacity() - 200; // leaves room for the live ticks
        for (int i = 0; i < n; i++) {
            Arrays.fill(row, Double.NaN);
            row[Series.OLDEST_AGE.ordinal()] = 10 + (i % 97);
            row[Series.QUEUE_LENGTH.ordinal()] = i % 13;
            row[Series.REPLICAS.ordinal()] = 3;
            row[Series.READY_REPLICAS.ordinal()] = 3;
            row[Series.ARRIVAL_RATE.ordinal()] = 2;
            ch.append(end - (n - 1 - i) * step, row);
        }
        return h;
    }

    @Test
    void theChartsOpenWithTheDayTheDomainHistoryKeeps() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            History h = aDayBefore(c);
            c.detail.setDomainHistory(h::find, h.capacity(), Runnable::run);
            c.tick(3);
            ClassSeries cs = c.detail.series(CLASS);
            assertEquals(h.capacity(), cs.capacity(), "the charts hold a day at the session's tick, no more");
            ClassHistory ch = h.find(CLASS);
            assertEquals(ch.firstTime(), cs.firstTime(), "the charts reach as far back as the domain history");
            assertEquals(ch.size() + 3, cs.oldestAge.size(), "the day, then the three live ticks");
            int k = c.detail.latest(CLASS).cls().policy().slotsPerReplica();
            assertEquals(3.0 * k, cs.capacitySlots.value(0), "replicas become slots on the capacity chart");
            assertTrue(c.detail.backfillStatusProperty().get().startsWith("history from "),
                    c.detail.backfillStatusProperty().get());
            long revision = c.detail.revisionProperty().get();
            c.tick(1);
            assertEquals(ch.size() + 4, cs.oldestAge.size(), "seeded once: a tick adds one point, nothing doubles");
            assertEquals(revision + 1, c.detail.revisionProperty().get());
        }
    }

    @Test
    void switchingTheRangeShowsEachWindowAndA24hViewDrawsAFewPointsPerPixelColumn() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            History h = aDayBefore(c);
            c.detail.setDomainHistory(h::find, h.capacity(), Runnable::run);
            c.tick(2);
            assertEquals(Duration.ofMinutes(15), c.detail.windowProperty().get(), "opens at 15 minutes");
            ClassSeries cs = c.detail.series(CLASS);
            double now = c.session().clock().instant().getEpochSecond();
            int columns = 1_000;
            Downsampler m4 = new Downsampler();
            for (Duration w : DetailViewModel.WINDOWS) {
                c.detail.showWindow(w, columns);
                c.settle();
                assertEquals(w, c.detail.windowProperty().get());
                double from = now - w.toSeconds();
                int raw = cs.oldestAge.indexRange(from, now).length();
                int drawn = m4.run(cs.oldestAge, from, now, columns);
                assertTrue(drawn <= 4 * columns, w + ": " + drawn + " points for " + columns + " columns");
                if (raw <= columns) {
                    assertTrue(drawn <= raw + 2, w + ": a short window draws its points as they are");
                }
                if (w.equals(Duration.ofHours(24))) {
                    assertTrue(raw > 5_000, "the day is there: " + raw + " points");
                    assertTrue(drawn < raw / 2, "24 h reduced: " + raw + " → " + drawn);
                    assertEquals(106, m4.max(), "M4 keeps the extremes");
                }
            }
            assertThrows(IllegalArgumentException.class, () -> c.detail.showWindow(Duration.ofMinutes(7), columns));
        }
    }

    @Test
    void theReasonsHeadingShowsOnlyWithReasons() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(2);
            DetailViewModel d = c.detail;
            assertEquals(!d.reasons().isEmpty(), d.reasonsShownProperty().get());
            d.reasons().clear();
            assertFalse(d.reasonsShownProperty().get(), "no reasons: no empty heading");
            d.reasons().add("CEILING:db");
            assertTrue(d.reasonsShownProperty().get());
        }
    }

    @Test
    void theGapSpacingFollowsTheClassControlInterval() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            double poll = c.detail.latest(CLASS).cls().policy().pollIntervalSeconds();
            assertEquals(2.5 * poll, c.detail.gapSpacingSeconds());
        }
    }
}
