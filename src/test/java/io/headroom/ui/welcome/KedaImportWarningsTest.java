package io.headroom.ui.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.Contexts;
import io.headroom.kube.MockCluster;
import io.headroom.session.KedaImport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console's guided import from KEDA says what the commands say (issue 27 item 5): a context whose
 * TLS verification is off is named in the dialog's status, beside what was found, never silently used.
 */
class KedaImportWarningsTest {
    static final String TOKEN = "tok-5a4b3c2d1e0f99887766";

    @Test
    void aContextWithTlsVerificationOffIsSaidInTheStatusBesideWhatWasFound(@TempDir Path dir) throws Exception {
        try (MockCluster cluster = MockCluster.withSelfSignedTls()) {
            cluster.scaledObject(MockCluster.ORDERS_SCALED_OBJECT);
            Path cfg = dir.resolve("config.yaml");
            Files.writeString(cfg, """
                    apiVersion: v1
                    kind: Config
                    current-context: lab
                    clusters:
                    - {name: c, cluster: {server: "%s", insecure-skip-tls-verify: true}}
                    contexts:
                    - {name: lab, context: {cluster: c, user: u, namespace: shop}}
                    users:
                    - {name: u, user: {token: %s}}
                    """.formatted(cluster.url(), TOKEN));
            KedaImport imports = new KedaImport(() -> Contexts.load(List.of(cfg)));
            KedaImport.Findings f = imports.find("lab", "shop");
            assertEquals(1, f.found().size());
            assertEquals(1, f.warnings().size(), f.warnings().toString());
            assertTrue(f.warnings().get(0).startsWith("TLS verification is OFF for context 'lab'"), f.warnings().get(0));

            KedaImportViewModel vm = new KedaImportViewModel(imports, dir, Runnable::run, Runnable::run);
            vm.load();
            vm.find();
            String status = vm.status().get();
            assertTrue(status.startsWith("Warning: TLS verification is OFF for context 'lab'"), status);
            assertTrue(status.contains("1 ScaledObject(s) found"), status);
            assertFalse(status.contains(TOKEN), status);
        }
    }
}
