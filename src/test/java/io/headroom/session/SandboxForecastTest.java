package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.ForecastMode;
import io.headroom.forecast.Forecast;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Proposal;
import io.headroom.time.ManualClock;
import io.headroom.time.SwitchableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The built-in sandbox shows a forecast acting (issue 29): hourly-reports' week before the start has its programme (a
 * run every hour, the next ten minutes after opening), so once the week is read its forecast is accepted, has the next
 * run's rise, and a predictive proposal is in the inbox ahead of it; approved, the run's slots are up when it begins.
 * On the session's own manual clock, ticked here (no real time passes).
 */
class SandboxForecastTest {
    static final String CLS = SandboxCatalog.HOURLY_CLASS;
    /** When the console opens (a Wednesday). */
    static final Instant WALL = Instant.parse("2026-03-04T10:20:00Z");
    /** hourly-reports' first run after opening: then every hour at that minute. */
    static final Instant RUN = WALL.plus(Session.FIRST_HOURLY_RUN);

    @Test
    void hourlyReportsIsForecastWithTheNextRunsRiseAndProposedAheadOfIt() throws Exception {
        try (Session s = Session.builtIn(SandboxCatalog.DEFAULT_SEED, WALL, Duration.ZERO, new MemoryJournal(),
                "ana")) {
            WorkloadClass cls = s.loop().classes().stream().filter(c -> c.name().equals(CLS)).findFirst().orElseThrow();
            assertEquals(ForecastMode.PROPOSE, cls.policy().forecastMode(), "the sandbox proposes for it");
            assertEquals(6, s.loop().classes().size(), "the five and hourly-reports");

            s.backfillWeek().get(60, TimeUnit.SECONDS);
            s.forecasts().refreshAll(Runnable::run).get(60, TimeUnit.SECONDS);
            Forecast a = s.classForecasts().arrivals(CLS);
            assertNotNull(a);
            assertTrue(a.available(), "accepted: " + a.reason());
            assertTrue(a.reason().matches("the last \\d+ (week)?days rose from 1 to 12 jobs/s at \\d\\d:\\d\\d.*"),
                    a.reason());
            Forecast work = s.classForecasts().work(CLS);
            assertTrue(work.available(), work.reason());
            double now = WALL.getEpochSecond();
            Forecast.Rise rise = a.nextRise(now, 3600, 1.0, 0.2).orElseThrow();
            assertTrue(rise.at() > now && rise.at() <= RUN.getEpochSecond(),
                    "a rise by the run at " + RUN + ": " + rise.why());
            assertTrue(rise.peakP80() >= 10, rise.why());

            // Live on the manual clock: the supervisor decides with the loop, as start() has it.
            ManualClock manual = (ManualClock) ((SwitchableClock) s.clock()).delegate();
            s.supervisor().restore(s.journal().replay());
            s.loop().setActuator(s.supervisor());
            s.loop().tick();
            Proposal p = s.supervisor().state().pending().stream()
                    .filter(x -> x.forecast() && x.className().equals(CLS)).findFirst().orElse(null);
            assertNotNull(p, "a predictive proposal in the inbox: " + s.supervisor().state().pending());
            assertTrue(p.to() >= 12, "the run's slots: " + p.explanation());
            assertTrue(p.expiresAt().isAfter(WALL) && !p.expiresAt().isAfter(RUN),
                    "ahead of the rise: " + p.expiresAt());
            assertTrue(!p.floor().from().isAfter(p.expiresAt().minusSeconds(45 + 5 + 60))
                    || p.floor().from().equals(WALL),
                    "held start-up + poll + a minute ahead: " + p.floor());
            assertTrue(p.explanation().contains("rose from 1 to 12 jobs/s"), p.explanation());

            Outcome approved = s.supervisor().approve(p.id()).get(10, TimeUnit.SECONDS);
            assertTrue(approved.ok(), approved.message());
            WorkloadRef target = cls.target();
            while (manual.instant().isBefore(RUN)) {
                manual.advance(s.tick());
                s.loop().tick();
            }
            int running = s.loop().cluster().workloads().workload(target).orElseThrow().specReplicas();
            assertTrue(running >= p.to(), "the run's slots are up when it begins: " + running + " of " + p.to());
        }
    }
}
