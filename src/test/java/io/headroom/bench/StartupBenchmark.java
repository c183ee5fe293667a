package io.headroom.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How long the console takes to start, measured from outside: each run is a child JVM started by this
 * benchmark (process start = {@code ProcessBuilder.start()}), which prints {@code headroom-startup window}
 * (first frame of any scene), {@code … ui} (first frame of the real console) and {@code … tick} (first
 * live tick) with {@code -Dheadroom.startupMarks=true} and quits after both. Two modes: the sandbox, and
 * a workloads file whose Prometheus and cluster are closed loopback ports (the first tick then has no
 * data, which is what a console behind a dead network shows; nothing here waits on a network). Each
 * mode runs without and with an AppCDS archive made the way {@code packaging/build} makes it: a
 * training run per mode writes the loaded classes ({@code -XX:DumpLoadedClassList}), the union is
 * dumped once ({@code -Xshare:dump}) and used with {@code -XX:SharedArchiveFile}. Runs alternate so
 * machine load hits both sides alike. The children run the packaged jars as {@code ./headroom} does
 * (CDS archives classes from jars only): {@code mvn package} first. Needs a display
 * ({@code xvfb-run -a scripts/bench StartupBenchmark [runs]}).
 */
public final class StartupBenchmark {
    private static final String[] MARKS = {"window", "ui", "tick"};

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        String cp = packagedClasspath();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path dir = Files.createTempDirectory("headroom-startup");
        Map<String, List<String>> modes = new LinkedHashMap<>();
        modes.put("sandbox", List.of());
        modes.put("workloads file", workloadsMode(dir));

        // Training: one run per mode lists the classes it loads; one dump makes the archive of their union.
        Path list = dir.resolve("classes.lst");
        List<String> classes = new ArrayList<>();
        for (var m : modes.entrySet()) {
            Path part = dir.resolve("classes-" + classes.size() + ".lst");
            run(java, cp, dir, List.of("-XX:DumpLoadedClassList=" + part), m.getValue());
            classes.addAll(Files.readAllLines(part));
        }
        Files.write(list, classes.stream().distinct().toList());
        Path archive = dir.resolve("headroom.jsa");
        long d0 = System.nanoTime();
        Process dump = new ProcessBuilder(java, "-Xshare:dump", "-XX:SharedClassListFile=" + list,
                "-XX:SharedArchiveFile=" + archive, "-cp", cp).redirectErrorStream(true)
                .redirectOutput(dir.resolve("dump.log").toFile()).start();
        if (dump.waitFor() != 0 || !Files.exists(archive)) {
            throw new IllegalStateException("the CDS dump failed: " + Files.readString(dir.resolve("dump.log")));
        }
        System.out.printf("AppCDS archive: %,d classes, %d MB, dumped in %.1f s; load average %.1f; %d runs each%n",
                classes.stream().distinct().count(), Files.size(archive) >> 20, (System.nanoTime() - d0) / 1e9,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), runs);

        Map<String, List<long[]>> results = new LinkedHashMap<>();
        for (int r = 0; r < runs; r++) {
            for (var m : modes.entrySet()) {
                for (boolean cds : new boolean[] {false, true}) {
                    List<String> jvm = cds ? List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto") : List.of("-Xshare:auto");
                    results.computeIfAbsent(m.getKey() + (cds ? " +CDS" : ""), k -> new ArrayList<>())
                            .add(run(java, cp, dir, jvm, m.getValue()));
                }
            }
        }
        System.out.println();
        System.out.printf("%-22s %14s %14s %14s   (median of %d, ms from process start; min in brackets)%n",
                "mode", "first window", "first real UI", "first tick", runs);
        for (var e : results.entrySet()) {
            StringBuilder line = new StringBuilder(String.format("%-22s", e.getKey()));
            for (int i = 0; i < MARKS.length; i++) {
                int k = i;
                long[] v = e.getValue().stream().mapToLong(a -> a[k]).sorted().toArray();
                line.append(String.format(" %7d (%5d)", v[v.length / 2], v[0]));
            }
            System.out.println(line);
        }
    }

    /** {@code target/headroom.jar} and its libraries, as {@code ./headroom} runs them. */
    private static String packagedClasspath() throws IOException {
        Path jar = Path.of("target", "headroom.jar");
        Path lib = Path.of("target", "lib");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new IllegalStateException("target/headroom.jar and target/lib are missing: run mvn package first");
        }
        List<String> parts = new ArrayList<>(List.of(jar.toAbsolutePath().toString()));
        try (var jars = Files.list(lib)) {
            jars.filter(p -> p.toString().endsWith(".jar")).sorted()
                    .forEach(p -> parts.add(p.toAbsolutePath().toString()));
        }
        return String.join(java.io.File.pathSeparator, parts);
    }

    /** A workloads file whose Prometheus and cluster are closed loopback ports; a kubeconfig for it. */
    private static List<String> workloadsMode(Path dir) throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Path kubeconfig = dir.resolve("kubeconfig.yaml");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                current-context: bench
                clusters: [{name: bench, cluster: {server: "http://127.0.0.1:%d"}}]
                contexts: [{name: bench, context: {cluster: bench, user: bench, namespace: work}}]
                users: [{name: bench, user: {}}]
                """.formatted(closed));
        Path workloads = dir.resolve("workloads.yaml");
        StringBuilder classes = new StringBuilder();
        for (String c : List.of("payments", "search", "ledger", "enrichment", "nightly")) {
            classes.append("""
                      - {name: %s, context: bench, namespace: work, target: {kind: Deployment, name: %s},
                         signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s},
                         policy: {pollIntervalSeconds: 5}}
                    """.formatted(c, c));
        }
        Files.writeString(workloads, "prometheus: {url: \"http://127.0.0.1:" + closed + "\", timeoutSeconds: 1}\n"
                + "classes:\n" + classes);
        return List.of("--config=" + workloads, "KUBECONFIG=" + kubeconfig);
    }

    /** Settings that say the welcome was answered: the benchmark times the usual start, not a first run. */
    private static Path settings(Path dir) throws IOException {
        Path f = dir.resolve("settings.json");
        if (!Files.exists(f)) {
            Files.writeString(f, "{\"workloadsFile\": null, \"welcomed\": true}\n");
        }
        return f;
    }

    /** One child console; returns ms from process start to each mark. */
    private static long[] run(String java, String cp, Path dir, List<String> jvm, List<String> mode)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(java, "-Dheadroom.startupMarks=true",
                "-Dheadroom.exitAfterStartup=true", "-Dprism.order=sw"));
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", cp, "io.headroom.Main", "--settings=" + settings(dir),
                "--journal=" + dir.resolve("journal-" + System.nanoTime() + ".jsonl")));
        ProcessBuilder pb = new ProcessBuilder();
        for (String a : mode) {
            if (a.startsWith("KUBECONFIG=")) {
                pb.environment().put("KUBECONFIG", a.substring("KUBECONFIG=".length()));
            } else {
                cmd.add(a);
            }
        }
        pb.command(cmd).redirectError(dir.resolve("child.log").toFile());
        pb.environment().put("XDG_CONFIG_HOME", dir.resolve("config").toString());
        pb.environment().put("XDG_STATE_HOME", dir.resolve("state").toString());
        long t0 = System.nanoTime();
        Process p = pb.start();
        long[] at = new long[MARKS.length];
        Arrays.fill(at, -1);
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                long ms = (System.nanoTime() - t0) / 1_000_000;
                for (int i = 0; i < MARKS.length; i++) {
                    if (line.equals("headroom-startup " + MARKS[i])) {
                        at[i] = ms;
                    }
                }
            }
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        for (long v : at) {
            if (v < 0) {
                throw new IllegalStateException("a run did not reach every mark " + Arrays.toString(at) + "; see "
                        + dir.resolve("child.log"));
            }
        }
        return at;
    }
}
