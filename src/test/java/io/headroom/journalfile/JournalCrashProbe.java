package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A console that dies while sealing a journal segment, run in its own JVM by
 * {@link JournalRotationTest}: appends records (segments of {@code 1500} bytes) and halts the JVM
 * (no shutdown hooks, no clean-up: a crash) when sealing reaches the step named in {@code args[1]}.
 * Prints "APPENDED seq" after each record it was told is durable.
 */
public final class JournalCrashProbe {
    private JournalCrashProbe() {
    }

    /** The i-th record of the probe's story: freezes come and go, modes change, proposals are made. */
    static JournalRecord record(int i, Instant at) {
        String cls = "class-" + (i % 3);
        return switch (i % 5) {
            case 0 -> JournalRecord.of(at, Kind.FROZEN, "probe", "prod", cls).reason("incident " + i)
                    .until(at.plusSeconds(3600));
            case 1 -> JournalRecord.of(at, Kind.UNFROZEN, "probe", "prod", cls).reason("over " + i);
            case 2 -> JournalRecord.of(at, Kind.MODE_CHANGED, "probe", "prod", cls).detail(i % 2 == 0 ? "AUTO" : "OBSERVE");
            case 3 -> JournalRecord.of(at, Kind.PROPOSED, "probe", "prod", cls).change(2, 2 + i % 4).proposal(cls + "-" + i)
                    .until(at.plusSeconds(300)).detail("wants more");
            default -> JournalRecord.of(at, Kind.APPLIED, "probe", "prod", cls).change(2, 3).reason("auto");
        };
    }

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        String crashAt = args[1];
        FileJournal.Options o = FileJournal.Options.builder().maxSegmentBytes(1500).steps(step -> {
            if (step.equals(crashAt)) {
                System.out.flush();
                Runtime.getRuntime().halt(7);
            }
        }).build();
        try (FileJournal j = FileJournal.open(file, o)) {
            for (int i = 1; i <= 400; i++) {
                JournalRecord r = j.append(record(i, Instant.now()));
                System.out.println("APPENDED " + r.seq());
                System.out.flush();
            }
        }
    }
}
