package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The what-if's warm-up (issue 29): it replays once, and a cancel stops it before or during its replay. */
class WarmUpTest {
    final ExecutorService pool = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void itReplaysOnceHoweverOftenItIsStarted() throws Exception {
        WarmUp w = new WarmUp();
        assertTrue(w.start(Duration.ZERO, pool));
        assertFalse(w.start(Duration.ZERO, pool), "a second start does nothing");
        assertTrue(w.done().get(60, TimeUnit.SECONDS), "replayed to the end");
        assertFalse(w.start(Duration.ZERO, pool), "nor a start after it finished");
        assertEquals(1, w.replaysStarted());
        assertEquals(Thread.NORM_PRIORITY, pool.submit(() -> Thread.currentThread().getPriority()).get(),
                "the pool's threads get their priority back");
    }

    @Test
    void aCancelBeforeItsDelayMeansItNeverReplays() throws Exception {
        WarmUp w = new WarmUp();
        java.util.concurrent.CountDownLatch woke = new java.util.concurrent.CountDownLatch(1);
        w.start(Duration.ofMillis(300), r -> pool.execute(() -> {
            r.run();
            woke.countDown();
        }));
        w.cancel();
        assertFalse(w.done().get(5, TimeUnit.SECONDS));
        // The delayed task still wakes: it must find the cancel and not replay.
        assertTrue(woke.await(10, TimeUnit.SECONDS), "the delayed task ran");
        assertEquals(0, w.replaysStarted());
        assertTrue(w.isCancelled());
    }

    @Test
    void aReplayAskedToStopStops() {
        assertThrows(CancellationException.class, () -> WarmUp.replay(new Replay.Progress() {
            @Override
            public void done(double fraction) {
            }

            @Override
            public boolean cancelled() {
                return true;
            }
        }));
    }

    @Test
    void itsSliceIsReplayedAsAWeeksWhatIfIs() {
        Replay.Comparison c = WarmUp.replay(Replay.Progress.NONE);
        assertTrue(c.baseline() != null && c.predictive() != null, "live, KEDA's rule and predictive floors");
        assertEquals(WarmUp.SLICE_SECONDS, c.seconds(), 1.0);
    }
}
