package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom whatif --window} takes the What-if window's range, 15 minutes to the day the
 * history keeps and the week, and replays the whole of a 24 h window; more than a week is refused.
 */
class WhatIfWindowCliTest {
    static final double T0 = 1_796_000_000;

    /** A day at a 15 s tick: 2 jobs/s of 2 s, doubling for an hour in the afternoon. */
    static ClassHistory day() {
        ClassHistory h = new ClassHistory("orders", ClassHistory.capacityFor(Duration.ofSeconds(15)));
        for (int i = 0; i <= 86_400 / 15; i++) {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = i * 15 >= 50_000 && i * 15 < 53_600 ? 4 : 2;
            row[Series.MEAN_SERVICE.ordinal()] = 2;
            row[Series.QUEUE_LENGTH.ordinal()] = 0;
            row[Series.REPLICAS.ordinal()] = 2;
            h.append(T0 + 15.0 * i, row);
        }
        return h;
    }

    @Test
    void aDayIsReplayedWholeAndMoreThanADayIsRefused(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("workloads.yaml");
        Files.writeString(file, """
                prometheus:
                  url: http://127.0.0.1:1
                classes:
                  - name: orders
                    context: test
                    target: {name: worker}
                    signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}
                    policy:
                      slotsPerReplica: 2
                      minReplicas: 1
                      maxReplicas: 10
                      maxAgeSeconds: 60
                      pollIntervalSeconds: 30
                """);
        ClassHistory history = day();
        List<Duration> asked = new ArrayList<>();
        WhatIfCommand.HistoryLoader loader = (f, cls, now, window, err) -> {
            asked.add(window);
            return new WhatIfCommand.Loaded(history, "the test's day", List.of());
        };
        Clock clock = Clock.fixed(Instant.ofEpochSecond((long) T0 + 86_400), ZoneOffset.UTC);
        for (String window : List.of("24h", "1440m")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = WhatIfCommand.run(List.of("--config", file.toString(), "--class", "orders", "--set",
                    "maxReplicas=3", "--window", window, "--keda-list-length", "0", "--json"),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                    clock, loader);
            assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
            JsonNode json = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));
            assertEquals(86_400, json.get("seconds").asDouble(0.0), "the whole day replayed");
            assertEquals(Instant.ofEpochSecond((long) T0).toString(), json.get("from").asString(""));
            JsonNode hours = json.get("rows").get(4);
            assertEquals("Replica-hours", hours.get("what").asString(""));
            assertTrue(List.of("better", "worse", "same").contains(hours.get("verdict").asString("")), hours.toString());
        }
        assertEquals(List.of(Duration.ofDays(1), Duration.ofDays(1)), asked, "the loader is asked for the day");

        // The window's choices, 15 minutes to 24 hours and the week (issue 29), are all accepted; past the week is
        // refused (before issue 29 the day was the limit).
        for (int minutes : List.of(15, 30, 60, 180, 360, 720, 1440, 10_080)) {
            assertEquals(Duration.ofMinutes(minutes), WhatIfCommand.window(minutes + "m"));
        }
        assertEquals(Duration.ofHours(6), WhatIfCommand.window("6h"));
        assertEquals(Duration.ofDays(7), WhatIfCommand.window("7d"));
        assertEquals(Duration.ofHours(25), WhatIfCommand.window("25h"));
        assertNull(WhatIfCommand.window("10081m"));
        assertNull(WhatIfCommand.window("169h"));
        assertNull(WhatIfCommand.window("8d"));
        assertNull(WhatIfCommand.window("0m"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, WhatIfCommand.run(List.of("--config", file.toString(), "--class", "orders", "--window", "8d"),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), clock, loader));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("at most 7d"), err.toString(StandardCharsets.UTF_8));
    }
}
