package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.journalfile.FileJournal;
import io.headroom.journal.JournalRecord;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import io.headroom.ui.shell.MainViewModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An API server that quotes the token it was sent (issue 27 item 6): a 403 whose message holds the
 * kubeconfig's token, in no shape the redactor's rules know. The console has loaded that token, so it
 * is removed wherever the message goes: the scale's outcome, the journal, the log, the top bar.
 */
class EchoedSecretTest {
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    /** No known shape: not a JWT, no vendor prefix, no "token=" before it in the server's words. */
    static final String TOKEN = "kq7Zr4Wp9Xm2Lb6Nc8Vt3Hy5";
    static final String SCALE = "/apis/apps/v1/namespaces/payments/deployments/worker/scale";

    @Test
    void aTokenQuotedInA403IsNeitherJournaledLoggedNorShown(@TempDir Path dir) throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("payments", "worker", 2);
        cluster.server.expect().put().withPath(SCALE).andReturn(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"status\":\"Failure\",\"reason\":\"Forbidden\",\"code\":403,\"message\":\"deployments.apps"
                + " \\\"worker\\\" is forbidden: the credential " + TOKEN + " may not update deployments/scale\"}")
                .always();
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", TOKEN, "prod", cluster.url(), "payments");
        WorkloadRef worker = new WorkloadRef("prod", "payments", "Deployment", "worker");
        Path journalFile = dir.resolve("journal.jsonl");
        List<String> logged;
        try (MockCluster.LogCapture log = new MockCluster.LogCapture();
             KubeConnection conn = Contexts.load(List.of(kubeconfig)).open("prod");
             KubeClusterGateway g = KubeClusterGateway.open(conn, List.of(worker), Clock.systemUTC(), null);
             FileJournal journal = FileJournal.open(journalFile)) {
            assertTrue(g.awaitSynced(Duration.ofSeconds(10)));
            ScaleResult direct = g.scaling().scale(worker, 4, null);
            assertEquals(ScaleResult.Outcome.REFUSED, direct.outcome(), direct.message());
            assertTrue(direct.message().contains("HTTP 403") && direct.message().contains("the credential [redacted]"
                    + " may not update"), "the server's words stay, the token goes: " + direct.message());

            WorkloadClass cls = new WorkloadClass("payments", worker, Policy.builder().build());
            Supervisor s = new Supervisor(List.of(cls), g.ports(), journal, Clock.systemUTC(), Runnable::run, "ana",
                    Duration.ofMinutes(5));
            Instant now = Instant.now();
            Observation obs = new Observation(2, 2, Map.of(Signals.QUEUE_LENGTH, Signal.of(0, now),
                    Signals.ARRIVAL_RATE, Signal.of(3.5, now), Signals.MEAN_SERVICE, Signal.of(1, now),
                    Signals.IN_FLIGHT, Signal.of(2, now)));
            Decision d = DecisionEngine.decide("payments", cls.policy(), obs, ClassMemory.initial(), now);
            s.handle(cls, d, g.workload(worker).orElseThrow());
            Outcome approved = s.approve(s.state().pending().get(0).id()).get(10, TimeUnit.SECONDS);
            assertFalse(approved.ok(), approved.message());
            assertFalse(approved.message().contains(TOKEN), approved.message());

            MainViewModel vm = new MainViewModel("prod", "prometheus", false, Duration.ofSeconds(5), x -> { });
            vm.apply(new TickResult(Instant.now(), List.of(), "prod", "prometheus"), g.health(), null);
            assertFalse(String.valueOf(vm.warningProperty().get()).contains(TOKEN));
            logged = log.lines();
        }
        String text = Files.readString(journalFile);
        List<JournalRecord> failed;
        try (FileJournal reread = FileJournal.open(journalFile)) {
            failed = reread.replay().records().stream().filter(r -> r.kind() == JournalRecord.Kind.FAILED).toList();
        }
        assertEquals(1, failed.size(), text);
        assertTrue(failed.get(0).detail().contains("the credential [redacted] may not update"), failed.get(0).detail());
        assertFalse(text.contains(TOKEN), "no token in the journal:\n" + text);
        assertFalse(logged.stream().anyMatch(l -> l.contains(TOKEN)), "nor in the log: " + logged);
    }

    @Test
    void importKedaDoesNotPrintATokenTheServerQuotes(@TempDir Path dir) throws Exception {
        MockCluster cluster = api.cluster();
        cluster.server.expect().get().withPath("/apis/keda.sh/v1alpha1/namespaces/shop/scaledobjects?limit="
                + ScaledObjectImport.Limits.DEFAULT.pageSize())
                .andReturn(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                        + "\"reason\":\"Forbidden\",\"code\":403,\"message\":\"scaledobjects.keda.sh is forbidden:"
                        + " bearer-less credential " + TOKEN + " has no role here\"}").always();
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", TOKEN, "prod", cluster.url(), "shop");
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = io.headroom.cli.Cli.run(new String[] {"import-keda", "--context", "prod", "--namespace", "shop",
            "--kubeconfig", kubeconfig.toString()}, new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(1, code, said);
        assertTrue(said.contains("HTTP 403") && said.contains("credential [redacted] has no role here"), said);
        assertFalse(said.contains(TOKEN) || out.toString(java.nio.charset.StandardCharsets.UTF_8).contains(TOKEN), said);
    }
}
