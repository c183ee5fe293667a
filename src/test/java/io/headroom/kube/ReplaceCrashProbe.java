package io.headroom.kube;

import io.headroom.journalfile.FileJournal;
import io.headroom.supervise.Outcome;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A console in a JVM of its own that starts replacing the hung worker-a ("Replace it") against the mock API
 * server, with its journal in a file, and is then killed (the test destroys this process forcibly) while it
 * waits for the replacement: replicas are one more, worker-a still runs. Prints {@code REPLACING <time>}
 * (its clock's time when the replacement was asked for) once the scale-up is on the server.
 *
 * <p>Arguments: the mock server's URL, a directory for the kubeconfig, the journal file, the clock's start.
 */
public final class ReplaceCrashProbe {
    private ReplaceCrashProbe() {
    }

    public static void main(String[] args) throws Exception {
        Path cfg = MockCluster.kubeconfig(Path.of(args[1]), "probe.yaml", "dev", "t0ken-dev", "dev", args[0], "default");
        KubeClusterGateway gateway = KubeClusterGateway.open(Contexts.load(List.of(cfg)).open("dev"),
                List.of(ReplaceConsole.REF), Clock.systemUTC(), null);
        if (!gateway.awaitSynced(Duration.ofSeconds(30))) {
            System.out.println("NOT SYNCED");
            System.exit(2);
        }
        ReplaceConsole console = ReplaceConsole.on(gateway, FileJournal.open(Path.of(args[2])),
                new ManualClock(Instant.parse(args[3])), new HungWorkerMetrics(), "probe");
        if (!console.tickUntilWorkerAIsStuck()) {
            System.out.println("NOT STUCK");
            System.exit(2);
        }
        Outcome o = console.supervisor().startReplaceDrain("payments", "worker-a", Duration.ofMinutes(10),
                "worker hung").get(30, TimeUnit.SECONDS);
        System.out.println(o.ok() ? "REPLACING " + console.clock().instant() : "REFUSED " + o.message());
        System.out.flush();
        new CountDownLatch(1).await(); // mid-replacement until the test kills this process
    }
}
