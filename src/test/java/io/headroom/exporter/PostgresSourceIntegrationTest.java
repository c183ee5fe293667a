package io.headroom.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.exporter.ExporterConfig.PostgresConfig;
import io.headroom.exporter.Sample.Family;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The PostgreSQL source against Debian's real server: a jobs table with rows created at known times. */
class PostgresSourceIntegrationTest {
    static TestPostgres pg;

    @BeforeAll
    static void start() throws Exception {
        pg = TestPostgres.shared();
    }

    static PostgresConfig config(String name, int port, String table, String queueColumn, String queue,
                                 Duration timeout) {
        return new PostgresConfig(name, timeout, "127.0.0.1", port, "postgres", TestPostgres.USER, null, table,
                queueColumn, queue, "created_at", "state", List.of("queued"), List.of("running"));
    }

    static void table(Connection c, String name) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + name + " (id serial PRIMARY KEY, queue text NOT NULL, state text NOT NULL,"
                    + " created_at timestamptz NOT NULL)");
        }
    }

    static void insert(Connection c, String table, String queue, String state, double secondsAgo) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + table + " (queue, state, created_at) VALUES ('" + queue + "', '" + state
                    + "', clock_timestamp() - interval '" + secondsAgo + " seconds')");
        }
    }

    @Test
    void lengthIsExactTheOldestAgeIsTheOldestWaitingJobAndInFlightCountsByState() throws Exception {
        try (Connection c = pg.connect()) {
            table(c, "jobs_a");
            insert(c, "jobs_a", "mail", "queued", 40);
            insert(c, "jobs_a", "mail", "queued", 5);
            insert(c, "jobs_a", "mail", "running", 300); // older, but taken: not the oldest waiting
            insert(c, "jobs_a", "mail", "done", 900);
            insert(c, "jobs_a", "pdf", "queued", 12);
        }
        try (PostgresSource s = new PostgresSource(config("db", pg.port(), "public.jobs_a", "queue", null,
                Duration.ofSeconds(2)), k -> null)) {
            QueueSource.Reading r = s.read(Instant.now());
            Map<String, Double> length = RedisSourceIntegrationTest.values(r, Family.LENGTH);
            Map<String, Double> age = RedisSourceIntegrationTest.values(r, Family.OLDEST_AGE);
            assertEquals(Map.of("mail", 2.0, "pdf", 1.0), length);
            assertEquals(40.0, age.get("mail"), 1.0, "within one scrape interval of the truth");
            assertEquals(12.0, age.get("pdf"), 1.0);
            assertEquals(Map.of("mail", 1.0, "pdf", 0.0), RedisSourceIntegrationTest.values(r, Family.IN_FLIGHT));
            assertEquals(Map.of("mail/queued", 2.0, "mail/running", 1.0, "mail/done", 1.0, "pdf/queued", 1.0),
                    RedisSourceIntegrationTest.values(r, Family.JOBS));
            assertEquals(1, r.queries(), "one query per read");

            try (Connection c = pg.connect(); Statement st = c.createStatement()) {
                st.execute("DELETE FROM jobs_a WHERE queue = 'pdf'");
            }
            QueueSource.Reading after = s.read(Instant.now());
            assertEquals(0.0, RedisSourceIntegrationTest.values(after, Family.LENGTH).get("pdf"),
                    "a queue seen before is empty now, not gone");
        }
    }

    @Test
    void oneQueuePerTableNamedInTheConfig() throws Exception {
        try (Connection c = pg.connect()) {
            table(c, "jobs_b");
            insert(c, "jobs_b", "ignored", "queued", 3);
        }
        try (PostgresSource s = new PostgresSource(config("db", pg.port(), "jobs_b", null, "reports",
                Duration.ofSeconds(2)), k -> null)) {
            QueueSource.Reading r = s.read(Instant.now());
            assertEquals(Map.of("reports", 1.0), RedisSourceIntegrationTest.values(r, Family.LENGTH));
        }
    }

    @Test
    void aLockedTableIsGivenUpAtTheStatementTimeoutWithNoSample() throws Exception {
        try (Connection c = pg.connect()) {
            table(c, "jobs_c");
            insert(c, "jobs_c", "mail", "queued", 1);
        }
        PostgresConfig cfg = config("locked", pg.port(), "jobs_c", "queue", null, Duration.ofMillis(300));
        try (Exporter e = new Exporter(new ExporterConfig("127.0.0.1", 0, List.of(cfg)), k -> null,
                Clock.systemUTC()); Connection locker = pg.connect()) {
            locker.setAutoCommit(false);
            try (Statement st = locker.createStatement()) {
                st.execute("LOCK TABLE jobs_c IN ACCESS EXCLUSIVE MODE");
            }
            long t0 = System.nanoTime();
            Exporter.Scraped s = e.scrapeOnce();
            double took = (System.nanoTime() - t0) / 1e9;
            locker.rollback();
            assertFalse(s.text().contains("headroom_queue_length{"), "no sample, never 0:\n" + s.text());
            assertTrue(s.text().contains("headroom_source_up{source=\"locked\"} 0.0"), s.text());
            assertTrue(s.failures().get(0).contains("statement timeout"), s.failures().toString());
            assertTrue(took < 0.3 + Scrape.GRACE.toMillis() / 1000.0, "within the deadline: " + took + " s");
            Exporter.Scraped again = e.scrapeOnce();
            assertTrue(again.text().contains("headroom_queue_length{queue=\"mail\",source=\"locked\"} 1.0"),
                    "the next scrape reads again:\n" + again.text());
        }
    }

    @Test
    void aStoppedServerExportsNoSampleAndSaysWhy() throws Exception {
        try (TestPostgres own = TestPostgres.start()) {
            try (Connection c = own.connect()) {
                table(c, "jobs");
                insert(c, "jobs", "mail", "queued", 1);
            }
            PostgresConfig cfg = config("gone", own.port(), "jobs", "queue", null, Duration.ofSeconds(1));
            try (Exporter e = new Exporter(new ExporterConfig("127.0.0.1", 0, List.of(cfg)), k -> null,
                    Clock.systemUTC())) {
                assertTrue(e.scrapeOnce().text().contains("headroom_queue_length{queue=\"mail\",source=\"gone\"} 1.0"));
                own.server.stop();
                Exporter.Scraped s = e.scrapeOnce();
                assertFalse(s.text().contains("headroom_queue_length{"), "no sample, never 0:\n" + s.text());
                assertTrue(s.text().contains("headroom_source_up{source=\"gone\"} 0.0"), s.text());
                assertEquals(1, s.failures().size());
                assertFalse(s.failures().get(0).contains("Exception"), "in words: " + s.failures());
            }
        }
    }
}
