package io.headroom.ui.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cli.WhatIfCommand;
import io.headroom.config.ClassConfig;
import io.headroom.config.ClassPool;
import io.headroom.config.WorkloadsFile;
import io.headroom.history.ClassHistory;
import io.headroom.whatif.AdmissionPlacement;
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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Admission off vs on and placement vs one pool: {@code headroom whatif} on a workloads file whose class publishes
 * admission and lists pools prints the rows the What-if window shows for the same history (no toolkit).
 */
class AdmissionPlacementParityTest {

    @Test
    void theCommandLineAndTheWindowShowTheSameAdmissionAndPlacementRows(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("workloads.yaml");
        Files.writeString(file, """
                prometheus:
                  url: http://127.0.0.1:1
                classes:
                  - name: orders
                    context: test
                    pools:
                      - {name: spot, target: {name: worker-spot}, maxReplicas: 12, costWeight: 1}
                      - {name: on-demand, target: {name: worker-od}, maxReplicas: 12, costWeight: 3}
                    admission: {publish: true}
                    signals:
                      queueLength: q
                      oldestAge: a
                      arrivalRate: r
                      meanService: s
                    policy:
                      slotsPerReplica: 3
                      minReplicas: 2
                      maxReplicas: 12
                      maxAgeSeconds: 45
                      pollIntervalSeconds: 5
                """);
        ClassConfig cls = WorkloadsFile.read(file).classConfig("orders").orElseThrow();
        ClassHistory history = WhatIfCliParityTest.history();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = WhatIfCommand.run(List.of("--config", file.toString(), "--class", "orders", "--window", "30m",
                        "--json"), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                Clock.fixed(Instant.ofEpochSecond((long) WhatIfCliParityTest.T0 + 2400), ZoneOffset.UTC),
                (f, c, now, window, e) -> new WhatIfCommand.Loaded(history, "the test's history", List.of()));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        JsonNode json = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8));

        List<Runnable> background = new ArrayList<>();
        WhatIfViewModel vm = new WhatIfViewModel("orders", cls.policy(), io.headroom.whatif.LoadSource.of(() -> history),
                background::add, Runnable::run, ComparisonTable.SEED);
        vm.setAdmissionPlacement(new AdmissionPlacement.Ask(true, cls.pools().stream().map(ClassPool::spec).toList(),
                null));
        vm.windowMinutesProperty().set(30);
        vm.replay();
        while (!background.isEmpty()) {
            Runnable r = background.remove(0);
            r.run();
        }
        List<WhatIfViewModel.Row> shown = List.copyOf(vm.admissionPlacementRows());
        assertEquals(2 + 5 + 6, shown.size(), vm.admissionPlacementStatusProperty().get());

        List<List<String>> fromCli = new ArrayList<>();
        for (JsonNode r : json.get("admission").get("rows")) {
            fromCli.add(List.of(r.get("what").asString(), r.get("off").asString(), r.get("on").asString(),
                    r.get("change").asString(), r.get("verdict").asString()));
        }
        for (JsonNode r : json.get("placement").get("rows")) {
            fromCli.add(List.of(r.get("what").asString(), r.get("onePool").asString(), r.get("placed").asString(),
                    r.get("change").asString(), r.get("verdict").asString()));
        }
        List<List<String>> fromWindow = shown.stream()
                .filter(r -> !(r.what().equals("Admission") || r.what().equals("Placement")))
                .map(r -> List.of(r.what(), r.current(), r.edited(), r.change(),
                        r.verdict().name().toLowerCase(java.util.Locale.ROOT))).toList();
        assertEquals(fromCli, fromWindow);
        // Not vacuous: placement changed something on this burst.
        assertTrue(fromWindow.stream().anyMatch(r -> !r.get(3).equals("same") && !r.get(3).isEmpty()),
                fromWindow.toString());
    }
}
