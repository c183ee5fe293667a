package io.headroom.exporter;

import io.headroom.config.ConfigErrors;
import io.headroom.config.ConfigException;
import io.headroom.config.ConfigNode;
import io.headroom.config.ConfigTree;
import io.headroom.config.Fields;
import io.headroom.config.SecretRef;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code headroom exporter}'s file: where to listen and the queue systems to read, read as the workloads
 * file is (one YAML or JSON file, every problem located {@code FILE:LINE: path: message}, unknown fields
 * refused).
 *
 * @param host    the address to listen on ({@code 127.0.0.1} unless the file says otherwise)
 * @param sources at least one, names unique
 */
public record ExporterConfig(String host, int port, List<SourceConfig> sources) {

    public static final String DEFAULT_LISTEN = "127.0.0.1:9490";
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    static final int MAX_QUEUES = 10_000;
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]{0,62}");

    public ExporterConfig {
        sources = List.copyOf(sources);
    }

    /** One queue system; {@code timeout} bounds each read of it. */
    public sealed interface SourceConfig permits RedisConfig, PostgresConfig, RabbitMqConfig, KafkaConfig {
        String name();

        Duration timeout();
    }

    /** How jobs sit in a Redis list. */
    public enum RedisFormat {
        /** RQ: {@code rq:queue:NAME} of job ids (head on the left), the job hash's {@code enqueued_at}, its registries. */
        RQ,
        /** Celery's Redis broker: the list NAME, pushed on the left and taken from the right. */
        CELERY,
        /** A plain list pushed on the right and taken from the left. */
        LIST
    }

    /**
     * @param timestampField a field of the head job (JSON) holding its enqueue time (ISO-8601 or epoch seconds),
     *                       dotted for nested fields; null for first sight (RQ reads {@code enqueued_at} itself)
     */
    public record RedisConfig(String name, Duration timeout, String host, int port, int database, String username,
                              SecretRef password, RedisFormat format, List<String> queues, String timestampField)
            implements SourceConfig {
        public RedisConfig {
            queues = List.copyOf(queues);
        }
    }

    /**
     * A table of jobs: a created-at column, a state column, and a queue column or one queue's name.
     *
     * @param table     {@code name} or {@code schema.name}
     * @param waiting   the states of jobs not yet taken (length and oldest age)
     * @param inFlight  the states of jobs being worked on
     */
    public record PostgresConfig(String name, Duration timeout, String host, int port, String database, String user,
                                 SecretRef password, String table, String queueColumn, String queue,
                                 String createdAtColumn, String stateColumn, List<String> waiting,
                                 List<String> inFlight) implements SourceConfig {
        public PostgresConfig {
            waiting = List.copyOf(waiting);
            inFlight = List.copyOf(inFlight);
        }
    }

    /**
     * RabbitMQ over AMQP: ready messages and consumers per queue; with {@code peek} the head message is
     * fetched and put back for its age ({@code timestampHeader}, else its timestamp property, else first sight).
     */
    public record RabbitMqConfig(String name, Duration timeout, String host, int port, String vhost, String username,
                                 SecretRef password, List<String> queues, boolean peek, String timestampHeader,
                                 RabbitMqManagement management)
            implements SourceConfig {
        public RabbitMqConfig {
            queues = List.copyOf(queues);
        }

        /** Without the management API: no unacknowledged counts. */
        public RabbitMqConfig(String name, Duration timeout, String host, int port, String vhost, String username,
                              SecretRef password, List<String> queues, boolean peek, String timestampHeader) {
            this(name, timeout, host, port, vhost, username, password, queues, peek, timestampHeader, null);
        }
    }

    /**
     * RabbitMQ's management HTTP API, asked once a scrape for every queue's unacknowledged count
     * ({@code GET /api/queues/VHOST?columns=…}). TLS is verified against the JVM's trust store.
     *
     * @param url      {@code http(s)://HOST:PORT[/PATH_PREFIX]}, no trailing slash
     * @param username the AMQP username unless the block names one
     * @param password the AMQP password unless the block names one (null: guest)
     */
    public record RabbitMqManagement(java.net.URI url, String username, SecretRef password) {
    }

    /**
     * Kafka consumer groups: each queue is {@code TOPIC/GROUP} (a topic name has no {@code /}), its lag in
     * messages and in seconds (the timestamp of each partition's first unconsumed record).
     *
     * @param bootstrapServers {@code host:port[,host:port…]}
     * @param saslMechanism    PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 when a username is given, else null
     */
    public record KafkaConfig(String name, Duration timeout, String bootstrapServers, boolean tls, String username,
                              SecretRef password, String saslMechanism, List<KafkaQueue> queues)
            implements SourceConfig {
        public KafkaConfig {
            queues = List.copyOf(queues);
        }
    }

    /** A topic read by a consumer group: the {@code queue} label {@code TOPIC/GROUP}. */
    public record KafkaQueue(String topic, String group) {
        public String label() {
            return topic + "/" + group;
        }
    }

    private static final Pattern TOPIC = Pattern.compile("[A-Za-z0-9._-]{1,249}");
    private static final List<String> SASL = List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512");

    /** Reads and checks the file; every problem it has, located. */
    public static ExporterConfig read(Path file) throws ConfigException {
        return read(ConfigTree.parse(file));
    }

    static ExporterConfig read(ConfigNode root) throws ConfigException {
        ConfigErrors errors = new ConfigErrors();
        Fields f = Fields.of(root, errors);
        String listen = f.string("listen");
        String host = "127.0.0.1";
        int port = 9490;
        String hostPort = listen == null ? DEFAULT_LISTEN : listen;
        int colon = hostPort.lastIndexOf(':');
        try {
            if (colon < 0) {
                throw new NumberFormatException();
            }
            host = hostPort.substring(0, colon).isEmpty() ? "0.0.0.0" : hostPort.substring(0, colon);
            port = Integer.parseInt(hostPort.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            f.error("listen", "must be HOST:PORT (e.g. " + DEFAULT_LISTEN + ", or :9490 for every address), got '"
                    + hostPort + "'");
        }
        List<SourceConfig> sources = f.namedList("sources", "source", 100, ExporterConfig::source,
                SourceConfig::name);
        f.finish();
        errors.throwIfAny();
        return new ExporterConfig(host, port, sources);
    }

    private static SourceConfig source(Fields s) {
        int before = s.errors().count();
        String name = s.requiredString("name");
        String type = s.requiredString("type");
        Double seconds = s.number("timeoutSeconds");
        s.within("timeoutSeconds", seconds, 0.05, 60);
        Duration timeout = seconds == null ? DEFAULT_TIMEOUT : Duration.ofMillis(Math.round(seconds * 1000));
        String host = s.string("host");
        Integer port = s.integer("port");
        s.within("port", port, 1, 65535);
        SecretRef password = password(s);
        SourceConfig out = null;
        if (type == null) {
            s.finish();
            return null;
        }
        switch (type) {
            case "redis" -> {
                Integer database = s.integer("database");
                s.within("database", database, 0, 1_000_000);
                String username = s.string("username");
                String formatText = s.string("format");
                RedisFormat format = RedisFormat.LIST;
                if (formatText != null) {
                    try {
                        format = RedisFormat.valueOf(formatText.toUpperCase(java.util.Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        s.error("format", "must be rq, celery or list, got '" + formatText + "'");
                    }
                }
                List<String> queues = strings(s, "queues", true);
                String timestampField = s.string("timestampField");
                if (timestampField != null && format == RedisFormat.RQ) {
                    s.error("timestampField", "RQ keeps each job's enqueue time itself; remove timestampField");
                }
                out = new RedisConfig(name, timeout, host == null ? "127.0.0.1" : host, port == null ? 6379 : port,
                        database == null ? 0 : database, username, password, format, queues, timestampField);
            }
            case "postgres" -> {
                String database = s.requiredString("database");
                String user = s.requiredString("user");
                String table = s.requiredString("table");
                if (table != null && !java.util.Arrays.stream(table.split("\\.", -1)).allMatch(
                        p -> IDENTIFIER.matcher(p).matches()) || table != null && table.split("\\.").length > 2) {
                    s.error("table", "must be a table name or schema.name (letters, digits, _ and $), got '" + table
                            + "'");
                }
                String queueColumn = identifier(s, "queueColumn", false);
                String queue = s.string("queue");
                if ((queueColumn == null) == (queue == null)) {
                    s.error(queue == null ? "queueColumn" : "queue", "give queueColumn (a column naming each job's"
                            + " queue) or queue (the one queue the table holds), not both or neither");
                }
                String created = identifier(s, "createdAtColumn", true);
                String state = identifier(s, "stateColumn", true);
                List<String> waiting = strings(s, "waiting", true);
                List<String> inFlight = strings(s, "inFlight", false);
                out = new PostgresConfig(name, timeout, host == null ? "127.0.0.1" : host, port == null ? 5432 : port,
                        database, user, password, table, queueColumn, queue, created, state, waiting, inFlight);
            }
            case "rabbitmq" -> {
                String vhost = s.string("vhost");
                String username = s.string("username");
                List<String> queues = strings(s, "queues", true);
                boolean peek = bool(s, "peek", true);
                String header = s.string("timestampHeader");
                username = username == null ? "guest" : username;
                RabbitMqManagement management = management(s, username, password);
                out = new RabbitMqConfig(name, timeout, host == null ? "127.0.0.1" : host, port == null ? 5672 : port,
                        vhost == null ? "/" : vhost, username, password, queues, peek, header, management);
            }
            case "kafka" -> out = kafka(s, name, timeout, host, port, password);
            default -> s.error("type", "must be redis, postgres, rabbitmq or kafka, got '" + type + "'");
        }
        s.finish();
        return s.errors().count() > before ? null : out;
    }

    private static KafkaConfig kafka(Fields s, String name, Duration timeout, String host, Integer port,
                                     SecretRef password) {
        String bootstrap = s.string("bootstrapServers");
        if (bootstrap != null && (host != null || port != null)) {
            s.error("bootstrapServers", "give bootstrapServers or host and port, not both");
        } else if (bootstrap != null && !bootstrap.matches("[^,\\s:]+:\\d{1,5}(,[^,\\s:]+:\\d{1,5})*")) {
            s.error("bootstrapServers", "must be HOST:PORT[,HOST:PORT…], got '" + bootstrap + "'");
        }
        if (bootstrap == null) {
            bootstrap = (host == null ? "127.0.0.1" : host) + ":" + (port == null ? 9092 : port);
        }
        boolean tls = bool(s, "tls", false);
        String username = s.string("username");
        String mechanism = s.string("saslMechanism");
        if (mechanism != null && !SASL.contains(mechanism)) {
            s.error("saslMechanism", "must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, got '" + mechanism + "'");
        } else if (mechanism != null && username == null) {
            s.error("saslMechanism", "needs a username (and passwordEnv or passwordFile)");
        }
        if (username != null && mechanism == null) {
            mechanism = "PLAIN";
        }
        if ((username == null) != (password == null)) {
            s.error(username == null ? "username" : "passwordEnv", "give a username with passwordEnv or passwordFile,"
                    + " or neither");
        }
        List<KafkaQueue> queues = new ArrayList<>();
        for (String q : strings(s, "queues", true)) {
            int slash = q.indexOf('/');
            String topic = slash < 0 ? q : q.substring(0, slash);
            if (slash <= 0 || slash == q.length() - 1 || !TOPIC.matcher(topic).matches()) {
                s.error("queues", "each must be TOPIC/GROUP (a topic of letters, digits, '.', '_' and '-', then the"
                        + " consumer group), got '" + q + "'");
            } else {
                queues.add(new KafkaQueue(topic, q.substring(slash + 1)));
            }
        }
        return new KafkaConfig(name, timeout, bootstrap, tls, username, password, mechanism, queues);
    }

    /** The optional {@code management:} block; its credentials default to the AMQP ones. */
    private static RabbitMqManagement management(Fields s, String username, SecretRef password) {
        if (!s.has("management")) {
            return null;
        }
        Fields m = s.object("management");
        if (m == null) {
            return null; // "expected a mapping" is recorded
        }
        String url = m.requiredString("url");
        java.net.URI uri = null;
        if (url != null) {
            String trimmed = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
            try {
                uri = new java.net.URI(trimmed);
                if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                        || uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawUserInfo() != null) {
                    throw new java.net.URISyntaxException(trimmed, "not http(s)://HOST[:PORT][/PATH]");
                }
            } catch (java.net.URISyntaxException e) {
                m.error("url", "must be http(s)://HOST[:PORT][/PATH] (no credentials, query or fragment), got '"
                        + url + "'");
                uri = null;
            }
        }
        String user = m.string("username");
        SecretRef own = password(m);
        m.finish();
        return uri == null ? null : new RabbitMqManagement(uri, user == null ? username : user,
                own == null && user == null ? password : own);
    }

    private static boolean bool(Fields s, String key, boolean otherwise) {
        java.util.Optional<ConfigNode> node = s.get(key);
        if (node.isEmpty()) {
            return otherwise;
        }
        tools.jackson.core.JsonToken t = node.get() instanceof ConfigNode.ScalarNode sn ? sn.token() : null;
        if (t == tools.jackson.core.JsonToken.VALUE_TRUE || t == tools.jackson.core.JsonToken.VALUE_FALSE) {
            return t == tools.jackson.core.JsonToken.VALUE_TRUE;
        }
        s.error(key, "must be true or false");
        return otherwise;
    }

    private static SecretRef password(Fields s) {
        String env = s.string("passwordEnv");
        String file = s.string("passwordFile");
        if (env != null && file != null) {
            s.error("passwordFile", "give passwordEnv or passwordFile, not both");
            return null;
        }
        if (env != null && !env.isBlank()) {
            return SecretRef.env(env);
        }
        if (file != null && !file.isBlank()) {
            return SecretRef.file(Path.of(file));
        }
        return null;
    }

    private static String identifier(Fields s, String key, boolean required) {
        String v = required ? s.requiredString(key) : s.string(key);
        if (v != null && !IDENTIFIER.matcher(v).matches()) {
            s.error(key, "must be a column name (letters, digits, _ and $), got '" + v + "'");
            return null;
        }
        return v;
    }

    private static List<String> strings(Fields s, String key, boolean required) {
        if (required && !s.has(key)) {
            s.missing(key);
            return List.of();
        }
        List<String> out = new ArrayList<>();
        int before = s.errors().count();
        for (ConfigNode n : s.list(key, MAX_QUEUES)) {
            String v = Fields.asString(n, s.errors());
            if (v != null && v.isEmpty()) {
                s.errors().add(n, "must not be empty");
            } else if (v != null && out.contains(v)) {
                s.errors().add(n, "'" + v + "' is named twice");
            } else if (v != null) {
                out.add(v);
            }
        }
        if (required && out.isEmpty() && s.errors().count() == before) {
            s.error(key, "must name at least one");
        }
        return out;
    }
}
