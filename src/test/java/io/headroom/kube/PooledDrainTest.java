package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.SignalName;
import io.headroom.decision.Signals;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.ClassPools;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.metrics.MetricsSource;
import io.headroom.metrics.PodProgress;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import io.headroom.supervise.TeamTimeline;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Drains and pod commands of a class placed across pools (issue 30, decision 0029), against fabric8's CRUD mock
 * API server: class {@code render} runs on {@code spot} (at most 3) then {@code on-demand} and needs 5 replicas.
 * A pool's scale-down drains that pool's idlest pods, a pod command acts on the pod's own pool, and each pool's
 * write is an Event on that pool's Deployment. The mock runs no controllers: the test plays the ReplicaSet.
 */
class PooledDrainTest extends PooledRenderFixture {
    static final Duration WAIT = Duration.ofSeconds(15);

    final List<String> eventProblems = new CopyOnWriteArrayList<>();
    final PoolMetrics metrics = new PoolMetrics();
    int seconds;

    @org.junit.jupiter.api.BeforeEach
    void setUp() {
        cluster = api.cluster();
    }

    @AfterEach
    void tearDown() {
        if (gateway != null) {
            gateway.close();
            gateway.connection().close();
        }
    }

    @Test
    void aPoolsScaleDownDrainsThatPoolsIdlestPodsAndLeavesTheOtherPoolAlone() throws Exception {
        open(Duration.ofMinutes(5), List.of("a", "b", "c", "d", "e", "f"), List.of("a", "b"));
        metrics.inFlight.putAll(Map.of("render-spot-a", 2.0, "render-spot-b", 0.0, "render-spot-c", 1.0,
                "render-spot-d", 0.0, "render-spot-e", 3.0, "render-spot-f", 0.0,
                // on-demand's pods are idle too: a victim chosen from the whole class could be one of them
                "render-on-demand-a", 0.0, "render-on-demand-b", 0.0));
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());

        ClassSnapshot first = tick(10);
        assertEquals(3, first.placement().share("spot").specReplicas(), first.placement().explanation());
        Drain d = drain();
        assertNotNull(d, "spot 6 → 3 drains: " + first.actuation().message());
        assertTrue(d.active(), d.detail());
        assertEquals(List.of("render-spot-b", "render-spot-d", "render-spot-f"),
                d.podNames().stream().sorted().toList(), "the idle spot pods");
        assertEquals(spot, d.target(), "the drain acts on spot's Deployment");
        for (String p : List.of("b", "d", "f")) {
            assertEquals(d.id(), annotations("render-spot-" + p).get("headroom.io/drain"), p);
        }
        for (String p : List.of("render-spot-a", "render-spot-c", "render-spot-e", "render-on-demand-a",
                "render-on-demand-b")) {
            assertNull(annotations(p).get("headroom.io/drain"), p + " is not marked");
        }
        assertEquals(6, cluster.replicas(NS, "render-spot"), "nothing lowered before the marked pods are idle");
        assertEquals(2, cluster.replicas(NS, "render-on-demand"));
        MockCluster.await("the marks in the watch cache", WAIT, () -> gateway.ports().workloads().workload(spot)
                .orElseThrow().pods().stream().filter(p -> d.id().equals(p.drainId())).count() == 3);

        // Idle past the notice grace: replicas lowered, with the marks in place, on spot only.
        for (int i = 0; i < 10 && cluster.replicas(NS, "render-spot") == 6; i++) {
            tick(seconds + 30);
        }
        assertEquals(3, cluster.replicas(NS, "render-spot"), drain().detail());
        assertEquals(2, cluster.replicas(NS, "render-on-demand"), "on-demand left alone");
        assertEquals(ANA, cluster.lease(spot).getSpec().getHolderIdentity(), "fenced by spot's own Lease");

        // The ReplicaSet's part: the marked pods go (the lowest deletion cost); the drain completes.
        for (String p : List.of("b", "d", "f")) {
            cluster.admin.pods().inNamespace(NS).withName("render-spot-" + p).delete();
        }
        MockCluster.await("spot down to 3 pods in the cache", WAIT, () -> gateway.ports().workloads().workload(spot)
                .orElseThrow().pods().size() == 3);
        for (int i = 0; i < 5 && drain().active(); i++) {
            tick(seconds + 15);
        }
        assertEquals(DrainPhase.COMPLETED, drain().phase(), drain().detail());
        assertEquals(List.of("DRAIN_STARTED 6→3", "SCALING 6→3", "APPLIED 6→3", "DRAIN_ENDED 6→3"),
                journal.replay().records().stream().filter(r -> r.kind() != Kind.MODE_CHANGED)
                        .map(r -> r.kind() + " " + r.before() + "→" + r.after()).toList());
        // The team timeline: the drain's records are Events on spot's Deployment, none on on-demand's.
        awaitEvents(4);
        for (Event e : cluster.events(NS)) {
            if (e.getReason().startsWith("HeadroomDrain") || e.getReason().equals("HeadroomScaled")) {
                assertEquals("render-spot", e.getInvolvedObject().getName(), e.getReason() + ": " + e.getMessage());
            }
        }
    }

    @Test
    void aPoolShrinkingOnlyItsPendingPodsIsScaledDirectlyWithNothingToDrain() throws Exception {
        // Two of spot's pods run, two pend Unschedulable: the ReplicaSet removes a pod not scheduled first.
        open(Duration.ofMinutes(5), List.of("a", "b"), List.of());
        cluster.admin.apps().deployments().inNamespace(NS).withName("render-spot").scale(4);
        for (String p : List.of("render-spot-c", "render-spot-d")) {
            cluster.newPod(NS, p).app("render-spot").ownedBy("ReplicaSet", "render-spot-5f7c")
                    .unschedulableSince(T0.toString()).create();
        }
        MockCluster.await("4 spot pods at 4 replicas in the cache", WAIT, () -> gateway.ports().workloads()
                .workload(spot).map(w -> w.pods().size() == 4 && w.specReplicas() == 4).orElse(false));
        metrics.inFlight.putAll(Map.of("render-spot-a", 0.0, "render-spot-b", 0.0));
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        ClassSnapshot moved = tick(10); // spot 4 → 3 (its maximum), on-demand 0 → 2; a Pending pod goes first
        assertEquals(3, moved.placement().share("spot").specReplicas(), moved.placement().explanation());
        assertEquals(3, cluster.replicas(NS, "render-spot"), moved.actuation().message());
        assertEquals(2, cluster.replicas(NS, "render-on-demand"));
        assertNull(drain(), "a Pending pod holds no work: nothing to drain");
        assertEquals(List.of(), records(Kind.DRAIN_STARTED));
        for (String p : List.of("a", "b", "c", "d")) {
            assertNull(annotations("render-spot-" + p).get("headroom.io/drain"), p);
        }
    }

    @Test
    void aPoolShrinkingOnlyPodsStillToBeCreatedIsScaledDirectly() throws Exception {
        open(Duration.ofMinutes(5), List.of("a", "b", "c"), List.of());
        cluster.admin.apps().deployments().inNamespace(NS).withName("render-spot").scale(4); // its 4th pod not yet made
        MockCluster.await("spot at 4 in the cache", WAIT, () -> gateway.ports().workloads().workload(spot)
                .map(w -> w.specReplicas() == 4).orElse(false));
        metrics.inFlight.putAll(Map.of("render-spot-a", 0.0, "render-spot-b", 0.0, "render-spot-c", 0.0));
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        ClassSnapshot s = tick(10);
        assertEquals(3, cluster.replicas(NS, "render-spot"), s.actuation().message());
        assertNull(drain(), "nothing to drain");
        assertEquals(List.of(), records(Kind.DRAIN_STARTED));
    }

    @Test
    void aPoolDrainThatCannotMarkIsNotStartedAgainEveryTick() throws Exception {
        open(Duration.ofMinutes(5), List.of("a", "b", "c", "d", "e", "f"), List.of("a", "b"));
        cluster.otherConsoleHolding(dir, "dev", "bo@desk-2/bbbb0002", spot); // spot's writes are another console's
        List.of("a", "b", "c", "d", "e", "f").forEach(x -> metrics.inFlight.put("render-spot-" + x, 0.0));
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        tick(10);
        assertEquals(DrainPhase.FAILED, drain().phase(), drain().detail());
        assertEquals(1, records(Kind.DRAIN_STARTED).size());
        ClassSnapshot next = tick(25);
        assertEquals(1, records(Kind.DRAIN_STARTED).size(), "not marked again at once: " + next.actuation().message());
        assertTrue(next.actuation().message().contains("spot 6 → 3: the last drain did not complete"),
                next.actuation().message());
        assertEquals(io.headroom.loop.Actuation.Kind.WITHHELD, next.actuation().kind(), "nothing done, nothing failed");
        assertEquals(6, cluster.replicas(NS, "render-spot"));
        // After the pause (the drain's deadline) it is tried again.
        tick(10 + 5 * 60 + 5);
        assertEquals(2, records(Kind.DRAIN_STARTED).size());
    }

    @Test
    void approvingAPooledProposalGrowsOnePoolAndDrainsTheOther() throws Exception {
        open(Duration.ofMinutes(5), List.of("a", "b", "c", "d", "e", "f"), List.of());
        metrics.inFlight.putAll(Map.of("render-spot-a", 2.0, "render-spot-b", 0.0, "render-spot-c", 1.0,
                "render-spot-d", 0.0, "render-spot-e", 3.0, "render-spot-f", 0.0));
        tick(10);
        io.headroom.supervise.Proposal p = supervisor.state().pending().get(0);
        assertEquals(List.of("spot 6→3", "on-demand 0→2"), p.pools().stream()
                .map(c -> c.pool() + " " + c.from() + "→" + c.to()).toList());
        Outcome o = supervisor.approve(p.id()).join();
        assertTrue(o.ok(), o.message());
        assertEquals(2, cluster.replicas(NS, "render-on-demand"), "on-demand grows at once");
        assertEquals(6, cluster.replicas(NS, "render-spot"), "spot drains first");
        Drain d = drain();
        assertTrue(d.active(), d.detail());
        assertEquals(spot, d.target());
        assertEquals(List.of("render-spot-b", "render-spot-d", "render-spot-f"), d.podNames().stream().sorted().toList());
        JournalRecord started = records(Kind.DRAIN_STARTED).get(0);
        assertTrue(started.reason().contains("approved proposal " + p.id()), started.reason());
        MockCluster.await("the marks in the watch cache", WAIT, () -> gateway.ports().workloads().workload(spot)
                .orElseThrow().pods().stream().filter(x -> d.id().equals(x.drainId())).count() == 3);
        ClassSnapshot next = tick(25);
        assertEquals(io.headroom.loop.Actuation.Kind.WITHHELD, next.actuation().kind());
        assertTrue(next.actuation().message().startsWith("draining pool spot 6 → 3"), next.actuation().message());
        assertTrue(supervisor.state().pending().isEmpty(), "nothing proposed while the pool drains");
    }

    @Test
    void aSecondPoolToShrinkWaitsForTheFirstsDrainAndAFreezeStopsIt() throws Exception {
        open(Duration.ofMinutes(5), List.of("a", "b", "c", "d", "e", "f"), List.of("a", "b", "c", "d"));
        List.of("a", "b", "c", "d", "e", "f").forEach(x -> metrics.inFlight.put("render-spot-" + x, 1.0));
        List.of("a", "b", "c", "d").forEach(x -> metrics.inFlight.put("render-on-demand-" + x, 0.0));
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        ClassSnapshot s = tick(10);
        assertEquals(spot, drain().target(), s.actuation().message());
        assertTrue(s.actuation().message().contains("on-demand 4 → 2: waits for drain " + drain().id()),
                s.actuation().message());
        assertEquals(6, cluster.replicas(NS, "render-spot"));
        assertEquals(4, cluster.replicas(NS, "render-on-demand"));
        for (String x : List.of("a", "b", "c", "d")) {
            assertNull(annotations("render-on-demand-" + x).get("headroom.io/drain"), x);
        }
        String id = drain().id();
        MockCluster.await("the marks in the watch cache", WAIT, () -> gateway.ports().workloads().workload(spot)
                .orElseThrow().pods().stream().filter(x -> id.equals(x.drainId())).count() == 3);

        assertTrue(supervisor.freeze("render", Duration.ofMinutes(30), "spot incident").join().ok());
        tick(25);
        assertEquals(DrainPhase.INTERRUPTED, drain().phase(), drain().detail());
        for (String x : List.of("a", "b", "c", "d", "e", "f")) {
            assertNull(annotations("render-spot-" + x).get("headroom.io/drain"), x + ": marks removed");
        }
        assertEquals(6, cluster.replicas(NS, "render-spot"));
        assertEquals(4, cluster.replicas(NS, "render-on-demand"));
    }

    @Test
    void aPodOfTheSecondPoolIsDrainedFromItsOwnDeployment() throws Exception {
        open(Duration.ofMinutes(5), List.of("a", "b", "c"), List.of("a", "b"));
        metrics.inFlight.putAll(Map.of("render-spot-a", 0.0, "render-spot-b", 0.0, "render-spot-c", 0.0,
                "render-on-demand-a", 1.0, "render-on-demand-b", 2.0));
        tick(10);
        Outcome one = supervisor.startDrain("render", 4, Duration.ofMinutes(5), "one count").join();
        assertEquals(Outcome.Why.INVALID, ((Outcome.Refused) one).why(), "one count is not a split: " + one.message());
        Outcome o = supervisor.startPodDrain("render", "render-on-demand-b", Duration.ofMinutes(5), "bad node").join();
        assertTrue(o.ok(), o.message());
        assertTrue(o.message().startsWith("render pool on-demand (render-on-demand): draining 2 → 1"), o.message());

        Drain d = drain();
        assertEquals(onDemand, d.target());
        assertEquals(2, d.from());
        assertEquals(1, d.to());
        assertEquals(d.id(), annotations("render-on-demand-b").get("headroom.io/drain"));
        MockCluster.await("the mark in the watch cache", WAIT, () -> gateway.ports().workloads().workload(onDemand)
                .orElseThrow().pods().stream().anyMatch(p -> d.id().equals(p.drainId())));

        metrics.inFlight.put("render-on-demand-b", 0.0);
        for (int i = 0; i < 10 && cluster.replicas(NS, "render-on-demand") == 2; i++) {
            tick(seconds + 30);
        }
        assertEquals(1, cluster.replicas(NS, "render-on-demand"), drain().detail());
        assertEquals(3, cluster.replicas(NS, "render-spot"), "spot left alone");
        assertEquals(ANA, cluster.lease(onDemand).getSpec().getHolderIdentity(), "fenced by on-demand's own Lease");
        JournalRecord started = records(Kind.DRAIN_STARTED).get(0);
        assertTrue(started.detail().contains("render-on-demand-b"), started.detail());
        JournalRecord applied = records(Kind.APPLIED).get(0);
        assertEquals(2, applied.before());
        assertEquals(1, applied.after());
        awaitEvents(2); // the drain's start and its scale (it ends once the ReplicaSet removes the pod)
        assertEquals(List.of("HeadroomDrainStarted", "HeadroomScaled"), cluster.events(NS).stream()
                .map(Event::getReason).sorted().toList());
        for (Event e : cluster.events(NS)) {
            if (e.getReason().startsWith("HeadroomDrain") || e.getReason().equals("HeadroomScaled")) {
                assertEquals("render-on-demand", e.getInvolvedObject().getName(), e.getReason() + ": " + e.getMessage());
            }
        }
    }

    @Test
    void aHungPodOfTheSecondPoolIsReplacedInItsOwnDeployment() throws Exception {
        open(Duration.ofMinutes(5), List.of("a", "b", "c"), List.of("a", "b"));
        metrics.inFlight.putAll(Map.of("render-spot-a", 0.0, "render-spot-b", 0.0, "render-spot-c", 0.0,
                "render-on-demand-a", 4.0, "render-on-demand-b", 1.0));
        metrics.hung = "render-on-demand-a";
        ClassSnapshot last = null;
        for (int i = 0; i < 30 && (last == null || !last.decision().stuckPods().contains("render-on-demand-a")); i++) {
            last = tick(seconds + 10);
        }
        assertEquals(List.of("render-on-demand-a"), last.decision().stuckPods(), last.decision().explanation());
        Outcome o = supervisor.startReplaceDrain("render", "render-on-demand-a", Duration.ofMinutes(5), "hung").join();
        assertTrue(o.ok(), o.message());
        assertEquals(onDemand, drain().target());
        assertEquals(3, cluster.replicas(NS, "render-on-demand"), "a replacement asked of on-demand");
        assertEquals(3, cluster.replicas(NS, "render-spot"), "spot left alone");
        assertEquals(ANA, cluster.lease(onDemand).getSpec().getHolderIdentity());
        JournalRecord scaled = records(Kind.APPLIED).get(0);
        assertEquals(2, scaled.before());
        assertEquals(3, scaled.after());
    }

    @Test
    void eachPoolsScaleIsAnEventOnThatPoolsDeployment() throws Exception {
        open(null, List.of("a", "b", "c", "d", "e", "f"), List.of());
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        ClassSnapshot s = tick(10);
        assertEquals(3, cluster.replicas(NS, "render-spot"), s.actuation().message());
        assertEquals(2, cluster.replicas(NS, "render-on-demand"), s.actuation().message());
        awaitEvents(3); // the mode, and one scale per pool
        List<Event> scaled = cluster.events(NS).stream().filter(e -> e.getReason().equals("HeadroomScaled")).toList();
        assertEquals(2, scaled.size(), scaled.toString());
        for (Event e : scaled) {
            String pool = e.getMessage().contains("pool on-demand") ? "render-on-demand"
                    : e.getMessage().contains("pool spot") ? "render-spot" : "?";
            assertEquals(pool, e.getInvolvedObject().getName(), e.getMessage());
        }
        assertEquals(List.of(), eventProblems);
    }

    @Test
    void aNodeDrainTakesASecondPoolsPodAsTheClasssOwnAndMarksItOnItsDeployment() throws Exception {
        cluster.node("od-1");
        open(Duration.ofMinutes(5), List.of("a", "b", "c"), List.of("a", "b"));
        metrics.inFlight.putAll(Map.of("render-spot-a", 0.0, "render-spot-b", 0.0, "render-spot-c", 0.0,
                "render-on-demand-a", 1.0, "render-on-demand-b", 2.0));
        tick(10);
        Outcome o = supervisor.startNodeDrain(new io.headroom.cluster.NodeRef("dev", "od-1"), Duration.ofMinutes(10),
                "kernel upgrade").join();
        assertTrue(o.ok(), o.message());
        JournalRecord started = records(Kind.NODE_DRAIN_STARTED).get(0);
        assertTrue(started.detail().contains("render/render-on-demand-a (render, drained first)"), started.detail());
        assertTrue(started.detail().contains("render/render-on-demand-b (render, drained first)"), started.detail());
        String id = started.proposalId();
        assertEquals(id, annotations("render-on-demand-a").get("headroom.io/drain"), "Headroom's pod, marked first");
        assertEquals(id, annotations("render-on-demand-b").get("headroom.io/drain"));
        assertNull(annotations("render-spot-a").get("headroom.io/drain"), "not on the node");
    }

    // ------------------------------------------------------------------ helpers

    /** Spot and on-demand with these pods (ready, on a node); the class drains on scale-down when told. */
    private void open(Duration drainOnScaleDown, List<String> spotPods, List<String> onDemandPods) throws Exception {
        cluster.answerAccessReviews(true, null);
        cluster.deployment(NS, "render-spot", spotPods.size());
        cluster.deployment(NS, "render-on-demand", onDemandPods.size());
        spotPods.forEach(p -> cluster.newPod(NS, "render-spot-" + p).app("render-spot").onNode("spot-1")
                .ownedBy("ReplicaSet", "render-spot-5f7c").scheduledAt("2026-12-01T09:50:00Z").create());
        onDemandPods.forEach(p -> cluster.newPod(NS, "render-on-demand-" + p).app("render-on-demand")
                .onNode("od-1").ownedBy("ReplicaSet", "render-on-demand-8b2d").scheduledAt("2026-12-01T09:50:00Z")
                .create());
        KubeConnection c = cluster.connect(dir, "dev");
        gateway = KubeClusterGateway.open(c, List.of(spot, onDemand), clock,
                new LeaseKeeper(c.client(), ANA, clock, Duration.ofSeconds(30)));
        assertTrue(gateway.awaitSynced(WAIT));
        MockCluster.await("every pod in the cache", WAIT, () ->
                gateway.ports().workloads().workload(spot).orElseThrow().pods().size() == spotPods.size()
                        && gateway.ports().workloads().workload(onDemand).orElseThrow().pods().size()
                        == onDemandPods.size());
        Policy policy = Policy.builder().pollIntervalSeconds(1).slotsPerReplica(4).minReplicas(5).maxReplicas(5)
                .build();
        ClassPools pools = new ClassPools(List.of(
                new ClassPools.Pool(new Placement.PoolSpec("spot", 3, null, 1, null), spot),
                new ClassPools.Pool(new Placement.PoolSpec("on-demand", 4, null, 3, null), onDemand)),
                new Placement.Timing(Duration.ofSeconds(60), Duration.ofSeconds(180)));
        WorkloadClass render = new WorkloadClass("render", spot, policy, drainOnScaleDown, pools);
        TeamTimeline timeline = new TeamTimeline(journal, gateway.ports().events(), Map.of("render", spot),
                Runnable::run, eventProblems::add);
        supervisor = new Supervisor(List.of(render), gateway.ports(), timeline, clock, Runnable::run, Runnable::run,
                "ana", Duration.ofMinutes(10));
        supervisor.setPodLoad(metrics::inFlightByPod);
        loop = new ControlLoop(List.of(render), gateway.ports(), metrics, supervisor, clock);
    }

    @Override
    ClassSnapshot tick(int secondsAfterT0) {
        seconds = secondsAfterT0;
        clock.set(T0.plusSeconds(secondsAfterT0));
        ClassSnapshot s = loop.tick().classes().get(0);
        assertNotNull(s.placement(), s.problem());
        for (WorkloadRef ref : List.of(spot, onDemand)) {
            int want = cluster.replicas(NS, ref.name());
            MockCluster.await(ref.name() + " at " + want + " in the cache", WAIT,
                    () -> gateway.ports().workloads().workload(ref).orElseThrow().specReplicas() == want);
        }
        return s;
    }

    private Drain drain() {
        return supervisor.state().of("render").drain();
    }

    private Map<String, String> annotations(String pod) {
        return cluster.annotations(NS, pod);
    }

    private void awaitEvents(int atLeast) {
        MockCluster.await(atLeast + " events", WAIT, () -> cluster.events(NS).size() >= atLeast);
    }

    /**
     * Decisions that hold (min = max) on a steady queue; jobs in flight per pod as a {@code podInFlight} query
     * answers; the {@link #hung} pod holds work and completes nothing while the others complete.
     */
    static final class PoolMetrics implements MetricsSource {
        final Map<String, Double> inFlight = new ConcurrentHashMap<>();
        final AtomicInteger completed = new AtomicInteger();
        volatile String hung;

        @Override
        public String name() {
            return "test";
        }

        @Override
        public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
            if (hung == null) {
                return Map.of();
            }
            return Map.of("render", Map.of(Signals.QUEUE_LENGTH, Signal.of(6, now), Signals.OLDEST_AGE,
                    Signal.of(5, now), Signals.ARRIVAL_RATE, Signal.of(1, now), Signals.MEAN_SERVICE,
                    Signal.of(2, now), Signals.IN_FLIGHT, Signal.of(5, now), Signals.COMPLETION_RATE,
                    Signal.of(1, now)));
        }

        @Override
        public Map<String, Double> inFlightByPod(String className) {
            return Map.copyOf(inFlight);
        }

        @Override
        public Map<String, PodProgress> podProgress(String className) {
            if (hung == null) {
                return Map.of();
            }
            int done = completed.addAndGet(5);
            Map<String, PodProgress> out = new java.util.HashMap<>();
            inFlight.forEach((pod, jobs) -> out.put(pod, new PodProgress(jobs, pod.equals(hung) ? 10 : done)));
            return out;
        }
    }
}
