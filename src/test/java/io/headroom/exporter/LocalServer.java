package io.headroom.exporter;

import io.headroom.prometheus.it.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * A real server (Debian's redis-server, postgres) the tests start on a free loopback port with its data in a
 * temp directory: started with a deadline on its readiness, stopped and deleted on {@link #close} or at JVM exit.
 * Run as the {@code postgres} user when the tests run as root and the server refuses root.
 */
final class LocalServer implements AutoCloseable {
    final Path dir;
    final int port;
    private Process process;

    LocalServer(String name) throws IOException {
        this.dir = Files.createTempDirectory("headroom-" + name + "-");
        this.port = freePort();
    }

    /** Starts {@code command} (logging to dir/server.log) and waits until {@code ready}, at most {@code deadline}. */
    void start(List<String> command, Duration deadline, BooleanSupplier ready) throws IOException {
        start(command, java.util.Map.of(), deadline, ready);
    }

    /** As {@link #start(List, Duration, BooleanSupplier)}, with these environment variables added. */
    void start(List<String> command, java.util.Map<String, String> env, Duration deadline, BooleanSupplier ready)
            throws IOException {
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile());
        b.environment().putAll(env);
        process = b.start();
        Process p = process;
        try {
            Await.until(command.get(0) + " ready on port " + port, deadline, Duration.ofMillis(20), () -> {
                if (!p.isAlive()) {
                    throw new IllegalStateException(command.get(0) + " exited with " + p.exitValue() + ":\n" + log());
                }
                return ready.getAsBoolean();
            }, Boolean::booleanValue);
        } catch (RuntimeException | AssertionError e) {
            close();
            throw e;
        }
    }

    /** The command run as {@code user} when this JVM is root (postgres refuses to run as root). */
    static List<String> as(String user, List<String> command) {
        if (!"root".equals(System.getProperty("user.name"))) {
            return command;
        }
        List<String> out = new ArrayList<>(List.of("setpriv", "--reuid=" + user, "--regid=" + user, "--init-groups",
                "--"));
        out.addAll(command);
        return out;
    }

    /** Gives {@code user} the directory when this JVM is root. */
    void chownTo(String user) throws IOException {
        if ("root".equals(System.getProperty("user.name"))) {
            run(List.of("chown", "-R", user, dir.toString()));
        }
    }

    /** Runs a short command to its end (initdb, chown), failing with its output. */
    static void run(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed:\n" + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    String log() {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Kills the server (as a crash or a stopped server looks to its clients) and waits for it to be gone. */
    void stop() {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind is not worth failing a run for
        }
    }

    /** Closes {@code server} when the JVM exits (the servers shared by a test JVM's classes). */
    static <T extends AutoCloseable> T atExit(T server) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                // exiting anyway
            }
        }, "local-server-stop"));
        return server;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** The binary: {@code $env}, else the first of {@code candidates} that is executable, else a failure that says how. */
    static Path binary(String env, String hint, String... candidates) {
        String given = System.getenv(env);
        if (given != null && !given.isBlank()) {
            return Path.of(given);
        }
        for (String c : candidates) {
            if (c.contains("/")) {
                if (Files.isExecutable(Path.of(c))) {
                    return Path.of(c);
                }
                continue;
            }
            for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
                Path p = Path.of(d, c);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        throw new IllegalStateException("the exporter's integration tests need " + hint + " and none was found: run"
                + " ./scripts/test (it installs it) or set " + env);
    }
}
