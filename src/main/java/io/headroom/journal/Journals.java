package io.headroom.journal;

import java.io.IOException;
import java.nio.file.Path;

/** Opens the console's journal, and says what the console runs on when it cannot. */
public final class Journals {
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
            return new Opened(new MemoryJournal(), "Journal unavailable (" + e.getMessage()
                    + "): actions are kept in memory only.");
        }
    }
}
