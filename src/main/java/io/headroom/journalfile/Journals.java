package io.headroom.journalfile;

import io.headroom.journal.Journal;
import io.headroom.journal.MemoryJournal;
import java.io.IOException;
import java.nio.file.Path;
import java.util.logging.Logger;

/**
 * Opens the console's journal, and says what the console runs on when it cannot: the sandbox
 * may go on in memory (with a standing warning); a console connected to a real cluster never
 * does, it observes only, because a freeze, an override or a drain's clean-up it cannot write
 * down would be forgotten on the next start.
 */
public final class Journals {
    private static final Logger LOG = Logger.getLogger(Journals.class.getName());

    private Journals() {
    }

    /** What to do when the journal file cannot be opened. */
    public enum Fallback {
        /** The sandbox: keep the actions in memory, with a standing warning. */
        MEMORY,
        /** A real cluster: observe only, nothing may actuate without a journal. */
        OBSERVE_ONLY
    }

    /** The journal, and the standing warning to show when it is not the file asked for (null when it is). */
    public record Opened(Journal journal, String warning) {
    }

    public static Opened open(Path file, Fallback fallback) {
        try {
            return new Opened(FileJournal.open(file), null);
        } catch (IOException | RuntimeException e) {
            String why = io.headroom.ErrorWords.of(e); // "permission denied: /var/lib/headroom", never a class name
            String warning = fallback == Fallback.MEMORY
                    ? "Journal unavailable (" + why + "): actions are kept in memory only."
                    : "Journal unavailable (" + why + "): observe only, nothing is scaled until the console can"
                    + " journal again (restart it once the journal can be opened).";
            LOG.warning(warning);
            return new Opened(fallback == Fallback.MEMORY ? new MemoryJournal()
                    : new UnavailableJournal("the journal " + file + " could not be opened (" + why
                    + "): observe only, nothing is scaled"), warning);
        }
    }
}
