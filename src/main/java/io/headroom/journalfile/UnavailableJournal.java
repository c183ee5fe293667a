package io.headroom.journalfile;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalException;
import java.util.List;
import java.util.Optional;

/**
 * The journal of a console that could not open its file while connected to a cluster: every
 * append fails with the reason, so nothing is actuated, and the reason is shown from the start.
 */
final class UnavailableJournal implements Journal {
    private final String reason;

    UnavailableJournal(String reason) {
        this.reason = reason;
    }

    @Override
    public JournalRecord append(JournalRecord record) {
        throw new JournalException(reason);
    }

    @Override
    public Replay replay() {
        return new Replay(List.of(), List.of(reason));
    }

    @Override
    public Optional<String> failure() {
        return Optional.of(reason);
    }
}
