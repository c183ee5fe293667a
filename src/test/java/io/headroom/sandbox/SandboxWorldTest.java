package io.headroom.sandbox;

import io.headroom.decision.SignalName;
import io.headroom.time.ManualClock;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.sandbox.SandboxClassSpec.Dependency;
import io.headroom.sandbox.SandboxClassSpec.Poison;
import io.headroom.sandbox.SandboxClassSpec.ServiceTime;
import io.headroom.sandbox.SandboxWorld.Measurements;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SandboxWorldTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static Instant at(double seconds) {
        return T0.plusNanos(Math.round(seconds * 1e9));
    }

    static Measurements measure(SandboxWorld w, String cls, double t) {
        w.advanceTo(at(t));
        return w.measure(cls).orElseThrow();
    }

    /** A run with a few scaling actions, sampled every 5 s. */
    static List<Measurements> run(long seed) {
        SandboxClassSpec a = SandboxClassSpec.builder("a").baseRate(2).segment(100, 200, 8)
                .service(ServiceTime.lognormal(1.5, 0.8)).concurrency(2).initialReplicas(2).build();
        SandboxClassSpec b = SandboxClassSpec.builder("b").baseRate(0.5).ramp(0, 300, 0.5, 3)
                .service(ServiceTime.uniform(1, 3)).dependency(new Dependency(4, 1, 50)).build();
        SandboxWorld w = new SandboxWorld(List.of(a, b), seed, T0);
        List<Measurements> out = new ArrayList<>();
        for (int t = 5; t <= 600; t += 5) {
            w.advanceTo(at(t));
            if (t == 120) {
                w.setReplicas("a", 8);
                w.setReplicas("b", 4);
            }
            if (t == 300) {
                w.setReplicas("a", 3);
            }
            out.add(w.measure("a").orElseThrow());
            out.add(w.measure("b").orElseThrow());
        }
        return out;
    }

    @Test
    void sameSeedGivesSameHistoryAndDifferentSeedDoesNot() {
        assertEquals(run(42), run(42));
        assertNotEquals(run(42), run(43));
    }

    @Test
    void classesDoNotPerturbEachOther() {
        SandboxClassSpec a = SandboxClassSpec.builder("a").baseRate(3).service(ServiceTime.exponential(0.5))
                .initialReplicas(4).build();
        SandboxClassSpec noisy = SandboxClassSpec.builder("noisy").baseRate(20).initialReplicas(30).build();
        SandboxWorld alone = new SandboxWorld(List.of(a), 7, T0);
        SandboxWorld together = new SandboxWorld(List.of(noisy, a), 7, T0);
        for (int t = 10; t <= 300; t += 10) {
            Measurements m1 = measure(alone, "a", t);
            Measurements m2 = measure(together, "a", t);
            assertEquals(m1, m2, "at " + t);
        }
    }

    @Test
    void poissonArrivalCountIsWithinStatisticalBounds() {
        double rate = 5;
        double seconds = 20_000;
        SandboxClassSpec spec = SandboxClassSpec.builder("p").baseRate(rate).initialReplicas(0).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 1, T0);
        long n = measure(w, "p", seconds).jobsArrived();
        double mean = rate * seconds;
        assertTrue(Math.abs(n - mean) < 5 * Math.sqrt(mean), "arrivals " + n + " vs " + mean);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // name, expected arrivals per 1000-s period
            "constant segments, 0",
            "ramp, 1",
            "repeat, 2",
    })
    void piecewiseProgrammesDeliverTheirIntegral(String name, int which) {
        SandboxClassSpec.Builder b = SandboxClassSpec.builder("p").initialReplicas(0);
        double expected;
        double seconds = 10_000;
        switch (which) {
            case 0 -> { b.baseRate(1).segment(2000, 4000, 0).segment(4000, 5000, 10); expected = 1 * 8000 + 10 * 1000 - 1000; }
            case 1 -> { b.baseRate(0).ramp(0, 10_000, 0, 4); expected = 2 * 10_000; }
            default -> { b.baseRate(0).segment(0, 100, 6).repeatSeconds(1000.0); expected = 6 * 100 * 10; }
        }
        SandboxWorld w = new SandboxWorld(List.of(b.build()), 3, T0);
        long n = measure(w, "p", seconds).jobsArrived();
        assertTrue(Math.abs(n - expected) < 5 * Math.sqrt(expected), name + ": arrivals " + n + " vs " + expected);
    }

    @Test
    void segmentRatesAreExactWithinTheirWindow() {
        SandboxClassSpec spec = SandboxClassSpec.builder("p").baseRate(0).segment(100, 200, 50)
                .initialReplicas(0).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 9, T0);
        assertEquals(0, measure(w, "p", 100).jobsArrived(), "nothing before the segment");
        long inSegment = measure(w, "p", 200).jobsArrived();
        assertEquals(inSegment, measure(w, "p", 5000).jobsArrived(), "nothing after the segment");
        assertTrue(Math.abs(inSegment - 5000) < 5 * Math.sqrt(5000), "in segment " + inSegment);
    }

    @Test
    void steadyStateWithAmpleCapacityObeysLittlesLaw() {
        double rate = 2;
        double service = 1.0;
        SandboxClassSpec spec = SandboxClassSpec.builder("s").baseRate(rate)
                .service(ServiceTime.exponential(service)).concurrency(2).initialReplicas(10).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 11, T0);
        double sumQueue = 0;
        double sumService = 0;
        double sumInFlight = 0;
        double sumArrival = 0;
        int samples = 0;
        for (int t = 120; t <= 7200; t += 10) {
            Measurements m = measure(w, "s", t);
            sumQueue += m.queueLength();
            sumService += m.meanServiceSeconds();
            sumInFlight += m.inFlight();
            sumArrival += m.arrivalRate();
            samples++;
        }
        assertTrue(sumQueue / samples < 0.05, "queue " + sumQueue / samples);
        assertEquals(service, sumService / samples, 0.05);
        assertEquals(rate, sumArrival / samples, 0.1);
        // L = λW with W = S when nothing waits.
        assertEquals(rate * service, sumInFlight / samples, 0.15);
    }

    @Test
    void idleQueueHasTrueZeroAgeAndServiceIsMissingWithoutCompletions() {
        SandboxClassSpec spec = SandboxClassSpec.builder("idle").baseRate(0).initialReplicas(1).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 1, T0);
        SandboxMetrics metrics = new SandboxMetrics(w, new ManualClock(at(90)));
        Map<SignalName, Signal> s = metrics.read(List.of("idle"), at(90)).get("idle");
        assertEquals(0.0, s.get(Signals.OLDEST_AGE).value());
        assertEquals(0.0, s.get(Signals.QUEUE_LENGTH).value());
        assertEquals(0.0, s.get(Signals.ARRIVAL_RATE).value());
        assertFalse(s.get(Signals.MEAN_SERVICE).present());
        assertEquals("no completions in window", s.get(Signals.MEAN_SERVICE).missingReason());
        assertFalse(s.containsKey(Signals.QUEUED_SERVICE), "the sandbox does not provide queued service seconds");
        assertFalse(s.containsKey(Signals.DEPENDENCY));
    }

    @Test
    void newPodsAreNotReadyUntilStartupHasPassed() {
        SandboxClassSpec spec = SandboxClassSpec.builder("c").baseRate(0).startupSeconds(30).initialReplicas(1)
                .initialBacklog(100).service(ServiceTime.constant(1000)).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 1, T0);
        w.advanceTo(at(10));
        w.setReplicas("c", 3);
        Measurements before = measure(w, "c", 39.9);
        assertEquals(3, before.specReplicas());
        assertEquals(1, before.readyReplicas());
        assertEquals(1, before.inFlight(), "pending pods take no work");
        WorkloadState state = w.workload("c").orElseThrow();
        assertEquals(2, state.pods().stream().filter(p -> p.phase().equals("Pending")).count());
        Measurements after = measure(w, "c", 40.0);
        assertEquals(3, after.readyReplicas());
        assertEquals(3, after.inFlight());
    }

    @Test
    void scaleDownRemovesNotReadyFirstThenNewestAndLetsInFlightFinish() {
        SandboxClassSpec spec = SandboxClassSpec.builder("d").baseRate(0).startupSeconds(30)
                .initialReplicas(2).initialBacklog(1).service(ServiceTime.constant(50)).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 1, T0);
        w.advanceTo(at(5));
        w.setReplicas("d", 3);                       // d-00003 ready at 35
        w.advanceTo(at(40));
        w.setReplicas("d", 5);                       // d-00004, d-00005 pending until 70
        w.advanceTo(at(45));
        assertEquals(List.of("d-00001", "d-00002", "d-00003", "d-00004", "d-00005"), w.podNames("d"));
        String rv = w.resourceVersion("d").orElseThrow();

        w.setReplicas("d", 1); // goes: both pending, then the newest ready (d-00003), then d-00002
        assertNotEquals(rv, w.resourceVersion("d").orElseThrow(), "a replica change bumps the version");
        assertEquals(List.of("d-00001"), w.podNames("d"), "idle pods go at once; d-00001 keeps its job");

        // Work in flight on a pod picked for removal: it terminates but finishes first.
        SandboxClassSpec busy2 = SandboxClassSpec.builder("f").baseRate(0).initialReplicas(2)
                .initialBacklog(2).service(ServiceTime.constant(50)).build();
        SandboxWorld w3 = new SandboxWorld(List.of(busy2), 1, T0);
        w3.advanceTo(at(10));
        w3.setReplicas("f", 1);
        WorkloadState s = w3.workload("f").orElseThrow();
        assertEquals(1, s.specReplicas());
        assertEquals(1, s.readyReplicas());
        assertEquals(2, s.pods().size());
        PodState terminating = s.pods().stream().filter(PodState::terminating).findFirst().orElseThrow();
        assertEquals("f-00002", terminating.name(), "ties in ready time: the newest goes");
        assertEquals(2, w3.measure("f").orElseThrow().inFlight(), "in-flight work is not killed");
        Measurements done = measure(w3, "f", 50.0);
        assertEquals(2, done.jobsCompleted());
        assertEquals(1, done.pods(), "the terminating pod went once its job finished");
        assertEquals(List.of("f-00001"), w3.podNames("f"));
    }

    @Test
    void terminatingPodTakesNoNewJobs() {
        SandboxClassSpec spec = SandboxClassSpec.builder("g").baseRate(0).initialReplicas(2)
                .initialBacklog(4).service(ServiceTime.constant(10)).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 1, T0);
        w.advanceTo(at(1));
        w.setReplicas("g", 1);
        // Pod 1 runs jobs 1, 3, 4 (10 s each) once pod 2 stops; pod 2 only finishes job 2.
        assertEquals(3, measure(w, "g", 20).jobsCompleted());
        assertEquals(1, measure(w, "g", 20).pods());
        assertEquals(4, measure(w, "g", 30).jobsCompleted());
    }

    @Test
    void poisonMessageStallsTheQueueAndItRecoversAfterDeadLettering() {
        SandboxClassSpec spec = SandboxClassSpec.builder("ledger").baseRate(1)
                .service(ServiceTime.constant(2)).initialReplicas(5)
                .poison(new Poison(100, 400.0)).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 5, T0);
        Measurements healthy = measure(w, "ledger", 90);
        assertTrue(healthy.completionRate() > 0.5);
        assertEquals(0, healthy.queueLength());

        for (int t = 170; t <= 390; t += 20) {
            Measurements m = measure(w, "ledger", t);
            assertEquals(0.0, m.completionRate(), "no completions while stalled, t=" + t);
            assertTrue(Double.isNaN(m.meanServiceSeconds()));
            assertEquals(t - 100, m.oldestAgeSeconds(), 1e-6, "age grows with elapsed time");
            assertTrue(m.poisonActive());
            assertEquals(1, m.inFlight(), "one worker keeps retrying the poison");
        }
        Measurements stalled = measure(w, "ledger", 399);
        assertTrue(stalled.queueLength() > 250, "work piles up behind the poison: " + stalled.queueLength());

        Measurements recovered = measure(w, "ledger", 700);
        assertFalse(recovered.poisonActive());
        assertTrue(recovered.completionRate() > 0.5);
        assertTrue(recovered.queueLength() < 10, "backlog drains: " + recovered.queueLength());
        assertTrue(recovered.oldestAgeSeconds() < 20);
    }

    @Test
    void dependencyLatencyGrowsPastTheLimit() {
        Dependency dep = new Dependency(5, 2, 100);
        assertEquals(1.0, dep.factor(5));
        assertEquals(1.4, dep.factor(6), 1e-9);
        SandboxClassSpec spec = SandboxClassSpec.builder("enrich").baseRate(0).initialReplicas(2)
                .initialBacklog(1000).service(ServiceTime.constant(1)).concurrency(2)
                .dependency(dep).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 1, T0);
        Measurements few = measure(w, "enrich", 30);
        assertEquals(100.0, few.dependencyLatencyMs(), 1e-9, "4 in flight is under the limit");
        assertEquals(1.0, few.meanServiceSeconds(), 1e-9);

        w.setReplicas("enrich", 10);
        Measurements many = measure(w, "enrich", 200);
        assertEquals(20, many.inFlight());
        assertEquals(100 * (1 + 2.0 * 15 / 5), many.dependencyLatencyMs(), 1e-9);
        assertTrue(many.meanServiceSeconds() > 5, "service slows with the dependency: " + many.meanServiceSeconds());
    }

    @Test
    void outageWindowsGiveMissingSignalsWithTheReason() {
        SandboxClassSpec spec = SandboxClassSpec.builder("o").baseRate(1).outage(100, 200)
                .dependency(new Dependency(3, 1, 20)).podMemoryMb(512.0).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 1, T0);
        ManualClock clock = new ManualClock(at(150));
        SandboxMetrics metrics = new SandboxMetrics(w, clock);
        Map<SignalName, Signal> during = metrics.read(List.of("o"), clock.instant()).get("o");
        assertEquals(Set.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE,
                Signals.IN_FLIGHT, Signals.COMPLETION_RATE, Signals.DEPENDENCY, Signals.POD_MEMORY), during.keySet());
        for (Signal s : during.values()) {
            assertEquals("metrics outage (sandbox)", s.missingReason());
        }
        clock.set(at(200));
        Map<SignalName, Signal> after = metrics.read(List.of("o"), clock.instant()).get("o");
        assertTrue(after.values().stream().allMatch(Signal::present), after.toString());
        assertEquals(at(200), after.get(Signals.QUEUE_LENGTH).sampledAt());
        assertEquals(512, after.get(Signals.POD_MEMORY).value(), 512 * 0.05);
    }

    @Test
    void unknownClassesGetEverySignalMissing() {
        SandboxWorld w = new SandboxWorld(List.of(SandboxClassSpec.builder("x").build()), 1, T0);
        SandboxMetrics metrics = new SandboxMetrics(w, new ManualClock(at(10)));
        Map<SignalName, Signal> s = metrics.read(List.of("nope"), at(10)).get("nope");
        assertFalse(s.isEmpty());
        assertTrue(s.values().stream().allMatch(v -> "unknown class".equals(v.missingReason())));
    }

    @Test
    void clusterScalesWithOptimisticConcurrency() {
        SandboxClassSpec spec = SandboxClassSpec.builder("k").baseRate(0).startupSeconds(5).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 1, T0);
        ManualClock clock = new ManualClock(at(1));
        io.headroom.cluster.ClusterPorts cluster = new SandboxCluster(w, clock).ports();
        assertEquals("sandbox", cluster.contextName());
        WorkloadRef ref = spec.target();
        assertEquals(new WorkloadRef("sandbox", "sandbox", "Deployment", "k"), ref);

        WorkloadState before = cluster.workloads().workload(ref).orElseThrow();
        assertEquals(1, before.specReplicas());
        assertEquals(at(1), before.observedAt());
        ScaleResult ok = cluster.scaling().scale(ref, 3, before.resourceVersion());
        assertEquals(ScaleResult.Outcome.APPLIED, ok.outcome());
        ScaleResult stale = cluster.scaling().scale(ref, 5, before.resourceVersion());
        assertEquals(ScaleResult.Outcome.CONFLICT, stale.outcome());
        assertEquals(3, cluster.workloads().workload(ref).orElseThrow().specReplicas());
        assertEquals(ScaleResult.Outcome.APPLIED, cluster.scaling().scale(ref, 2, null).outcome());

        clock.advanceSeconds(10);
        assertEquals(2, cluster.workloads().workload(ref).orElseThrow().readyReplicas());

        WorkloadRef unknown = new WorkloadRef("sandbox", "sandbox", "Deployment", "ghost");
        assertTrue(cluster.workloads().workload(unknown).isEmpty());
        assertEquals(ScaleResult.Outcome.REFUSED, cluster.scaling().scale(unknown, 1, null).outcome());
        assertEquals(ScaleResult.Outcome.REFUSED, cluster.scaling().scale(ref, -1, null).outcome());
    }

    @Test
    void timeNeverGoesBackwards() {
        SandboxWorld w = new SandboxWorld(List.of(SandboxClassSpec.builder("t").baseRate(1).build()), 1, T0);
        w.advanceTo(at(100));
        Measurements m = w.measure("t").orElseThrow();
        w.advanceTo(at(50));
        assertEquals(m, w.measure("t").orElseThrow());
        assertEquals(at(100), w.now());
    }

    @Test
    void aMarkedPodTakesNoNewWorkAndIsTheOneAScaleDownRemoves() {
        SandboxClassSpec spec = SandboxClassSpec.builder("m").baseRate(6).service(ServiceTime.uniform(2, 4))
                .concurrency(2).initialReplicas(3).build();
        SandboxWorld w = new SandboxWorld(List.of(spec), 7, T0);
        w.advanceTo(at(60));
        List<String> names = w.workload("m").orElseThrow().pods().stream().map(PodState::name).toList();
        String oldest = names.get(0); // the ReplicaSet would remove the newest: mark the oldest instead
        assertEquals(List.of(oldest), w.mark("m", List.of(oldest, "m-nope"), "m-d1").done());
        assertEquals(List.of("m-nope: no such pod in m"), w.mark("m", List.of("m-nope"), "m-d1").failed());
        PodState marked = w.workload("m").orElseThrow().pods().get(0);
        assertEquals("m-d1", marked.drainId());
        assertEquals(io.headroom.cluster.PodMarks.DRAIN_DELETION_COST, marked.deletionCost());

        // Jobs keep arriving at 6/s, but the marked pod finishes its own and takes no more.
        double t = 60;
        while (w.podInFlight("m").get(oldest) > 0) {
            t += 1;
            w.advanceTo(at(t));
            assertTrue(t < 80, "a 2–4 s job finishes within seconds");
        }
        for (int i = 0; i < 10; i++) {
            w.advanceTo(at(++t));
            assertEquals(0.0, w.podInFlight("m").get(oldest), "no new work on a marked pod");
            assertTrue(w.podInFlight("m").values().stream().mapToDouble(Double::doubleValue).sum() > 0,
                    "the others keep working");
        }
        w.setReplicas("m", 2);
        List<String> after = w.workload("m").orElseThrow().pods().stream().map(PodState::name).toList();
        assertFalse(after.contains(oldest), "the lowest deletion cost goes, not the newest: " + after);
        assertEquals(2, after.size());

        assertEquals(List.of(names.get(1)), w.mark("m", List.of(names.get(1)), null).done(), "unmark");
        assertEquals(null, w.workload("m").orElseThrow().pods().get(0).drainId());
    }
}
