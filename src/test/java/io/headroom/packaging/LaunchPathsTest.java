package io.headroom.packaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code scripts/launch-paths}, which {@code ./headroom} and {@code scripts/cds-archive} share: the class path
 * they build from {@code target/lib} (JavaFX's platform jars on it too, after the rest), and the stamp that lets the launcher use the build's CDS
 * archive only while it fits (Java refuses a stale archive without a word, and the start is slow again).
 */
class LaunchPathsTest {
    private static final Path SCRIPT = Path.of("scripts/launch-paths").toAbsolutePath();

    @TempDir
    Path root;

    @Test
    void javaFxPlatformJarsGoOnTheClassPathAfterTheRestAndItsEmptyJarsNowhere() throws Exception {
        build("okio-jvm-3.9.0.jar", "javafx-base-21.0.11.jar", "javafx-base-21.0.11-linux.jar",
                "javafx-graphics-21.0.11-linux.jar");
        List<String> lines = bash("headroom_paths \"$1\"; echo \"$cp\"; echo \"$fx\"; echo \"$jsa\"");
        Path lib = root.resolve("target/lib");
        assertEquals(root.resolve("target/headroom.jar") + ":" + lib.resolve("okio-jvm-3.9.0.jar") + ":"
                + lib.resolve("javafx-base-21.0.11-linux.jar") + ":" + lib.resolve("javafx-graphics-21.0.11-linux.jar"),
                lines.get(0));
        assertEquals(lib.resolve("javafx-base-21.0.11-linux.jar") + ":" + lib.resolve("javafx-graphics-21.0.11-linux.jar"),
                lines.get(1));
        assertEquals(root.resolve("target/headroom.jsa").toString(), lines.get(2));
    }

    @Test
    void theStampChangesWithAnyJarOnEitherPathAndOnlyThen() throws Exception {
        build("okio-jvm-3.9.0.jar", "javafx-graphics-21.0.11-linux.jar");
        String stamp = String.join("\n", bash("headroom_paths \"$1\"; headroom_cds_stamp"));
        assertTrue(stamp.contains(root.resolve("target/headroom.jar").toString()), stamp);
        assertTrue(stamp.lines().anyMatch(l -> l.contains("/bin/java ")), "the Java that maps the archive: " + stamp);
        assertEquals(stamp, String.join("\n", bash("headroom_paths \"$1\"; headroom_cds_stamp")), "nothing changed");

        Path jar = root.resolve("target/headroom.jar");
        Files.writeString(jar, "a rebuilt jar of another length");
        String rebuilt = String.join("\n", bash("headroom_paths \"$1\"; headroom_cds_stamp"));
        assertNotEquals(stamp, rebuilt, "the application's jar rebuilt");

        Path fx = root.resolve("target/lib/javafx-graphics-21.0.11-linux.jar");
        Files.setLastModifiedTime(fx, FileTime.fromMillis(Files.getLastModifiedTime(fx).toMillis() - 60_000));
        assertNotEquals(rebuilt, String.join("\n", bash("headroom_paths \"$1\"; headroom_cds_stamp")),
                "a JavaFX jar replaced by one of the same size");

        Files.writeString(root.resolve("target/lib/jackson-core-2.23.0.jar"), "x");
        String added = String.join("\n", bash("headroom_paths \"$1\"; headroom_cds_stamp"));
        assertTrue(added.contains("jackson-core-2.23.0.jar"), "a library added to the class path: " + added);
    }

    @Test
    void withoutASessionBusTheConsoleAsksForNoneAndLoadsNoAccessibilityBridge() throws Exception {
        String show = "headroom_desktop_env; echo \"bus=${DBUS_SESSION_BUS_ADDRESS-unset} bridge=${NO_AT_BRIDGE-unset}\"";
        assertEquals(List.of("bus=disabled: bridge=1"), bash(show, java.util.Map.of()), "ssh -X, Xvfb, VNC: no bus");
        assertEquals(List.of("bus=disabled: bridge=0"), bash(show, java.util.Map.of("NO_AT_BRIDGE", "0")),
                "the operator's own NO_AT_BRIDGE stays");
        assertEquals(List.of("bus=disabled: bridge=1"), bash(show, java.util.Map.of("XDG_RUNTIME_DIR",
                root.toString())), "a runtime directory without a bus in it");
    }

    @Test
    void aSessionsBusNamedOrInItsRuntimeDirectoryIsLeftAlone() throws Exception {
        String show = "headroom_desktop_env; echo \"bus=${DBUS_SESSION_BUS_ADDRESS-unset} bridge=${NO_AT_BRIDGE-unset}\"";
        assertEquals(List.of("bus=unix:path=/run/user/1000/bus bridge=unset"), bash(show,
                java.util.Map.of("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus")), "a desktop session");
        // systemd's user bus: found at $XDG_RUNTIME_DIR/bus by GLib and libdbus when the variable is not set
        Path runtime = Files.createDirectories(root.resolve("run"));
        try (java.nio.channels.ServerSocketChannel bus = java.nio.channels.ServerSocketChannel.open(
                java.net.StandardProtocolFamily.UNIX)) {
            bus.bind(java.net.UnixDomainSocketAddress.of(runtime.resolve("bus")));
            assertEquals(List.of("bus=unset bridge=unset"), bash(show, java.util.Map.of("XDG_RUNTIME_DIR",
                    runtime.toString())), "a user bus at $XDG_RUNTIME_DIR/bus");
        }
    }

    private void build(String... libs) throws IOException {
        Files.createDirectories(root.resolve("target/lib"));
        Files.writeString(root.resolve("target/headroom.jar"), "jar");
        for (String l : libs) {
            Files.writeString(root.resolve("target/lib").resolve(l), l);
        }
    }

    /** Runs {@code script} in bash after sourcing launch-paths, with the temporary checkout as $1; its lines. */
    private List<String> bash(String script) throws Exception {
        return bash(script, null);
    }

    /** As {@link #bash(String)}, with no session bus in the environment but {@code env} (null: as this JVM's). */
    private List<String> bash(String script, java.util.Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "set -euo pipefail; . \"$0\"; " + script, SCRIPT.toString(),
                root.toString()).redirectErrorStream(true);
        if (env != null) {
            pb.environment().keySet().removeAll(List.of("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "NO_AT_BRIDGE"));
            pb.environment().putAll(env);
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bash did not finish");
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }
}
