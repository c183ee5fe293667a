package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.PrometheusEndpoint;
import io.headroom.config.SecretRef;
import io.headroom.prometheus.StubPrometheus.Answer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What comes from outside (a token file, a server's error text, label values) is checked or made
 * harmless before anyone sees it: no exception escapes, no terminal escape is passed on, no secret is shown.
 */
class UntrustedPrometheusTest {

    static final String ESCAPES = "\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\u009b";

    StubPrometheus stub;
    PrometheusClient client;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (stub != null) {
            stub.close();
        }
    }

    static void assertPlain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            assertFalse(Character.isISOControl(c), "control character U+" + Integer.toHexString(c) + " in: " + s);
        }
    }

    static String json(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            sb.append(c < 0x20 || c >= 0x7f ? String.format("\\u%04x", (int) c) : c == '"' ? "\\\"" : String.valueOf(c));
        }
        return sb.toString();
    }

    PrometheusClient withToken(Path tokenFile) throws Exception {
        stub = new StubPrometheus(s -> Answer.vector("1"));
        return PrometheusClient.connect(new PrometheusEndpoint(stub.url(), SecretRef.file(tokenFile), null, null, false,
                Duration.ofSeconds(2)), k -> null, Clock.systemUTC());
    }

    // ------------------------------------------------------------ token files

    @Test
    void aTrailingNewlineIsTrimmedAsKubectlAndPrometheusDo(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "tok-123\n");
        client = withToken(token);
        assertInstanceOf(QueryOutcome.Value.class, client.query("up"));
        assertEquals("Bearer tok-123", stub.seen().get(0).authorization());
        Files.writeString(token, "tok-456\r\n");
        client.close();
        client = PrometheusClient.connect(new PrometheusEndpoint(stub.url(), SecretRef.file(token), null, null, false,
                Duration.ofSeconds(2)), k -> null, Clock.systemUTC());
        client.query("up");
        assertEquals("Bearer tok-456", stub.seen().get(1).authorization());
    }

    @Test
    void aLineBreakInsideTheTokenIsAConfigErrorNamingTheFileNotTheToken(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "secret-part-one\nsecret-part-two\n");
        PrometheusSetupException e = assertThrows(PrometheusSetupException.class, () -> withToken(token));
        assertEquals("prometheus credentials: the bearer token in file " + token + " has a line break after"
                + " character 15; the file must hold the token alone (one trailing newline is fine)", e.getMessage());
        assertFalse(e.getMessage().contains("secret"));
        assertTrue(stub.seen().isEmpty(), "no request was made");
    }

    @Test
    void nonAsciiOrControlCharactersInTheTokenAreConfigErrors(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "s\u00e9cret-t\u00f6ken", StandardCharsets.UTF_8);
        PrometheusSetupException e = assertThrows(PrometheusSetupException.class, () -> withToken(token));
        assertEquals("prometheus credentials: the bearer token in file " + token + " has a non-ASCII character"
                + " at character 2; a bearer token is printable ASCII", e.getMessage());
        stub.close();
        Files.writeString(token, "secret\u0000token");
        e = assertThrows(PrometheusSetupException.class, () -> withToken(token));
        assertTrue(e.getMessage().contains("has a control character at character 7"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"));
        stub.close();
        Files.writeString(token, "Bearer secrettoken");
        e = assertThrows(PrometheusSetupException.class, () -> withToken(token));
        assertTrue(e.getMessage().contains("has a space at character 7"), e.getMessage());
        assertFalse(e.getMessage().contains("secrettoken"));
    }

    @Test
    void aTokenFileThatIsNotATokenIsRefusedBeforeReadingItWhole(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("token");
        Files.write(big, new byte[10 * 1024 * 1024]);
        PrometheusSetupException e = assertThrows(PrometheusSetupException.class, () -> withToken(big));
        assertTrue(e.getMessage().contains("is 10485760 bytes"), e.getMessage());
        stub.close();
        Path d = Files.createDirectory(dir.resolve("tokendir"));
        e = assertThrows(PrometheusSetupException.class, () -> withToken(d));
        assertTrue(e.getMessage().contains("is not a regular file"), e.getMessage());
    }

    @Test
    void aTokenFromTheEnvironmentIsCheckedTheSameWay() throws Exception {
        stub = new StubPrometheus(s -> Answer.vector("1"));
        PrometheusSetupException e = assertThrows(PrometheusSetupException.class, () -> PrometheusClient.connect(
                new PrometheusEndpoint(stub.url(), SecretRef.env("TOKEN"), null, null, false, Duration.ofSeconds(2)),
                Map.of("TOKEN", "abc\ndef")::get, Clock.systemUTC()));
        assertEquals("prometheus credentials: the bearer token in environment variable TOKEN has a line break after"
                + " character 3; the variable must hold the token alone", e.getMessage());
    }

    @Test
    void credentialsAreNotSentInClearTextToAnotherHostEvenIfAnEndpointIsBuiltInCode() {
        assertThrows(IllegalArgumentException.class, () -> new PrometheusEndpoint(URI.create("http://10.1.2.3:9090"),
                SecretRef.env("T"), null, null, false, Duration.ofSeconds(2)));
    }

    // ------------------------------------------------------------ what the server says

    @Test
    void escapeSequencesInAnErrorBodyAreNotPassedOn() throws Exception {
        stub = new StubPrometheus(s -> Answer.status(400, "{\"status\":\"error\",\"errorType\":\"bad_data"
                + json(ESCAPES) + "\",\"error\":\"" + json(ESCAPES + "x".repeat(5000)) + "\"}"));
        client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()), k -> null, Clock.systemUTC());
        QueryOutcome.NoData n = assertInstanceOf(QueryOutcome.NoData.class, client.query("up"));
        assertEquals(NoDataReason.QUERY_ERROR, n.reason());
        assertPlain(n.message());
        assertTrue(n.message().contains("pwned"), "the text is kept, only made harmless: " + n.message());
        assertTrue(n.message().length() < 500, "capped: " + n.message().length());
        assertPlain(client.health().lastFailure());
        assertPlain(n.toSignal().missingReason());
    }

    @Test
    void escapeSequencesInANonJsonAnswerAreNotPassedOn() throws Exception {
        stub = new StubPrometheus(s -> Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
                + "\"result\":[{\"metric\":{},\"value\":[1,\"" + json(ESCAPES) + "\"]}]}}"));
        client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()), k -> null, Clock.systemUTC());
        QueryOutcome.NoData n = assertInstanceOf(QueryOutcome.NoData.class, client.query("up"));
        assertEquals(NoDataReason.MALFORMED, n.reason());
        assertPlain(n.message());
    }

    @Test
    void labelValuesWithControlCharactersAreNoPodAndDoNotReachAMessage() throws Exception {
        stub = new StubPrometheus(s -> Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\","
                + "\"result\":[{\"metric\":{\"pod\":\"worker-1\"},\"value\":[1,\"2\"]},"
                + "{\"metric\":{\"pod\":\"" + json(ESCAPES) + "\"},\"value\":[1,\"3\"]}]}}"));
        client = PrometheusClient.connect(PrometheusEndpoint.of(stub.url()), k -> null, Clock.systemUTC());
        VectorOutcome.Samples s = assertInstanceOf(VectorOutcome.Samples.class, client.queryByLabel("x", "pod"));
        assertEquals(Map.of("worker-1", 2.0), s.byKey());

        stub.respond(q -> Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                + "{\"metric\":{\"pod\":\"a" + json("\u001b[2J") + "\",\"x\":\"1\"},\"value\":[1,\"2\"]},"
                + "{\"metric\":{\"pod\":\"a" + json("\u001b[2J") + "\",\"x\":\"2\"},\"value\":[1,\"3\"]}]}}"));
        assertEquals(Map.of(), assertInstanceOf(VectorOutcome.Samples.class, client.queryByLabel("x", "pod")).byKey());
    }
}
