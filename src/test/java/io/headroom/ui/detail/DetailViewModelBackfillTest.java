package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.metrics.SignalHistory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The view model asks for each charted signal's history once per class and window (no toolkit). */
class DetailViewModelBackfillTest {

    @Test
    void openingAClassAsksForItsHistoryOnceAndFillsTheCharts() {
        Instant now = Instant.parse("2026-01-01T01:00:00Z");
        List<String> asked = new ArrayList<>();
        DetailViewModel vm = new DetailViewModel(Clock.fixed(now, ZoneOffset.UTC), Runnable::run);
        vm.setHistorySource((cls, signal, from, to, px) -> {
            asked.add(cls + "/" + signal + "/" + Duration.between(from, to).toMinutes() + "m/" + px);
            if (signal.equals(io.headroom.decision.Signals.MEAN_SERVICE)) {
                return CompletableFuture.completedFuture(SignalHistory.none(cls, signal, "EMPTY_RESULT: no series"));
            }
            double t0 = from.getEpochSecond();
            return CompletableFuture.completedFuture(new SignalHistory(cls, signal, new double[] {t0, t0 + 60},
                    new double[] {1, 2}, null));
        });
        vm.select("orders");
        vm.backfill(Duration.ofMinutes(15), 800);
        vm.backfill(Duration.ofMinutes(15), 800);
        assertEquals(4, asked.size(), "once per class and window: " + asked);
        assertTrue(asked.contains("orders/oldestAge/15m/800"));
        ClassSeries cs = vm.seriesProperty().get();
        assertEquals(2, cs.oldestAge.size());
        assertEquals(2, cs.arrivalRate.size());
        assertEquals(0, cs.serviceSeconds.size());
        assertTrue(vm.backfillStatusProperty().get().contains("no history for meanService"),
                vm.backfillStatusProperty().get());
        vm.backfill(Duration.ofHours(1), 800);
        assertEquals(8, asked.size(), "a wider window asks again");
    }
}
