package io.headroom.bench;

import io.headroom.decision.Policy;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Replay;
import java.util.Arrays;
import java.util.Locale;

/**
 * How long a what-if replay takes (both runs) for the windows the console offers, at a 5 s tick,
 * side by side for a light class (2 jobs/s) and a busy one (40 jobs/s) with a burst. The console
 * replays on every edit, off the FX thread: this says whether that is instant.
 * Not a test: {@code scripts/bench WhatIfReplayBenchmark}.
 */
public final class WhatIfReplayBenchmark {

    public static void main(String[] args) {
        Policy live = Policy.builder().slotsPerReplica(4).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(200)
                .pollIntervalSeconds(5).build();
        Policy edited = live.toBuilder().targetUtilization(0.5).build();
        System.out.println("what-if replay: both runs (live and edited policy), 5 s ticks, median of 7");
        for (double rate : new double[] {2, 40}) {
            for (int minutes : new int[] {15, 30, 60}) {
                LoadHistory h = history(minutes, rate);
                Replay.compare(h, live, edited, 1); // warm the JIT
                double[] ms = new double[7];
                for (int i = 0; i < ms.length; i++) {
                    long t0 = System.nanoTime();
                    Replay.compare(h, live, edited, 1);
                    ms[i] = (System.nanoTime() - t0) / 1e6;
                }
                Arrays.sort(ms);
                System.out.printf(Locale.ROOT, "  %4.0f jobs/s, %2d min window: %7.1f ms (min %.1f, max %.1f)%n", rate,
                        minutes, ms[3], ms[0], ms[6]);
            }
        }
    }

    /** {@code minutes} of charted load at a 5 s tick: {@code rate} jobs/s of 1 s, tripled in the middle third. */
    static LoadHistory history(int minutes, double rate) {
        int n = minutes * 12 + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = 1_796_000_000 + 5.0 * i;
            r[i] = i > n / 3 && i < 2 * n / 3 ? 3 * rate : rate;
            s[i] = 1;
        }
        return new LoadHistory(t, r, s, 0, 2);
    }

    private WhatIfReplayBenchmark() {
    }
}
