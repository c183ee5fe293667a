package io.headroom.session;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A save of a what-if edit into the workloads file, kept so it can be taken back (issue 28): which class,
 * the file as the console names it and the real file written, the text before and after, what changed,
 * who saved it and when. It outlives the session that saved it: the console reloads the file after a
 * save, and the next session offers the revert ({@link Launcher#reload}).
 */
public record SavedFile(String className, Path file, Path written, String before, String after, List<String> changes,
                        String by, Instant at) {
    public SavedFile {
        changes = List.copyOf(changes);
    }

    /** The file's name as the operator reads it ({@code workloads.yaml}). */
    public String fileName() {
        return String.valueOf(file.getFileName());
    }
}
