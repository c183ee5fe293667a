package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.cluster.ClusterHealth;
import io.headroom.loop.TickResult;
import io.headroom.metrics.MetricsHealth;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The top bar's warning: what stays for the session plus what is unsafe about each connection, tick after tick. */
class TopBarWarningsTest {

    @Test
    void standingClusterAndPrometheusWarningsAreAllShownAndDoNotPileUp() {
        MainViewModel vm = new MainViewModel("ctx", "prometheus", false, Duration.ofSeconds(5), s -> { });
        vm.setStandingWarning("Journal unavailable");
        ClusterHealth cluster = ClusterHealth.live(Instant.now()).withWarnings(List.of("TLS verification is OFF for context ctx"));
        MetricsHealth metrics = new MetricsHealth(MetricsHealth.State.OK, "ok", false, true);
        for (int i = 0; i < 3; i++) {
            vm.apply(new TickResult(Instant.now(), List.of(), "ctx", "prometheus"), cluster, metrics);
        }
        assertEquals("Journal unavailable; TLS verification is OFF for context ctx; Prometheus credentials go in clear"
                + " text over http:// (allowInsecureCredentials)", vm.warningProperty().get());
        vm.apply(new TickResult(Instant.now(), List.of(), "ctx", "prometheus"), ClusterHealth.live(Instant.now()),
                MetricsHealth.ok("ok"));
        assertEquals("Journal unavailable", vm.warningProperty().get(), "a warning goes when its cause does");
    }
}
