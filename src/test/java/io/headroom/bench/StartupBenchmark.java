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
import java.util.Locale;
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
 * ({@code xvfb-run -a scripts/bench StartupBenchmark [runs] [variants]}; variants, comma-separated, besides the
 * plain JVM: {@code +CDS} (default), {@code +DynCDS} (a dynamic archive per mode, written at the exit of one
 * run with {@code -XX:ArchiveClassesAtExit}, as {@code ./headroom} makes it), {@code +C1}
 * ({@code -XX:TieredStopAtLevel=1}), {@code +Serial} ({@code -XX:+UseSerialGC}) and combinations such as
 * {@code +CDS+C1}), and as {@code ./headroom} starts it (its class path, {@link LauncherLayout}):
 * {@code @None}, {@code @First} (no archive, one written at exit: the first run after a build before the build
 * made one), {@code @Dyn} (that launcher's later runs) and {@code @Build} (the archive {@code mvn package} makes);
 * a list of "@" variants alone leaves out the plain JVM, e.g. {@code 3 @First,@Dyn,@Build}. Any variant takes JVM
 * options as further "+" parts ({@link #flags}), e.g. {@code @Build+Serial} or {@code @Build+LateC2}; with
 * {@code --baseline} those run on this checkout's build alone (they compare options, not builds). With
 * {@code --baseline=DIR} (a checkout whose {@code target} holds its packaged jars, e.g. main's worktree after
 * {@code mvn package}) every configuration also runs on that build, alternating with this one, each with its own archive: before and after in one run, under the same load
 * (several directories, comma-separated, each labelled by its folder's name: the steps of a change side by side). With
 * {@code --fleet=N} a third mode opens a fleet's workloads file of N classes ({@code FleetFile}). With
 * {@code --installed=ROOT} (the .deb unpacked there by {@code dpkg-deb -x}) the installed package runs too, from
 * /opt/headroom in a private mount namespace (root or user namespaces), with its own launcher and archive.
 *
 * <p>Wall time moves with the machine's load, so each run also reports what does not: the child's CPU
 * time (all threads) and the number of classes it had loaded at each mark, and how many of those came
 * from the archive.
 */
public final class StartupBenchmark {
    private static final String[] MARKS = {"window", "ui", "tick"};
    private static final String INSTALLED = "installed:";
    private static final String STAGE = "headroom-startup at:";

    public static void main(String[] argv) throws Exception {
        String baseline = Arrays.stream(argv).filter(a -> a.startsWith("--baseline=")).map(a -> a.substring(11))
                .findFirst().orElse(null);
        int fleet = Arrays.stream(argv).filter(a -> a.startsWith("--fleet=")).mapToInt(a -> Integer.parseInt(a.substring(8)))
                .findFirst().orElse(0);
        String installed = Arrays.stream(argv).filter(a -> a.startsWith("--installed=")).map(a -> a.substring(12))
                .findFirst().orElse(null);
        String[] args = Arrays.stream(argv).filter(a -> !a.startsWith("--baseline=") && !a.startsWith("--fleet=")
                        && !a.startsWith("--installed="))
                .toArray(String[]::new);
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        // Variants: "" the plain JVM (everything on the class path), "+CDS" (the archive), "+C1"
        // (-XX:TieredStopAtLevel=1), "+CDS+C1"; "@..." as ./headroom runs it (LauncherLayout). With a list given
        // that has no "" entry (e.g. "@First,@Build"), the plain JVM is not run.
        List<String> variants = new ArrayList<>();
        List<String> asked = args.length > 1 ? Arrays.asList(args[1].split(",", -1)) : List.of("+CDS");
        if (asked.stream().noneMatch(v -> v.startsWith("@")) || asked.contains("")) {
            variants.add("");
        }
        asked.stream().filter(v -> !v.isEmpty()).forEach(variants::add);
        // Builds: this checkout's, and with --baseline=DIR (a checkout with DIR/target/headroom.jar and
        // DIR/target/lib, e.g. main's) that one too, its runs alternating with these: before and after side by side.
        Map<String, String> builds = new LinkedHashMap<>();
        Map<String, Path> roots = new LinkedHashMap<>();
        if (baseline != null) {
            // One directory: "before"; several (comma-separated, oldest first): each by its folder's name.
            String[] dirs = baseline.split(",");
            for (String d : dirs) {
                String label = dirs.length == 1 ? "before " : Path.of(d).getFileName() + " ";
                builds.put(label, packagedClasspath(Path.of(d)));
                roots.put(label, Path.of(d));
            }
        }
        builds.put(baseline != null ? "after " : "", packagedClasspath(Path.of(".")));
        roots.put(baseline != null ? "after " : "", Path.of("."));
        // --installed=ROOT: the .deb unpacked into ROOT (dpkg-deb -x), run as installed, from /opt/headroom (in a
        // private mount namespace), with its own launcher, runtime and archive: one configuration, the package's.
        if (installed != null) {
            builds.put("installed ", INSTALLED + Path.of(installed).toAbsolutePath());
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path dir = Files.createTempDirectory("headroom-startup");
        Map<String, List<String>> modes = new LinkedHashMap<>();
        modes.put("sandbox", List.of());
        modes.put("workloads file", workloadsMode(dir));
        if (fleet > 0) {
            modes.put(String.format(Locale.ROOT, "fleet of %,d", fleet), fleetMode(dir, fleet));
        }

        // Training, per build: one run per mode lists the classes it loads; one dump makes the archive of their union.
        Map<String, Path> archives = new LinkedHashMap<>();
        for (var b : builds.entrySet()) {
            String cp = b.getValue();
            if (cp.startsWith(INSTALLED) || variants.stream().noneMatch(v -> v.contains("+CDS"))) {
                continue; // the package carries its own archive
            }
            Path list = dir.resolve("classes-" + archives.size() + ".lst");
            List<String> classes = new ArrayList<>();
            for (var m : modes.entrySet()) {
                Path part = dir.resolve("classes-" + archives.size() + "-" + classes.size() + ".lst");
                run(java, cp, dir, List.of("-XX:DumpLoadedClassList=" + part), m.getValue(), Map.of());
                classes.addAll(Files.readAllLines(part));
            }
            Files.write(list, classes.stream().distinct().toList());
            Path archive = dir.resolve("headroom-" + archives.size() + ".jsa");
            long d0 = System.nanoTime();
            Process dump = new ProcessBuilder(java, "-Xshare:dump", "-XX:SharedClassListFile=" + list,
                    "-XX:SharedArchiveFile=" + archive, "-cp", cp).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("dump.log").toFile()).start();
            if (dump.waitFor() != 0 || !Files.exists(archive)) {
                throw new IllegalStateException("the CDS dump failed: " + Files.readString(dir.resolve("dump.log")));
            }
            System.out.printf("%sAppCDS archive: %,d classes, %d MB, dumped in %.1f s; load average %.1f; %d runs each%n",
                    b.getKey(), classes.stream().distinct().count(), Files.size(archive) >> 20,
                    (System.nanoTime() - d0) / 1e9, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    runs);
            archives.put(b.getKey(), archive);
        }

        // "+DynCDS": what ./headroom does, a dynamic archive (on top of the JDK's) written as one console run exits.
        Map<String, Path> dynamic = new LinkedHashMap<>();
        if (variants.contains("+DynCDS")) {
            for (var b : builds.entrySet()) {
                for (var m : modes.entrySet()) {
                    Path a = dir.resolve("dynamic-" + dynamic.size() + ".jsa");
                    long t = System.nanoTime();
                    run(java, b.getValue(), dir, List.of("-XX:ArchiveClassesAtExit=" + a), m.getValue(), Map.of());
                    System.out.printf("%sdynamic archive (%s): %d MB, training run and dump %.1f s%n", b.getKey(),
                            m.getKey(), Files.size(a) >> 20, (System.nanoTime() - t) / 1e9);
                    dynamic.put(b.getKey() + m.getKey(), a);
                }
            }
        }

        // "@First": what ./headroom did on the first run after a build before the build made the archive (no
        // archive, one written as it exits); "@Dyn" its later runs, on that dynamic archive.
        Map<String, Path> launcherDynamic = new LinkedHashMap<>();
        if (variants.contains("@Dyn")) {
            for (var b : roots.entrySet()) {
                for (var m : modes.entrySet()) {
                    Path a = dir.resolve("launcher-dynamic-" + launcherDynamic.size() + ".jsa");
                    List<String> jvm = new ArrayList<>(List.of("-XX:ArchiveClassesAtExit=" + a));
                    String cp = LauncherLayout.jvm(b.getValue(), jvm);
                    run(java, cp, dir, jvm, m.getValue(), Map.of());
                    launcherDynamic.put(b.getKey() + m.getKey(), a);
                }
            }
        }

        Map<String, List<Run>> results = new LinkedHashMap<>();
        // The timed runs log nothing but the marks; one more pass after them, untimed, counts the classes each loads
        // (-Xlog:class+load: printing 5,600 lines to the pipe added 0.14 s to the first real UI, both sides).
        Map<String, List<Run>> classResults = new LinkedHashMap<>();
        for (int r = 0; r <= runs; r++) {
            countClasses = r == runs;
            Map<String, List<Run>> into = countClasses ? classResults : results;
            for (var m : modes.entrySet()) {
                for (String variant : variants) {
                    for (var b : builds.entrySet()) {
                        if (b.getValue().startsWith(INSTALLED)) {
                            if (variant.isEmpty()) {
                                into.computeIfAbsent(b.getKey() + m.getKey(), k -> new ArrayList<>())
                                        .add(run(java, b.getValue(), dir, List.of(), m.getValue(), Map.of()));
                            }
                            continue;
                        }
                        if (!flags(variant).isEmpty() && !asLauncherStarts(variant) && baseline != null
                                && !roots.get(b.getKey()).equals(Path.of("."))) {
                            continue; // JVM options compare options, not builds: on this checkout's build alone
                        }
                        if (variant.startsWith("@")) {
                            String launcher = variant.contains("+") ? variant.substring(0, variant.indexOf('+')) : variant;
                            List<String> jvm = LauncherLayout.archiveOptions(launcher, roots.get(b.getKey()),
                                    launcherDynamic.get(b.getKey() + m.getKey()), dir);
                            if (jvm != null) {
                                jvm.addAll(flags(variant, roots.get(b.getKey())));
                                String cp = LauncherLayout.jvm(roots.get(b.getKey()), jvm);
                                // +Opt: the environment that build's launcher gives the console too (no D-Bus autolaunched)
                                Map<String, String> env = variant.contains("+Opt")
                                        ? LauncherLayout.launcherEnv(roots.get(b.getKey())) : Map.of();
                                into.computeIfAbsent(b.getKey() + m.getKey() + variant, k -> new ArrayList<>())
                                        .add(run(java, cp, dir, jvm, m.getValue(), env));
                                for (String o : jvm) { // a first run's archive is not used again
                                    if (o.startsWith("-XX:ArchiveClassesAtExit=")) {
                                        Files.deleteIfExists(Path.of(o.substring(o.indexOf('=') + 1)));
                                    }
                                }
                            }
                            continue;
                        }
                        List<String> jvm = new ArrayList<>(List.of("-Xshare:auto"));
                        if (variant.contains("+CDS")) {
                            jvm.add("-XX:SharedArchiveFile=" + archives.get(b.getKey()));
                        } else if (variant.contains("+DynCDS")) {
                            jvm.add("-XX:SharedArchiveFile=" + dynamic.get(b.getKey() + m.getKey()));
                        }
                        jvm.addAll(flags(variant));
                        into.computeIfAbsent(b.getKey() + m.getKey() + variant, k -> new ArrayList<>())
                                .add(run(java, b.getValue(), dir, jvm, m.getValue(), Map.of()));
                    }
                }
            }
        }
        System.out.printf("%nload average %.1f at the end%n%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.printf("%-40s %14s %14s %14s   (median of %d, wall ms from process start; min in brackets)%n",
                "wall", "first window", "first real UI", "first tick", runs);
        table(results, r -> r.wall);
        System.out.printf("%n%-40s %14s %14s %14s   (median of %d, the child's user+system CPU ms until the mark)%n",
                "CPU", "first window", "first real UI", "first tick", runs);
        table(results, r -> r.cpu);
        System.out.printf("%n%-40s %14s %14s %14s   (one untimed run with -Xlog:class+load, classes loaded until the mark;"
                + " from the archive in brackets)%n", "classes", "first window", "first real UI", "first tick");
        for (var e : classResults.entrySet()) {
            StringBuilder line = new StringBuilder(String.format("%-40s", e.getKey()));
            for (int i = 0; i < MARKS.length; i++) {
                line.append(String.format(" %6d (%5d)", median(e.getValue(), r -> r.classes, i),
                        median(e.getValue(), r -> r.shared, i)));
            }
            System.out.println(line);
        }
        stages(results);
    }

    /**
     * Whether a variant is the launcher as it starts the console, its own options included ({@code @Build+Opt}): it
     * compares builds, so with {@code --baseline} it runs on every build.
     */
    static boolean asLauncherStarts(String variant) {
        String[] parts = variant.split("\\+");
        return variant.startsWith("@") && parts.length > 1 && Arrays.stream(parts).skip(1).allMatch("Opt"::equals);
    }

    /**
     * The JVM options a variant's "+" parts add (any order, after the archive's): {@code +C1}
     * ({@code -XX:TieredStopAtLevel=1}), {@code +Serial} ({@code -XX:+UseSerialGC}), {@code +Parallel}
     * ({@code -XX:+UseParallelGC}), {@code +LateC2} (C2 waits for 4× the calls and loop turns it waits for by
     * default: C1's code serves the start, C2 still compiles what stays hot), {@code +Xss512k} (thread stacks of
     * 512 KiB, not 1 MiB), any {@code -XX} option with a value as {@code +XX:Name=value}, and {@code +Opt} (what
     * {@code ./headroom} passes besides the archive, {@link LauncherLayout#launcherFlags}: C2 later still, forty
     * times the defaults since 2026-12-06 evening).
     */
    static List<String> flags(String variant) {
        return flags(variant, Path.of("."));
    }

    /** As {@link #flags(String)}, {@code +Opt} being what the launcher of the build at {@code root} passes. */
    static List<String> flags(String variant, Path root) {
        List<String> jvm = new ArrayList<>();
        for (String part : variant.split("\\+")) {
            switch (part) {
                case "C1" -> jvm.add("-XX:TieredStopAtLevel=1");
                case "Serial" -> jvm.add("-XX:+UseSerialGC");
                case "Parallel" -> jvm.add("-XX:+UseParallelGC");
                case "LateC2" -> jvm.addAll(LATE_C2);
                case "Opt" -> {
                    try {
                        jvm.addAll(LauncherLayout.launcherFlags(root));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException(e);
                    }
                }
                case "Xss512k" -> jvm.add("-Xss512k");
                default -> {
                    if (part.startsWith("XX:") || part.startsWith("D")) { // +XX:CICompilerCount=6, +Dname=value
                        jvm.add("-" + part);
                    }
                }
            }
        }
        return jvm;
    }

    /**
     * {@code +LateC2}: C2 waiting for four times the calls and loop turns it waits for by default, as
     * {@code ./headroom} ran the console from 2026-12-06 (docs/benchmarks.md "Cutting the first frame"); {@code +Opt}
     * is what a build's launcher passes today ({@link LauncherLayout#launcherFlags}).
     */
    static final List<String> LATE_C2 = List.of("-XX:Tier4InvocationThreshold=20000",
            "-XX:Tier4MinInvocationThreshold=2400", "-XX:Tier4CompileThreshold=60000", "-XX:Tier4BackEdgeThreshold=160000");

    /** Per configuration, each step before the first frame: median wall ms / CPU ms when the console said it. */
    private static void stages(Map<String, List<Run>> results) {
        System.out.printf("%n%-40s steps before the first frame (headroom-startup at:STEP), median wall ms / CPU ms%n", "steps");
        for (var e : results.entrySet()) {
            StringBuilder line = new StringBuilder(String.format("%-40s", e.getKey()));
            List<String> names = new ArrayList<>();
            e.getValue().forEach(r -> r.stages.keySet().stream().filter(n -> !names.contains(n)).forEach(names::add));
            for (String n : names) {
                long[] wall = e.getValue().stream().filter(r -> r.stages.containsKey(n))
                        .mapToLong(r -> r.stages.get(n)[0]).sorted().toArray();
                long[] cpu = e.getValue().stream().filter(r -> r.stages.containsKey(n))
                        .mapToLong(r -> r.stages.get(n)[1]).sorted().toArray();
                line.append(String.format(" %s %d/%d", n, wall[wall.length / 2], cpu[cpu.length / 2]));
            }
            System.out.println(line);
        }
        // The FX thread alone, from start() to its first real frame: its own CPU against the wall time that passed
        // (on two cores the difference is time it waited for a core, or for a collection).
        System.out.printf("%n%-40s the FX thread from the toolkit's start (at:toolkit) to the first real UI (at:ui), median ms%n",
                "FX thread");
        for (var e : results.entrySet()) {
            long[] own = e.getValue().stream().filter(r -> fxSpan(r, 2) >= 0).mapToLong(r -> fxSpan(r, 2)).sorted().toArray();
            long[] wall = e.getValue().stream().filter(r -> fxSpan(r, 2) >= 0).mapToLong(r -> fxSpan(r, 0)).sorted().toArray();
            if (own.length > 0) {
                System.out.printf("%-40s CPU %d (min %d) of %d wall%n", e.getKey(), own[own.length / 2], own[0],
                        wall[wall.length / 2]);
            }
        }
    }

    /** From at:toolkit to at:ui, field {@code k} of the steps (0 wall, 2 the saying thread's CPU); -1 if unknown. */
    private static long fxSpan(Run r, int k) {
        long[] a = r.stages.get("toolkit");
        long[] b = r.stages.get("ui");
        return a == null || b == null || a[2] < 0 || b[2] < 0 ? -1 : b[k] - a[k];
    }

    private static void table(Map<String, List<Run>> results, java.util.function.Function<Run, long[]> of) {
        for (var e : results.entrySet()) {
            StringBuilder line = new StringBuilder(String.format("%-40s", e.getKey()));
            for (int i = 0; i < MARKS.length; i++) {
                int k = i;
                long[] v = e.getValue().stream().mapToLong(r -> of.apply(r)[k]).sorted().toArray();
                line.append(String.format(" %7d (%5d)", v[v.length / 2], v[0]));
            }
            System.out.println(line);
        }
    }

    private static long median(List<Run> runs, java.util.function.Function<Run, long[]> of, int mark) {
        long[] v = runs.stream().mapToLong(r -> of.apply(r)[mark]).sorted().toArray();
        return v[v.length / 2];
    }

    /** {@code ROOT/target/headroom.jar} and its libraries, as {@code ./headroom} runs them. */
    private static String packagedClasspath(Path root) throws IOException {
        Path jar = root.resolve("target").resolve("headroom.jar");
        Path lib = root.resolve("target").resolve("lib");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new IllegalStateException(jar + " and " + lib + " are missing: run mvn package first");
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

    /**
     * A fleet's workloads file ({@code --fleet=N}: {@link io.headroom.testing.FleetFile}, N classes over 5
     * contexts) whose Prometheus and clusters are closed loopback ports; a kubeconfig with the 5 contexts.
     */
    private static List<String> fleetMode(Path dir, int classes) throws IOException {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        StringBuilder kc = new StringBuilder("apiVersion: v1\nkind: Config\ncurrent-context: prod-0\n"
                + "clusters: [{name: bench, cluster: {server: \"http://127.0.0.1:" + closed + "\"}}]\n"
                + "users: [{name: bench, user: {}}]\ncontexts:\n");
        for (int i = 0; i < 5; i++) {
            kc.append("  - {name: prod-").append(i).append(", context: {cluster: bench, user: bench}}\n");
        }
        Path kubeconfig = dir.resolve("fleet-kubeconfig.yaml");
        Files.writeString(kubeconfig, kc);
        Path workloads = io.headroom.testing.FleetFile.write(dir, "http://127.0.0.1:" + closed, classes);
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

    /**
     * One child console: per mark, the wall time from process start (ms), the child's CPU time until then
     * (user + system of all its threads, ms, read from {@code /proc/PID/stat} as the mark arrives) and, in the
     * counting pass ({@link #countClasses}), the classes it had loaded (counted from {@code -Xlog:class+load} on
     * its standard output, which carries the marks too, in order), of which from the CDS archive.
     */
    /** Whether the next runs log the classes they load (the untimed counting pass), not time the marks. */
    private static boolean countClasses;

    private static Run run(String java, String cp, Path dir, List<String> jvm, List<String> mode, Map<String, String> env)
            throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("-Dheadroom.startupMarks=true",
                "-Dheadroom.exitAfterStartup=true", "-Dprism.order=sw"));
        if (countClasses) {
            options.add("-Xlog:class+load=info:stdout");
        }
        List<String> cmd = new ArrayList<>();
        ProcessBuilder pb = new ProcessBuilder();
        pb.environment().putAll(env);
        if (cp.startsWith(INSTALLED)) {
            // unshare and sh exec into the package's command (usr/bin/headroom: a link to, or a script that execs,
            // /opt/headroom/bin/headroom), which execs the launcher: the process started here is the console's JVM.
            String installed = cp.substring(INSTALLED.length());
            cmd.addAll(List.of("unshare", "-m", "--propagation", "private", "--", "sh", "-c",
                    "mount -t tmpfs tmpfs /opt && mkdir /opt/headroom && mount --bind \"$1\" /opt/headroom "
                            + "&& shift && exec \"$@\"", "sh", installed + "/opt/headroom",
                    installed + "/usr/bin/headroom"));
            pb.environment().put("JAVA_TOOL_OPTIONS", String.join(" ", options));
        } else {
            cmd.add(java);
            cmd.addAll(options);
            cmd.addAll(jvm);
            cmd.addAll(List.of("-cp", cp, "io.headroom.Main"));
        }
        cmd.addAll(List.of("--settings=" + settings(dir), "--journal=" + dir.resolve("journal-" + System.nanoTime() + ".jsonl")));
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
        Run r = new Run();
        int classes = 0;
        int shared = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("[")) {
                    if (line.contains(" source: ")) {
                        classes++;
                        if (line.endsWith("source: shared objects file")
                                || line.endsWith("source: shared objects file (top)")) {
                            shared++;
                        }
                    }
                    continue;
                }
                long ms = (System.nanoTime() - t0) / 1_000_000;
                if (line.startsWith(STAGE)) { // the steps before the first frame (StartupMarks.at), the first of each
                    String[] f = line.substring(STAGE.length()).split(" thread=");
                    if (!r.stages.containsKey(f[0])) {
                        r.stages.put(f[0], new long[] {ms, cpuMillis(p.pid()),
                                f.length > 1 ? Long.parseLong(f[1].trim()) : -1});
                    }
                    continue;
                }
                for (int i = 0; i < MARKS.length; i++) {
                    if (line.equals("headroom-startup " + MARKS[i])) {
                        r.wall[i] = ms;
                        r.cpu[i] = cpuMillis(p.pid());
                        r.classes[i] = classes;
                        r.shared[i] = shared;
                    }
                }
            }
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        for (long v : r.wall) {
            if (v < 0) {
                throw new IllegalStateException("a run did not reach every mark " + Arrays.toString(r.wall) + "; see "
                        + dir.resolve("child.log"));
            }
        }
        return r;
    }

    /** What one run measured at each mark: wall ms, CPU ms, classes loaded, of which from the archive. */
    private static final class Run {
        final long[] wall = filled();
        final long[] cpu = filled();
        final long[] classes = filled();
        final long[] shared = filled();
        /** Per step before the first frame ({@code headroom-startup at:STEP}): wall ms and CPU ms when it was said. */
        final Map<String, long[]> stages = new LinkedHashMap<>();

        private static long[] filled() {
            long[] a = new long[MARKS.length];
            Arrays.fill(a, -1);
            return a;
        }
    }

    /** User + system CPU time of a live process (all threads), ms; -1 when it cannot be read. */
    static long cpuMillis(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Fields after the command name (which may hold spaces), which ends at the last ')'.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
            return ticks * 1000 / CLOCK_TICKS;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** USER_HZ, the unit of /proc/PID/stat times: 100 on Linux (getconf CLK_TCK). */
    private static final long CLOCK_TICKS = 100;
}
