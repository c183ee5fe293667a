package io.headroom.sim;

import io.headroom.sandbox.ProducerGate;

/**
 * What a scenario class's producers obey (a class's {@code producers:} block): nothing (FREE, the default),
 * the class's admission as Headroom decides it each tick (OBEY), or a fixed concurrency limit (LIMIT, the
 * baseline). A refused job is retried after {@code retrySeconds}; see {@link ProducerGate}.
 *
 * @param limit the most jobs in flight plus waiting under LIMIT; 0 otherwise
 */
public record ScenarioProducers(ProducerGate.Mode mode, double retrySeconds, int limit) {

    public static final ScenarioProducers FREE = new ScenarioProducers(ProducerGate.Mode.FREE,
            ProducerGate.DEFAULT_RETRY_SECONDS, 0);

    public ScenarioProducers {
        java.util.Objects.requireNonNull(mode, "mode");
        if (!(retrySeconds > 0) || Double.isInfinite(retrySeconds)) {
            throw new IllegalArgumentException("retrySeconds must be > 0, got " + retrySeconds);
        }
        if (mode == ProducerGate.Mode.LIMIT && limit < 1) {
            throw new IllegalArgumentException("a concurrency limit must be >= 1, got " + limit);
        }
        if (mode != ProducerGate.Mode.LIMIT) {
            limit = 0;
        }
    }

    /** Producers that obey admission, retrying a refused job after {@code retrySeconds}. */
    public static ScenarioProducers obey(double retrySeconds) {
        return new ScenarioProducers(ProducerGate.Mode.OBEY, retrySeconds, 0);
    }

    /** Producers behind a fixed concurrency limit of {@code n} jobs in flight plus waiting. */
    public static ScenarioProducers limit(int n, double retrySeconds) {
        return new ScenarioProducers(ProducerGate.Mode.LIMIT, retrySeconds, n);
    }

    /**
     * Reads a class's {@code producers:} block: {@code obey: admission | limit | nothing},
     * {@code retrySeconds} (default {@value ProducerGate#DEFAULT_RETRY_SECONDS}) and, for a limit,
     * {@code limit} (jobs in flight plus waiting). Null when it has problems (recorded in {@code p}'s errors).
     */
    static ScenarioProducers read(io.headroom.config.Fields p) {
        int before = p.errors().count();
        String obey = p.requiredString("obey");
        double retry = p.number("retrySeconds", ProducerGate.DEFAULT_RETRY_SECONDS);
        Integer limit = p.integer("limit");
        if (!(retry > 0)) {
            p.error("retrySeconds", "must be > 0, got " + io.headroom.config.Fields.plain(retry));
        } else {
            p.within("retrySeconds", retry, 0, 86_400);
        }
        ProducerGate.Mode mode = null;
        if (obey != null) {
            switch (obey.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "admission" -> mode = ProducerGate.Mode.OBEY;
                case "limit" -> mode = ProducerGate.Mode.LIMIT;
                case "nothing" -> mode = ProducerGate.Mode.FREE;
                default -> p.error("obey", "must be admission, limit or nothing, got \"" + obey + "\"");
            }
        }
        if (mode == ProducerGate.Mode.LIMIT && (limit == null || limit < 1)) {
            p.error("limit", "obey: limit needs limit >= 1 (jobs in flight plus waiting), got " + limit);
        } else if (mode != ProducerGate.Mode.LIMIT && limit != null) {
            p.error("limit", "only obey: limit takes a limit");
        }
        p.finish();
        if (p.errors().count() > before || mode == null) {
            return null;
        }
        return new ScenarioProducers(mode, retry, limit == null ? 0 : limit);
    }

    /** Sets the world's gate of the class to this. */
    void apply(ProducerGate gate) {
        switch (mode) {
            case FREE -> { }
            case OBEY -> gate.obey(retrySeconds);
            case LIMIT -> gate.limit(limit, retrySeconds);
        }
    }
}
