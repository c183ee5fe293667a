package io.headroom.ui.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import io.headroom.cli.WhatIfCommand;
import io.headroom.config.WorkloadsFile;
import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.whatif.ComparisonTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "must show": {@code headroom whatif} and the What-if window produce the same
 * comparison for the same history and the same edits (the window's view model, no toolkit).
 */
class WhatIfCliParityTest {
    static final double T0 = 1_796_000_000;

    /** 40 minutes at a 5 s tick: 3 jobs/s of 1.5 s, a 10-minute burst to 14 jobs/s, 4 replicas at the start. */
    static ClassHistory history() {
        ClassHistory h = new ClassHistory("orders", ClassHistory.capacityFor(java.time.Duration.ofSeconds(5)));
        for (int i = 0; i <= 480; i++) {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = i >= 200 && i < 320 ? 14 : 3;
            row[Series.MEAN_SERVICE.ordinal()] = i % 40 == 3 ? Double.NaN : 1.5;
            row[Series.QUEUE_LENGTH.ordinal()] = 12;
            row[Series.REPLICAS.ordinal()] = 4;
            h.append(T0 + 5.0 * i, row);
        }
        return h;
    }

    @Test
    void theCommandLinePrintsTheWindowsComparisonForTheSameHistory(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("workloads.yaml");
        Files.writeString(file, """
                prometheus:
                  url: http://127.0.0.1:1
                classes:
                  - name: orders
                    context: test
                    target: {name: worker}
                    signals:
                      queueLength: q
                      oldestAge: a
                      arrivalRate: r
                      meanService: s
                    policy:
                      slotsPerReplica: 3
                      minReplicas: 2
                      maxReplicas: 6
                      maxAgeSeconds: 45
                      pollIntervalSeconds: 5
                      ceilings:
                        - {name: db, budget: 60, perReplica: 6}
                """);
        Policy live = WorkloadsFile.read(file).classConfig("orders").orElseThrow().policy();
        ClassHistory history = history();
        WhatIfCommand.HistoryLoader loader = (f, cls, now, window, err) ->
                new WhatIfCommand.Loaded(history, "the test's history", List.of());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = WhatIfCommand.run(List.of("--config", file.toString(), "--class", "orders", "--set",
                        "maxReplicas=12", "--set", "targetUtilization=0.6", "--set", "ceiling.db=54", "--window", "30m",
                        "--json"), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.fixed(Instant.ofEpochSecond((long) T0 + 2400), ZoneOffset.UTC), loader);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        JsonNode json = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));

        // The window: the same live policy, the same history, the same edits, made in its fields.
        List<Runnable> background = new ArrayList<>();
        WhatIfViewModel vm = new WhatIfViewModel("orders", live, io.headroom.whatif.LoadSource.of(() -> history),
                background::add, Runnable::run, ComparisonTable.SEED);
        vm.maxReplicasProperty().set("12");
        vm.targetUtilizationProperty().set("0.6");
        vm.ceilings().get(0).capProperty().set("54"); // connections: 54 / 6 per replica = 9 replicas
        vm.windowMinutesProperty().set(30);
        vm.replay();
        background.forEach(Runnable::run);
        List<WhatIfViewModel.Row> shown = List.copyOf(vm.rows());

        assertEquals(7, shown.size(), vm.statusProperty().get());
        assertEquals(shown.size(), json.get("rows").size());
        for (int i = 0; i < shown.size(); i++) {
            WhatIfViewModel.Row w = shown.get(i);
            JsonNode c = json.get("rows").get(i);
            assertEquals(List.of(w.what(), w.current(), w.edited(), w.change(), w.keda()),
                    List.of(c.get("what").asString(""), c.get("current").asString(""), c.get("edited").asString(""),
                            c.get("change").asString(""), c.get("keda").asString("")), "row " + i);
            assertEquals(w.verdict().name().toLowerCase(java.util.Locale.ROOT), c.get("verdict").asString(""), "row " + i);
        }
        assertEquals(vm.comparisonProperty().get().baselineLabel(), json.get("baseline").asString(""));
        assertEquals(1800, json.get("seconds").asDouble(0.0));
        // Not a vacuous match: the edits changed the outcome, and KEDA's rule is the third run.
        assertTrue(shown.stream().anyMatch(r -> !r.change().equals("same")), shown.toString());
        assertTrue(shown.stream().allMatch(r -> !r.keda().isEmpty()), shown.toString());

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        assertEquals(0, WhatIfCommand.run(List.of("--config", file.toString(), "--class", "orders", "--set",
                        "maxReplicas=12", "--set", "targetUtilization=0.6", "--set", "ceiling.db=54"),
                new PrintStream(text, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.systemUTC(), loader));
        String table = text.toString(StandardCharsets.UTF_8);
        for (WhatIfViewModel.Row w : shown) {
            assertTrue(table.contains(w.edited()) && table.contains(w.what()), w + " in\n" + table);
        }
    }
}
