package io.headroom.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each source's failure to reach its server reads alike: which system at which address, then what happened. */
class SourceFailureWordsTest {

    static String failure(ExporterConfig.SourceConfig source) {
        try (Exporter e = new Exporter(new ExporterConfig("127.0.0.1", 0, List.of(source)), k -> null,
                Clock.systemUTC())) {
            return e.scrapeOnce().failures().get(0);
        }
    }

    @Test
    void aRefusedConnectionSaysTheSystemItsAddressAndConnectionRefused() throws Exception {
        int closed = LocalServer.freePort();
        Duration t = Duration.ofSeconds(1);
        assertEquals("r: redis at 127.0.0.1:" + closed + ": connection refused", failure(new ExporterConfig.RedisConfig(
                "r", t, "127.0.0.1", closed, 0, null, null, ExporterConfig.RedisFormat.LIST, List.of("q"), null)));
        assertEquals("a: rabbitmq at 127.0.0.1:" + closed + ": connection refused", failure(
                new ExporterConfig.RabbitMqConfig("a", t, "127.0.0.1", closed, "/", "guest", null, List.of("q"), true,
                        null)));
        assertEquals("p: postgres at 127.0.0.1:" + closed + ": connection refused", failure(
                new ExporterConfig.PostgresConfig("p", t, "127.0.0.1", closed, "app", "u", null, "jobs", null, "q",
                        "created_at", "state", List.of("queued"), List.of())));
        assertEquals("k: kafka at 127.0.0.1:" + closed + ": no broker answered within 1 s (reading the topics' partitions)", failure(
                new ExporterConfig.KafkaConfig("k", t, "127.0.0.1:" + closed, false, null, null, null,
                        List.of(new ExporterConfig.KafkaQueue("t", "g")))));
    }
}
