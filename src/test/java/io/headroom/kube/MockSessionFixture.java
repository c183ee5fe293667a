package io.headroom.kube;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
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
public abstract class MockSessionFixture {
    @TempDir
    protected Path dir;
    @RegisterExtension
    protected final MockApiServerExtension api = new MockApiServerExtension();
    protected MockCluster cluster;
    protected Session session;
    protected final MemoryJournal journal = new MemoryJournal();

    @BeforeEach
    protected void openCluster() {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
    }

    @AfterEach
    protected void closeSession() {
        if (session != null) {
            session.close();
        }
    }
}
