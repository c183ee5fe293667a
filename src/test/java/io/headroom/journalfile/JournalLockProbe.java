package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A second console, run in its own JVM by {@link JournalLockTest} (one for the whole class), taking
 * commands on its standard input, one a line: {@code open PATH} opens that journal, appends one record
 * and keeps it open ("OPENED seq"), or says it was refused ("REFUSED why"); {@code close} closes what it
 * holds ("CLOSED"). It ends when its standard input closes.
 */
public final class JournalLockProbe {
    private JournalLockProbe() {
    }

    public static void main(String[] args) throws IOException {
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        FileJournal held = null;
        for (String c = commands.readLine(); c != null; c = commands.readLine()) {
            if (c.startsWith("open ")) {
                try {
                    FileJournal j = FileJournal.open(Path.of(c.substring(5)));
                    JournalRecord r = j.append(JournalRecord.of(Instant.now(), JournalRecord.Kind.MODE_CHANGED, "probe",
                            "prod", "orders").detail("AUTO"));
                    if (held != null) {
                        held.close();
                    }
                    held = j;
                    System.out.println("OPENED " + r.seq());
                } catch (IOException e) {
                    System.out.println("REFUSED " + e.getMessage());
                }
            } else if (c.equals("close")) {
                if (held != null) {
                    held.close();
                    held = null;
                }
                System.out.println("CLOSED");
            } else {
                System.out.println("UNKNOWN " + c);
            }
            System.out.flush();
        }
        if (held != null) {
            held.close();
        }
    }
}
