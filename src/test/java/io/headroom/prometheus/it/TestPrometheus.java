package io.headroom.prometheus.it;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Prometheus server (Debian's package) on a free loopback port, scraping the given targets
 * every second, with its data in a temp directory that is deleted on close. The binary is
 * {@code $HEADROOM_PROMETHEUS}, else {@code prometheus} on the PATH.
 */
public final class TestPrometheus implements AutoCloseable {

    private final Process process;
    private final Path dir;
    private final URI url;

    private TestPrometheus(Process process, Path dir, URI url) {
        this.process = process;
        this.dir = dir;
        this.url = url;
    }

    /** The binary, or an error that says how to get it. */
    public static Path binary() {
        String env = System.getenv("HEADROOM_PROMETHEUS");
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException("HEADROOM_PROMETHEUS=" + env + " is not an executable file");
            }
            return p;
        }
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path p = Path.of(d, "prometheus");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new IllegalStateException("the integration tests need a real Prometheus server and none was found:"
                + " run ./scripts/test (it installs Debian's prometheus), apt-get install prometheus,"
                + " or set HEADROOM_PROMETHEUS to the binary");
    }

    /** Starts Prometheus scraping {@code targets} (host:port) every second and waits until it is ready. */
    public static TestPrometheus start(List<String> targets) throws IOException {
        StringBuilder cfg = new StringBuilder("""
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                  evaluation_interval: 1s
                scrape_configs:
                  - job_name: headroom-test
                    static_configs:
                      - targets: [""");
        cfg.append(String.join(", ", targets.stream().map(t -> "'" + t + "'").toList())).append("]\n");
        return start(cfg.toString(), List.of());
    }

    /**
     * Starts Prometheus with nothing to scrape and its remote-write receiver on ({@code /api/v1/write}),
     * and waits until it is ready: samples written to it are queryable at once (see {@link RemoteWriter}).
     */
    public static TestPrometheus startReceiving() throws IOException {
        return start("""
                global:
                  evaluation_interval: 1s
                """, List.of("--web.enable-remote-write-receiver"));
    }

    private static TestPrometheus start(String cfg, List<String> flags) throws IOException {
        Path bin = binary();
        Path dir = Files.createTempDirectory("headroom-prometheus-");
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, cfg);
        int port = freePort();
        List<String> cmd = new java.util.ArrayList<>(List.of(bin.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn"));
        cmd.addAll(flags);
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        URI url = URI.create("http://127.0.0.1:" + port);
        TestPrometheus tp = new TestPrometheus(p, dir, url);
        try {
            Await.until("Prometheus ready at " + url, Duration.ofSeconds(30), Duration.ofMillis(20), () -> {
                if (!p.isAlive()) {
                    throw new IllegalStateException("prometheus exited with " + p.exitValue() + ":\n" + tp.log());
                }
                return ready(url);
            }, Boolean::booleanValue);
        } catch (RuntimeException | AssertionError e) {
            tp.close();
            throw e;
        }
        return tp;
    }

    public URI url() {
        return url;
    }

    private static boolean ready(URI url) {
        try {
            HttpURLConnection c = (HttpURLConnection) url.resolve("/-/ready").toURL().openConnection();
            c.setConnectTimeout(500);
            c.setReadTimeout(500);
            try {
                return c.getResponseCode() == 200;
            } finally {
                c.disconnect();
            }
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    String log() {
        try {
            return Files.readString(dir.resolve("prometheus.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temp directory left behind is not worth failing a run for
        }
    }
}
