package io.headroom.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link StartupBenchmark}'s "@" variants: a child JVM laid out as that build's {@code ./headroom} starts it (its
 * class path, and JavaFX's platform jars on the module path where that launcher put them there, as builds before
 * 2026-12-06 evening did), with the archive each launcher gives it:
 * <ul>
 *   <li>{@code @None} no archive of the application's classes (the JDK's own only);</li>
 *   <li>{@code @First} the first run after a build as {@code ./headroom} ran it before the build made an
 *       archive: none, and one written as the run exits ({@code -XX:ArchiveClassesAtExit}, a fresh file each
 *       run, so every run is a first run);</li>
 *   <li>{@code @Dyn} the later runs of that launcher: the dynamic archive one such run wrote;</li>
 *   <li>{@code @Build} the archive {@code mvn package} made ({@code target/headroom.jsa},
 *       {@code scripts/cds-archive}), which {@code ./headroom} maps from the first run on; skipped for a
 *       build without one (main before it).</li>
 * </ul>
 */
final class LauncherLayout {
    private LauncherLayout() {
    }

    /**
     * Adds the module path for {@code root}'s JavaFX jars to {@code jvm} where that build's launcher used one, and
     * returns the class path, as its {@code scripts/launch-paths} builds it from {@code target/lib}.
     */
    static String jvm(Path root, List<String> jvm) throws IOException {
        List<String> cp = new ArrayList<>(List.of(root.resolve("target/headroom.jar").toAbsolutePath().normalize().toString()));
        List<String> fx = new ArrayList<>();
        try (var jars = Files.list(root.resolve("target/lib"))) {
            for (Path p : jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                String name = p.getFileName().toString();
                if (name.matches("javafx-.*-[a-z]+\\.jar")) {
                    fx.add(p.toAbsolutePath().normalize().toString());
                } else if (!name.startsWith("javafx-")) {
                    cp.add(p.toAbsolutePath().normalize().toString());
                }
            }
        }
        Path launcher = root.resolve("headroom");
        if (Files.isRegularFile(launcher) && Files.readString(launcher).contains("--module-path")) {
            jvm.addAll(List.of("--module-path", String.join(File.pathSeparator, fx), "--add-modules",
                    "javafx.controls,javafx.fxml"));
        } else {
            cp.addAll(fx);
        }
        return String.join(File.pathSeparator, cp);
    }

    /**
     * The JIT options {@code root}'s launcher passes besides its archive ({@code headroom_jit_options} in its
     * {@code scripts/launch-paths}), so "+Opt" runs each build with its own; none where it has no such list. Read
     * once a build: the benchmark asks before every run.
     */
    static List<String> launcherFlags(Path root) throws IOException, InterruptedException {
        List<String> known = FLAGS.get(root.toAbsolutePath().normalize());
        if (known != null) {
            return known;
        }
        List<String> flags = sourced(root, "printf '%s\\n' \"${headroom_jit_options[@]}\"").lines()
                .filter(l -> l.startsWith("-XX:")).toList();
        FLAGS.put(root.toAbsolutePath().normalize(), flags);
        return flags;
    }

    /**
     * The environment {@code root}'s launcher gives the console here ({@code headroom_desktop_env} in its
     * {@code scripts/launch-paths}: no D-Bus autolaunched where there is no session bus), as the variables it sets
     * or changes; none where it has no such function, so "+Opt" starts each build as its own launcher does. Read
     * once a build.
     */
    static java.util.Map<String, String> launcherEnv(Path root) throws IOException, InterruptedException {
        java.util.Map<String, String> known = ENV.get(root.toAbsolutePath().normalize());
        if (known != null) {
            return known;
        }
        java.util.Map<String, String> before = env(sourced(root, "env -0"));
        java.util.Map<String, String> after = env(sourced(root, "if declare -F headroom_desktop_env >/dev/null; "
                + "then headroom_desktop_env; fi; env -0"));
        java.util.Map<String, String> set = new java.util.TreeMap<>();
        after.forEach((k, v) -> {
            if (!v.equals(before.get(k))) {
                set.put(k, v);
            }
        });
        ENV.put(root.toAbsolutePath().normalize(), java.util.Map.copyOf(set));
        return ENV.get(root.toAbsolutePath().normalize());
    }

    private static final java.util.Map<Path, List<String>> FLAGS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Map<Path, java.util.Map<String, String>> ENV =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** What bash prints running {@code script} after sourcing {@code root}'s launch-paths; "" where it has none. */
    private static String sourced(Path root, String script) throws IOException, InterruptedException {
        Path paths = root.resolve("scripts/launch-paths");
        if (!Files.isRegularFile(paths)) {
            return "";
        }
        Process p = new ProcessBuilder("bash", "-c", ". \"$0\"; " + script, paths.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    /** {@code env -0}'s output by name ({@code _}, bash's last argument, left out). */
    private static java.util.Map<String, String> env(String nulSeparated) {
        java.util.Map<String, String> env = new java.util.HashMap<>();
        for (String e : nulSeparated.split("\0")) {
            int eq = e.indexOf('=');
            if (eq > 0 && !e.startsWith("_=")) {
                env.put(e.substring(0, eq), e.substring(eq + 1));
            }
        }
        return env;
    }

    /** The archive options of {@code variant} for the build at {@code root}; null when it does not apply. */
    static List<String> archiveOptions(String variant, Path root, Path dynamic, Path dir) {
        List<String> jvm = new ArrayList<>(List.of("-Xshare:auto"));
        switch (variant) {
            case "@None" -> {
            }
            case "@First" -> jvm.add("-XX:ArchiveClassesAtExit=" + dir.resolve("first-" + System.nanoTime() + ".jsa"));
            case "@Dyn" -> jvm.add("-XX:SharedArchiveFile=" + dynamic);
            case "@Build" -> {
                Path jsa = root.resolve("target/headroom.jsa").toAbsolutePath().normalize();
                if (!Files.isRegularFile(jsa)) {
                    return null;
                }
                jvm.add("-XX:SharedArchiveFile=" + jsa);
            }
            default -> throw new IllegalArgumentException("unknown variant " + variant
                    + " (launcher variants: @None, @First, @Dyn, @Build)");
        }
        return jvm;
    }
}
