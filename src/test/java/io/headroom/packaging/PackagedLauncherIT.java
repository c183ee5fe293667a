package io.headroom.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
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
        // Built once for the class. The AppCDS archive trained on the command line alone (no console start
        // under xvfb): what is tested here is that the installed package maps it, not how much it holds;
        // the archive's effect on the console's start is StartupBenchmark's.
        Run r = run(List.of(ROOT.resolve("packaging/build").toString(), "--no-build", "--fast"), 900,
                java.util.Map.of("HEADROOM_CDS_CLI_ONLY", "1"));
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
            if (n.path("summary").asBoolean(false)) {
                summaries.add(n);
            }
        }
        assertEquals(1, summaries.size(), "one class, one policy");
        assertEquals("checkout-events", summaries.get(0).path("class").asString(""));
        assertTrue(summaries.get(0).path("jobsCompleted").asLong(0L) > 10_000, summaries.get(0).toString());
        assertTrue(Files.isDirectory(IMAGE.resolve("lib/runtime")), "the image carries its own Java runtime");
    }

    @Test
    void theDebUnpacksToALauncherACommandOnThePathAndADesktopEntry(@TempDir Path root) throws Exception {
        unpackDeb(root);
        Path deb = deb();
        Run info = run(List.of("dpkg-deb", "-f", deb.toString(), "Package", "Version", "Depends"), 60);
        assertTrue(info.out().contains("Package: headroom"), info.out());

        // The command on the PATH: the launcher, with ./headroom's environment (no D-Bus autolaunched without a bus).
        Path bin = root.resolve("usr/bin/headroom");
        assertTrue(Files.isExecutable(bin) && !Files.isSymbolicLink(bin), "the headroom command is on the PATH");
        String command = Files.readString(bin);
        assertTrue(command.startsWith("#!/bin/bash\n") && command.contains("headroom_desktop_env\n")
                && command.endsWith("exec /opt/headroom/bin/headroom \"$@\"\n"), command);
        Run env = run(List.of("env", "-u", "DBUS_SESSION_BUS_ADDRESS", "-u", "XDG_RUNTIME_DIR", "-u", "NO_AT_BRIDGE",
                "bash", "-c",
                "eval \"$(sed -n '/^headroom_desktop_env ()/,/^}/p' \"$0\")\"; headroom_desktop_env; "
                        + "echo \"$DBUS_SESSION_BUS_ADDRESS $NO_AT_BRIDGE\"", bin.toString()), 30);
        assertEquals("disabled: 1", env.out().strip(), "without a session bus none is autolaunched: " + env.err());
        String desktop = Files.readString(root.resolve("usr/share/applications/headroom.desktop"));
        assertTrue(desktop.contains("Exec=/opt/headroom/bin/headroom"), desktop);
        assertTrue(Files.isRegularFile(root.resolve("usr/share/icons/hicolor/256x256/apps/headroom.png")));

        Run version = run(List.of(launcher(root.resolve("opt/headroom")).toString(), "--version"), 120);
        assertEquals(0, version.code(), version.err());
        assertTrue(version.out().startsWith("headroom "), version.out());
    }

    /** The .deb unpacked into a scratch root: what dpkg -i would put on the disk. */
    private static Path unpackDeb(Path root) throws Exception {
        assumeTrue(onPath("dpkg-deb"), "dpkg-deb is missing: no .deb is built here");
        Run x = run(List.of("dpkg-deb", "-x", deb().toString(), root.toString()), 120);
        assertEquals(0, x.code(), x.err());
        return root;
    }

    private static Path deb() throws IOException {
        try (Stream<Path> s = Files.list(ROOT.resolve("target/dist"))) {
            return s.filter(p -> p.toString().endsWith(".deb")).findFirst().orElseThrow();
        }
    }

    /**
     * Runs {@code command} with the unpacked package at /opt/headroom, where dpkg -i puts it, in a private
     * mount namespace (nothing on this machine's /opt is touched); {@code env} adds to the environment.
     */
    private static Run installed(Path root, List<String> command, java.util.Map<String, String> env) throws Exception {
        List<String> ns = new ArrayList<>(List.of("unshare", "-m", "--propagation", "private"));
        if (!"root".equals(System.getProperty("user.name"))) {
            ns.add("-r");
        }
        ns.addAll(List.of("--", "sh", "-c", "mount -t tmpfs tmpfs /opt && mkdir /opt/headroom "
                + "&& mount --bind \"$1\" /opt/headroom && shift && exec \"$@\"", "sh",
                root.resolve("opt/headroom").toString()));
        ns.addAll(command);
        return run(ns, 300, env);
    }

    @Test
    void theInstalledPackageStartsFromItsClassDataArchive(@TempDir Path root) throws Exception {
        unpackDeb(root);
        assumeTrue(onPath("unshare") && installed(root, List.of("true"), java.util.Map.of()).code() == 0,
                "no mount namespace here (unshare): the package cannot be run from /opt/headroom");
        assertTrue(buildOutput.contains("classes archived in lib/app/headroom.jsa"), buildOutput);
        assertTrue(Files.isRegularFile(root.resolve("opt/headroom/lib/app/headroom.jsa")), "the .deb ships the archive");
        // Every class Java loads, and where from: the launcher's class from the archive, not from its jar.
        Run v = installed(root, List.of("/opt/headroom/bin/headroom", "--version"),
                java.util.Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info"));
        assertEquals(0, v.code(), v.err());
        assertTrue(v.out().lines().anyMatch(l -> l.endsWith("io.headroom.Main source: shared objects file")),
                "installed, the archive is mapped and the launcher's classes come from it:\n"
                        + v.out().lines().filter(l -> l.contains("io.headroom.Main")).toList());
        assertTrue(v.out().lines().anyMatch(l -> l.contains("picocli.CommandLine source: shared objects file")),
                "the libraries' classes too");
        assertTrue(v.out().contains("headroom "), v.out());
    }

    @Test
    void theInstalledHelpNamesTheExamplesItShips(@TempDir Path root) throws Exception {
        unpackDeb(root);
        assumeTrue(onPath("unshare") && installed(root, List.of("true"), java.util.Map.of()).code() == 0,
                "no mount namespace here (unshare): the package cannot be run from /opt/headroom");
        // Through the command on the PATH, which execs the launcher at /opt/headroom.
        Run help = installed(root, List.of(root.resolve("usr/bin/headroom").toString(), "simulate", "--help"),
                java.util.Map.of());
        assertEquals(0, help.code(), help.err());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("see (/\\S+)/scenarios/").matcher(help.out());
        assertTrue(m.find(), help.out());
        Path examples = root.resolve(m.group(1).substring(1));
        assertTrue(Files.isRegularFile(examples.resolve("scenarios/burst.yaml")), "shipped where the help says: " + m.group(1));
        assertTrue(Files.isRegularFile(examples.resolve("workloads.yaml")), "the welcome's example too");
        Run sim = installed(root, List.of("/opt/headroom/bin/headroom", "simulate", "--scenario",
                m.group(1) + "/scenarios/burst.yaml"), java.util.Map.of());
        assertEquals(0, sim.code(), sim.err());
    }

    @Test
    void theDebCarriesItsLicencesManualChangelogAndNoEmptyJars(@TempDir Path root) throws Exception {
        unpackDeb(root);
        String copyright = Files.readString(root.resolve("usr/share/doc/headroom/copyright"));
        assertTrue(copyright.startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"));
        assertTrue(copyright.contains("Files: *\nCopyright: 2026 Headroom maintainers\nLicense: Apache-2.0"), copyright);
        // every bundled jar is listed with a licence (Headroom's own, headroom.jar, is "Files: *")
        try (Stream<Path> jars = Files.walk(root.resolve("opt/headroom"))) {
            for (Path jar : jars.filter(p -> p.toString().endsWith(".jar")).toList()) {
                String rel = root.relativize(jar).toString();
                if (!rel.startsWith("opt/headroom/lib/runtime") && !rel.equals("opt/headroom/lib/app/headroom.jar")) {
                    assertTrue(copyright.contains(rel), rel + " is in the copyright file");
                }
                try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(jar.toFile())) {
                    assertTrue(z.stream().anyMatch(e -> e.getName().endsWith(".class")), rel + " holds classes");
                }
            }
        }
        assertTrue(Files.size(root.resolve("usr/share/man/man1/headroom.1.gz")) > 500);
        assertTrue(Files.isRegularFile(root.resolve("usr/share/doc/headroom/changelog.gz")));
        Run fields = run(List.of("dpkg-deb", "-f", deb().toString(), "Maintainer", "Homepage", "Version", "Recommends"), 60);
        assertTrue(fields.out().contains("Maintainer: Headroom maintainers <maintainers@headroom.dev>"), fields.out());
        assertTrue(fields.out().contains("Homepage: https://headroom.dev"), fields.out());
        assertTrue(fields.out().contains("Recommends: bash-completion"), fields.out());
        // A snapshot's version sorts by build order: the commit count before the hash.
        String version = fields.out().lines().filter(l -> l.startsWith("Version: ")).findFirst().orElseThrow().substring(9);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+\\.\\d+\\.\\d+)~snapshot(\\d+)\\.(\\d{12})\\+git(\\w+)")
                .matcher(version);
        assertTrue(m.matches(), version);
        String parent = m.group(1) + "~snapshot" + (Long.parseLong(m.group(2)) - 1) + "." + m.group(3) + "+gitfffffff";
        assertEquals(0, run(List.of("dpkg", "--compare-versions", version, "gt", parent), 30).code(),
                version + " sorts above its parent " + parent + " whatever the hashes");
        assertEquals(0, run(List.of("dpkg", "--compare-versions", version, "lt", m.group(1)), 30).code(),
                "the release sorts above its snapshots");
    }

    @Test
    void lintianFindsNoErrorInTheDeb() throws Exception {
        assumeTrue(onPath("lintian"), "lintian is missing (apt-get install lintian)");
        Run l = run(List.of("lintian", "--tag-display-limit", "0", deb().toString()), 300);
        List<String> errors = l.out().lines().filter(x -> x.startsWith("E: ")).toList();
        assertEquals(List.of(), errors, "lintian's errors:\n" + l.out());
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
