package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a cluster says reaches the terminal as text, never as escape sequences the terminal obeys. */
class ImportUntrustedTextTest {

    @Test
    void aClusterErrorWithEscapeSequencesIsShownHarmlessly(@TempDir Path dir) throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        api.createContext("/", ex -> {
            try (ex) {
                requests.incrementAndGet();
                byte[] body = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":"
                        + "\"\\u001b]0;pwned\\u0007\\u001b[2Jscaledobjects is forbidden\",\"reason\":\"Forbidden\","
                        + "\"code\":403}").getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(403, body.length);
                try (OutputStream o = ex.getResponseBody()) {
                    o.write(body);
                }
            }
        });
        api.start();
        try {
            Path kubeconfig = dir.resolve("config");
            Files.writeString(kubeconfig, """
                    apiVersion: v1
                    kind: Config
                    clusters:
                      - name: c
                        cluster: {server: "http://127.0.0.1:%d"}
                    users:
                      - name: u
                        user: {token: tok}
                    contexts:
                      - name: prod
                        context: {cluster: c, user: u, namespace: shop}
                    current-context: prod
                    """.formatted(api.getAddress().getPort()));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Cli.run(new String[] {"import-keda", "--context", "prod", "--namespace", "shop", "--kubeconfig",
                kubeconfig.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            String shown = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
            assertEquals(1, code, shown);
            assertTrue(requests.get() > 0, "the cluster was asked");
            assertTrue(shown.contains("forbidden"), shown);
            assertFalse(shown.contains("\u001b") || shown.contains("\u0007"), "a raw escape reached the terminal: " + shown);
        } finally {
            api.stop(0);
        }
    }
}
