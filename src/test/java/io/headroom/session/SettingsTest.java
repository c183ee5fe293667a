package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the console remembers across restarts, and nothing it must not. */
class SettingsTest {

    @Test
    void aMissingFileIsTheSandboxAndAChoiceSurvivesARestart(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("headroom/settings.json");
        assertNull(Settings.load(file).workloadsFile());
        Path workloads = dir.resolve("workloads.yaml");
        new Settings(workloads).save(file);
        assertEquals(workloads.toAbsolutePath(), Settings.load(file).workloadsFile());
        Settings.sandbox().save(file);
        assertNull(Settings.load(file).workloadsFile());
        try (var siblings = Files.list(file.getParent())) {
            assertTrue(siblings.noneMatch(p -> p.toString().endsWith(".tmp")), "written atomically");
        }
    }

    @Test
    void anUnreadableFileSaysWhich(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("settings.json");
        Files.writeString(file, "{not json");
        IOException e = assertThrows(IOException.class, () -> Settings.load(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertFalse(e.getMessage().isBlank());
    }

    @Test
    void theSettingsFileIsOnlyTheUsers(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("config/headroom/settings.json");
        new Settings(dir.resolve("workloads.yaml")).save(file);
        assertEquals(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"),
                Files.getPosixFilePermissions(file));
        assertEquals(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"),
                Files.getPosixFilePermissions(file.getParent()));
    }

    @Test
    void aMissingFileIsAFirstRunWhoseAnswerIsRemembered(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("headroom/settings.json");
        assertFalse(Settings.load(file).welcomed(), "no settings: the welcome shows");
        Settings.load(file).welcomeAnswered().save(file);
        assertTrue(Settings.load(file).welcomed(), "answered once, remembered");
        assertNull(Settings.load(file).workloadsFile());
        Files.writeString(file, "{\"workloadsFile\": null}\n");
        assertTrue(Settings.load(file).welcomed(), "settings saved before the welcome existed: not a first run");
    }

    @Test
    void theThemeSurvivesARestartAndAChoiceOfFileOrAnAnswerKeepsIt(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("headroom/settings.json");
        assertFalse(Settings.load(file).lightTheme(), "dark by default");
        Settings.sandbox().withLightTheme(true).save(file);
        assertTrue(Settings.load(file).lightTheme());
        Settings.load(file).withWorkloadsFile(dir.resolve("workloads.yaml")).save(file);
        assertTrue(Settings.load(file).lightTheme(), "choosing a file keeps the theme");
        assertTrue(Settings.firstRun().withLightTheme(true).welcomeAnswered().lightTheme(), "so does the welcome");
        Files.writeString(file, "{\"workloadsFile\": null, \"welcomed\": true}\n"); // before the theme was kept
        assertFalse(Settings.load(file).lightTheme());
    }
}
