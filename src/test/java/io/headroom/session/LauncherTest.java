package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journalfile.FileJournal;
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
 * Start-up below the UI: what the console opens for given options and settings; the sandbox when
 * nothing is configured (with a reason when the settings failed), and never in place of a workloads
 * file without the operator's choice. Runs the launcher's work on the test's thread.
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

    static Launcher.Launched get(java.util.concurrent.CompletableFuture<? extends Launcher.Opening> f) throws Exception {
        Launcher.Opening o = f.get(10, TimeUnit.SECONDS);
        assertTrue(o instanceof Launcher.Launched, "opened: " + o);
        return (Launcher.Launched) o;
    }

    static <T extends Launcher.Opening> T asked(java.util.concurrent.CompletableFuture<Launcher.Opening> f,
                                                Class<T> kind) throws Exception {
        Launcher.Opening o = f.get(10, TimeUnit.SECONDS);
        assertTrue(kind.isInstance(o), "nothing opened, the operator is asked: " + o);
        return kind.cast(o);
    }

    @Test
    void withNothingConfiguredTheSandboxOpensWithoutWarningAndHistoryBeforeNow() throws Exception {
        Launcher.Launched l = get(launcher(Map.of("speed", "10")).launchOrAsk(progress::add));
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

    /** Issue 30: {@code --sandbox=placement} / {@code admission} open those sandboxes, whatever the settings name. */
    @Test
    void theSandboxOptionOpensThePlacementOrAdmissionSandboxOverTheSettingsFile() throws Exception {
        Path workloads = Files.writeString(dir.resolve("w.yaml"), "classes: 12\n");
        new Settings(workloads).save(dir.resolve("settings.json"));
        Launcher placement = launcher(Map.of("sandbox", "placement"));
        Launcher.Launched l = get(placement.launchOrAsk(progress::add));
        try (Session s = l.session()) {
            assertTrue(s.isSandbox(), "not the settings' workloads file");
            List<String> names = s.loop().classes().stream().map(c -> c.name()).toList();
            assertTrue(names.contains("render"), names.toString());
            assertTrue(s.loop().classes().stream().filter(c -> c.name().equals("render")).findFirst().orElseThrow()
                    .pooled(), "render is placed across its pools");
            assertFalse(placement.welcomes(l), "asked for: no welcome over it");
            assertEquals(List.of(), progress, "nothing to connect to");
        }
        Launcher.Launched a = get(launcher(Map.of("sandbox", "admission")).launchOrAsk(progress::add));
        try (Session s = a.session()) {
            assertTrue(s.loop().classes().stream().anyMatch(c -> c.name().equals("intake-api")),
                    s.loop().classes().toString());
            assertFalse(s.loop().classes().stream().anyMatch(c -> c.name().equals("render")));
        }
        Launcher.Launched p = get(launcher(Map.of("sandbox", "plain")).launchOrAsk(progress::add));
        try (Session s = p.session()) {
            assertTrue(s.isSandbox());
            assertFalse(s.loop().classes().stream().anyMatch(c -> c.name().equals("render")
                    || c.name().equals("intake-api")), s.loop().classes().toString());
        }
    }

    @Test
    void unreadableSettingsOpenTheSandboxSayingWhy() throws Exception {
        Files.writeString(dir.resolve("settings.json"), "{ not json");
        Launcher.Launched l = get(launcher(Map.of()).launchOrAsk(progress::add));
        try (Session s = l.session()) {
            assertTrue(s.isSandbox());
            assertTrue(l.warning().startsWith("Settings unreadable ("), l.warning());
            assertTrue(l.warning().endsWith("opened the sandbox."), l.warning());
            assertNull(l.settings().workloadsFile());
        }
    }

    @Test
    void aRejectedWorkloadsFileOpensNothingAndTheSandboxOnlyWhenChosenNamingTheProblem() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, "classes: 12\n");
        Launcher launcher = launcher(Map.of("config", workloads.toString()));
        Launcher.Rejected r = asked(launcher.launchOrAsk(progress::add), Launcher.Rejected.class);
        assertEquals(List.of("Connecting to Prometheus and the clusters named in " + workloads + " …"), progress);
        Launcher.Launched l = get(launcher.sandboxInstead(r));
        try (Session s = l.session()) {
            assertTrue(s.isSandbox());
            assertTrue(l.warning().startsWith("Workloads file rejected: "), l.warning());
            assertTrue(l.warning().endsWith(" — opened the sandbox."), l.warning());
        }
    }

    @Test
    void aStartCleansTheTempFilesASaveKilledHalfWayLeftBesideTheWorkloadsFile() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, "classes: 12\n");
        Path killed = Files.writeString(dir.resolve(".workloads.yaml.headroom-42.tmp"), "half a save");
        Files.setLastModifiedTime(killed, java.nio.file.attribute.FileTime.from(NOW.minusSeconds(3600)));
        Path underWay = Files.writeString(dir.resolve(".workloads.yaml.headroom-43.tmp"), "another console's save");
        Files.setLastModifiedTime(underWay, java.nio.file.attribute.FileTime.from(NOW.minusSeconds(1)));
        asked(launcher(Map.of("config", workloads.toString())).launchOrAsk(progress::add), Launcher.Rejected.class);
        assertFalse(Files.exists(killed), "an hour-old temp file of a save is gone");
        assertTrue(Files.exists(underWay), "a second-old one may be a save under way");
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

    /** Issue 26 item 5: a context that cannot be opened opens nothing; the operator is asked, told which and why. */
    @Test
    void aConnectionThatFailsOpensNothingNamesTheCauseAndLeavesTheClusterJournalUnlocked() throws Exception {
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
        Launcher.NotConnected n = asked(launcher.launchOrAsk(progress::add), Launcher.NotConnected.class);
        assertEquals(workloads, n.file());
        assertEquals("context nowhere (no kubeconfig file) — failed: no context \"nowhere\": the kubeconfig list names no"
                + " kubeconfig file",
                n.failure().getMessage());
        assertEquals(workloads, n.fileToEdit(), "no kubeconfig file to blame: the workloads file");
        // The connected attempt let go of its journal: another console (or this one, retried) can open it.
        // (FileJournal.open refuses a journal whose lock another holder keeps.)
        FileJournal.open(clusterJournal).close();

        Launcher.Launched l = get(launcher.sandboxInstead(n));
        try (Session s = l.session()) {
            assertTrue(s.isSandbox(), "the sandbox, because the operator chose it");
            assertEquals("Could not open " + workloads + ": context nowhere (no kubeconfig file) — failed: no context"
                    + " \"nowhere\": the kubeconfig list names no kubeconfig file — opened the sandbox.", l.warning());
        }
    }

    /**
     * Issue 26 item 5: an explicit {@code --config} whose kubeconfig is not YAML opens nothing, not even the
     * sandbox; what comes back names the kubeconfig file, the line and the cause in words, without the
     * file's own text (it may hold a token); trying again after the file is mended connects.
     */
    @Test
    void anUnreadableKubeconfigOpensNothingAndNamesTheFileTheLineAndTheCause() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: "http://127.0.0.1:9", timeoutSeconds: 1}
                classes:
                  - {name: payments, context: prod, namespace: payments, target: {kind: Deployment, name: worker},
                     signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}}
                """);
        Path kubeconfig = dir.resolve("config");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                users:
                - name: u-prod
                  user: {token: "s3cret-t0ken
                """);
        Launcher launcher = new Launcher(Launcher.Options.of(Map.of("settings", dir.resolve("settings.json").toString(),
                "journal", dir.resolve("journal.jsonl").toString(), "config", workloads.toString())), Runnable::run,
                Clock.fixed(NOW, ZoneOffset.UTC), () -> Contexts.load(List.of(kubeconfig)), () -> List.of(kubeconfig));
        Launcher.NotConnected n = asked(launcher.launchOrAsk(progress::add), Launcher.NotConnected.class);
        assertEquals("kubeconfig", n.failure().what());
        assertEquals(kubeconfig + ":5", n.failure().where());
        assertEquals("malformed YAML: while scanning a quoted scalar: found unexpected end of stream", n.failure().why());
        assertEquals(kubeconfig, n.fileToEdit(), "the kubeconfig is the file to edit");
        assertEquals("kubeconfig " + kubeconfig + ":5 — failed: " + n.failure().why(), n.failure().endpoint().line());
        assertFalse(n.failure().getMessage().contains("s3cret"), "the file's text is not repeated");

        Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\n");
        Launcher.NotConnected again = asked(launcher.retry(n, progress::add), Launcher.NotConnected.class);
        assertEquals("context prod", again.failure().what(), "read now; the context it names is not there");
    }

    @Test
    void relaunchingSavesTheSettingsClosesTheOldSessionAndOpensTheNewChoice() throws Exception {
        Launcher launcher = launcher(Map.of());
        Launcher.Launched first = get(launcher.launchOrAsk(progress::add));
        Session old = first.session();
        Path workloads = dir.resolve("missing-workloads.yaml");
        Launcher.Rejected r = asked(launcher.relaunchOrAsk(old, new Settings(workloads), progress::add),
                Launcher.Rejected.class);
        assertEquals(workloads.toAbsolutePath(), Settings.load(dir.resolve("settings.json")).workloadsFile(),
                "saved for the next start");
        assertEquals(workloads, r.settings().workloadsFile());
        Launcher.Launched second = get(launcher.sandboxInstead(r)); // the file does not exist: the operator chose
        try (Session s = second.session()) {
            assertTrue(s.isSandbox());
            assertTrue(second.warning().contains("opened the sandbox"), second.warning());
            // The old session let go of the journal file, so the new one has it, not a memory fallback.
            assertTrue(s.journal() instanceof FileJournal, "the old session's journal lock was released");
        }
    }

    /** Each sandbox kind journals to its own file, so one never replays another's pins, proposals or freezes. */
    @Test
    void eachSandboxKindHasItsOwnJournalFileAndThePlainOneKeepsItsOld() {
        Path home = dir.resolve("state");
        assertEquals(home.resolve("sandbox-journal.jsonl"), Launcher.sandboxJournal(Launcher.SandboxKind.PLAIN, home));
        java.util.Set<Path> files = new java.util.HashSet<>();
        for (Launcher.SandboxKind k : Launcher.SandboxKind.values()) {
            Path f = Launcher.sandboxJournal(k, home);
            assertEquals(home, f.getParent());
            String named = k == Launcher.SandboxKind.PLAIN ? "sandbox" : k.word();
            assertTrue(f.getFileName().toString().contains(named), f.toString());
            files.add(f);
        }
        assertEquals(Launcher.SandboxKind.values().length, files.size(), "no two kinds share a file: " + files);
    }

    @Test
    void theSandboxJournalFallsBackToMemoryWithAStandingWarning() throws Exception {
        Path notADirectory = dir.resolve("file");
        Files.writeString(notADirectory, "x");
        Launcher.Launched l = get(launcher(Map.of("journal", notADirectory.resolve("journal.jsonl").toString()))
                .launchOrAsk(progress::add));
        try (Session s = l.session()) {
            assertTrue(s.journal() instanceof MemoryJournal);
            assertTrue(l.warning().startsWith("Journal unavailable ("), l.warning());
            assertTrue(l.warning().endsWith("actions are kept in memory only."), l.warning());
        }
    }

    @Test
    void startWarmsUpThenGoesLiveOnTheLoopThread() throws Exception {
        Launcher.Launched l = get(launcher(Map.of("speed", "60")).launchOrAsk(progress::add));
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
