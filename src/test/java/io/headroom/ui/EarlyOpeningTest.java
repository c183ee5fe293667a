package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.session.Launcher;
import io.headroom.session.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The session that begins opening before JavaFX starts, and how the application takes it over. */
class EarlyOpeningTest {
    @TempDir
    Path dir;

    @Test
    void optionsAreReadByNameAsJavaFxReadsThem() {
        assertEquals(Map.of("speed", "10", "config", "a=b.yaml"),
                EarlyOpening.named(new String[] {"--speed=10", "--config=a=b.yaml", "positional", "-x=1", "--=y"}));
    }

    @Test
    void theApplicationTakesTheOpeningBegunForItsOptionsOnce() throws Exception {
        Path settings = dir.resolve("settings.json");
        Files.writeString(settings, "{\"workloadsFile\": null, \"welcomed\": true}\n");
        Path discarded = dir.resolve("discarded.jsonl");
        EarlyOpening.begin(new String[] {"--settings=" + settings, "--journal=" + discarded});
        assertNull(EarlyOpening.take(Map.of("speed", "10")), "other options: the application opens its own");
        // The opening not taken lets go of its session, and so of the journal's lock.
        io.headroom.prometheus.it.Await.until("the discarded session's journal to be free", java.time.Duration.ofSeconds(60),
                () -> opens(discarded), free -> free);

        String[] options = {"--settings=" + settings, "--journal=" + dir.resolve("journal.jsonl")};
        EarlyOpening.begin(options);
        EarlyOpening early = EarlyOpening.take(EarlyOpening.named(options));
        assertNotNull(early);
        assertNull(EarlyOpening.take(EarlyOpening.named(options)), "taken once");

        List<String> said = new ArrayList<>();
        Launcher.Opening opening = early.attach(said::add).get(30, TimeUnit.SECONDS);
        Launcher.Launched launched = assertInstanceOf(Launcher.Launched.class, opening);
        try (Session s = launched.session()) {
            assertTrue(s.isSandbox(), "the settings name no workloads file: the sandbox");
            assertNull(launched.warning(), "no fallback (a journal still locked would be one)");
            assertEquals(settings, early.launcher().options().settingsFile());
        }
    }

    private static boolean opens(Path journal) {
        try {
            io.headroom.journalfile.FileJournal.open(journal).close();
            return true;
        } catch (java.io.IOException | RuntimeException e) {
            return false;
        }
    }

    @Test
    void badOptionsLeaveNothingBegun() {
        EarlyOpening.begin(new String[] {"--speed=7"});
        assertNull(EarlyOpening.take(Map.of("speed", "7")), "the application parses them again and says what is wrong");
    }
}
