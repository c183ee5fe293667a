package io.headroom.ui.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.session.Endpoints;
import io.headroom.session.Endpoints.Endpoint;
import io.headroom.session.Endpoints.State;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The connection progress's decisions (issue 11): wait with Cancel, decide on a failure, go once all answered. */
class ConnectionProgressViewModelTest {
    static final Endpoint PROM_WAIT = new Endpoint("Prometheus", "http://127.0.0.1:9", State.CONNECTING, null);
    static final Endpoint KUBE_WAIT = new Endpoint("context prod", "https://10.0.0.1", State.CONNECTING, null);

    @Test
    void waitingOffersCancelWhichStopsWaitingAndOffersTheDecisions() {
        AtomicReference<List<Endpoint>> now = new AtomicReference<>(List.of(PROM_WAIT, KUBE_WAIT));
        ConnectionProgressViewModel vm = new ConnectionProgressViewModel(now::get);
        vm.refresh();
        assertEquals(List.of("Prometheus http://127.0.0.1:9 — connecting…", "context prod https://10.0.0.1 — connecting…"),
                vm.lines());
        assertFalse(vm.choosing().get(), "waiting: Cancel, no decisions yet");
        assertFalse(vm.done().get());
        vm.cancel();
        assertTrue(vm.choosing().get());
        assertTrue(vm.headline().startsWith("Stopped waiting"), vm.headline());
        vm.refresh(); // the window keeps polling: what the operator did stays said
        assertTrue(vm.headline().startsWith("Stopped waiting"), vm.headline());
        assertTrue(vm.choosing().get());
    }

    /**
     * Issue 26 item 5: what the workloads file names could not be opened at all (an unreadable kubeconfig):
     * the one failure, the decisions at once, nothing to go on with or cancel, the file to blame named.
     */
    @Test
    void nothingOpenedOffersTheDecisionsNamingTheFileToEditAndNothingToGoOnWith() {
        java.nio.file.Path workloads = java.nio.file.Path.of("/etc/headroom/workloads.yaml");
        java.nio.file.Path kubeconfig = java.nio.file.Path.of("/home/op/.kube/config");
        ConnectionProgressViewModel vm = ConnectionProgressViewModel.nothingOpened(new Endpoint("kubeconfig",
                kubeconfig + ":5", State.FAILED, "not valid YAML: found unexpected end of stream (line 5, column 21)"),
                workloads, kubeconfig);
        assertEquals(List.of("kubeconfig /home/op/.kube/config:5 — failed: not valid YAML: found unexpected end of"
                + " stream (line 5, column 21)"), vm.lines(), "the file, the line and the cause, at once");
        assertTrue(vm.choosing().get());
        assertFalse(vm.canGoOn().get(), "there is no console to go on with");
        assertTrue(vm.headline().startsWith("Nothing was opened: " + workloads), vm.headline());
        assertEquals("Edit config", vm.editLabel.get());
        vm.cancel();
        vm.refresh();
        assertTrue(vm.headline().startsWith("Nothing was opened"), "nothing to stop waiting for: " + vm.headline());
        assertFalse(vm.done().get());
        vm.edited();
        assertEquals("Editing " + kubeconfig + ": save it, then choose Try again.", vm.headline());
    }

    @Test
    void aFailureOffersTheDecisionsAtOnceAndPrometheusFiguresStayUsable() {
        AtomicReference<List<Endpoint>> now = new AtomicReference<>(List.of(
                new Endpoint("Prometheus", "http://p:9090", State.OK, null),
                new Endpoint("context prod", "https://10.0.0.1", State.FAILED, "Connection refused")));
        ConnectionProgressViewModel vm = new ConnectionProgressViewModel(now::get);
        vm.refresh();
        assertTrue(vm.choosing().get());
        assertEquals("context prod https://10.0.0.1 — failed: Connection refused", vm.lines().get(1));
        assertTrue(vm.headline().startsWith("1 of 2 not answering"), vm.headline());
        assertFalse(vm.done().get(), "not every endpoint answered");
    }

    @Test
    void everythingAnsweringEndsIt() {
        AtomicReference<List<Endpoint>> now = new AtomicReference<>(List.of(PROM_WAIT));
        ConnectionProgressViewModel vm = new ConnectionProgressViewModel(now::get);
        vm.refresh();
        assertFalse(vm.done().get());
        now.set(List.of(new Endpoint("Prometheus", "http://127.0.0.1:9", State.OK, null)));
        vm.refresh();
        assertTrue(vm.done().get());
        assertEquals(List.of("Prometheus http://127.0.0.1:9 — ok"), vm.lines());
        assertEquals(State.TIMED_OUT, new Endpoint("x", "y", State.TIMED_OUT, "no answer").state());
        assertTrue(new Endpoint("x", "y", State.TIMED_OUT, "no answer").line().endsWith("timed out: no answer"));
        assertTrue(Endpoints.of(io.headroom.session.Session.sandbox(1, java.time.Instant.EPOCH,
                java.time.Duration.ZERO, new io.headroom.journal.MemoryJournal())).isEmpty());
    }
}
