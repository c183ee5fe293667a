package io.headroom.bench;

import io.headroom.cluster.WorkloadRef;
import io.headroom.kube.Contexts;
import io.headroom.kube.KubeClusterGateway;
import io.headroom.kube.MockCluster;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Not a test: how quiet a watching console is. Against the fabric8 mock API server, 50 classes
 * (Deployments) with 10 pods each; after the initial sync, reads every class like a 1 s control tick
 * for a measured window and counts API requests (the client's interceptor and the server's own
 * count), scaled to a minute. Then the heap after GC, and how much of it the gateway's caches add.
 *
 * <p>Usage: {@code scripts/bench ClusterSyncBenchmark [windowSeconds]} (default 20).
 */
public final class ClusterSyncBenchmark {
    public static void main(String[] args) throws Exception {
        int windowSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int classes = 50;
        int podsPerClass = 10;
        MockCluster server = new MockCluster();
        List<WorkloadRef> refs = new ArrayList<>();
        for (int c = 0; c < classes; c++) {
            String ns = "team-" + (c % 5);
            String name = "worker-" + c;
            server.deployment(ns, name, podsPerClass);
            for (int p = 0; p < podsPerClass; p++) {
                server.newPod(ns, name + "-" + p).app(name).onNode("node-" + (p % 7)).create();
            }
            refs.add(new WorkloadRef("bench", ns, "Deployment", name));
        }
        Path dir = Files.createTempDirectory("bench-kubeconfig");
        Path cfg = MockCluster.kubeconfig(dir, "config.yaml", "bench", "bench-token", "bench", server.url(), "default");
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long baseline = heapAfterGc(mem);

        long t0 = System.nanoTime();
        KubeClusterGateway g = KubeClusterGateway.open(Contexts.load(List.of(cfg)).open("bench"), refs, Clock.systemUTC(), null);
        if (!g.awaitSynced(Duration.ofSeconds(60))) {
            throw new IllegalStateException("did not sync: " + g.health());
        }
        double syncMs = (System.nanoTime() - t0) / 1e6;
        int pods = 0;
        for (WorkloadRef r : refs) {
            pods += g.workload(r).orElseThrow().pods().size();
        }
        long syncRequests = g.health().requests();
        long heap = heapAfterGc(mem);

        long clientBefore = g.health().requests();
        int serverBefore = server.server.getRequestCount();
        long end = System.nanoTime() + Duration.ofSeconds(windowSeconds).toNanos();
        long reads = 0;
        long nextTick = System.nanoTime();
        while (System.nanoTime() < end) {
            if (System.nanoTime() >= nextTick) {
                for (WorkloadRef r : refs) {
                    g.workload(r);
                    g.autoscaler(r);
                    reads++;
                }
                g.health();
                nextTick += 1_000_000_000L;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
        long clientDelta = g.health().requests() - clientBefore;
        int serverDelta = server.server.getRequestCount() - serverBefore;
        double perMinute = clientDelta * 60.0 / windowSeconds;
        double serverPerMinute = serverDelta * 60.0 / windowSeconds;

        System.out.printf("classes %d, pods %d (seen %d), namespaces 5, informers per namespace 4%n", classes,
                classes * podsPerClass, pods);
        System.out.printf("initial sync: %.0f ms, %d requests (lists + watches)%n", syncMs, syncRequests);
        System.out.printf("after sync, %d s window with every class read once a second (%d reads):%n", windowSeconds, reads);
        System.out.printf("  API requests per minute: %.1f by the client's counter, %.1f by the mock server%n",
                perMinute, serverPerMinute);
        System.out.printf("heap after sync (after GC): %.1f MB in use; the gateway's caches and client add %.1f MB%n",
                heap / 1e6, (heap - baseline) / 1e6);
        System.out.println("(the mock server shares this JVM; its store is in the baseline, measured before the gateway opened)");
        g.close();
        g.connection().close();
        server.close();
        Files.deleteIfExists(cfg);
        Files.deleteIfExists(dir);
        System.exit(0);
    }

    private static long heapAfterGc(MemoryMXBean mem) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return mem.getHeapMemoryUsage().getUsed();
    }
}
