package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.headroom.config.PrometheusEndpoint;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * TLS as configured in a workloads file, against a real HTTPS server on loopback with a
 * certificate made for the test (JDK keytool): verification is on by default, a custom CA file
 * makes it pass, and the explicit insecure flag skips it and says so.
 */
class PrometheusTlsTest {
    static Path dir;
    static Path caPem;
    static HttpsServer server;
    static URI url;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("headroom-tls");
        Path keystore = dir.resolve("server.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        run(keytool, "-genkeypair", "-alias", "prom", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-keystore", keystore.toString(),
                "-storetype", "PKCS12", "-storepass", "changeit", "-keypass", "changeit");
        caPem = dir.resolve("ca.pem");
        run(keytool, "-exportcert", "-rfc", "-alias", "prom", "-keystore", keystore.toString(), "-storepass",
                "changeit", "-file", caPem.toString());

        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keystore.toFile())) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        server.createContext("/api/v1/query", ex -> {
            byte[] body = ("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                    + "\"value\":[" + (System.currentTimeMillis() / 1000.0) + ",\"42\"]}]}}")
                    .getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
        url = URI.create("https://127.0.0.1:" + server.getAddress().getPort());
    }

    @AfterAll
    static void stop() {
        server.stop(0);
    }

    static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, String.join(" ", cmd) + ": " + out);
    }

    static PrometheusClient client(Path ca, boolean insecure) throws Exception {
        return PrometheusClient.connect(new PrometheusEndpoint(url, null, null, ca, insecure, Duration.ofSeconds(3)),
                name -> null, Clock.systemUTC());
    }

    @Test
    void verificationIsOnByDefault() throws Exception {
        QueryOutcome o = client(null, false).query("up");
        QueryOutcome.NoData no = assertInstanceOf(QueryOutcome.NoData.class, o);
        assertEquals(NoDataReason.TLS_FAILURE, no.reason(), no.message());
        // The JDK says "…SunCertPathBuilderException: unable to find valid certification path": the class name goes.
        org.junit.jupiter.api.Assertions.assertFalse(no.message().contains("Exception"), no.message());
        org.junit.jupiter.api.Assertions.assertTrue(no.message().startsWith("TLS: "), no.message());
    }

    @Test
    void aCustomCaFileIsTrusted() throws Exception {
        PrometheusClient c = client(caPem, false);
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, c.query("up"));
        assertEquals(42, v.value());
        assertFalse(c.insecure());
    }

    @Test
    void theInsecureFlagSkipsVerificationAndSaysSo() throws Exception {
        PrometheusClient c = client(null, true);
        QueryOutcome.Value v = assertInstanceOf(QueryOutcome.Value.class, c.query("up"));
        assertEquals(42, v.value());
        assertTrue(c.insecure(), "the console shows this as a warning");
    }
}
