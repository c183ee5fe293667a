package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.headroom.journal.JournalRecord;
import io.headroom.kube.MockCluster;
import io.headroom.kube.MockSessionFixture;
import io.headroom.supervise.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The team timeline as a connected console has it: an action taken in the session is journaled and
 * posted as an Event on the class's workload; an event the API server refuses leaves the action done
 * and is said in the top bar (the tick's cluster warnings).
 */
class ConnectedTeamTimelineTest extends MockSessionFixture {
    @BeforeEach
    void setUp() throws Exception {
        cluster.deployment("search", "indexer", 2);
    }

    Session connect() throws Exception {
        return connect(null);
    }

    Session connect(String operator) throws Exception {
        return cluster.session(dir, "up", "search", MockCluster.workloads(MockCluster.unreachableUrl(),
                "indexing", "up", "search", "indexer"), journal, operator);
    }

    List<Event> events() {
        return cluster.events("search");
    }

    @Test
    void anActionInTheSessionIsAnEventOnTheWorkload() throws Exception {
        session = connect();
        Outcome frozen = session.supervisor().freeze("indexing", Duration.ofMinutes(20), "incident 812")
                .get(15, TimeUnit.SECONDS);
        assertTrue(frozen.ok(), frozen.message());
        MockCluster.await("the freeze as an event on search/indexer", Duration.ofSeconds(15),
                () -> events().stream().anyMatch(e -> "HeadroomFrozen".equals(e.getReason())
                        && "indexer".equals(e.getInvolvedObject().getName())
                        && e.getMessage().contains("reason: incident 812")
                        && e.getMessage().startsWith("u-up: frozen")));
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.FROZEN),
                "journaled first");
    }

    @Test
    void aRefusedEventIsSaidInTheTopBarAndTheActionStands() throws Exception {
        cluster.server.expect().post().withPath("/api/v1/namespaces/search/events")
                .andReturn(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\","
                        + "\"message\":\"events is forbidden\",\"code\":403}")
                .always();
        session = connect();
        List<SessionTick> ticks = new CopyOnWriteArrayList<>();
        session.subscribe(ticks::add);
        Outcome frozen = session.supervisor().freeze("indexing", Duration.ofMinutes(20), "incident 813")
                .get(15, TimeUnit.SECONDS);
        assertTrue(frozen.ok(), frozen.message());
        assertTrue(session.supervisor().state().of("indexing").freeze() != null, "the freeze holds");
        session.startAsync(Duration.ZERO);
        MockCluster.await("a tick whose cluster warnings say the event was refused", Duration.ofSeconds(30),
                () -> ticks.stream().anyMatch(t -> t.cluster() != null && t.cluster().warnings().stream()
                        .anyMatch(w -> w.startsWith("event HeadroomFrozen on indexer not posted") && w.contains("403"))));
    }

    @Test
    void anExplicitOperatorIsWhoActsInTheJournalAndTheEvents() throws Exception {
        session = connect("ana@oncall");
        assertTrue(session.supervisor().freeze("indexing", Duration.ofMinutes(5), "drill").get(15, TimeUnit.SECONDS).ok());
        MockCluster.await("the freeze as an event by ana", Duration.ofSeconds(15),
                () -> events().stream().anyMatch(e -> e.getMessage().startsWith("ana@oncall: frozen")));
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.FROZEN
                && r.user().equals("ana@oncall")));
    }
}
