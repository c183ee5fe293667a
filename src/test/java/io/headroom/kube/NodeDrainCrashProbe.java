package io.headroom.kube;

import io.headroom.cluster.NodeRef;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A console in a JVM of its own that starts a node drain against the mock API server and is then killed
 * (the test destroys this process forcibly). Its Headroom pod keeps jobs in flight, so the drain is still
 * running, the node cordoned, when it dies. Prints {@code CORDONED} once the cordon is on the server.
 *
 * <p>Arguments: the mock server's URL, a directory for the kubeconfig, the node.
 */
public final class NodeDrainCrashProbe {
    private NodeDrainCrashProbe() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        Path dir = Path.of(args[1]);
        String node = args[2];
        Path cfg = MockCluster.kubeconfig(dir, "probe.yaml", "dev", "t0ken-dev", "dev", url, "default");
        WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");
        KubeClusterGateway gateway = KubeClusterGateway.open(Contexts.load(List.of(cfg)).open("dev"), List.of(ref),
                Clock.systemUTC(), null);
        if (!gateway.awaitSynced(Duration.ofSeconds(30))) {
            System.out.println("NOT SYNCED");
            System.exit(2);
        }
        WorkloadClass cls = new WorkloadClass("payments", ref, Policy.builder().pollIntervalSeconds(1).build());
        Supervisor supervisor = new Supervisor(List.of(cls), gateway.ports(), new MemoryJournal(), Clock.systemUTC(),
                Runnable::run, "probe", Duration.ofMinutes(5));
        supervisor.setPodLoad(c -> Map.of("worker-a", 2.0)); // busy: the drain waits for it
        Outcome o = supervisor.startNodeDrain(new NodeRef("dev", node), Duration.ofMinutes(30), "kernel upgrade")
                .get(30, TimeUnit.SECONDS);
        System.out.println(o.ok() ? "CORDONED" : "REFUSED " + o.message());
        System.out.flush();
        new java.util.concurrent.CountDownLatch(1).await(); // mid-drain until the test kills this process
    }
}
