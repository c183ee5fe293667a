package io.headroom.exporter;

import io.headroom.exporter.ExporterConfig.PostgresConfig;
import io.headroom.exporter.Sample.Family;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A PostgreSQL table of jobs (graphile-worker, que, river or one's own): one grouped query per read
 * counts the jobs of each queue and state and gives the oldest one's age by the database's own clock, under
 * a statement timeout (the server stops the query at the deadline; the socket timeout backs it up).
 */
final class PostgresSource implements QueueSource {
    /** More queue × state groups than any real table has: a bound on what one read may export. */
    static final int MAX_GROUPS = 100_000;

    private final PostgresConfig config;
    private final UnaryOperator<String> env;
    private final String sql;
    /** Queues seen once: exported as empty when their last job has gone, not dropped. */
    private final Set<String> known = new LinkedHashSet<>();
    private Connection connection;

    PostgresSource(PostgresConfig config, UnaryOperator<String> env) {
        this.config = config;
        this.env = env;
        this.sql = query(config);
        if (config.queue() != null) {
            known.add(config.queue());
        }
    }

    /** The one query: counts and the oldest job's age per queue and state. Identifiers are checked and quoted. */
    static String query(PostgresConfig c) {
        String queue = c.queueColumn() == null ? "''" : quote(c.queueColumn()) + "::text";
        return "SELECT " + queue + " AS q, " + quote(c.stateColumn()) + "::text AS s, count(*) AS n,"
                + " EXTRACT(EPOCH FROM clock_timestamp() - min(" + quote(c.createdAtColumn()) + ")) AS age"
                + " FROM " + table(c.table()) + " GROUP BY 1, 2 LIMIT " + (MAX_GROUPS + 1);
    }

    private static String table(String t) {
        StringBuilder sb = new StringBuilder();
        for (String part : t.split("\\.")) {
            sb.append(sb.length() > 0 ? "." : "").append(quote(part));
        }
        return sb.toString();
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public String address() {
        return "postgres at " + config.host() + ":" + config.port();
    }

    @Override
    public Reading read(Instant now) throws SQLException {
        Connection c = connection();
        Map<String, Map<String, double[]>> byQueue = new LinkedHashMap<>();
        int rows = 0;
        try (PreparedStatement st = c.prepareStatement(sql); ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                if (++rows > MAX_GROUPS) {
                    throw new SQLException("the table has more than " + MAX_GROUPS + " queue and state groups");
                }
                String q = config.queue() != null ? config.queue() : rs.getString(1);
                String s = rs.getString(2);
                byQueue.computeIfAbsent(q == null ? "" : q, k -> new LinkedHashMap<>())
                        .put(s == null ? "" : s, new double[] {rs.getLong(3), rs.getDouble(4)});
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
        if (known.size() < MAX_GROUPS) {
            known.addAll(byQueue.keySet());
        }
        List<Sample> out = new ArrayList<>();
        for (String q : known) {
            Map<String, double[]> states = byQueue.getOrDefault(q, Map.of());
            double length = 0;
            double age = 0;
            double inFlight = 0;
            for (Map.Entry<String, double[]> e : states.entrySet()) {
                double[] v = e.getValue();
                if (config.waiting().contains(e.getKey())) {
                    length += v[0];
                    age = Math.max(age, v[1]);
                }
                if (config.inFlight().contains(e.getKey())) {
                    inFlight += v[0];
                }
                out.add(new Sample(Family.JOBS, q, e.getKey(), v[0]));
            }
            out.add(Sample.of(Family.LENGTH, q, length));
            out.add(Sample.of(Family.OLDEST_AGE, q, Math.max(0, age)));
            if (!config.inFlight().isEmpty()) {
                out.add(Sample.of(Family.IN_FLIGHT, q, inFlight));
            }
        }
        return new Reading(out, 1);
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            long millis = Math.max(1, config.timeout().toMillis());
            int seconds = (int) Math.max(1, (millis + 999) / 1000);
            Properties p = new Properties();
            p.setProperty("user", config.user());
            if (config.password() != null) {
                p.setProperty("password", config.password().read(env));
            }
            p.setProperty("connectTimeout", Integer.toString(seconds));
            p.setProperty("loginTimeout", Integer.toString(seconds));
            p.setProperty("socketTimeout", Integer.toString(seconds + 1));
            // Timestamps without a zone are read as UTC; the server cancels a query at the deadline.
            p.setProperty("options", "-c statement_timeout=" + millis + " -c TimeZone=UTC");
            p.setProperty("ApplicationName", "headroom-exporter");
            p.setProperty("readOnly", "true");
            String url = "jdbc:postgresql://" + (config.host().contains(":") ? "[" + config.host() + "]" : config.host())
                    + ":" + config.port() + "/" + java.net.URLEncoder.encode(config.database(),
                    java.nio.charset.StandardCharsets.UTF_8);
            connection = DriverManager.getConnection(url, p);
        }
        return connection;
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // closing a broken connection: nothing left to free
            }
            connection = null;
        }
    }
}
