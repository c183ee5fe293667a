package io.headroom;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * Which build this is: version, commit and build time, written into the jar by Maven. An incident
 * report names the build that acted (the CLI's {@code --version}, the window title, the journal).
 */
public record BuildInfo(String version, String commit, boolean dirty, String time) {
    private static final BuildInfo CURRENT = load();

    /**
     * Where the example files are: the package's share directory (its launcher sets {@code headroom.examples}),
     * else {@code examples} of a checkout. The command line's help names it the same way.
     */
    public static String examples() {
        return System.getProperty("headroom.examples", "examples");
    }

    /** The running build; "unknown" fields when the classes were not built by Maven. */
    public static BuildInfo current() {
        return CURRENT;
    }

    static BuildInfo load() {
        Properties p = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("build.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // An unreadable resource is an unknown build, not a failure to start.
        }
        return of(p);
    }

    static BuildInfo of(Properties p) {
        return new BuildInfo(value(p, "version"), value(p, "commit"), "true".equals(p.getProperty("dirty")),
                value(p, "time"));
    }

    private static String value(Properties p, String key) {
        String v = p.getProperty(key, "");
        // An unfiltered placeholder (${...}) means Maven did not know the value.
        return v.isBlank() || v.startsWith("${") ? "unknown" : v.strip();
    }

    /** {@code 0.1.0-SNAPSHOT}, or {@code 0.1.0-SNAPSHOT+a1b2c3d} with the commit when known. */
    public String shortVersion() {
        return "unknown".equals(commit) ? version : version + "+" + commit + (dirty ? ".dirty" : "");
    }

    /** {@code headroom 0.1.0-SNAPSHOT (commit a1b2c3d, built 2026-12-01T18:00:00Z)}. */
    public String line() {
        return "headroom " + version + " (commit " + commit + (dirty ? ", with uncommitted changes" : "")
                + ", built " + time + ")";
    }
}
