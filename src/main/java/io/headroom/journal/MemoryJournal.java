package io.headroom.journal;

import java.util.ArrayList;
import java.util.List;

/** An in-memory journal for tests and for the sandbox when no journal file is wanted. */
public final class MemoryJournal implements Journal {
    private final List<JournalRecord> records = new ArrayList<>();

    @Override
    public synchronized JournalRecord append(JournalRecord record) {
        JournalRecord r = FreeText.clean(record).withSeq(records.size() + 1L);
        records.add(r);
        return r;
    }

    @Override
    public synchronized java.util.Optional<List<JournalRecord>> appendedAfter(long seq) {
        int from = (int) Math.max(0, Math.min(seq, records.size()));
        return java.util.Optional.of(List.copyOf(records.subList(from, records.size())));
    }

    @Override
    public synchronized Replay replay() {
        return new Replay(records, List.of());
    }
}
