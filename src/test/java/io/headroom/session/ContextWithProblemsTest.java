package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.headroom.config.WorkloadsFile;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.Contexts;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26: a context with a problem cannot be opened by mistake. The console's connect path from a
 * workloads file refuses it with the kubeconfig's file, line and words, before anything is opened (a
 * missing user used to connect anonymously, a missing cluster to https://kubernetes.default.svc).
 */
class ContextWithProblemsTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();

    @Test
    void aWorkloadsFileNamingAContextWithAProblemIsRefusedWithTheWords() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("work", "w", 1);
        Path kubeconfig = dir.resolve("config");
        Files.writeString(kubeconfig, """
                clusters: [{name: c, cluster: {server: "%s"}}]
                users: [{name: u, user: {token: t0ken-not-shown}}]
                contexts:
                - name: fine
                  context: {cluster: c, user: u}
                - name: nobody
                  context: {cluster: c, user: ghost}
                """.formatted(cluster.url()));
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, "prometheus: {url: \"http://127.0.0.1:" + closed + "\", timeoutSeconds: 1}\n"
                + "classes:\n"
                + "  - {name: a, context: fine, namespace: work, target: {name: w}, signals: {queueLength: q,"
                + " oldestAge: o, arrivalRate: r, meanService: s}}\n"
                + "  - {name: b, context: nobody, namespace: work, target: {name: w}, signals: {queueLength: q,"
                + " oldestAge: o, arrivalRate: r, meanService: s}}\n");
        int before = cluster.server.getRequestCount();
        OpenFailure e = assertThrows(OpenFailure.class, () -> Session.connect(
                WorkloadsFile.read(workloads), Contexts.load(List.of(kubeconfig)), new MemoryJournal()));
        assertEquals("context nobody", e.what());
        assertEquals("context \"nobody\" cannot be opened: " + kubeconfig + ":7: user \"ghost\" was not found for"
                + " context \"nobody\" (no file of the list defines it)", e.why());
        assertFalse(e.getMessage().contains("t0ken-not-shown"));
        assertEquals(before, cluster.server.getRequestCount(), "nothing was asked of the cluster: the context"
                + " that can be opened is not opened either when another cannot");
    }
}
