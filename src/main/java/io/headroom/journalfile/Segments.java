package io.headroom.journalfile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Sealed segments beside the active journal file: {@code journal.jsonl.<first>-<last>.<sealed at ms>},
 * numbers of twelve digits, so they sort in order and say which records they hold.
 */
final class Segments {
    /** One sealed segment: its file, the records it holds and when it was sealed. */
    record Sealed(Path file, long first, long last, long sealedAtMillis) {
    }

    private Segments() {
    }

    static String name(String base, long first, long last, long sealedAtMillis) {
        return String.format("%s.%012d-%012d.%d", base, first, last, sealedAtMillis);
    }

    /** The sealed segments of the journal {@code base} in {@code dir}, oldest first. */
    static List<Sealed> list(Path dir, String base) throws IOException {
        Pattern p = Pattern.compile(Pattern.quote(base) + "\\.(\\d{12})-(\\d{12})\\.(\\d{1,19})");
        List<Sealed> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Matcher m = p.matcher(f.getFileName().toString());
                if (m.matches()) {
                    out.add(new Sealed(f, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                            Long.parseLong(m.group(3))));
                }
            }
        }
        out.sort(Comparator.comparingLong(Sealed::last).thenComparingLong(Sealed::sealedAtMillis));
        return out;
    }
}
