package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
/**
 * One journal line as read back: where it was, its bytes exactly as stored (a snapshot copies
 * them, so each keeps its own checksum), and the record they hold.
 */
record Line(JournalRecord record, byte[] raw) {
}
