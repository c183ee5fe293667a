package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.ForecastMode;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.KubeClusterGateway;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.loop.WorkloadClass;
import io.headroom.session.AnticipatedFloors;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forecast floors on the team timeline (issue 29), against fabric8's mock API server: approving, holding in auto,
 * cancelling and lapsing a floor each post one Event on the class's Deployment that says, in words, what is held,
 * from when until when (absolute times: other consoles read it in other zones) and why. A proposal is not an action
 * and posts nothing. The forecast is {@link ForecastFloorSupervisionTest}'s: a rise from 2 to 20 jobs/s at 00:30,
 * held at 16 replicas from 00:27:15 until 00:45.
 */
class ForecastFloorEventsTest {
    static final Instant T0 = ForecastFloorSupervisionTest.T0;
    static final String FROM = "2026-01-05T00:27:15Z";
    static final String UNTIL = "2026-01-05T00:45:00Z";
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final WorkloadRef payments = new WorkloadRef("dev", "payments", "Deployment", "worker");
    final WorkloadRef orders = new WorkloadRef("dev", "payments", "Deployment", "orders-worker");
    final ManualClock clock = new ManualClock(T0);
    final List<String> problems = new CopyOnWriteArrayList<>();
    WorkloadClass proposing;
    WorkloadClass auto;
    Supervisor supervisor;

    static Policy policy(ForecastMode mode) {
        return Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).pollIntervalSeconds(15)
                .startupSeconds(90).maxAgeSeconds(30.0).expectedServiceSeconds(1.0).forecastMode(mode).build();
    }

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 2);
        cluster.deployment("payments", "orders-worker", 2);
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(payments, orders), clock, null);
        assertTrue(g.awaitSynced(Duration.ofSeconds(15)));
        proposing = new WorkloadClass("payments", payments, policy(ForecastMode.PROPOSE));
        auto = new WorkloadClass("orders", orders, policy(ForecastMode.AUTO));
        TeamTimeline timeline = new TeamTimeline(new MemoryJournal(), g.ports().events(),
                Map.of("payments", payments, "orders", orders), Runnable::run, problems::add);
        supervisor = new Supervisor(List.of(proposing, auto), g.ports(), timeline, clock, Runnable::run, "ana",
                Duration.ofMinutes(5));
        supervisor.setFloorPlanner(new AnticipatedFloors(new ForecastFloorSupervisionTest.Forecasts()));
    }

    List<Event> eventsOn(WorkloadRef ref) {
        return cluster.events("payments").stream().filter(e -> ref.name().equals(e.getInvolvedObject().getName()))
                .toList();
    }

    static List<String> reasons(List<Event> events) {
        return events.stream().map(Event::getReason).toList();
    }

    static void saysPlainly(Event e) {
        assertEquals("Normal", e.getType(), e.getMessage());
        assertEquals("Deployment", e.getInvolvedObject().getKind());
        assertFalse(e.getMessage().contains("?"), "no unknowns in words: " + e.getMessage());
        assertFalse(e.getMessage().contains("forecast_floor"), e.getMessage());
    }

    void beforeDecide(WorkloadClass cls, Instant at) {
        clock.set(at);
        supervisor.forecastFloor(cls, new Observation(2, 2, Map.of()), at);
    }

    @Test
    void approvedThenCancelledIsOneEventEachOnTheDeployment() throws Exception {
        beforeDecide(proposing, T0);
        Proposal p = supervisor.state().pending().stream().filter(Proposal::forecast).findFirst().orElse(null);
        assertNotNull(p, "a predictive proposal: " + supervisor.state().pending());
        assertEquals(List.of(), eventsOn(payments), "a proposal is in the inbox, not on the timeline");

        Outcome approved = supervisor.approve(p.id()).get();
        assertTrue(approved.ok(), approved.message());
        List<Event> events = eventsOn(payments);
        assertEquals(List.of("HeadroomForecastFloor"), reasons(events));
        Event a = events.get(0);
        saysPlainly(a);
        assertTrue(a.getMessage().startsWith("ana: forecast floor approved: at least 16 replicas from " + FROM
                + " until " + UNTIL), a.getMessage());
        assertTrue(a.getMessage().contains("rose from 2 to 20 jobs/s at 00:30"), "the forecast's why: "
                + a.getMessage());

        beforeDecide(proposing, T0.plusSeconds(60));
        assertEquals(1, eventsOn(payments).size(), "holding is not posted again each tick");

        Outcome cancelled = supervisor.cancelFloor("payments", "the campaign moved to Friday").get();
        assertTrue(cancelled.ok(), cancelled.message());
        events = eventsOn(payments);
        assertEquals(List.of("HeadroomForecastFloor", "HeadroomForecastFloorCancelled"), reasons(events));
        Event c = events.get(1);
        saysPlainly(c);
        assertTrue(c.getMessage().startsWith("ana: forecast floor cancelled: 16 replicas no longer held"),
                c.getMessage());
        assertTrue(c.getMessage().contains("the campaign moved to Friday"), c.getMessage());
        assertEquals(List.of(), eventsOn(orders), "nothing on another class's workload");
        assertEquals(List.of(), problems);
    }

    @Test
    void heldByAutoThenLapsedIsOneEventEachOnTheDeployment() {
        beforeDecide(auto, T0);
        List<Event> events = eventsOn(orders);
        assertEquals(List.of("HeadroomForecastFloor"), reasons(events));
        Event held = events.get(0);
        saysPlainly(held);
        assertTrue(held.getMessage().startsWith("ana: forecast floor held automatically (forecast: auto): at least 16"
                + " replicas from " + FROM + " until " + UNTIL), held.getMessage());
        assertFalse(held.getMessage().contains("approved"), "nobody approved it: " + held.getMessage());

        beforeDecide(auto, T0.plusSeconds(1800));
        assertEquals(1, eventsOn(orders).size(), "held through the rise without another event");

        beforeDecide(auto, T0.plusSeconds(2700 + 15));
        events = eventsOn(orders);
        assertEquals(List.of("HeadroomForecastFloor", "HeadroomForecastFloorLapsed"), reasons(events));
        Event lapsed = events.get(1);
        saysPlainly(lapsed);
        assertTrue(lapsed.getMessage().startsWith("ana: forecast floor lapsed: 16 replicas no longer held at "
                + UNTIL), lapsed.getMessage());
        assertTrue(lapsed.getMessage().contains("the reactive decision alone rules again"), lapsed.getMessage());
        beforeDecide(auto, T0.plusSeconds(2700 + 30));
        assertEquals(2, eventsOn(orders).size(), "lapsed once");
        assertEquals(List.of(), eventsOn(payments));
        assertEquals(List.of(), problems);
    }
}
