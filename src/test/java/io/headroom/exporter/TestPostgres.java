package io.headroom.exporter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Debian's PostgreSQL server in a fresh cluster (initdb, trust on loopback, no fsync) on a free port;
 * one shared per test JVM ({@link #shared}). As root it runs as the {@code postgres} user.
 */
public final class TestPostgres implements AutoCloseable {
    public static final String USER = "headroom";
    final LocalServer server;

    private TestPostgres() throws IOException {
        server = new LocalServer("postgres");
        Path bin = binDir();
        Path data = server.dir.resolve("data");
        server.chownTo("postgres");
        LocalServer.run(LocalServer.as("postgres", List.of(bin.resolve("initdb").toString(), "-D", data.toString(),
                "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions")));
        server.start(LocalServer.as("postgres", List.of(bin.resolve("postgres").toString(), "-D", data.toString(),
                "-p", Integer.toString(server.port), "-k", server.dir.toString(), "-c", "listen_addresses=127.0.0.1",
                "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "synchronous_commit=off")),
                Duration.ofSeconds(30), this::answers);
    }

    static TestPostgres start() throws IOException {
        return new TestPostgres();
    }

    private static TestPostgres shared;

    public static synchronized TestPostgres shared() throws IOException {
        if (shared == null) {
            shared = LocalServer.atExit(new TestPostgres());
        }
        return shared;
    }

    /** $HEADROOM_PG_BIN, else Debian's newest /usr/lib/postgresql/N/bin. */
    static Path binDir() throws IOException {
        String env = System.getenv("HEADROOM_PG_BIN");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        Path root = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(root)) {
            try (Stream<Path> versions = Files.list(root)) {
                Path newest = versions.filter(p -> Files.isExecutable(p.resolve("bin/postgres")))
                        .max(Comparator.comparingInt(p -> Integer.parseInt(p.getFileName().toString().replaceAll("\\D", "0"))))
                        .orElse(null);
                if (newest != null) {
                    return newest.resolve("bin");
                }
            }
        }
        throw new IllegalStateException("the exporter's integration tests need Debian's postgresql and none was"
                + " found: run ./scripts/test (it installs it) or set HEADROOM_PG_BIN");
    }

    public int port() {
        return server.port;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port + "/postgres?user=" + USER);
    }

    private boolean answers() {
        try (Connection c = connect()) {
            return c.isValid(1);
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
