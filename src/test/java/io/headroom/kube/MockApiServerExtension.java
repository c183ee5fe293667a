package io.headroom.kube;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fabric8 mock API server ({@link MockCluster}, loopback only) for the tests of a class, stopped with
 * every gateway opened on it. On an instance field, a fresh one for every test, stopped after the test's
 * own {@code @AfterEach}:
 *
 * <pre>{@code
 * @RegisterExtension
 * final MockApiServerExtension api = new MockApiServerExtension();
 * ...
 * MockCluster cluster = api.cluster(); // in @BeforeEach or the test
 * }</pre>
 *
 * On a static field, one for the whole class (a console window shared by its tests), started before the
 * class's {@code @BeforeAll} and stopped after its {@code @AfterAll}. Register one per cluster a test
 * needs (several contexts: several fields).
 */
public final class MockApiServerExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback {
    private MockCluster cluster;
    /** Registered on a static field: JUnit calls the class callbacks only then. */
    private boolean perClass;

    @Override
    public void beforeAll(ExtensionContext context) {
        perClass = true;
        cluster = new MockCluster();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        stop();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!perClass) {
            cluster = new MockCluster();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!perClass) {
            stop();
        }
    }

    private void stop() {
        MockCluster c = cluster;
        cluster = null;
        if (c != null) {
            c.close();
        }
    }

    /** This test's (or this class's) API server; only while its tests run. */
    public MockCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("the mock API server runs only during a test (register the extension "
                    + "with @RegisterExtension on an instance field, or on a static one for the whole class)");
        }
        return cluster;
    }
}
