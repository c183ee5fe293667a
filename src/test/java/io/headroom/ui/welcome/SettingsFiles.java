package io.headroom.ui.welcome;

import io.headroom.session.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Settings files for UI tests that start the real application and are not about the first run. */
public final class SettingsFiles {
    private SettingsFiles() {
    }

    /** A saved settings file (the sandbox, the welcome answered) in a new temporary directory. */
    public static Path answered() throws IOException {
        Path file = Files.createTempDirectory("headroom-settings").resolve("settings.json");
        Settings.sandbox().save(file);
        return file;
    }

    /** The same in {@code dir}. */
    public static Path answered(Path dir) throws IOException {
        Path file = dir.resolve("settings.json");
        Settings.sandbox().save(file);
        return file;
    }
}
