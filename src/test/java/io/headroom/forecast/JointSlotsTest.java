package io.headroom.forecast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.headroom.decision.Policy;
import io.headroom.forecast.Anticipation.Plan;
import io.headroom.forecast.Anticipation.Settings;
import java.time.Instant;
import java.util.Random;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The slots band is the quantile of the product, not the product of quantiles (issue 29): each past day's arrivals
 * times its own service time, per 5-minute slot, levelled. Days of many short jobs and days of few long ones are the
 * same work (a narrow band); days whose arrivals and service time rise together are a wide one.
 */
class JointSlotsTest {

    static final double MONDAY = Instant.parse("2026-03-02T00:00:00Z").getEpochSecond();
    static final double DAY = 86_400;
    static final double H = 3600;
    /** Each day's arrivals from 09:00 to 12:00 (2 jobs/s otherwise); day 8 is today. */
    static final double[] BUSY = {16, 24, 18, 22, 20, 17, 23, 19, 21};
    /** Day 8, 08:00: an hour before the day's rise. */
    static final double NOW = MONDAY + 8 * DAY + 8 * H;
    static final Policy P = Policy.builder().slotsPerReplica(1).targetUtilization(0.8).pollIntervalSeconds(15)
            .maxReplicas(200).build();

    /**
     * Minute grids of arrivals and mean service time up to now: 2 jobs/s of 1-s jobs, and from 09:00 to 12:00 the
     * day's arrivals with the service time {@code service} makes of them; 2 % noise on each.
     */
    static LoadGrid[] days(DoubleUnaryOperator service) {
        Random random = new Random(7);
        int n = (int) ((NOW - MONDAY) / 60);
        double[] a = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            double t = i * 60.0;
            int day = (int) (t / DAY);
            double inDay = t - day * DAY;
            boolean busy = inDay >= 9 * H && inDay < 12 * H;
            double rate = busy ? BUSY[day] : 2;
            a[i] = rate * (1 + 0.02 * random.nextGaussian());
            s[i] = (busy ? service.applyAsDouble(rate) : 1) * (1 + 0.02 * random.nextGaussian());
        }
        return new LoadGrid[] {new LoadGrid(MONDAY, 60, a), new LoadGrid(MONDAY, 60, s)};
    }

    record Forecasts(Forecast arrivals, Forecast service, Forecast work) {
    }

    static Forecasts forecast(LoadGrid[] g) {
        Forecaster f = new Forecaster(ForecastSettings.DEFAULTS);
        Forecasts out = new Forecasts(f.forecast(g[0], NOW, "jobs/s"), f.forecast(g[1], NOW, "s"),
                f.forecast(LoadGrid.product(g[0], g[1]), NOW, "jobs in service"));
        assertThat(out.arrivals().available()).as(out.arrivals().reason()).isTrue();
        assertThat(out.service().available()).as(out.service().reason()).isTrue();
        assertThat(out.work().available()).as(out.work().reason()).isTrue();
        return out;
    }

    /** The band's slot at 10:30 today (the middle of the busy hours). */
    static int busySlot(Forecast arrivals) {
        return arrivals.slotAt(MONDAY + 8 * DAY + 10.5 * H);
    }

    @Test
    void manyShortJobsOrFewLongOnesAreTheSameWorkANarrowBand() {
        Forecasts f = forecast(days(rate -> 20 / rate)); // 20 jobs in service every day, however it comes
        SlotsBand joint = SlotsBand.of(f.arrivals(), f.service(), f.work(), 1.0, 0.8);
        int i = busySlot(f.arrivals());

        assertThat(joint.joint()[i]).isTrue();
        assertThat(joint.p50()[i]).isCloseTo(20 / 0.8, within(1.0));
        assertThat(joint.p80()[i] / joint.p50()[i]).as("p80 over p50 of the product").isLessThan(1.05);
        // Apart, p80 arrivals × median service counts a busy day's arrivals at a slow day's service time.
        SlotsBand apart = SlotsBand.of(f.arrivals(), f.service(), null, 1.0, 0.8);
        assertThat(apart.joint()[i]).isFalse();
        assertThat(apart.p80()[i] / joint.p80()[i]).isGreaterThan(1.08);
    }

    @Test
    void arrivalsAndServiceTimeRisingTogetherAreAWideBand() {
        Forecasts f = forecast(days(rate -> rate / 20)); // a busy day's jobs are also slower: 12.8 to 28.8 in service
        SlotsBand joint = SlotsBand.of(f.arrivals(), f.service(), f.work(), 1.0, 0.8);
        SlotsBand apart = SlotsBand.of(f.arrivals(), f.service(), null, 1.0, 0.8);
        int i = busySlot(f.arrivals());

        assertThat(joint.p80()[i] / joint.p50()[i]).as("p80 over p50 of the product").isGreaterThan(1.12);
        assertThat(joint.p80()[i]).as("the busy days' work, not a busy day's arrivals at a median day's pace")
                .isGreaterThan(apart.p80()[i] * 1.05);
    }

    @Test
    void theFloorHoldsTheP80OfTheProduct() {
        Forecasts anti = forecast(days(rate -> 20 / rate));
        Plan joint = Anticipation.plan(anti.arrivals(), anti.service(), anti.work(), 1.0, P, 3, 60,
                Instant.ofEpochSecond((long) NOW), Settings.DEFAULTS);
        Plan apart = Anticipation.plan(anti.arrivals(), anti.service(), 1.0, P, 3, 60,
                Instant.ofEpochSecond((long) NOW), Settings.DEFAULTS);

        assertThat(joint.floor()).as(joint.words()).isNotNull();
        // p80 of 20 in service / 0.8 is 25 slots (26 with the noise), a replica each.
        assertThat(joint.floor().replicas()).isBetween(25, 27);
        assertThat(joint.floor().why()).contains("jobs in service (each past day's arrivals × its service time)");
        assertThat(apart.floor().replicas()).as(apart.words()).isGreaterThan(joint.floor().replicas() + 1);
    }
}
