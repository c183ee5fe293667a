package io.headroom.journalfile;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The journal's own key (issue 27, {@code docs/decisions/0021}): 32 random bytes in a file beside the
 * journal, the user's alone ({@code 0600}). Every record from {@link #keyedFrom} on carries an HMAC-SHA256
 * of its content and the previous line's checksum under this key ({@code "mac"}), so a record forged
 * with a correctly recomputed checksum (which anyone can compute) is told apart from the console's own
 * by whoever cannot read the key. Records before {@link #keyedFrom} (written before keys, or under a key
 * that was lost) are checked by their chain alone.
 */
final class JournalKey {
    private static final String ALGORITHM = "HmacSHA256";
    private static final int BYTES = 32;

    private final SecretKeySpec key;
    private final long keyedFrom;
    /** One MAC per thread (a replay reads a million lines; looking the algorithm up each time would cost more). */
    private final ThreadLocal<Mac> macs;

    private JournalKey(byte[] key, long keyedFrom) {
        this.key = new SecretKeySpec(key, ALGORITHM);
        this.keyedFrom = keyedFrom;
        this.macs = ThreadLocal.withInitial(this::newMac);
    }

    private Mac newMac() {
        try {
            Mac m = Mac.getInstance(ALGORITHM);
            m.init(key);
            return m;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is always available", e);
        }
    }

    /** The first record this key keys. */
    long keyedFrom() {
        return keyedFrom;
    }

    /** Whether record {@code seq} must carry a MAC under this key. */
    boolean keys(long seq) {
        return seq >= keyedFrom;
    }

    /** The MAC of a record's content ({@code body}: no chain fields, no MAC) chained after {@code prev}. */
    String mac(String prev, ObjectNode body) {
        Mac m = macs.get(); // doFinal leaves it reset for the next record
        m.update(prev.getBytes(StandardCharsets.UTF_8));
        m.update((byte) '\n');
        return HexFormat.of().formatHex(m.doFinal(body.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /** Whether {@code mac} is this key's for the record (compared in constant time). */
    boolean verifies(String prev, ObjectNode body, String mac) {
        return MessageDigest.isEqual(mac(prev, body).getBytes(StandardCharsets.US_ASCII),
                mac.getBytes(StandardCharsets.US_ASCII));
    }

    /** The key in {@code file}; null when there is none. Throws when it is there but cannot be used. */
    static JournalKey read(Path file) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        }
        JsonNode n;
        try {
            n = Codec.JSON.readTree(bytes);
        } catch (tools.jackson.core.JacksonException e) {
            throw new IOException("it is not a journal key");
        }
        String hex = n == null ? "" : n.path("key").asString("");
        long from = n == null ? -1 : n.path("keyedFrom").asLong(-1);
        if (!hex.matches("[0-9a-f]{" + 2 * BYTES + "}") || from < 1) {
            throw new IOException("it is not a journal key");
        }
        PrivateFiles.restrict(file);
        return new JournalKey(HexFormat.of().parseHex(hex), from);
    }

    /** A new random key for the records from {@code keyedFrom} on, written to {@code file} (atomically, 0600). */
    static JournalKey create(Path file, long keyedFrom) throws IOException {
        byte[] k = new byte[BYTES];
        new SecureRandom().nextBytes(k);
        ObjectNode o = Codec.JSON.createObjectNode();
        o.put("key", HexFormat.of().formatHex(k));
        o.put("keyedFrom", keyedFrom);
        PrivateFiles.writeAtomically(file, (o + "\n").getBytes(StandardCharsets.UTF_8));
        return new JournalKey(k, keyedFrom);
    }
}
