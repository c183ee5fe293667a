package io.headroom.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.headroom.decision.ForecastFloor;
import io.headroom.decision.Policy;
import io.headroom.forecast.Anticipation.Plan;
import io.headroom.forecast.Anticipation.Settings;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The floor a forecast asks for (issue 29): Little's law per slot, ahead of the rise by the lead, never a scale-in. */
class AnticipationTest {

    static final Instant NOW = Instant.parse("2026-03-03T08:00:00Z");
    static final double T0 = NOW.getEpochSecond();
    static final ZoneId UTC = ZoneId.of("UTC");
    /** slotsPerReplica 1, utilisation 0.8, poll 15 s. */
    static final Policy P = Policy.builder().slotsPerReplica(1).targetUtilization(0.8).pollIntervalSeconds(15)
            .maxReplicas(100).build();

    /** 5-minute slots from now: {@code base} jobs/s, {@code high} from {@code riseSlot} for {@code riseSlots} slots. */
    static Forecast arrivals(double base, double high, int riseSlot, int riseSlots, int slots) {
        double[] p50 = new double[slots];
        Arrays.fill(p50, base);
        for (int i = riseSlot; i < riseSlot + riseSlots && i < slots; i++) {
            p50[i] = high;
        }
        double[] p80 = Arrays.stream(p50).map(v -> v * 1.1).toArray();
        double[] p95 = Arrays.stream(p50).map(v -> v * 1.25).toArray();
        return new Forecast("jobs/s", Forecast.Model.DAILY, T0, 300, p50, p80, p95, 1, 0.05, 5,
                "the last 5 days rose from " + base + " to " + high + " jobs/s at 09:00", UTC);
    }

    static Forecast service(double seconds, int slots) {
        double[] v = new double[slots];
        Arrays.fill(v, seconds);
        return new Forecast("s", Forecast.Model.DAILY, T0, 300, v, v.clone(), v.clone(), 1, 0.02, 5, "flat", UTC);
    }

    @Test
    void aRiseIsHeldAheadByStartupPollAndBufferAtTheP80sReplicasUntilItFallsBack() {
        // 5 jobs/s until 09:00, 40 jobs/s 09:00–10:00; S = 1 s: p80 44/s × 1 s / 0.8 = 55 slots → 55 replicas.
        Forecast a = arrivals(5, 40, 12, 12, 24);
        Plan plan = Anticipation.plan(a, null, 1.0, P, 8, 90, NOW, Settings.DEFAULTS);

        ForecastFloor f = plan.floor();
        assertThat(f).as(plan.words()).isNotNull();
        assertThat(f.replicas()).isEqualTo(55);
        assertThat(f.from()).isEqualTo(Instant.parse("2026-03-03T09:00:00Z").minusSeconds(90 + 15 + 60));
        assertThat(f.until()).isEqualTo(Instant.parse("2026-03-03T10:00:00Z"));
        assertThat(plan.rise().at()).isEqualTo(T0 + 3600);
        assertThat(plan.words()).contains("p80 44 jobs/s", "55 replicas", "8 run now", "09:00", "08:57:15",
                "start-up 90 s", "poll 15 s", "buffer 60 s", "until 10:00", "rose from 5.0 to 40.0");
    }

    @Test
    void theQuantileAndTheServiceForecastChangeTheReplicas() {
        Forecast a = arrivals(5, 40, 12, 12, 24);
        // p50 40/s × 1 s / 0.8 = 50; p95 50/s → 63 (62.5 rounded up).
        assertThat(Anticipation.plan(a, null, 1.0, P, 8, 90, NOW, Settings.DEFAULTS.withQuantile(0.5))
                .floor().replicas()).isEqualTo(50);
        assertThat(Anticipation.plan(a, null, 1.0, P, 8, 90, NOW, Settings.DEFAULTS.withQuantile(0.95))
                .floor().replicas()).isEqualTo(63);
        // A service forecast of 2 s wins over the mean service time given: 44/s × 2 s / 0.8 = 110 → max 100.
        Plan twice = Anticipation.plan(a, service(2, 24), 1.0, P, 8, 90, NOW, Settings.DEFAULTS);
        assertThat(twice.floor().replicas()).isEqualTo(100);
        assertThat(twice.words()).contains("110 replicas", "(max 100)");
        // slotsPerReplica 4: 55 slots → 14 replicas.
        Policy four = P.toBuilder().slotsPerReplica(4).build();
        assertThat(Anticipation.plan(a, null, 1.0, four, 2, 90, NOW, Settings.DEFAULTS).floor().replicas())
                .isEqualTo(14);
    }

    @Test
    void aRiseWithinTheLeadIsHeldFromNowAndTheFloorIsTheRunsPeak() {
        // 5/s now, 20/s from 08:05, 40/s 08:10–08:20, back to 5/s at 08:20.
        double[] p50 = {5, 20, 40, 40, 5, 5, 5, 5};
        double[] p80 = p50.clone();
        Forecast a = new Forecast("jobs/s", Forecast.Model.DAILY, T0, 300, p50, p80, p50.clone(), 1, 0.05, 5, "w", UTC);
        Plan plan = Anticipation.plan(a, null, 1.0, P, 7, 400, NOW, Settings.DEFAULTS);
        assertThat(plan.floor().from()).isEqualTo(NOW);
        assertThat(plan.floor().replicas()).isEqualTo(50);
        assertThat(plan.floor().until()).isEqualTo(NOW.plusSeconds(4 * 300));
        assertThat(plan.rise().at()).isEqualTo(T0 + 300);
    }

    @Test
    void neverAFloorAtOrBelowWhatRunsNow() {
        Forecast a = arrivals(5, 40, 12, 12, 24); // peak needs 55
        Plan running = Anticipation.plan(a, null, 1.0, P, 60, 90, NOW, Settings.DEFAULTS);
        assertThat(running.floor()).isNull();
        assertThat(running.words()).contains("no forecast rise above the 60 replicas");
        // Within the margin: 50 running, 55 needed is 10 % more, not more than 20 %.
        assertThat(Anticipation.plan(a, null, 1.0, P, 50, 90, NOW, Settings.DEFAULTS).floor()).isNull();
        // Capped at max at or below the count running: no floor, and it says why.
        Policy max8 = P.toBuilder().maxReplicas(6).build();
        Plan capped = Anticipation.plan(a, null, 1.0, max8, 6, 90, NOW, Settings.DEFAULTS);
        assertThat(capped.floor()).isNull();
        assertThat(capped.words()).contains("max is 6");
        // A fall is never a floor: 40/s now falling to 5/s.
        Forecast falling = arrivals(40, 5, 1, 23, 24);
        assertThat(Anticipation.plan(falling, null, 1.0, P, 60, 90, NOW, Settings.DEFAULTS).floor()).isNull();
    }

    @Test
    void aRiseBeyondTheHorizonIsNotHeldAndTheFloorLapsesAtTheHorizon() {
        Forecast a = arrivals(5, 40, 12, 12, 24); // rise at +1 h, ends at +2 h
        Settings halfHour = new Settings(0.8, 60, 1800, 0.2);
        assertThat(Anticipation.plan(a, null, 1.0, P, 8, 90, NOW, halfHour).floor()).isNull();
        Settings within = new Settings(0.8, 60, 5000, 0.2);
        assertThat(Anticipation.plan(a, null, 1.0, P, 8, 90, NOW, within).floor().until())
                .isEqualTo(NOW.plusSeconds(5000));
    }

    @Test
    void aRefusedOrMissingForecastGivesNoFloorAndSaysWhy() {
        Forecast refused = Forecast.refused("jobs/s", 300, "only 14 h of history; a forecast needs 24 h", UTC);
        Plan p = Anticipation.plan(refused, null, 1.0, P, 8, 90, NOW, Settings.DEFAULTS);
        assertThat(p.floor()).isNull();
        assertThat(p.words()).contains("only 14 h of history");
        Forecast sRefused = Forecast.refused("s", 300, "its error over the last 3 days was 42 % (limit 30 %)", UTC);
        Plan q = Anticipation.plan(arrivals(5, 40, 12, 12, 24), sRefused, 1.0, P, 8, 90, NOW, Settings.DEFAULTS);
        assertThat(q.floor()).isNull();
        assertThat(q.words()).contains("service time", "42 %");
        assertThat(Anticipation.plan(null, null, 1.0, P, 8, 90, NOW, Settings.DEFAULTS).words())
                .contains("no forecast of arrivals yet");
        // A stale forecast (made hours ago, ended before now) says nothing about now.
        Plan stale = Anticipation.plan(arrivals(5, 40, 12, 12, 24), null, 1.0, P, 8, 90, NOW.plusSeconds(3 * 3600),
                Settings.DEFAULTS);
        assertThat(stale.floor()).isNull();
        assertThat(stale.words()).contains("ends before now");
    }

    @Test
    void settingsAllowOnlyTheForecastsQuantiles() {
        assertThatThrownBy(() -> Settings.DEFAULTS.withQuantile(0.9)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Settings(0.8, -1, 3600, 0.2)).isInstanceOf(IllegalArgumentException.class);
    }
}
