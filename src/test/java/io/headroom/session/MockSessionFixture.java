package io.headroom.session;

import io.headroom.journal.MemoryJournal;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fixture of the session tests against fabric8's mock API server: a fresh API server and directory per
 * test, every access review allowed before the test's own {@code @BeforeEach}, a journal in memory, and the
 * test's {@link #session} closed after it.
 */
abstract class MockSessionFixture {
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    Session session;
    final MemoryJournal journal = new MemoryJournal();

    @BeforeEach
    void openCluster() {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
    }

    @AfterEach
    void closeSession() {
        if (session != null) {
            session.close();
        }
    }
}
