package io.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Failures in the operator's words (issue 26 item 5): the kind said, the detail kept, no Java class name. */
class ErrorWordsTest {
    static final Pattern CLASS_NAME = Pattern.compile("[A-Z][a-z]+Exception");

    /** A wrapper as fabric8 throws it when the HTTP layer failed: a generic message over the real cause. */
    static RuntimeException wrapped(Throwable cause) {
        return new RuntimeException("An error has occurred.", cause);
    }

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of(new ConnectException("Connection refused"), "connection refused"),
                Arguments.of(new ConnectException("Failed to connect to /127.0.0.1:9090"),
                        "connection refused (127.0.0.1:9090)"),
                Arguments.of(wrapped(new ConnectException("Failed to connect to /10.0.0.5:6443")),
                        "connection refused (10.0.0.5:6443)"),
                Arguments.of(new ConnectException(null), "connection refused"),
                Arguments.of(new UnknownHostException("prometheus.monitoring.svc"),
                        "host unknown: prometheus.monitoring.svc"),
                Arguments.of(new SocketTimeoutException("Read timed out"), "timed out"),
                Arguments.of(wrapped(new SocketTimeoutException("timeout")), "timed out"),
                Arguments.of(new java.util.concurrent.TimeoutException(), "timed out"),
                Arguments.of(new SSLHandshakeException("PKIX path building failed: unable to find valid certification"
                        + " path to requested target"), "TLS failure: PKIX path building failed: unable to find valid"
                        + " certification path to requested target"),
                Arguments.of(wrapped(new java.security.cert.CertificateException("No subject alternative names present")),
                        "TLS failure: No subject alternative names present"),
                Arguments.of(new NoSuchFileException("/home/op/.kube/config"), "no such file: /home/op/.kube/config"),
                Arguments.of(new AccessDeniedException("/var/lib/headroom"), "permission denied: /var/lib/headroom"),
                Arguments.of(wrapped(new IOException("Is a directory")), "Is a directory"),
                Arguments.of(new java.io.UncheckedIOException(new java.io.EOFException()), "the data ended early"),
                Arguments.of(new NullPointerException("Cannot invoke \"io.fabric8.kubernetes.api.model.Config"
                        + ".getContexts()\" because \"ret\" is null"), "an internal error (a value was missing)"),
                Arguments.of(new IllegalArgumentException("no context 'prod' in [/home/op/.kube/config]"),
                        "no context 'prod' in [/home/op/.kube/config]"),
                Arguments.of(new IllegalStateException("java.lang.IllegalStateException: caught twice"), "caught twice"),
                Arguments.of(new RuntimeException(), "failed without a message"),
                Arguments.of(wrapped(null), "failed without a message"));
    }

    @ParameterizedTest
    @MethodSource("failures")
    void aFailureIsSaidInWords(Throwable t, String words) {
        assertEquals(words, ErrorWords.of(t));
        assertPlain(ErrorWords.of(t));
    }

    @Test
    void aYamlParsersMessageKeepsItsSentencesAndLineButNotTheFilesText() {
        String bad = "apiVersion: v1\nusers:\n- name: u\n  user: {token: \"s3cret-token\n";
        for (Throwable t : List.of(yamlEngine(bad), yaml(bad))) {
            String w = ErrorWords.of(t);
            assertEquals("not valid YAML: while scanning a quoted scalar; found unexpected end of stream"
                    + " (line 4, column 17)", w, t.getClass().getName());
            assertEquals(4, ErrorWords.line(t));
            assertPlain(w);
        }
        assertNull(ErrorWords.line(new ConnectException("Connection refused")));
    }

    static Throwable yamlEngine(String text) {
        try {
            new org.snakeyaml.engine.v2.api.Load(org.snakeyaml.engine.v2.api.LoadSettings.builder().build())
                    .loadFromString(text);
            throw new AssertionError("parsed");
        } catch (RuntimeException e) {
            return e;
        }
    }

    static Throwable yaml(String text) {
        try {
            new org.yaml.snakeyaml.Yaml().load(text);
            throw new AssertionError("parsed");
        } catch (RuntimeException e) {
            return e;
        }
    }

    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of("ConnectException: Failed to connect to /127.0.0.1:45867",
                        "connection refused (127.0.0.1:45867)"),
                Arguments.of("java.net.UnknownHostException: prometheus.internal", "host unknown: prometheus.internal"),
                Arguments.of("UNREACHABLE (ConnectException: Failed to connect to /127.0.0.1:1)",
                        "UNREACHABLE (connection refused: Failed to connect to /127.0.0.1:1)"),
                Arguments.of("request failed: io.fabric8.kubernetes.client.KubernetesClientException: Forbidden",
                        "request failed: Forbidden"),
                Arguments.of("cannot read: java.nio.file.AccessDeniedException", "cannot read: permission denied"),
                Arguments.of("  two\nlines  ", "two lines"),
                Arguments.of(null, ""));
    }

    @ParameterizedTest
    @MethodSource("texts")
    void textFromElsewhereLosesItsClassNames(String raw, String words) {
        assertEquals(words, ErrorWords.clean(raw));
        assertPlain(ErrorWords.clean(raw));
    }

    static void assertPlain(String words) {
        org.junit.jupiter.api.Assertions.assertFalse(CLASS_NAME.matcher(words).find(), words);
        org.junit.jupiter.api.Assertions.assertFalse(words.contains("java."), words);
    }
}
