package io.headroom.supervise;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A journal on a disk that fills up: while {@link #full} is set every append fails (and keeps
 * nothing), as a full disk does; {@link #onAppend} sees each record just before it is kept.
 */
final class FlakyJournal implements Journal {
    private final MemoryJournal kept = new MemoryJournal();
    volatile boolean full;
    volatile Consumer<JournalRecord> onAppend = r -> { };
    private volatile String failure;

    @Override
    public JournalRecord append(JournalRecord record) {
        if (full) {
            failure = "could not write the journal: No space left on device";
            throw new JournalException(failure);
        }
        onAppend.accept(record);
        failure = null;
        return kept.append(record);
    }

    @Override
    public Replay replay() {
        return kept.replay();
    }

    @Override
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }
}
