package io.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import java.util.logging.StreamHandler;
import org.junit.jupiter.api.Test;

/** The secrets the console has loaded are taken out of text, whatever words hold them (issue 27 item 6). */
class LoadedSecretsTest {
    @Test
    void aHeldSecretIsMaskedWhereverItAppearsAndTheWordsAroundItStay() {
        LoadedSecrets.add("  pw-Hq83kLm1x \n"); // as read from a file: surrounding white space is not the secret
        assertEquals("login with [redacted] failed; [redacted]!", LoadedSecrets.redact("login with pw-Hq83kLm1x failed;"
                + " pw-Hq83kLm1x!"));
        assertEquals("nothing secret here", LoadedSecrets.redact("nothing secret here"));
        assertNull(LoadedSecrets.redact(null));
    }

    @Test
    void aLongerSecretContainingAShorterOneIsMaskedWhole() {
        LoadedSecrets.add("abcd-efgh-1234");
        LoadedSecrets.add("abcd-efgh-1234-5678-90ab");
        assertEquals("[redacted]", LoadedSecrets.redact("abcd-efgh-1234-5678-90ab"));
    }

    @Test
    void shortValuesAreNotHeldSoOrdinaryWordsStay() {
        LoadedSecrets.add("admin");
        LoadedSecrets.add(null);
        assertEquals("the admin user", LoadedSecrets.redact("the admin user"));
    }

    @Test
    void basicCredentialsAreHeldAsThePasswordAndAsTheHeadersBase64() {
        LoadedSecrets.addBasic("ana", "s3cret-pass-Q7");
        String header = Base64.getEncoder().encodeToString("ana:s3cret-pass-Q7".getBytes(StandardCharsets.UTF_8));
        assertEquals("echoed Basic [redacted] and [redacted]", LoadedSecrets.redact("echoed Basic " + header + " and"
                + " s3cret-pass-Q7"));
    }

    @Test
    void theNewestAreHeldWhenMoreThanTheCapAreLoaded() {
        LoadedSecrets.add("first-rotated-token-0000");
        for (int i = 0; i < LoadedSecrets.MAX_HELD; i++) {
            LoadedSecrets.add("rotated-token-" + String.format("%06d", i));
        }
        assertEquals("[redacted]", LoadedSecrets.redact("rotated-token-" + String.format("%06d", LoadedSecrets.MAX_HELD - 1)));
        assertEquals("first-rotated-token-0000", LoadedSecrets.redact("first-rotated-token-0000"), "the oldest went");
    }

    @Test
    void aGuardedLogHandlerWritesNoHeldSecretNotEvenInALoggedException() {
        LoadedSecrets.add("log-token-ZZ81kq");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StreamHandler h = new StreamHandler(out, new SimpleFormatter());
        LoadedSecrets.guard(h);
        LoadedSecrets.guard(h); // once is enough; twice changes nothing
        LogRecord r = new LogRecord(Level.WARNING, "server said: log-token-ZZ81kq is forbidden");
        r.setThrown(new IllegalStateException("HTTP 403: token log-token-ZZ81kq"));
        h.publish(r);
        h.flush();
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("server said: [redacted] is forbidden"), text);
        assertFalse(text.contains("log-token-ZZ81kq"), text);
    }
}
