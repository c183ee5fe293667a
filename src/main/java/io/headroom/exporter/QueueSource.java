package io.headroom.exporter;

import java.time.Instant;
import java.util.List;

/**
 * One queue system the exporter reads (a Redis, a PostgreSQL table, a broker): every queue it was
 * pointed at, in as few round trips as the system allows. Called on one thread at a time.
 */
public interface QueueSource extends AutoCloseable {

    /** The source's name from the config file: the {@code source} label of everything it exports. */
    String name();

    /** The system and where it is ({@code redis at 127.0.0.1:6379}): what every failure to read it starts with. */
    String address();

    /**
     * Reads every queue now. Throws when the system cannot be read (then nothing of it is exported);
     * a read never waits longer than the source's deadline.
     *
     * @param now the exporter's clock, for ages learnt from first sight
     */
    Reading read(Instant now) throws Exception;

    /**
     * What one read found and what it cost: the samples and the queries (commands, statements, requests) sent,
     * and the gaps: why a part of the source that is read apart (RabbitMQ's management API) has no samples
     * while the rest does.
     */
    record Reading(List<Sample> samples, int queries, List<String> gaps) {
        public Reading {
            samples = List.copyOf(samples);
            gaps = List.copyOf(gaps);
        }

        public Reading(List<Sample> samples, int queries) {
            this(samples, queries, List.of());
        }
    }

    /** Drops the connection; the next read connects again. */
    @Override
    void close();
}
