package io.headroom.kube;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.Policy;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Supervisor;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A console in a JVM of its own that publishes the admission of class {@code orders} (shop/orders, operator
 * {@code ben@oncall}, auto mode, polled every 5 minutes: a 15-minute TTL) against the mock API server, and is then
 * killed by the test: the entry stays on the cluster, unrefreshed, not handed back. Its workload lease lasts 3 s.
 * Prints {@code PUBLISHED} once the entry is on the server.
 *
 * <p>Arguments: the mock server's URL, a directory for the kubeconfig.
 */
public final class AdmissionCrashProbe {
    public static final String OPERATOR = "ben@oncall";
    public static final String HOLDER = "ben@crashed-desk/dead0001";

    private AdmissionCrashProbe() {
    }

    public static void main(String[] args) throws Exception {
        try {
            run(args);
        } catch (Exception | Error e) { // said on standard output, which the test reads (standard error is discarded)
            System.out.println("FAILED " + e);
            System.out.flush();
            System.exit(3);
        }
    }

    private static void run(String[] args) throws Exception {
        Path cfg = MockCluster.kubeconfig(Path.of(args[1]), "probe.yaml", "up", "t0ken-probe", "up", args[0], "shop");
        WorkloadRef ref = new WorkloadRef("up", "shop", "Deployment", "orders");
        KubeConnection conn = Contexts.load(List.of(cfg)).open("up");
        Clock clock = Clock.systemUTC();
        KubeClusterGateway gateway = KubeClusterGateway.open(conn, List.of(ref), clock,
                new LeaseKeeper(conn.client(), HOLDER, clock, Duration.ofSeconds(3)));
        if (!gateway.awaitSynced(Duration.ofSeconds(30))) {
            System.out.println("NOT SYNCED");
            System.exit(2);
        }
        WorkloadClass cls = new WorkloadClass("orders", ref, Policy.builder().slotsPerReplica(2).minReplicas(3)
                .maxReplicas(3).pollIntervalSeconds(300).expectedServiceSeconds(1.0).build());
        Supervisor supervisor = new Supervisor(List.of(cls), gateway.ports(), new MemoryJournal(), clock, Runnable::run,
                OPERATOR, Duration.ofMinutes(5));
        supervisor.setAdmissionPolicies(Map.of("orders", AdmissionPolicy.onMissing(true, "close")));
        supervisor.setMode("orders", Mode.AUTO).get(30, TimeUnit.SECONDS);
        // The metrics are down: with onMissingTelemetry close, the console publishes CLOSED on its first tick and
        // holds it (a live world's first tick may see nothing yet arrived and publish OPEN; which one won was a race).
        io.headroom.metrics.MetricsSource down = new io.headroom.metrics.MetricsSource() {
            @Override
            public String name() {
                return "down";
            }

            @Override
            public Map<String, Map<io.headroom.decision.SignalName, io.headroom.decision.Signal>> read(
                    java.util.Collection<String> classNames, java.time.Instant now) {
                Map<io.headroom.decision.SignalName, io.headroom.decision.Signal> none = new java.util.HashMap<>();
                for (io.headroom.decision.SignalName s : List.of(io.headroom.decision.Signals.QUEUE_LENGTH,
                        io.headroom.decision.Signals.ARRIVAL_RATE, io.headroom.decision.Signals.MEAN_SERVICE,
                        io.headroom.decision.Signals.IN_FLIGHT, io.headroom.decision.Signals.OLDEST_AGE)) {
                    none.put(s, io.headroom.decision.Signal.missing("the exporter is down"));
                }
                return Map.of("orders", none);
            }
        };
        ControlLoop loop = new ControlLoop(List.of(cls), gateway.ports(), down, supervisor, clock);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        // Ticks until the console has published CLOSED (no ready replica while jobs arrive): the first tick may
        // come before the world's first arrival, and publish OPEN ("the 0 ready replicas serve the arrivals").
        while (gateway.ports().admissions().published(ref, "orders")
                .filter(e -> e.state() == io.headroom.decision.AdmissionVerdict.State.CLOSED).isEmpty()
                && System.nanoTime() < end) {
            loop.tick();
        }
        System.out.println(gateway.ports().admissions().published(ref, "orders").isPresent() ? "PUBLISHED"
                : "NOT PUBLISHED " + supervisor.admission("orders"));
        System.out.flush();
        new java.util.concurrent.CountDownLatch(1).await(); // until the test kills this process
    }
}
