package io.headroom.journal;

import java.util.List;

/**
 * The console's one port to its journal: append-only, durable before {@link #append} returns,
 * replayed on start. {@code journalfile.FileJournal} is the real one; {@link MemoryJournal} the fake.
 */
public interface Journal extends AutoCloseable {

    /** Appends and makes it durable; returns the record with its sequence number. */
    JournalRecord append(JournalRecord record);

    /** Everything readable, in order, with what could not be read. */
    Replay replay();

    /** Every record kept (all segments), for the journal view and its export. */
    default Replay history() {
        return replay();
    }

    /** The records kept from {@code since} on (all when null); a journal in segments skips the older ones. */
    default Replay history(java.time.Instant since) {
        Replay all = history();
        return since == null ? all : new Replay(all.records().stream().filter(r -> !r.at().isBefore(since)).toList(),
                all.warnings());
    }

    /**
     * The records appended after record {@code seq}, in order, when this journal still has them at
     * hand (a live view's next page without reading the files again); empty when it does not, and the
     * caller reads {@link #history(java.time.Instant)} instead. A read: nothing changes.
     */
    default java.util.Optional<List<JournalRecord>> appendedAfter(long seq) {
        return java.util.Optional.empty();
    }

    /** Why the journal cannot be written right now (the last append failed, or it never opened); empty when it can. */
    default java.util.Optional<String> failure() {
        return java.util.Optional.empty();
    }

    /** The outcome of reading the journal back. */
    record Replay(List<JournalRecord> records, List<String> warnings) {
        public Replay {
            records = List.copyOf(records);
            warnings = List.copyOf(warnings);
        }
    }

    @Override
    default void close() {
    }
}
