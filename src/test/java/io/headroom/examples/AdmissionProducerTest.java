package io.headroom.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.time.ManualClock;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/admission-producer/AdmissionGate.java, compiled as a user would, against fabric8's mock API server
 * with an injected clock (ADR 0027): it watches the {@code headroom-admission} ConfigMap, rejects while CLOSED,
 * admits at the advertised rate while THROTTLE (a token bucket on the clock, no sleeps), and after
 * {@code expiresAt} (or with no entry) applies its own default, fail-open or fail-closed.
 */
class AdmissionProducerTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final Duration DEADLINE = Duration.ofSeconds(15);
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    URLClassLoader loader;
    Class<?> gateClass;
    final ManualClock clock = new ManualClock(T0);

    @BeforeEach
    void compile() throws Exception {
        cluster = api.cluster();
        Path out = Files.createDirectories(dir.resolve("classes"));
        javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        int code = javac.run(null, errors, errors, "-d", out.toString(), "-Xlint:all,-processing,-classfile",
                "-Werror", "-cp", System.getProperty("java.class.path"),
                "examples/admission-producer/AdmissionGate.java");
        assertEquals(0, code, errors.toString());
        loader = new URLClassLoader(new URL[] {out.toUri().toURL()}, getClass().getClassLoader());
        gateClass = loader.loadClass("AdmissionGate");
    }

    @AfterEach
    void close() throws Exception {
        loader.close();
    }

    /** A gate on {@code shop/orders}, started and synced. */
    AutoCloseable gate(KubernetesClient client, boolean failOpen) throws Exception {
        AutoCloseable g = (AutoCloseable) gateClass.getConstructor(KubernetesClient.class, String.class, String.class,
                boolean.class, Clock.class).newInstance(client, "shop", "orders", failOpen, clock);
        call(g, "start");
        MockCluster.await("the gate synced", DEADLINE, () -> (Boolean) call(g, "synced"));
        return g;
    }

    static Object call(Object target, String method) {
        try {
            Method m = target.getClass().getMethod(method);
            return m.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    static boolean acquire(Object gate) {
        return (Boolean) call(gate, "tryAcquire");
    }

    /** What Headroom writes (KubeAdmissions): the class's key, a small JSON. */
    void publish(String json) {
        cluster.admin.configMaps().inNamespace("shop").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("headroom-admission").withNamespace("shop").endMetadata()
                .withData(Map.of("orders", json)).build()).createOr(c -> c.update());
    }

    static String entry(String state, String rate, Instant expiresAt, String extra) {
        return "{\"state\":\"" + state + "\"" + (rate == null ? "" : ",\"rate\":" + rate)
                + ",\"reason\":\"test\",\"decidedAt\":\"" + T0 + "\",\"expiresAt\":\"" + expiresAt
                + "\",\"owner\":\"ana@oncall\"" + extra + "}";
    }

    void awaitState(Object gate, String state) {
        MockCluster.await("the gate at " + state, DEADLINE, () -> state.equals(call(gate, "state")));
    }

    @Test
    void withNoEntryEachGateAppliesItsOwnDefault() throws Exception {
        try (KubernetesClient client = cluster.connect(dir, "dev").client();
             AutoCloseable open = gate(client, true); AutoCloseable closed = gate(client, false)) {
            assertTrue(acquire(open));
            assertEquals("NONE: fail-open", call(open, "state"));
            assertFalse(acquire(closed));
        }
    }

    @Test
    void closedRejectsThrottleAdmitsAtTheRateAndExpiryFallsBackToTheDefault() throws Exception {
        try (KubernetesClient client = cluster.connect(dir, "dev").client();
             AutoCloseable open = gate(client, true); AutoCloseable closed = gate(client, false)) {
            publish(entry("CLOSED", "0", T0.plusSeconds(60), ",\"degradeTo\":\"orders-cheap\""));
            awaitState(open, "CLOSED");
            assertFalse(acquire(open), "CLOSED rejects");
            assertEquals("orders-cheap", call(open, "degradeTo"));

            publish(entry("THROTTLE", "2.0", T0.plusSeconds(60), ""));
            awaitState(open, "THROTTLE 2.0/s");
            awaitState(closed, "THROTTLE 2.0/s");
            assertNull(call(open, "degradeTo"));
            assertTrue(acquire(open));
            assertTrue(acquire(open), "a burst of one second's worth");
            assertFalse(acquire(open), "then the bucket is empty");
            clock.advance(Duration.ofMillis(500));
            assertTrue(acquire(open), "2/s: one token in half a second");
            assertFalse(acquire(open));
            clock.advance(Duration.ofSeconds(10));
            int admitted = 0;
            for (int i = 0; i < 10; i++) {
                admitted += acquire(open) ? 1 : 0;
            }
            assertEquals(2, admitted, "never more than the burst, however long it waited");

            clock.set(T0.plusSeconds(60));
            assertEquals("EXPIRED: fail-open", call(open, "state"));
            assertTrue(acquire(open), "after expiresAt: fail-open admits");
            assertFalse(acquire(closed), "after expiresAt: fail-closed rejects");

            publish(entry("OPEN", null, T0.plusSeconds(120), ""));
            awaitState(closed, "OPEN");
            assertTrue(acquire(closed));
        }
    }
}
