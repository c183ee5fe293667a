package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.FileJournal;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.Contexts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up below the UI: what the console opens for given options and settings, and the sandbox
 * with a reason whenever that fails. Runs the launcher's work on the test's thread.
 */
class LauncherTest {
    static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");
    @TempDir
    Path dir;
    final List<String> progress = new CopyOnWriteArrayList<>();

    Launcher launcher(Map<String, String> named) {
        java.util.Map<String, String> all = new java.util.HashMap<>(named);
        all.putIfAbsent("settings", dir.resolve("settings.json").toString());
        all.putIfAbsent("journal", dir.resolve("journal.jsonl").toString());
        return new Launcher(Launcher.Options.of(all), Runnable::run, Clock.fixed(NOW, ZoneOffset.UTC),
                () -> Contexts.load(List.of()));
    }

    static Launcher.Launched get(java.util.concurrent.CompletableFuture<Launcher.Launched> f) throws Exception {
        return f.get(10, TimeUnit.SECONDS);
    }

    @Test
    void withNothingConfiguredTheSandboxOpensWithoutWarningAndHistoryBeforeNow() throws Exception {
        Launcher.Launched l = get(launcher(Map.of("speed", "10")).launch(progress::add));
        try (Session s = l.session()) {
            assertTrue(s.isSandbox());
            assertNull(l.warning());
            assertEquals(Launcher.WARM_UP, l.warmUp());
            assertEquals(10, s.speed());
            assertEquals(NOW.minus(Launcher.WARM_UP), s.clock().instant(), "the warm-up ends at the wall clock's now");
            assertEquals(List.of(), progress, "nothing to connect to");
            assertTrue(s.journal() instanceof FileJournal, "the journal file asked for");
        }
    }

    @Test
    void unreadableSettingsOpenTheSandboxSayingWhy() throws Exception {
        Files.writeString(dir.resolve("settings.json"), "{ not json");
        Launcher.Launched l = get(launcher(Map.of()).launch(progress::add));
        try (Session s = l.session()) {
            assertTrue(s.isSandbox());
            assertTrue(l.warning().startsWith("Settings unreadable ("), l.warning());
            assertTrue(l.warning().endsWith("opened the sandbox."), l.warning());
            assertNull(l.settings().workloadsFile());
        }
    }

    @Test
    void aRejectedWorkloadsFileOpensTheSandboxNamingTheProblem() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, "classes: 12\n");
        Launcher.Launched l = get(launcher(Map.of("config", workloads.toString())).launch(progress::add));
        try (Session s = l.session()) {
            assertTrue(s.isSandbox());
            assertTrue(l.warning().startsWith("Workloads file rejected: "), l.warning());
            assertTrue(l.warning().endsWith(" — opened the sandbox."), l.warning());
            assertEquals(List.of("Connecting to Prometheus and the clusters named in " + workloads + " …"), progress);
        }
    }

    @Test
    void aWorkloadsFileWithASyntaxErrorIsRejectedForTheOperatorNamingFileAndLine() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: "http://127.0.0.1:9090"}
                classes:
                  - name: [payments
                """);
        Launcher launcher = launcher(Map.of("config", workloads.toString()));
        Launcher.Opening o = launcher.launchOrAsk(progress::add).get(10, TimeUnit.SECONDS);
        assertTrue(o instanceof Launcher.Rejected, "nothing opened: " + o);
        Launcher.Rejected r = (Launcher.Rejected) o;
        assertEquals(workloads, r.file());
        assertTrue(r.problems().get(0).startsWith("workloads.yaml:4: malformed YAML"),
                r.problems().toString());

        Launcher.Launched sandbox = launcher.sandboxInstead(r).get(10, TimeUnit.SECONDS);
        try (Session s = sandbox.session()) {
            assertTrue(s.isSandbox(), "the sandbox, because the operator chose it");
            assertTrue(sandbox.warning().startsWith("Workloads file rejected: workloads.yaml:4: "), sandbox.warning());
        }

        Files.writeString(workloads, "classes: 12\n");
        Launcher.Opening again = launcher.retry(r, progress::add).get(10, TimeUnit.SECONDS);
        assertTrue(again instanceof Launcher.Rejected, "read again, still wrong");
        assertTrue(((Launcher.Rejected) again).problems().contains("workloads.yaml:1: classes: expected a list, got a number (12)"),
                ((Launcher.Rejected) again).problems().toString());
    }

    @Test
    void aConnectionThatFailsOpensTheSandboxAndLeavesTheClusterJournalUnlocked() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: "http://127.0.0.1:9", timeoutSeconds: 1}
                classes:
                  - {name: payments, context: nowhere, namespace: payments, target: {kind: Deployment, name: worker},
                     signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}}
                """);
        Path clusterJournal = dir.resolve("cluster-journal.jsonl");
        Launcher launcher = new Launcher(Launcher.Options.of(Map.of("settings", dir.resolve("settings.json").toString(),
                "journal", clusterJournal.toString(), "config", workloads.toString())), Runnable::run,
                Clock.fixed(NOW, ZoneOffset.UTC), () -> Contexts.load(List.of()));
        Launcher.Launched l = get(launcher.launch(progress::add));
        try (Session s = l.session()) {
            assertTrue(s.isSandbox());
            assertTrue(l.warning().startsWith("Could not connect ("), l.warning());
            assertTrue(l.warning().endsWith("); opened the sandbox."), l.warning());
        }
        // The connected attempt let go of its journal: another console (or this one, retried) can open it.
        // (FileJournal.open refuses a journal whose lock another holder keeps.)
        FileJournal.open(clusterJournal).close();
    }

    @Test
    void relaunchingSavesTheSettingsClosesTheOldSessionAndOpensTheNewChoice() throws Exception {
        Launcher launcher = launcher(Map.of());
        Launcher.Launched first = get(launcher.launch(progress::add));
        Session old = first.session();
        Path workloads = dir.resolve("missing-workloads.yaml");
        Launcher.Launched second = get(launcher.relaunch(old, new Settings(workloads), progress::add));
        try (Session s = second.session()) {
            assertEquals(workloads.toAbsolutePath(), Settings.load(dir.resolve("settings.json")).workloadsFile(),
                    "saved for the next start");
            assertTrue(s.isSandbox(), "the file does not exist: the sandbox, saying why");
            assertTrue(second.warning().contains("opened the sandbox"), second.warning());
            assertEquals(workloads, second.settings().workloadsFile());
            // The old session let go of the journal file, so the new one has it, not a memory fallback.
            assertTrue(s.journal() instanceof FileJournal, "the old session's journal lock was released");
        }
    }

    @Test
    void theSandboxJournalFallsBackToMemoryWithAStandingWarning() throws Exception {
        Path notADirectory = dir.resolve("file");
        Files.writeString(notADirectory, "x");
        Launcher.Launched l = get(launcher(Map.of("journal", notADirectory.resolve("journal.jsonl").toString()))
                .launch(progress::add));
        try (Session s = l.session()) {
            assertTrue(s.journal() instanceof MemoryJournal);
            assertTrue(l.warning().startsWith("Journal unavailable ("), l.warning());
            assertTrue(l.warning().endsWith("actions are kept in memory only."), l.warning());
        }
    }

    @Test
    void startWarmsUpThenGoesLiveOnTheLoopThread() throws Exception {
        Launcher.Launched l = get(launcher(Map.of("speed", "60")).launch(progress::add));
        try (Session s = l.session()) {
            List<Instant> ticks = new CopyOnWriteArrayList<>();
            s.loop().addListener(t -> ticks.add(t.at()));
            l.start().get(60, TimeUnit.SECONDS);
            assertTrue(ticks.size() >= Launcher.WARM_UP.toSeconds() / s.tick().toSeconds(),
                    "the warm-up's ticks reached the listener: " + ticks.size());
            assertFalse(ticks.get(0).isAfter(NOW.minus(Launcher.WARM_UP)), "from the start of the history");
        }
    }
}
