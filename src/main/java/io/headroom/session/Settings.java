package io.headroom.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the console remembers across restarts: which workloads file to connect to (none: the
 * sandbox). It holds paths only, never credentials; Prometheus and cluster secrets stay where the
 * workloads file and the kubeconfig point.
 */
public record Settings(Path workloadsFile) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static Settings sandbox() {
        return new Settings(null);
    }

    /** {@code $XDG_CONFIG_HOME/headroom/settings.json}, or {@code ~/.config/headroom/settings.json}. */
    public static Path defaultFile() {
        String config = System.getenv("XDG_CONFIG_HOME");
        Path base = config != null && !config.isBlank() ? Path.of(config)
                : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("headroom").resolve("settings.json");
    }

    /** Reads the settings; a missing file is the sandbox, an unreadable one an error that says why. */
    public static Settings load(Path file) throws IOException {
        if (!Files.exists(file)) {
            return sandbox();
        }
        JsonNode n;
        try {
            n = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(file + " is not valid settings JSON: " + e.getMessage(), e);
        }
        JsonNode wf = n.get("workloadsFile");
        return new Settings(wf == null || wf.isNull() || wf.asText().isBlank() ? null : Path.of(wf.asText()));
    }

    /**
     * Writes atomically (temp file, then move), so a crash never leaves half a settings file; the
     * file is the user's alone ({@code 0600}, in a {@code 0700} directory when Headroom creates it).
     */
    public void save(Path file) throws IOException {
        io.headroom.journal.PrivateFiles.createParent(file);
        ObjectNode n = JSON.createObjectNode();
        if (workloadsFile == null) {
            n.putNull("workloadsFile");
        } else {
            n.put("workloadsFile", workloadsFile.toAbsolutePath().toString());
        }
        io.headroom.journal.PrivateFiles.writeAtomically(file, JSON.writerWithDefaultPrettyPrinter()
                .writeValueAsString(n).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
