package io.headroom.kube;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh fabric8 mock API server ({@link MockCluster}, loopback only) for every test, stopped after
 * the test's own {@code @AfterEach} with every gateway opened on it:
 *
 * <pre>{@code
 * @RegisterExtension
 * final MockApiServerExtension api = new MockApiServerExtension();
 * ...
 * MockCluster cluster = api.cluster(); // in @BeforeEach or the test
 * }</pre>
 *
 * Register one per cluster a test needs (several contexts: several fields).
 */
public final class MockApiServerExtension implements BeforeEachCallback, AfterEachCallback {
    private MockCluster cluster;

    @Override
    public void beforeEach(ExtensionContext context) {
        cluster = new MockCluster();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        MockCluster c = cluster;
        cluster = null;
        if (c != null) {
            c.close();
        }
    }

    /** This test's API server; only while a test runs. */
    public MockCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("the mock API server runs only during a test (register the extension "
                    + "on an instance field with @RegisterExtension)");
        }
        return cluster;
    }
}
