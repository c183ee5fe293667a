package io.headroom.journal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A second console, run in its own JVM by {@link JournalLockTest}: opens the journal, appends one
 * record and says so ("OPENED seq"), or says it was refused ("REFUSED why"). With "hold" it keeps
 * the journal open until its standard input closes.
 */
public final class JournalLockProbe {
    private JournalLockProbe() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        boolean hold = args.length > 1 && args[1].equals("hold");
        try (FileJournal j = FileJournal.open(file)) {
            JournalRecord r = j.append(JournalRecord.of(Instant.now(), JournalRecord.Kind.MODE_CHANGED, "probe",
                    "prod", "orders").detail("AUTO"));
            System.out.println("OPENED " + r.seq());
            System.out.flush();
            if (hold) {
                while (System.in.read() >= 0) {
                    // until the parent closes our stdin
                }
            }
        } catch (IOException e) {
            System.out.println("REFUSED " + e.getMessage());
        }
        System.out.flush();
    }
}
