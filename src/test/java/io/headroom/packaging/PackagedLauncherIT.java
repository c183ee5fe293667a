package io.headroom.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds what an on-call engineer installs ({@code packaging/build --no-build}, after Maven's
 * {@code package}) and runs it: the app image's launcher, headless, with {@code help},
 * {@code --version} and {@code simulate}; and the .deb unpacked into a temporary root, whose
 * launcher and {@code headroom} command run too.
 */
class PackagedLauncherIT {
    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Path IMAGE = ROOT.resolve("target/dist/headroom");
    private static String buildOutput;

    record Run(int code, String out, String err) {
    }

    @BeforeAll
    static void build() throws Exception {
        assumeTrue(onPath("jpackage"), "jpackage is missing (it comes with a full JDK 17): the packaging test is skipped");
        // Without the AppCDS training runs (a console start under xvfb, a simulation, a dump): what is
        // tested here is the launcher, the runtime and the .deb; the archive's effect is StartupBenchmark's.
        Run r = run(List.of(ROOT.resolve("packaging/build").toString(), "--no-build", "--fast"), 900,
                java.util.Map.of("HEADROOM_NO_CDS", "1"));
        buildOutput = r.out() + r.err();
        assertEquals(0, r.code(), "packaging/build failed:\n" + buildOutput);
        System.out.println(buildOutput.strip());
    }

    @Test
    void theAppImageLauncherPrintsHelpAndItsVersion() throws Exception {
        Run help = run(List.of(launcher(IMAGE).toString(), "help"), 120);
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().contains("headroom simulate --scenario FILE"), help.out());

        Run version = run(List.of(launcher(IMAGE).toString(), "--version"), 120);
        assertEquals(0, version.code(), version.err());
        String jarVersion = new String(Files.readAllBytes(ROOT.resolve("target/classes/io/headroom/build.properties")),
                StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("version=")).findFirst().orElseThrow()
                .substring("version=".length());
        assertTrue(version.out().startsWith("headroom " + jarVersion + " (commit "), version.out());

        Run bad = run(List.of(launcher(IMAGE).toString(), "no-such-command"), 120);
        assertEquals(2, bad.code(), "a usage error keeps exit code 2 in the package");
    }

    @Test
    void theAppImageRunsAScenarioWithItsOwnRuntime() throws Exception {
        Run sim = run(List.of(launcher(IMAGE).toString(), "simulate", "--scenario",
                ROOT.resolve("examples/scenarios/burst.yaml").toString(), "--json"), 300);
        assertEquals(0, sim.code(), sim.err());
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> summaries = new ArrayList<>();
        for (String line : sim.out().lines().toList()) {
            JsonNode n = json.readTree(line);
            if (n.path("summary").asBoolean()) {
                summaries.add(n);
            }
        }
        assertEquals(1, summaries.size(), "one class, one policy");
        assertEquals("checkout-events", summaries.get(0).path("class").asText());
        assertTrue(summaries.get(0).path("jobsCompleted").asLong() > 10_000, summaries.get(0).toString());
        assertTrue(Files.isDirectory(IMAGE.resolve("lib/runtime")), "the image carries its own Java runtime");
    }

    @Test
    void theDebUnpacksToALauncherACommandOnThePathAndADesktopEntry(@TempDir Path root) throws Exception {
        assumeTrue(onPath("dpkg-deb"), "dpkg-deb is missing: no .deb is built here");
        Path deb;
        try (Stream<Path> s = Files.list(ROOT.resolve("target/dist"))) {
            deb = s.filter(p -> p.toString().endsWith(".deb")).findFirst().orElseThrow();
        }
        Run x = run(List.of("dpkg-deb", "-x", deb.toString(), root.toString()), 120);
        assertEquals(0, x.code(), x.err());
        Run info = run(List.of("dpkg-deb", "-f", deb.toString(), "Package", "Version", "Depends"), 60);
        assertTrue(info.out().contains("Package: headroom"), info.out());

        Path bin = root.resolve("usr/bin/headroom");
        assertTrue(Files.isSymbolicLink(bin), "the headroom command is on the PATH");
        assertEquals(Path.of("/opt/headroom/bin/headroom"), Files.readSymbolicLink(bin));
        String desktop = Files.readString(root.resolve("usr/share/applications/headroom.desktop"));
        assertTrue(desktop.contains("Exec=/opt/headroom/bin/headroom"), desktop);
        assertTrue(Files.isRegularFile(root.resolve("usr/share/icons/hicolor/256x256/apps/headroom.png")));

        Run version = run(List.of(launcher(root.resolve("opt/headroom")).toString(), "--version"), 120);
        assertEquals(0, version.code(), version.err());
        assertTrue(version.out().startsWith("headroom "), version.out());
    }

    private static Path launcher(Path image) {
        return image.resolve("bin/headroom");
    }

    private static boolean onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, tool)));
    }

    private static Run run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        return run(command, timeoutSeconds, java.util.Map.of());
    }

    private static Run run(List<String> command, long timeoutSeconds, java.util.Map<String, String> env)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile());
        pb.environment().putAll(env);
        pb.environment().remove("DISPLAY"); // headless: the CLI never needs a display
        Path out = Files.createTempFile("headroom-pkg", ".out");
        Path err = Files.createTempFile("headroom-pkg", ".err");
        try {
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(command + " did not finish within " + timeoutSeconds + " s");
            }
            return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
