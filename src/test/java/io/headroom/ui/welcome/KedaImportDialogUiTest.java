package io.headroom.ui.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ConfigException;
import io.headroom.config.WorkloadsFile;
import io.headroom.kube.Contexts;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.session.KedaImport;
import io.headroom.threads.NamedThreads;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.fx.FxExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The first run's guided import from KEDA against fabric8's mock API server: the context and its
 * namespace come from the kubeconfig, Find lists the namespace's ScaledObjects and what each
 * becomes, and Save writes a new workloads file (which names the signals still to fill in).
 */
class KedaImportDialogUiTest {
    static final String SCALED_OBJECT = """
            apiVersion: keda.sh/v1alpha1
            kind: ScaledObject
            metadata:
              name: orders-so
              namespace: shop
            spec:
              scaleTargetRef:
                name: orders
              minReplicaCount: 1
              maxReplicaCount: 30
              pollingInterval: 15
              triggers:
                - type: prometheus
                  metadata:
                    serverAddress: http://prometheus.monitoring:9090
                    query: sum(orders_queue_depth{queue="orders"})
                    threshold: "50"
            """;

    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    @TempDir
    Path dir;
    final FxRobot robot = new FxRobot();
    KedaImportDialog dialog;

    @AfterEach
    void close() throws Exception {
        if (dialog != null) {
            FxToolkit.setupFixture(dialog::close);
        }
        FxToolkit.setupStage(Stage::hide);
    }

    <T extends javafx.scene.Node> T lookup(String id, Class<T> type) throws Exception {
        return ConsoleWindow.onFx(() -> robot.lookup("#" + id).queryAs(type));
    }

    @Test
    void picksContextAndNamespaceListsTheScaledObjectsAndSavesAWorkloadsFile() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("shop", "orders", 2);
        cluster.scaledObject(SCALED_OBJECT);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken-not-shown", "staging",
                "http://127.0.0.1:1", "other", "prod", cluster.url(), "shop");
        KedaImport imports = new KedaImport(() -> Contexts.load(List.of(kubeconfig)));
        CompletableFuture<Path> saved = new CompletableFuture<>();
        Stage owner = FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            KedaImportViewModel vm = new KedaImportViewModel(imports, dir.resolve("out"),
                    NamedThreads.cached("test-import"), FxExecutor.get());
            dialog = new KedaImportDialog(owner, vm, saved::complete);
            dialog.show();
        });

        // The kubeconfig's current context is picked, its namespace filled in; nothing to save yet.
        @SuppressWarnings("unchecked")
        ComboBox<KedaImport.Context> context = lookup(KedaImportDialog.CONTEXT_ID, ComboBox.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> context.getValue() != null));
        assertEquals("prod", ConsoleWindow.onFx(() -> context.getValue().name()));
        assertEquals(2, ConsoleWindow.onFx(() -> context.getItems().size()), "every context to pick from");
        TextField namespace = lookup(KedaImportDialog.NAMESPACE_ID, TextField.class);
        assertEquals("shop", ConsoleWindow.onFx(namespace::getText));
        Button save = lookup(KedaImportDialog.SAVE_ID, Button.class);
        assertTrue(ConsoleWindow.onFx(save::isDisabled), "nothing found yet: nothing to save");

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + KedaImportDialog.FIND_ID));
        @SuppressWarnings("unchecked")
        ListView<KedaImport.Found> found = lookup(KedaImportDialog.FOUND_ID, ListView.class);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> found.getItems().size() == 1));
        KedaImport.Found orders = ConsoleWindow.onFx(() -> found.getItems().get(0));
        assertEquals("orders-so", orders.name());
        assertEquals("Deployment shop/orders", orders.target());
        assertTrue(orders.becomes().contains("replicas 1–30"), orders.becomes());
        assertTrue(orders.toFill().contains("oldestAge"), "what KEDA does not know is said: " + orders.toFill());
        String status = ConsoleWindow.onFx(lookup(KedaImportDialog.STATUS_ID, Label.class)::getText);
        assertTrue(status.startsWith("1 ScaledObject(s) found"), status);
        assertFalse(ConsoleWindow.onFx(save::isDisabled));

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + KedaImportDialog.SAVE_ID));
        Path file = saved.get(30, TimeUnit.SECONDS);
        assertEquals(dir.resolve("out/workloads-prod-shop.yaml"), file);
        String text = Files.readString(file);
        assertTrue(text.contains("url: \"http://prometheus.monitoring:9090\""), text);
        assertTrue(text.contains("- name: orders-so") && text.contains("# oldestAge: <PromQL>"), text);
        assertFalse(text.contains("t0ken-not-shown"), "no credential is written");
        assertFalse(ConsoleWindow.onFx(() -> dialog.stage().isShowing()), "saving closes the dialog");
        // The console opens it next: it asks for the signals left to fill, by file and line.
        ConfigException e = org.junit.jupiter.api.Assertions.assertThrows(ConfigException.class,
                () -> WorkloadsFile.read(file));
        assertTrue(e.problems().stream().anyMatch(p -> p.toString().contains("oldestAge")), e.getMessage());
    }

    @Test
    void aNamespaceWithoutScaledObjectsOrAnUnreachableClusterSaysSoAndSavesNothing() throws Exception {
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "tok", "prod", api.cluster().url(),
                "empty", "down", "http://127.0.0.1:1", "shop");
        KedaImport imports = new KedaImport(() -> Contexts.load(List.of(kubeconfig)));
        Stage owner = FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            dialog = new KedaImportDialog(owner, new KedaImportViewModel(imports, dir,
                    NamedThreads.cached("test-import"), FxExecutor.get()), p -> { });
            dialog.show();
        });
        Label status = lookup(KedaImportDialog.STATUS_ID, Label.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(status::getText).startsWith("Pick"));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + KedaImportDialog.FIND_ID));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS,
                () -> ConsoleWindow.onFx(status::getText).equals("No ScaledObject in prod/empty."));
        assertTrue(ConsoleWindow.onFx(lookup(KedaImportDialog.SAVE_ID, Button.class)::isDisabled));
    }

    /** Issue 26, in the console's import path: a paused object is shown paused, a bad one is named with why. */
    @Test
    void aPausedObjectIsShownPausedAndABadOneIsNamedWithWhy() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.scaledObject(SCALED_OBJECT.replace("  namespace: shop\n",
                "  namespace: shop\n  annotations:\n    autoscaling.keda.sh/paused-replicas: \"0\"\n"));
        cluster.scaledObject("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: broken-so, namespace: shop}
                spec:
                  scaleTargetRef: {name: worker}
                  minReplicaCount: 4
                  maxReplicaCount: 2
                  triggers:
                    - type: prometheus
                      metadata: {query: "sum(q)", threshold: "1"}
                """);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "tok", "prod", cluster.url(), "shop");
        KedaImport imports = new KedaImport(() -> Contexts.load(List.of(kubeconfig)));
        CompletableFuture<Path> saved = new CompletableFuture<>();
        Stage owner = FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            dialog = new KedaImportDialog(owner, new KedaImportViewModel(imports, dir.resolve("out"),
                    NamedThreads.cached("test-import"), FxExecutor.get()), saved::complete);
            dialog.show();
        });
        Label status = lookup(KedaImportDialog.STATUS_ID, Label.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(status::getText).startsWith("Pick"));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + KedaImportDialog.FIND_ID));
        @SuppressWarnings("unchecked")
        ListView<KedaImport.Found> found = lookup(KedaImportDialog.FOUND_ID, ListView.class);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> found.getItems().size() == 1));
        KedaImport.Found orders = ConsoleWindow.onFx(() -> found.getItems().get(0));
        assertEquals("paused in KEDA at 0 replicas", orders.paused());
        // The list's cells are drawn at the pulse after its items are set: read them once they are there.
        java.util.concurrent.Callable<String> cellTexts = () -> ConsoleWindow.onFx(() -> robot.lookup(".list-cell")
                .queryAll().stream().map(n -> ((javafx.scene.control.ListCell<?>) n).getText())
                .filter(java.util.Objects::nonNull).reduce("", (a, b) -> a + b + "\n"));
        try {
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> cellTexts.call().contains("orders-so"));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the found list was not drawn: " + cellTexts.call(), e);
        }
        String cells = cellTexts.call();
        assertTrue(cells.contains("orders-so") && cells.contains("[PAUSED IN KEDA AT 0 REPLICAS]"), cells);
        String words = ConsoleWindow.onFx(status::getText);
        assertTrue(words.contains("1 paused in KEDA"), words);
        assertTrue(words.contains("Skipped 1: shop/broken-so: minReplicaCount 4 is above maxReplicaCount 2"), words);

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + KedaImportDialog.SAVE_ID));
        String text = Files.readString(saved.get(30, TimeUnit.SECONDS));
        assertTrue(text.contains("# skipped shop/broken-so: minReplicaCount 4 is above maxReplicaCount 2"), text);
        assertTrue(text.contains("# PAUSED in KEDA: paused at 0 replicas"), text);
    }

    /**
     * Issue 26: a context with a problem is listed with it and cannot be opened by mistake: the dialog
     * does not pick it, says why when it is picked, and offers no Find for it.
     */
    @Test
    void aContextWithAProblemIsShownWithItAndNotOfferedToConnect() throws Exception {
        Path kubeconfig = dir.resolve("config");
        Files.writeString(kubeconfig, """
                current-context: broken
                clusters: [{name: c, cluster: {server: "%s"}}]
                users: [{name: u, user: {token: t0ken-not-shown}}]
                contexts:
                - name: broken
                  context: {cluster: gone, user: u, namespace: shop}
                - name: fine
                  context: {cluster: c, user: u, namespace: shop}
                """.formatted(api.cluster().url()));
        KedaImport imports = new KedaImport(() -> Contexts.load(List.of(kubeconfig)));
        Stage owner = FxToolkit.registerPrimaryStage();
        FxToolkit.setupFixture(() -> {
            dialog = new KedaImportDialog(owner, new KedaImportViewModel(imports, dir,
                    NamedThreads.cached("test-import"), FxExecutor.get()), p -> { });
            dialog.show();
        });
        @SuppressWarnings("unchecked")
        ComboBox<KedaImport.Context> context = lookup(KedaImportDialog.CONTEXT_ID, ComboBox.class);
        Button find = lookup(KedaImportDialog.FIND_ID, Button.class);
        Label status = lookup(KedaImportDialog.STATUS_ID, Label.class);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> context.getValue() != null));
        assertEquals("fine", ConsoleWindow.onFx(() -> context.getValue().name()), "the current context cannot be opened");
        assertFalse(ConsoleWindow.onFx(find::isDisabled));

        KedaImport.Context broken = ConsoleWindow.onFx(() -> context.getItems().get(0));
        assertEquals("broken", broken.name());
        assertEquals("broken (current) — cannot be opened (1 problem)",
                ConsoleWindow.onFx(() -> context.getConverter().toString(broken)));
        FxToolkit.setupFixture(() -> context.setValue(broken));
        String said = ConsoleWindow.onFx(status::getText);
        assertEquals("Context broken cannot be opened: " + kubeconfig + ":6: cluster \"gone\" was not found for"
                + " context \"broken\" (no file of the list defines it)", said);
        assertTrue(ConsoleWindow.onFx(find::isDisabled), "no Find for a context that cannot be opened");
        assertFalse(said.contains("t0ken-not-shown"));
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> imports.find("broken", "shop")).getMessage().contains("cluster \"gone\" was not found"),
                "and the import refuses it the same way, should anything ask");
    }
}
