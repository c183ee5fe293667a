package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom export-keda} as a user runs it on the example workloads file. */
class ExportCommandTest {

    @Test
    void printsTheClassAsAScaledObjectAndWritesANewFileOnly(@TempDir Path dir) throws Exception {
        SimulateCommandTest.Run r = SimulateCommandTest.run("export-keda", "--config", "examples/workloads.yaml",
                "--class", "enrichment");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("kind: ScaledObject"), r.out());
        assertTrue(r.out().contains("# not expressible in KEDA: the concurrency governor"), r.out());
        Path out = dir.resolve("so.yaml");
        assertEquals(0, SimulateCommandTest.run("export-keda", "--config", "examples/workloads.yaml", "--class",
                "enrichment", "--out", out.toString()).code());
        assertEquals(r.out(), Files.readString(out));
        SimulateCommandTest.Run again = SimulateCommandTest.run("export-keda", "--config", "examples/workloads.yaml",
                "--class", "enrichment", "--out", out.toString());
        assertEquals(2, again.code(), "never overwrites");
        SimulateCommandTest.Run none = SimulateCommandTest.run("export-keda", "--config", "examples/workloads.yaml",
                "--class", "nope");
        assertEquals(2, none.code());
        assertTrue(none.err().contains("no class 'nope'") && none.err().contains("payments, enrichment"), none.err());
    }
}
