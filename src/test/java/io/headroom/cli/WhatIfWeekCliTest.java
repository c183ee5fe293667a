package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * {@code headroom whatif --week} (issue 29): the last week under the live policy reactive, the same with predictive
 * floors, and KEDA's rule; {@code --predictive} adds the predictive run to a shorter window, its forecasts reading the
 * week before it. The table and the JSON carry the predictive column.
 */
class WhatIfWeekCliTest {

    /** Monday 2026-11-30 00:00 UTC. */
    static final double MONDAY = Instant.parse("2026-11-30T00:00:00Z").getEpochSecond();

    /** {@code days} from Monday at a point a minute (the console's week tier): 1 job/s, 60 jobs/s 09:00–17:00. */
    static ClassHistory weeks(int days) {
        ClassHistory h = new ClassHistory("orders", days * 1440 + 2);
        for (int i = 0; i <= days * 1440; i++) {
            double inDay = (60.0 * i) % 86_400;
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = inDay >= 9 * 3600 && inDay < 17 * 3600 ? 60 : 1;
            row[Series.MEAN_SERVICE.ordinal()] = 2;
            row[Series.QUEUE_LENGTH.ordinal()] = 0;
            row[Series.REPLICAS.ordinal()] = 2;
            h.append(MONDAY + 60.0 * i, row);
        }
        return h;
    }

    record Run(int code, String out, String err) {
    }

    static Run run(Path file, ClassHistory history, List<Duration> asked, String... args) {
        WhatIfCommand.HistoryLoader loader = (f, cls, now, window, err) -> {
            asked.add(window);
            return new WhatIfCommand.Loaded(history, "the test's weeks", List.of());
        };
        List<String> all = new ArrayList<>(List.of("--config", file.toString(), "--class", "orders"));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = WhatIfCommand.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.fixed(Instant.ofEpochSecond((long) history.lastTime()), ZoneOffset.UTC), loader);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Path workloads(Path dir) throws Exception {
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
                      slotsPerReplica: 4
                      minReplicas: 1
                      maxReplicas: 100
                      maxAgeSeconds: 20
                      pollIntervalSeconds: 30
                """);
        return file;
    }

    @Test
    void theWeekComparesTheLivePolicyWithPredictiveFloorsAndKeda(@TempDir Path dir) throws Exception {
        List<Duration> asked = new ArrayList<>();
        Run r = run(workloads(dir), weeks(8), asked, "--week", "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Duration.ofDays(14)), asked, "the week, and the week before it for the forecasts");
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertEquals(7 * 86_400, json.get("seconds").asDouble(0.0), 1, "the whole week replayed");
        assertTrue(json.get("baseline").asString("").contains("listLength 5"), r.out());
        for (JsonNode row : json.get("rows")) {
            assertTrue(!row.get("predictive").asString("").isEmpty(), "every row has the predictive figure: " + row);
        }
        JsonNode p = json.get("predictive");
        assertTrue(p.get("forecastsGiven").asInt(0) > 0 && p.get("floorsPlanned").asInt(0) >= 5,
                "forecasts from the day before the window on, a floor ahead of the weekday mornings: " + p);
        JsonNode over = json.get("rows").get(3);
        assertEquals("Time over objective", over.get("what").asString(""));
        double live = seconds(over.get("current").asString(""));
        double predictive = seconds(over.get("predictive").asString(""));
        assertTrue(predictive < live, "fewer seconds over the objective with the floors: " + over);
        assertEquals(predictive, p.get("violationSeconds").asDouble(-1), 0.5);
        assertTrue(p.get("words").asString("").startsWith("With predictive: "), p.toString());
    }

    @Test
    void predictiveAddsTheColumnToADayAndItsForecastsReadTheWeekBefore(@TempDir Path dir) throws Exception {
        List<Duration> asked = new ArrayList<>();
        Run r = run(workloads(dir), weeks(8), asked, "--window", "1d", "--predictive", "--keda-list-length", "0");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of(Duration.ofDays(8)), asked, "the day and the week before it");
        String header = r.out().lines().filter(l -> l.contains("Live policy")).findFirst().orElseThrow();
        assertTrue(header.contains("With predictive"), r.out());
        assertTrue(r.out().contains("under the live policy and the edited one and the live policy with predictive"
                + " floors"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("With predictive: ") && l.contains("forecast floors held")),
                "the sentence on what the floors did, from forecasts made on the week before the day:\n" + r.out());

        List<Duration> plain = new ArrayList<>();
        Run without = run(workloads(dir), weeks(8), plain, "--window", "30m", "--keda-list-length", "0", "--json");
        assertEquals(0, without.code(), without.err());
        assertEquals(List.of(Duration.ofMinutes(30)), plain, "no predictive run: only the window is asked");
        JsonNode json = new ObjectMapper().readTree(without.out());
        assertTrue(json.get("predictive").isNull(), without.out());
        assertEquals("", json.get("rows").get(0).get("predictive").asString("?"));
    }

    /** "12 s (objective 20 s)" → 12. */
    static double seconds(String cell) {
        return Double.parseDouble(cell.substring(0, cell.indexOf(' ')));
    }
}
