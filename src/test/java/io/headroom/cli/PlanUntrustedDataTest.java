package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.headroom.prometheus.QueryOutcome;
import io.headroom.prometheus.it.Await;
import io.headroom.prometheus.it.SharedPrometheus;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom plan} fed data it must not believe: an absurd replica count, a server's error text
 * full of terminal escapes, a token file with two lines, a credential about to cross a network in clear text.
 */
@ExtendWith(SharedPrometheus.class)
class PlanUntrustedDataTest {

    static final String ESCAPES = "\u001b]0;pwned\u0007\u001b[2J\u001b[31m";

    static PlanCommandTest.Run plan(List<String> args, int maxRounds) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = PlanCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), k -> null, d -> { }, maxRounds);
        return new PlanCommandTest.Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static String cls(String name, String replicasQuery) {
        return """
                  - name: %s
                    context: test
                    target: {name: %s}
                    signals:
                      queueLength: &q sum(hr_queue_length{class="plan-a"})
                      oldestAge: max(hr_oldest_age_seconds{class="plan-a"})
                      arrivalRate: sum(rate(hr_jobs_total{class="plan-a"}[5s]))
                      meanService: "8"
                      replicas: %s
                """.formatted(name, name, replicasQuery);
    }

    @Test
    void aReplicasSignalThatIsNoReplicaCountIsBadDataNotACrashOrAWrap(SharedPrometheus.Fixture fx, @TempDir Path dir)
            throws Exception {
        fx.exporter.gauge("hr_absurd_replicas", "case=\"wrap\"", 4294967296.0);
        fx.exporter.gauge("hr_absurd_replicas", "case=\"overflow\"", 3e9);
        fx.exporter.gauge("hr_absurd_replicas", "case=\"fraction\"", 2.5);
        try (var c = fx.client()) {
            Await.until("the absurd replica counts", Duration.ofSeconds(30),
                    () -> c.query("count(hr_absurd_replicas)"),
                    o -> o instanceof QueryOutcome.Value v && v.value() == 3);
        }
        Path file = PlanCommandTest.workloads(dir, fx, cls("wrap", "max(hr_absurd_replicas{case=\"wrap\"})")
                + cls("overflow", "max(hr_absurd_replicas{case=\"overflow\"})")
                + cls("fraction", "max(hr_absurd_replicas{case=\"fraction\"})")
                + cls("fine", "max(hr_replicas{class=\"plan-a\"})"));
        PlanCommandTest.Run r = PlanCommandTest.run("plan", "--config", file.toString(), "--once");
        assertEquals(1, r.code(), "three classes without a usable count: " + r.out() + r.err());
        assertEquals("", r.err(), "no stack trace");
        assertTrue(r.out().contains("wrap                   error: current replicas unknown: replicas signal 4294967296"
                + " is not a replica count (a whole number in 0..100000); pass --replicas wrap=N"), r.out());
        assertTrue(r.out().contains("replicas signal 3000000000 is not a replica count"), r.out());
        assertTrue(r.out().contains("replicas signal 2.5 is not a replica count"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("fine ")), "the other classes are still planned: " + r.out());

        PlanCommandTest.Run json = PlanCommandTest.run("plan", "--config", file.toString(), "--once", "--json");
        JsonNode wrap = json.lines().get(0);
        assertEquals("wrap", wrap.get("class").asString(""));
        assertTrue(wrap.get("error").asString("").contains("is not a replica count"), wrap.toString());
        assertFalse(wrap.has("desiredReplicas"), "no decision from a count nobody can trust");
        assertEquals(2, json.lines().get(3).get("currentReplicas").asInt(0));
    }

    @Test
    void aYamlAliasIsTheQueryItNamesNotTheAnchorName(SharedPrometheus.Fixture fx, @TempDir Path dir) throws Exception {
        Path file = PlanCommandTest.workloads(dir, fx, cls("alias", "*q"));
        PlanCommandTest.Run r = PlanCommandTest.run("plan", "--config", file.toString(), "--once", "--json");
        assertEquals(0, r.code(), r.err() + r.out());
        JsonNode a = r.lines().get(0);
        assertEquals(30, a.get("currentReplicas").asInt(0), "replicas: *q reads sum(hr_queue_length{class=\"plan-a\"})");
        assertEquals(30.0, a.get("inputs").get("replicas").get("value").asDouble(0.0));
    }

    @Test
    void escapeSequencesFromPrometheusNeverReachTheTerminal(@TempDir Path dir) throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            try (ex) {
                requests.incrementAndGet();
                byte[] body = ("{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\""
                        + UntrustedPrometheusJson.escape(ESCAPES + "parse error") + "\"}").getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(400, body.length);
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(body);
                }
            }
        });
        server.start();
        try {
            Path file = dir.resolve("w.yaml");
            Files.writeString(file, "prometheus:\n  url: http://127.0.0.1:" + server.getAddress().getPort()
                    + "\nclasses:\n" + cls("esc", "max(x)"));
            for (List<String> args : List.of(List.of("--config", file.toString(), "--once"),
                    List.of("--config", file.toString(), "--once", "--json"))) {
                PlanCommandTest.Run r = plan(args, 1);
                assertTrue(requests.get() > 0);
                assertTrue(r.out().contains("parse error"), r.out());
                assertTrue(r.out().contains("pwned"), "shown, harmlessly: " + r.out());
                for (char c : (r.out() + r.err()).toCharArray()) {
                    assertFalse(c == '\u001b' || c == '\u0007', "a raw escape reached the terminal: " + r.out());
                }
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aTokenFileWithTwoLinesStopsPlanNamingTheFileNeverTheToken(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "first-half-of-secret\nsecond-half\n");
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, "prometheus:\n  url: http://127.0.0.1:9\n  bearerTokenFile: token\nclasses:\n"
                + cls("tok", "max(x)"));
        PlanCommandTest.Run r = plan(List.of("--config", file.toString(), "--once"), 1);
        assertEquals(2, r.code(), r.err());
        assertEquals("w.yaml: prometheus credentials: the bearer token in file " + token + " has a line break after"
                + " character 20; the file must hold the token alone (one trailing newline is fine)", r.err().strip());
        assertFalse((r.out() + r.err()).contains("secret"));
        assertFalse(r.err().contains("Exception"));
    }

    @Test
    void anAllowedClearTextCredentialIsWarnedAbout(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, "prometheus:\n  url: http://prometheus.example.internal:9090\n  bearerTokenEnv: T\n"
                + "  allowInsecureCredentials: true\nclasses:\n" + cls("warn", "max(x)"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // No round: the warning comes at connection set-up, before any request (none may leave this machine).
        int code = PlanCommand.run(List.of("--config", file.toString()), System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8), java.util.Map.of("T", "tok")::get, d -> { }, 0);
        assertEquals(0, code);
        assertEquals("headroom plan: warning: the bearer token goes in clear text over http:// to"
                + " prometheus.example.internal (allowInsecureCredentials)", err.toString(StandardCharsets.UTF_8).strip());
    }

    /** JSON string escaping for the stub's body (the escapes arrive as \\u001b, decoded by the client). */
    static final class UntrustedPrometheusJson {
        static String escape(String s) {
            StringBuilder sb = new StringBuilder();
            for (char c : s.toCharArray()) {
                sb.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
            return sb.toString();
        }
    }
}
