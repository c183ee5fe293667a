package io.headroom.ui.journal;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.PrivateFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The journal view: records filtered by class, kind and time, and CSV export. Reading and
 * writing files happen on the injected executor, never on the FX thread.
 */
public final class JournalViewModel {
    public static final String ALL = "all";

    // Properties
    private final ObservableList<JournalRecord> rows = FXCollections.observableArrayList();
    private final ObservableList<String> classes = FXCollections.observableArrayList(ALL);
    private final ObjectProperty<String> classFilter = new SimpleObjectProperty<>(ALL);
    private final ObjectProperty<String> kindFilter = new SimpleObjectProperty<>(ALL);
    private final ObjectProperty<Duration> since = new SimpleObjectProperty<>();
    private final StringProperty status = new SimpleStringProperty("");

    private final Journal journal;
    private final Executor io;
    private final Executor fx;
    private final Clock clock;
    private List<JournalRecord> all = List.of();

    /**
     * @param io where the journal is read and CSV written
     * @param fx the FX thread's executor ({@code FxExecutor} in the console, {@code Runnable::run} in tests)
     */
    public JournalViewModel(Journal journal, Executor io, Executor fx, Clock clock) {
        this.journal = journal;
        this.io = io;
        this.fx = fx;
        this.clock = clock;
        classFilter.addListener(o -> filter());
        kindFilter.addListener(o -> filter());
        since.addListener(o -> reload()); // a longer span may need older segments
    }

    public ObservableList<JournalRecord> rows() { return rows; }
    public ObservableList<String> classes() { return classes; }
    public ObjectProperty<String> classFilterProperty() { return classFilter; }
    public ObjectProperty<String> kindFilterProperty() { return kindFilter; }
    /** Only records newer than now minus this; null for all. */
    public ObjectProperty<Duration> sinceProperty() { return since; }
    public StringProperty statusProperty() { return status; }

    // Commands

    /**
     * Re-reads the journal's history off the FX thread: every segment, or only those that may hold
     * records within the time filter (a long history is not read whole for the last hour).
     */
    public CompletableFuture<Void> reload() {
        Instant cutoff = since.get() == null ? null : clock.instant().minus(since.get());
        return CompletableFuture.supplyAsync(() -> journal.history(cutoff), io).thenAcceptAsync(r -> {
            all = r.records();
            List<String> names = new ArrayList<>();
            names.add(ALL);
            all.stream().map(JournalRecord::className).filter(n -> n != null).distinct().sorted()
                    .forEach(names::add);
            classes.setAll(names);
            filter();
            status.set(all.size() + " records" + (r.warnings().isEmpty() ? ""
                    : " · " + r.warnings().size() + " warning(s): " + String.join("; ", r.warnings())));
        }, fx);
    }

    void filter() {
        Instant cutoff = since.get() == null ? null : clock.instant().minus(since.get());
        String c = classFilter.get();
        String k = kindFilter.get();
        rows.setAll(all.stream()
                .filter(r -> c == null || ALL.equals(c) || c.equals(r.className()))
                .filter(r -> k == null || ALL.equals(k) || k.equals(r.kind().name()))
                .filter(r -> cutoff == null || !r.at().isBefore(cutoff))
                .toList());
    }

    /** Writes the filtered records to {@code file} as CSV, off the FX thread. */
    public CompletableFuture<Path> exportCsv(Path file) {
        List<JournalRecord> snapshot = List.copyOf(rows);
        return CompletableFuture.supplyAsync(() -> {
            try {
                writeCsv(file, snapshot);
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, io).whenCompleteAsync((p, e) -> status.set(e == null
                ? "exported " + snapshot.size() + " records to " + p : "export failed: " + e.getMessage()), fx);
    }

    /** Writes {@code records} to {@code file} as CSV, readable by its owner only (it holds the audit trail). */
    static void writeCsv(Path file, List<JournalRecord> records) throws IOException {
        PrivateFiles.write(file, toCsv(records).getBytes(StandardCharsets.UTF_8));
    }

    static String toCsv(List<JournalRecord> records) {
        StringBuilder b = new StringBuilder("seq,at,kind,user,context,class,before,after,reason,detail,proposal,until\r\n");
        for (JournalRecord r : records) {
            b.append(r.seq()).append(',').append(r.at()).append(',').append(r.kind()).append(',')
                    .append(cell(r.user())).append(',').append(cell(r.context())).append(',')
                    .append(cell(r.className())).append(',').append(r.before() == null ? "" : r.before()).append(',')
                    .append(r.after() == null ? "" : r.after()).append(',').append(cell(r.reason())).append(',')
                    .append(cell(r.detail())).append(',').append(cell(r.proposalId())).append(',')
                    .append(r.until() == null ? "" : r.until()).append("\r\n");
        }
        return b.toString();
    }

    /** What a spreadsheet may read as the start of a formula (OWASP's list, and a line feed). */
    private static final String FORMULA_START = "=+-@\t\r\n";

    /** RFC 4180 quoting; a leading = + - @ TAB CR LF is neutralised so a spreadsheet does not run it as a formula. */
    static String cell(String s) {
        if (s == null) {
            return "";
        }
        String v = !s.isEmpty() && FORMULA_START.indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
        if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
            return "\"" + v.replace("\"", "\"\"") + "\"";
        }
        return v;
    }
}
