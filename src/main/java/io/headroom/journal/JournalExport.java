package io.headroom.journal;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Where an export of the journal goes (the journal view's CSV): the port the console writes it
 * through, so the UI never writes files itself. The file adapter, {@code journalfile.PrivateFiles},
 * makes it readable by its owner only: it is the team's audit trail.
 */
@FunctionalInterface
public interface JournalExport {

    /** Writes {@code content} to {@code file} whole, creating its folder. */
    void write(Path file, byte[] content) throws IOException;
}
