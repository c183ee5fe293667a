package io.headroom.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.headroom.config.ConfigException;
import io.headroom.config.ConfigTree;
import io.headroom.exporter.ExporterConfig.PostgresConfig;
import io.headroom.exporter.ExporterConfig.RedisConfig;
import io.headroom.exporter.ExporterConfig.RedisFormat;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExporterConfigTest {

    static ExporterConfig read(String yaml) throws ConfigException {
        return ExporterConfig.read(ConfigTree.parse("exporter.yaml", yaml, ConfigTree.Format.YAML));
    }

    static String problems(String yaml) {
        return assertThrows(ConfigException.class, () -> read(yaml)).getMessage();
    }

    @Test
    void readsEverySourceWithItsDefaults() throws Exception {
        ExporterConfig c = read("""
                listen: ":9490"
                sources:
                  - {name: rq, type: redis, format: rq, queues: [default, high], passwordEnv: REDIS_PASSWORD}
                  - name: jobs
                    type: postgres
                    host: db.internal
                    database: app
                    user: exporter
                    table: graphile_worker.jobs
                    queueColumn: queue_name
                    createdAtColumn: run_at
                    stateColumn: state
                    waiting: [queued]
                    inFlight: [running]
                    timeoutSeconds: 0.5
                """);
        assertEquals("0.0.0.0", c.host());
        assertEquals(9490, c.port());
        RedisConfig r = (RedisConfig) c.sources().get(0);
        assertEquals(new RedisConfig("rq", Duration.ofSeconds(2), "127.0.0.1", 6379, 0, null,
                io.headroom.config.SecretRef.env("REDIS_PASSWORD"), RedisFormat.RQ, List.of("default", "high"), null), r);
        PostgresConfig p = (PostgresConfig) c.sources().get(1);
        assertEquals(Duration.ofMillis(500), p.timeout());
        assertEquals(5432, p.port());
        assertEquals("SELECT \"queue_name\"::text AS q, \"state\"::text AS s, count(*) AS n, EXTRACT(EPOCH FROM"
                + " clock_timestamp() - min(\"run_at\")) AS age FROM \"graphile_worker\".\"jobs\" GROUP BY 1, 2 LIMIT "
                + (PostgresSource.MAX_GROUPS + 1), PostgresSource.query(p));
    }

    @Test
    void readsARabbitMqSource() throws Exception {
        ExporterConfig c = read("""
                sources:
                  - {name: broker, type: rabbitmq, vhost: shop, username: exporter, passwordEnv: AMQP_PASSWORD,
                     queues: [orders], peek: false}
                """);
        assertEquals(new ExporterConfig.RabbitMqConfig("broker", Duration.ofSeconds(2), "127.0.0.1", 5672, "shop",
                "exporter", io.headroom.config.SecretRef.env("AMQP_PASSWORD"), List.of("orders"), false, null),
                c.sources().get(0));
        assertEquals(List.of("exporter.yaml:2: sources[0].peek: must be true or false"), problems("""
                sources:
                  - {name: broker, type: rabbitmq, queues: [orders], peek: sometimes}
                """).lines().toList());
    }

    @Test
    void readsTheRabbitMqManagementBlockWhoseCredentialsDefaultToTheAmqpOnes() throws Exception {
        ExporterConfig c = read("""
                sources:
                  - {name: a, type: rabbitmq, username: exporter, passwordEnv: AMQP_PASSWORD, queues: [orders],
                     management: {url: "https://rabbit.internal:15671/"}}
                  - {name: b, type: rabbitmq, username: exporter, passwordEnv: AMQP_PASSWORD, queues: [orders],
                     management: {url: "http://rabbit.internal:15672/rmq", username: monitor,
                                  passwordFile: /run/secrets/monitor}}
                  - {name: c, type: rabbitmq, queues: [orders]}
                """);
        assertEquals(new ExporterConfig.RabbitMqManagement(java.net.URI.create("https://rabbit.internal:15671"),
                "exporter", io.headroom.config.SecretRef.env("AMQP_PASSWORD")),
                ((ExporterConfig.RabbitMqConfig) c.sources().get(0)).management(), "the AMQP credentials, no slash");
        assertEquals(new ExporterConfig.RabbitMqManagement(java.net.URI.create("http://rabbit.internal:15672/rmq"),
                "monitor", io.headroom.config.SecretRef.file(java.nio.file.Path.of("/run/secrets/monitor"))),
                ((ExporterConfig.RabbitMqConfig) c.sources().get(1)).management());
        assertEquals(null, ((ExporterConfig.RabbitMqConfig) c.sources().get(2)).management(), "no block: no API");
        assertEquals(List.of(
                "exporter.yaml:3: sources[0].management.url: must be http(s)://HOST[:PORT][/PATH] (no credentials,"
                        + " query or fragment), got 'rabbit:15672'",
                "exporter.yaml:5: sources[1].management.url: must be http(s)://HOST[:PORT][/PATH] (no credentials,"
                        + " query or fragment), got 'http://guest:guest@rabbit:15672'",
                "exporter.yaml:7: sources[2].management.url: is required",
                "exporter.yaml:7: sources[2].management.insecure: unknown field; expected one of url, username,"
                        + " passwordEnv, passwordFile",
                "exporter.yaml:9: sources[3].management: expected a mapping, got a string (\"http://rabbit:15672\")"),
                problems("""
                sources:
                  - {name: a, type: rabbitmq, queues: [q],
                     management: {url: "rabbit:15672"}}
                  - {name: b, type: rabbitmq, queues: [q],
                     management: {url: "http://guest:guest@rabbit:15672"}}
                  - {name: c, type: rabbitmq, queues: [q],
                     management: {insecure: true}}
                  - {name: d, type: rabbitmq, queues: [q],
                     management: "http://rabbit:15672"}
                """).lines().toList());
    }

    @Test
    void readsAKafkaSourceWhoseQueuesAreTopicSlashGroup() throws Exception {
        ExporterConfig c = read("""
                sources:
                  - {name: events, type: kafka, bootstrapServers: "k1:9092,k2:9093", tls: true, username: lag,
                     passwordEnv: KAFKA_PASSWORD, saslMechanism: SCRAM-SHA-512,
                     queues: [orders/billing, orders/team/audit]}
                  - {name: local, type: kafka, port: 19092, queues: [clicks/stats]}
                """);
        assertEquals(new ExporterConfig.KafkaConfig("events", Duration.ofSeconds(2), "k1:9092,k2:9093", true, "lag",
                io.headroom.config.SecretRef.env("KAFKA_PASSWORD"), "SCRAM-SHA-512", List.of(
                        new ExporterConfig.KafkaQueue("orders", "billing"),
                        new ExporterConfig.KafkaQueue("orders", "team/audit"))), c.sources().get(0));
        assertEquals("orders/team/audit", ((ExporterConfig.KafkaConfig) c.sources().get(0)).queues().get(1).label());
        assertEquals(new ExporterConfig.KafkaConfig("local", Duration.ofSeconds(2), "127.0.0.1:19092", false, null,
                null, null, List.of(new ExporterConfig.KafkaQueue("clicks", "stats"))), c.sources().get(1));
        assertEquals(List.of(
                "exporter.yaml:5: sources[0].bootstrapServers: must be HOST:PORT[,HOST:PORT…], got 'k1'",
                "exporter.yaml:7: sources[0].saslMechanism: must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, got 'GSSAPI'",
                "exporter.yaml:2: sources[0].passwordEnv: give a username with passwordEnv or passwordFile, or neither",
                "exporter.yaml:4: sources[0].queues: each must be TOPIC/GROUP (a topic of letters, digits, '.', '_'"
                        + " and '-', then the consumer group), got 'orders'",
                "exporter.yaml:4: sources[0].queues: each must be TOPIC/GROUP (a topic of letters, digits, '.', '_'"
                        + " and '-', then the consumer group), got 'bad topic/g'"), problems("""
                sources:
                  - name: events
                    type: kafka
                    queues: [orders, "bad topic/g", ok/g]
                    bootstrapServers: k1
                    username: lag
                    saslMechanism: GSSAPI
                """).lines().toList());
    }

    @Test
    void theExampleFileReads() throws Exception {
        ExporterConfig c = ExporterConfig.read(java.nio.file.Path.of("examples/exporter.yaml"));
        assertEquals(List.of("rq", "broker", "jobs", "events"), c.sources().stream().map(ExporterConfig.SourceConfig::name).toList());
        assertEquals("127.0.0.1", c.host());
    }

    @Test
    void everyProblemIsLocatedFileLine() {
        String m = problems("""
                listen: nowhere
                sources:
                  - {name: a, type: redis, queues: [], format: sidekiq, colour: blue}
                  - name: b
                    type: postgres
                    database: app
                    user: u
                    table: "jobs; DROP TABLE jobs"
                    createdAtColumn: created_at
                    stateColumn: state
                    waiting: [queued]
                  - {name: a, type: sqs}
                  - {name: c, type: redis, queues: [mail, mail]}
                """);
        assertEquals(List.of(
                "exporter.yaml:1: listen: must be HOST:PORT (e.g. 127.0.0.1:9490, or :9490 for every address), got 'nowhere'",
                "exporter.yaml:3: sources[0].format: must be rq, celery or list, got 'sidekiq'",
                "exporter.yaml:3: sources[0].queues: must name at least one",
                "exporter.yaml:3: sources[0].colour: unknown field; expected one of name, type, timeoutSeconds, host,"
                        + " port, passwordEnv, passwordFile, database, username, format, queues, timestampField",
                "exporter.yaml:8: sources[1].table: must be a table name or schema.name (letters, digits, _ and $),"
                        + " got 'jobs; DROP TABLE jobs'",
                "exporter.yaml:4: sources[1].queueColumn: give queueColumn (a column naming each job's queue) or"
                        + " queue (the one queue the table holds), not both or neither",
                "exporter.yaml:12: sources[2].type: must be redis, postgres, rabbitmq or kafka, got 'sqs'",
                "exporter.yaml:13: sources[3].queues[1]: 'mail' is named twice"),
                m.lines().toList());
    }
}
