package io.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console on a real X server (Xvfb) and GTK, with no D-Bus session bus, as under ssh -X, VNC or in a container:
 * as the toolkit starts, GTK's accessibility bridge and its settings ask D-Bus to autolaunch a bus, which forks the
 * JVM (0.23 s of the sandbox's first real UI on two cores, docs/benchmarks.md "No session bus"). The launcher's
 * environment ({@code headroom_desktop_env} in scripts/launch-paths, which ./headroom and the package's command
 * use) says there is none. A {@code dbus-launch} on the PATH that notes each call shows who asked: the console
 * started without the launcher's environment asks (the premise), with it nobody does, and it still reaches its
 * first real UI.
 */
class NoSessionBusTest {
    private static final Path SCRIPT = Path.of("scripts/launch-paths").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void withTheLaunchersEnvironmentNoBusIsAutolaunchedAndTheConsoleStillStarts() throws Exception {
        assumeFalse(Files.isExecutable(Path.of("/usr/bin/dbus-launch")), "dbus-x11 is installed: D-Bus runs its own "
                + "/usr/bin/dbus-launch before the PATH's, so who asked cannot be seen here");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path asked = dir.resolve("asked");
        Files.writeString(bin.resolve("dbus-launch"), "#!/bin/sh\necho \"$*\" >> '" + asked + "'\nexit 1\n");
        assertTrue(bin.resolve("dbus-launch").toFile().setExecutable(true));

        String without = console(bin, false);
        assertTrue(without.contains("headroom-startup ui"), "the console started: " + without);
        assertTrue(Files.exists(asked), "without the launcher's environment GTK asks D-Bus to autolaunch a bus");
        assertTrue(Files.readString(asked).contains("--autolaunch"), Files.readString(asked));
        Files.delete(asked);

        String with = console(bin, true);
        assertTrue(with.contains("headroom-startup ui"), "the console started, its first real UI drawn: " + with);
        assertFalse(Files.exists(asked), "nothing autolaunched: " + (Files.exists(asked) ? Files.readString(asked) : ""));
    }

    /** The sandbox console under xvfb-run until its first tick; its standard output (the start-up marks). */
    private String console(Path bin, boolean launcherEnvironment) throws Exception {
        Path run = Files.createDirectories(dir.resolve(launcherEnvironment ? "with" : "without"));
        Files.writeString(run.resolve("settings.json"), "{\"workloadsFile\": null, \"welcomed\": true}");
        List<String> command = List.of("xvfb-run", "-a", "-s", "-screen 0 1280x800x24", "bash", "-c",
                ". \"$0\"; if [[ $1 == yes ]]; then headroom_desktop_env; fi; shift; exec \"$@\"", SCRIPT.toString(),
                launcherEnvironment ? "yes" : "no", MissingDisplayTest.java(), "-cp", MissingDisplayTest.launcherClassPath(),
                "-Dheadroom.startupMarks=true", "-Dheadroom.exitAfterStartup=true", Main.class.getName(),
                "--settings=" + run.resolve("settings.json"), "--journal=" + run.resolve("journal.jsonl"));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeAll(List.of("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "NO_AT_BRIDGE",
                "DISPLAY", "WAYLAND_DISPLAY"));
        pb.environment().put("PATH", bin + java.io.File.pathSeparator + System.getenv("PATH"));
        pb.environment().put("XDG_CONFIG_HOME", run.resolve("config").toString());
        pb.environment().put("XDG_STATE_HOME", run.resolve("state").toString());
        Path out = run.resolve("out.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(run.resolve("err.txt").toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the console exits after its first tick");
        assertEquals(0, p.exitValue(), Files.readString(run.resolve("err.txt")));
        return Files.readString(out);
    }
}
