package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/**
 * A record as one JSON line: its fields, {@code mac} (its HMAC under the journal's key, see
 * {@link JournalKey}), {@code prev} (the previous line's sum) and {@code sum}.
 */
final class Codec {
    static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().build();
    static final String GENESIS = "0".repeat(32);

    private Codec() {
    }

    /** A record's line (with its newline) and its sum, which the next line chains to. */
    record Encoded(byte[] line, String sum) {
    }

    /**
     * The line for {@code r} chained after {@code prev}, with its MAC under {@code key} when there is one
     * (null: a line as consoles before keys wrote it). The checksum covers the MAC too, so a console that
     * does not know keys still reads the line as whole.
     */
    static Encoded encode(JournalRecord r, String prev, JournalKey key) {
        ObjectNode body = toJson(r);
        if (key != null && key.keys(r.seq())) {
            body.put("mac", key.mac(prev, body));
        }
        String sum = checksum(prev, body);
        body.put("prev", prev);
        body.put("sum", sum);
        return new Encoded((body.toString() + "\n").getBytes(StandardCharsets.UTF_8), sum);
    }

    static String checksum(String prev, ObjectNode body) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(prev.getBytes(StandardCharsets.UTF_8));
            md.update((byte) '\n');
            md.update(body.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest(), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    static ObjectNode toJson(JournalRecord r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("seq", r.seq());
        o.put("at", r.at().toString());
        o.put("kind", r.kind().name());
        o.put("user", r.user());
        putText(o, "context", r.context());
        putText(o, "class", r.className());
        if (r.before() != null) {
            o.put("before", r.before());
        }
        if (r.after() != null) {
            o.put("after", r.after());
        }
        putText(o, "reason", r.reason());
        putText(o, "detail", r.detail());
        putText(o, "proposal", r.proposalId());
        if (r.until() != null) {
            o.put("until", r.until().toString());
        }
        putText(o, "node", r.node());
        return o;
    }

    static JournalRecord fromJson(JsonNode o) {
        return new JournalRecord(o.path("seq").asLong(0L), Instant.parse(o.path("at").asString("")),
                JournalRecord.Kind.valueOf(o.path("kind").asString("")), o.path("user").asString(""),
                text(o, "context"), text(o, "class"), integer(o, "before"), integer(o, "after"), text(o, "reason"),
                text(o, "detail"), text(o, "proposal"), o.hasNonNull("until") ? Instant.parse(o.get("until").asString(""))
                        : null, text(o, "node"));
    }

    private static void putText(ObjectNode o, String field, String value) {
        if (value != null) {
            o.put(field, value);
        }
    }

    private static String text(JsonNode o, String field) {
        return o.hasNonNull(field) ? o.get(field).asString("") : null;
    }

    private static Integer integer(JsonNode o, String field) {
        return o.hasNonNull(field) ? o.get(field).asInt(0) : null;
    }
}
