package io.headroom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cli.Cli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BuildInfoTest {

    @Test
    void theBuildNamesItsVersionCommitAndTime() {
        BuildInfo b = BuildInfo.current();
        assertNotEquals("unknown", b.version(), "Maven filters the version into the jar's build.properties");
        assertTrue(b.time().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ") || b.time().equals("unknown"), b.time());
        assertTrue(b.line().startsWith("headroom " + b.version() + " (commit "), b.line());
    }

    @Test
    void placeholdersMavenCouldNotFillReadAsUnknown() {
        Properties p = new Properties();
        p.setProperty("version", "0.3.0");
        p.setProperty("commit", "${git.commit.id.abbrev}");
        p.setProperty("dirty", "${git.dirty}");
        BuildInfo b = BuildInfo.of(p);
        assertEquals("unknown", b.commit());
        assertEquals("unknown", b.time());
        assertEquals("0.3.0", b.shortVersion(), "no commit, no suffix");

        p.setProperty("commit", "a1b2c3d");
        p.setProperty("dirty", "true");
        assertEquals("0.3.0+a1b2c3d.dirty", BuildInfo.of(p).shortVersion());
        assertTrue(BuildInfo.of(p).line().contains("with uncommitted changes"));
    }

    @Test
    void theCommandLinePrintsTheVersion() {
        for (String flag : new String[] {"--version", "version", "-V"}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int code = Cli.run(new String[] {flag}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(0, code, flag);
            assertEquals(BuildInfo.current().line(), out.toString(StandardCharsets.UTF_8).strip(), flag);
        }
    }
}
