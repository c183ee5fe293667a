package io.headroom.session;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the console remembers across restarts: which workloads file to connect to (none: the
 * sandbox), whether the first-run welcome was answered, and the theme. It holds paths only, never credentials;
 * Prometheus and cluster secrets stay where the workloads file and the kubeconfig point.
 *
 * @param welcomed   the welcome was answered (or settings were saved before it existed): not shown again
 * @param lightTheme the operator last chose the light theme (dark is the default)
 */
public record Settings(Path workloadsFile, boolean welcomed, boolean lightTheme) {
    /**
     * Jackson, made when a file is read or written (on the launcher's thread), not when the class is
     * first used: the console makes {@code Settings} values on the FX thread before its first frame,
     * and an ObjectMapper there cost hundreds of classes and a tenth of that thread's start-up time.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = JsonMapper.builder().configureForJackson2().build();
    }

    /** Settings that were saved: the welcome is behind them. */
    public Settings(Path workloadsFile) {
        this(workloadsFile, true);
    }

    /** In the dark theme. */
    public Settings(Path workloadsFile, boolean welcomed) {
        this(workloadsFile, welcomed, false);
    }

    /** The same settings in the light theme, or the dark. */
    public Settings withLightTheme(boolean light) {
        return new Settings(workloadsFile, welcomed, light);
    }

    /** A choice of the Settings dialog or the welcome (null: the sandbox); the theme is kept. */
    public Settings withWorkloadsFile(Path file) {
        return new Settings(file, true, lightTheme);
    }

    public static Settings sandbox() {
        return new Settings(null);
    }

    /** No settings file yet: a first run, which the console greets with the welcome over the sandbox. */
    public static Settings firstRun() {
        return new Settings(null, false);
    }

    /** The same settings, the welcome answered. */
    public Settings welcomeAnswered() {
        return new Settings(workloadsFile, true, lightTheme);
    }

    /** {@code $XDG_CONFIG_HOME/headroom/settings.json}, or {@code ~/.config/headroom/settings.json}. */
    public static Path defaultFile() {
        String config = System.getenv("XDG_CONFIG_HOME");
        Path base = config != null && !config.isBlank() ? Path.of(config)
                : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("headroom").resolve("settings.json");
    }

    /**
     * Reads the settings; a missing file is a first run (the sandbox, with the welcome), an unreadable
     * one an error that says why. A file without {@code welcomed} predates the welcome: answered.
     */
    public static Settings load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return firstRun();
        }
        JsonNode n;
        try {
            n = Json.MAPPER.readTree(file.toFile());
        } catch (tools.jackson.core.JacksonException e) {
            throw new IOException(file + " is not valid settings JSON: " + e.getMessage(), e);
        }
        JsonNode wf = n.get("workloadsFile");
        JsonNode welcomed = n.get("welcomed");
        JsonNode theme = n.get("theme");
        return new Settings(wf == null || wf.isNull() || wf.asString("").isBlank() ? null : Path.of(wf.asString("")),
                welcomed == null || !welcomed.isBoolean() || welcomed.asBoolean(false),
                theme != null && "light".equals(theme.asString("")));
    }

    /**
     * Writes atomically (temp file, then move), so a crash never leaves half a settings file; the
     * file is the user's alone ({@code 0600}, in a {@code 0700} directory when Headroom creates it).
     */
    public void save(Path file) throws IOException {
        io.headroom.journalfile.PrivateFiles.createParent(file);
        ObjectNode n = Json.MAPPER.createObjectNode();
        if (workloadsFile == null) {
            n.putNull("workloadsFile");
        } else {
            n.put("workloadsFile", workloadsFile.toAbsolutePath().toString());
        }
        n.put("welcomed", welcomed);
        n.put("theme", lightTheme ? "light" : "dark");
        io.headroom.journalfile.PrivateFiles.writeAtomically(file, Json.MAPPER.writerWithDefaultPrettyPrinter()
                .writeValueAsString(n).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
