package io.headroom.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Secret shapes that reach free text (pasted reasons, error messages, URLs) and text that must survive. */
class RedactorTest {

    /** text, the secret that must go, a part that must stay. */
    static Stream<Arguments> secrets() {
        return Stream.of(
                Arguments.of("Authorization: Basic dXNlcjpwYXNzd29yZA==", "dXNlcjpwYXNzd29yZA==", "Authorization"),
                Arguments.of("authorization: Bearer abc.def-ghi_jkl123", "abc.def-ghi_jkl123", "authorization"),
                Arguments.of("Proxy-Authorization: Basic Zm9vOmJhcg== sent", "Zm9vOmJhcg==", "Proxy-Authorization"),
                Arguments.of("header Authorization=Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnag", "YIIGhgYGKwYBBQUCoIIGejCCBnag",
                        "header"),
                Arguments.of("GET /api/v1/query?access_token=ya29.a0AfH6SMBx3&query=up failed", "ya29.a0AfH6SMBx3",
                        "query=up failed"),
                Arguments.of("refresh_token=1//0gLrXq9sWvYz&x=1", "1//0gLrXq9sWvYz", "x=1"),
                Arguments.of("{\"token\": \"s3cr3t-json-value\", \"kind\": \"Secret\"}", "s3cr3t-json-value", "\"kind\""),
                Arguments.of("{\"access_token\":\"abc123xyz789\",\"expires_in\":3600}", "abc123xyz789", "3600"),
                Arguments.of("\"password\" : \"hunter2 with spaces\"", "hunter2 with spaces", "password"),
                Arguments.of("{\"clientSecret\":\"cs-9f8e7d6c\"}", "cs-9f8e7d6c", "clientSecret"),
                Arguments.of("client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=", "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=",
                        "client-key-data"),
                Arguments.of("aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI/K7MDENG",
                        "aws_secret_access_key"),
                Arguments.of("AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMI", "AWS"),
                Arguments.of("key id AKIAIOSFODNN7EXAMPLE in use", "AKIAIOSFODNN7EXAMPLE", "in use"),
                Arguments.of("https://alice:s3cr3tpw@prometheus.example:9090/api/v1/query", "s3cr3tpw",
                        "prometheus.example:9090/api/v1/query"),
                Arguments.of("postgres://svc:p%40ss%3Aw0rd@db.internal/orders", "p%40ss%3Aw0rd", "db.internal/orders"),
                Arguments.of("password=hunter2", "hunter2", "password"),
                Arguments.of("db passwd: letmein!", "letmein!", "db"),
                Arguments.of("pwd=Tr0ub4dor&3", "Tr0ub4dor", "pwd"),
                Arguments.of("api_key=AIzaSyA-1234567890abcdefghijklmnopq", "AIzaSyA-1234567890", "api_key"),
                Arguments.of("X-API-Key: 9b1c2d3e4f5a6b7c", "9b1c2d3e4f5a6b7c", "X-API-Key"),
                Arguments.of("client_secret=shhh-123456", "shhh-123456", "client_secret"),
                Arguments.of("Cookie: session=abcdef123456; theme=dark", "abcdef123456", "Cookie"),
                Arguments.of("Set-Cookie: sid=Zz9Yy8Xx7; Path=/", "Zz9Yy8Xx7", "Set-Cookie"),
                Arguments.of("pushed with ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                        "pushed with"),
                Arguments.of("gitlab glpat-AbCdEfGhIjKlMnOpQrSt", "glpat-AbCdEfGhIjKlMnOpQrSt", "gitlab"),
                Arguments.of("slack xoxb-123456789012-abcdefABCDEF", "xoxb-123456789012-abcdefABCDEF", "slack"),
                Arguments.of("openshift sha256~abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG", "abcdefghijklmnopqrstuvwxyz0123456789",
                        "openshift"),
                Arguments.of("kubectl --token=abc123def456 get pods", "abc123def456", "get pods"),
                Arguments.of("--password hunter22 given", "hunter22", "given"),
                Arguments.of("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW0ifQ.c2lnbmF0dXJlc2lnbmF0dXJl expired",
                        "eyJzdWIiOiJzeXN0ZW0ifQ", "expired"),
                Arguments.of("-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234\nabcd==\n-----END RSA PRIVATE KEY-----",
                        "MIIEowIBAAKCAQEA1234", "[redacted]"),
                Arguments.of("private_key: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
                        "private_key"),
                Arguments.of("token: s.Hvault-token-123", "s.Hvault-token-123", "token"),
                Arguments.of("secret=abc,other=fine", "abc", "other=fine"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("secrets")
    void secretsGoTheRestStays(String text, String secret, String stays) {
        String out = Redactor.redact(text);
        assertFalse(out.contains(secret), out);
        assertTrue(out.contains(stays), out);
        assertTrue(out.contains(Redactor.MASK), out);
        assertEquals(out, Redactor.redact(out), "redacting twice changes nothing more");
    }

    static Stream<String> harmless() {
        return Stream.of("(1/s × 2 s) / 0.7 → slots", "burst \"quoted\" ✓", "queue orders wants 5 replicas",
                "Authorization failed for user alice", "password reset pending", "tokens per second: 5",
                "https://prometheus.example:9090/api/v1/query?query=up", "drain orders-drain-3-a1b2 interrupted",
                "workload moved (now 6 replicas, resourceVersion 12345); gave up", "secret santa", "key-value store");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("harmless")
    void ordinaryTextIsLeftAlone(String text) {
        assertEquals(text, Redactor.redact(text));
    }
}
