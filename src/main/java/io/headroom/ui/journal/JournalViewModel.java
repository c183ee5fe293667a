package io.headroom.ui.journal;

import io.headroom.ErrorWords;
import io.headroom.cluster.TeamEvents;
import io.headroom.cluster.TimelineRead;
import io.headroom.cluster.WorkloadRef;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalExport;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.Redactor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.ObservableSet;
import javafx.collections.SetChangeListener;

/**
 * The journal window: this console's records and, beside them, the Headroom events other consoles
 * (and this one) posted on the cluster, merged by time, newest first. Live: {@link #refresh()} (any
 * thread) reads only what was appended since ({@link Journal#appendedAfter}) and puts it on top.
 * Reading, merging and filtering run on the injected {@code io} executor, never on the FX thread; a
 * filter's answer that a newer filter overtook is dropped. Every property is the FX thread's.
 */
public final class JournalViewModel {
    public static final String ALL = "all";

    /** Told before and after the rows change, so a view can keep the operator's selection and scroll. */
    public interface RowsListener {
        void beforeChange();

        void afterChange();
    }

    // Properties
    private final ObservableList<JournalRow> rows = FXCollections.observableArrayList();
    private final ObservableList<String> classes = FXCollections.observableArrayList(ALL);
    private final ObjectProperty<String> classFilter = new SimpleObjectProperty<>(ALL);
    private final ObservableSet<JournalRecord.Kind> kinds = FXCollections.observableSet();
    private final ObjectProperty<JournalFilter.Preset> preset = new SimpleObjectProperty<>(JournalFilter.Preset.ALL);
    private final StringProperty search = new SimpleStringProperty("");
    private final ObjectProperty<Duration> since = new SimpleObjectProperty<>();
    private final BooleanProperty showCluster = new SimpleBooleanProperty(true);
    private final StringProperty status = new SimpleStringProperty("");
    private final ReadOnlyStringWrapper count = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper clusterStatus = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper filtering = new ReadOnlyBooleanWrapper(false);

    private final Journal journal;
    private final JournalExport export;
    private final Executor io;
    private final Executor fx;
    private final Clock clock;
    private final ZoneId zone;
    private TeamEvents cluster;
    private Map<String, WorkloadRef> workloads = Map.of();
    private LongSupplier nanos = System::nanoTime;
    private long clusterEveryNanos = Duration.ofSeconds(15).toNanos();
    private RowsListener rowsListener;

    // State: the FX thread's (the executor given as fx)
    /** This console's records, oldest first. */
    private List<JournalRow> local = new ArrayList<>();
    /** The timeline keys of those records: the cluster's copies of them are not shown twice. */
    private Set<String> localKeys = new HashSet<>();
    private long lastSeq;
    private boolean localLoaded;
    /** The cluster's Headroom events as last read, oldest first (duplicates of local records included). */
    private List<JournalRow> clusterRead = List.of();
    /** Everything shown before filtering: local and (deduplicated) cluster rows, oldest first. */
    private List<JournalRow> all = new ArrayList<>();
    private int clusterShown;
    private int filterGeneration;
    private int buildGeneration;
    private int landedGeneration;
    private int loadGeneration;
    private int clusterGeneration;
    private boolean liveInFlight;
    private boolean liveAgain;
    private long lastClusterRead = Long.MIN_VALUE;
    private final AtomicBoolean refreshQueued = new AtomicBoolean();

    /**
     * @param export where "Export CSV" writes (the session's file adapter: a file only its owner reads)
     * @param io where the journal and the cluster are read, rows filtered and CSV written
     * @param fx the FX thread's executor ({@code FxExecutor} in the console, {@code Runnable::run} in tests)
     */
    public JournalViewModel(Journal journal, JournalExport export, Executor io, Executor fx, Clock clock) {
        this(journal, export, io, fx, clock, ZoneId.systemDefault());
    }

    /** @param zone where times are shown (the date is left out for today's) */
    public JournalViewModel(Journal journal, JournalExport export, Executor io, Executor fx, Clock clock,
                            ZoneId zone) {
        this.journal = journal;
        this.export = export;
        this.io = io;
        this.fx = fx;
        this.clock = clock;
        this.zone = zone;
        classFilter.addListener(o -> applyFilter());
        kinds.addListener((SetChangeListener<JournalRecord.Kind>) c -> applyFilter());
        preset.addListener(o -> applyFilter());
        search.addListener(o -> applyFilter());
        since.addListener(o -> reload()); // a longer span may need older segments
        showCluster.addListener((o, was, now) -> {
            if (now) {
                readCluster();
            } else {
                clusterStatus.set("");
                applyFilter();
            }
        });
    }

    /**
     * Shows the cluster's Headroom events beside the journal, read from {@code cluster} at most every
     * {@code every} (by {@code nanos}) while the view is live.
     *
     * @param workloads class → its workload, to name the class an event is on
     */
    public JournalViewModel withCluster(TeamEvents cluster, Map<String, WorkloadRef> workloads, Duration every,
                                        LongSupplier nanos) {
        this.cluster = cluster;
        this.workloads = Map.copyOf(workloads);
        this.clusterEveryNanos = every.toNanos();
        this.nanos = nanos;
        return this;
    }

    public void setRowsListener(RowsListener l) {
        this.rowsListener = l;
    }

    /** The rows the filters let through, newest first. */
    public ObservableList<JournalRow> rows() { return rows; }
    public ObservableList<String> classes() { return classes; }
    public ObjectProperty<String> classFilterProperty() { return classFilter; }
    /** The kinds shown; empty: every kind. */
    public ObservableSet<JournalRecord.Kind> kinds() { return kinds; }
    public ObjectProperty<JournalFilter.Preset> presetProperty() { return preset; }
    /** Searched case-insensitively through each row's text, actor, class and reason. */
    public StringProperty searchProperty() { return search; }
    /** Only records newer than now minus this; null for all. */
    public ObjectProperty<Duration> sinceProperty() { return since; }
    public BooleanProperty showClusterProperty() { return showCluster; }
    public StringProperty statusProperty() { return status; }
    /** "42 of 1,204 records". */
    public ReadOnlyStringProperty countProperty() { return count.getReadOnlyProperty(); }
    /** What reading the cluster's events gave, in words. */
    public ReadOnlyStringProperty clusterStatusProperty() { return clusterStatus.getReadOnlyProperty(); }
    /** True while a filter runs in the background. */
    public ReadOnlyBooleanProperty filteringProperty() { return filtering.getReadOnlyProperty(); }

    /** The filter the controls say now. */
    public JournalFilter filter() {
        Instant cutoff = since.get() == null ? null : clock.instant().minus(since.get());
        String c = classFilter.get();
        return new JournalFilter(c == null || ALL.equals(c) ? null : c, kinds, preset.get(), search.get(), cutoff,
                showCluster.get());
    }

    /** When a row happened, to the second; with the date when it was not today. */
    public String when(JournalRow r) {
        java.time.ZonedDateTime t = r.at().atZone(zone);
        return t.toLocalDate().equals(LocalDate.ofInstant(clock.instant(), zone)) ? TIME.format(t) : DATE_TIME.format(t);
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    // Commands

    /**
     * Re-reads the journal's history off the FX thread: every segment, or only those that may hold
     * records within the time filter (a long history is not read whole for the last hour); and the
     * cluster's events when they are shown.
     */
    public CompletableFuture<Void> reload() {
        Instant cutoff = cutoff();
        int gen = ++loadGeneration;
        CompletableFuture<Void> done = CompletableFuture.supplyAsync(() -> {
            Journal.Replay r = journal.history(cutoff);
            List<JournalRow> rs = new ArrayList<>(r.records().size());
            Set<String> keys = new HashSet<>();
            for (JournalRecord rec : r.records()) {
                JournalRow row = JournalRow.of(rec);
                rs.add(row);
                if (row.timelineKey() != null) {
                    keys.add(row.timelineKey());
                }
            }
            return new Loaded(rs, keys, r.warnings());
        }, io).thenAcceptAsync(l -> {
            if (gen != loadGeneration) {
                return; // a newer reload (another time span) is on its way
            }
            local = l.rows();
            localKeys = l.keys();
            lastSeq = local.isEmpty() ? 0 : local.get(local.size() - 1).seq();
            localLoaded = true;
            status.set(l.warnings().isEmpty() ? "" : l.warnings().size() + " warning(s): "
                    + String.join("; ", l.warnings()));
            rebuild();
        }, fx);
        readCluster();
        return done;
    }

    private record Loaded(List<JournalRow> rows, Set<String> keys, List<String> warnings) {
    }

    /**
     * Something may have been journaled (any thread; a tick, an action): reads what was appended since
     * the last page and shows it on top, keeping the rest as it is. Calls while one is on its way are
     * folded into one more.
     */
    public void refresh() {
        if (refreshQueued.compareAndSet(false, true)) {
            fx.execute(() -> {
                refreshQueued.set(false);
                live();
            });
        }
    }

    private void live() {
        if (!localLoaded) {
            return; // the first reload brings it all
        }
        if (showCluster.get() && cluster != null && nanos.getAsLong() - lastClusterRead >= clusterEveryNanos) {
            readCluster();
        }
        if (liveInFlight) {
            liveAgain = true;
            return;
        }
        liveInFlight = true;
        long after = lastSeq;
        int gen = loadGeneration;
        CompletableFuture.supplyAsync(() -> journal.appendedAfter(after).map(rs -> rs.stream().map(JournalRow::of)
                .toList()), io).whenCompleteAsync((appended, e) -> {
                    liveInFlight = false;
                    if (e != null) {
                        status.set("could not read the journal: " + rootMessage(e));
                    } else if (gen == loadGeneration) {
                        appended(appended);
                    }
                    if (liveAgain) {
                        liveAgain = false;
                        live();
                    }
                }, fx);
    }

    /** FX thread: records appended since the last page (empty: not at hand, read it all again). */
    private void appended(Optional<List<JournalRow>> appended) {
        if (appended.isEmpty()) {
            reload();
            return;
        }
        List<JournalRow> fresh = appended.get().stream().filter(r -> r.seq() > lastSeq).toList();
        if (fresh.isEmpty()) {
            return;
        }
        local.addAll(fresh);
        lastSeq = fresh.get(fresh.size() - 1).seq();
        boolean duplicates = false;
        for (JournalRow r : fresh) {
            if (r.timelineKey() != null) {
                localKeys.add(r.timelineKey());
                duplicates |= clusterRead.stream().anyMatch(c -> r.timelineKey().equals(c.timelineKey()));
            }
        }
        Instant first = fresh.get(0).at();
        boolean newerThere = !all.isEmpty() && all.get(all.size() - 1).at().isAfter(first);
        if (duplicates || newerThere || landedGeneration != filterGeneration) {
            rebuild(); // not simply on top: merge again, in the background
            return;
        }
        all.addAll(fresh);
        JournalFilter f = filter();
        List<JournalRow> shown = new ArrayList<>();
        for (int i = fresh.size() - 1; i >= 0; i--) {
            if (f.test(fresh.get(i))) {
                shown.add(fresh.get(i));
            }
        }
        if (!shown.isEmpty()) {
            change(() -> rows.addAll(0, shown));
        }
        updateCount();
    }

    /** Reads the cluster's Headroom events off the FX thread; what cannot be read is said, nothing waits. */
    private void readCluster() {
        if (!showCluster.get()) {
            return;
        }
        if (cluster == null) {
            clusterStatus.set("Cluster events: this console has no cluster to read them from.");
            return;
        }
        lastClusterRead = nanos.getAsLong();
        int gen = ++clusterGeneration;
        Instant cutoff = cutoff();
        TeamEvents from = cluster;
        Map<String, WorkloadRef> names = workloads;
        if (clusterRead.isEmpty()) {
            clusterStatus.set("Reading the cluster's Headroom events…");
        }
        CompletableFuture.supplyAsync(() -> {
            TimelineRead read;
            try {
                read = from.teamEvents(cutoff);
            } catch (RuntimeException e) {
                read = new TimelineRead(List.of(), List.of(ErrorWords.of(e)), true);
            }
            List<JournalRow> rs = read.events().stream().map(ev -> JournalRow.of(ev, names)).toList();
            return Map.entry(read, rs);
        }, io).whenCompleteAsync((r, e) -> {
            if (gen != clusterGeneration) {
                return;
            }
            if (e != null) {
                clusterStatus.set("Cluster events could not be read: " + rootMessage(e));
                return;
            }
            TimelineRead read = r.getKey();
            if (!read.supported()) {
                clusterRead = List.of();
                clusterStatus.set("Cluster events: none to show (" + String.join("; ", read.problems()) + ").");
            } else {
                clusterRead = r.getValue();
                clusterStatus.set(read.problems().isEmpty() ? "" : "Some cluster events could not be read: "
                        + String.join("; ", read.problems()));
            }
            rebuild();
        }, fx);
    }

    /** Merges local and cluster rows (without the cluster's copies of local records) and filters, in the background. */
    private void rebuild() {
        List<JournalRow> localNow = List.copyOf(local);
        Set<String> keys = Set.copyOf(localKeys);
        List<JournalRow> clusterNow = clusterRead;
        JournalFilter f = filter();
        int build = ++buildGeneration;
        int gen = ++filterGeneration;
        filtering.set(true);
        CompletableFuture.supplyAsync(() -> {
            List<JournalRow> others = clusterNow.stream().filter(c -> !keys.contains(c.timelineKey())).toList();
            List<JournalRow> merged = merge(localNow, others);
            return new Built(merged, others.size(), select(merged, f));
        }, io).whenCompleteAsync((b, e) -> {
            if (build != buildGeneration) {
                return; // a newer merge is on its way
            }
            if (e != null) {
                land(gen, e, null);
                return;
            }
            all = new ArrayList<>(b.all());
            clusterShown = b.clusterRows();
            List<String> names = new ArrayList<>();
            names.add(ALL);
            b.all().stream().map(JournalRow::className).filter(n -> n != null && !n.startsWith("(")
                    && !n.startsWith("node ") && !n.contains("/")).collect(java.util.stream.Collectors
                    .toCollection(TreeSet::new)).forEach(names::add);
            if (!names.equals(classes)) {
                String keep = classFilter.get();
                classes.setAll(names);
                classFilter.set(names.contains(keep) ? keep : ALL); // may filter again, on what is loaded now
            }
            // When the filter changed meanwhile, its own answer comes, and it sees that the rows changed.
            land(gen, null, () -> show(b.shown()));
        }, fx);
    }

    private record Built(List<JournalRow> all, int clusterRows, List<JournalRow> shown) {
    }

    /** Filters what is loaded, in the background; an answer a newer filter overtook is dropped. */
    private void applyFilter() {
        List<JournalRow> source = all;
        List<JournalRow> snapshot = List.copyOf(source);
        JournalFilter f = filter();
        int gen = ++filterGeneration;
        filtering.set(true);
        CompletableFuture.supplyAsync(() -> select(snapshot, f), io).whenCompleteAsync((shown, e) -> {
            if (gen == filterGeneration && e == null && source != all) {
                applyFilter(); // the rows were merged anew meanwhile: filter those
                return;
            }
            land(gen, e, () -> show(shown));
        }, fx);
    }

    private void land(int gen, Throwable e, Runnable apply) {
        if (gen != filterGeneration) {
            return;
        }
        landedGeneration = gen;
        filtering.set(false);
        if (e != null) {
            status.set("could not filter the journal: " + rootMessage(e));
            return;
        }
        apply.run();
    }

    /** Newest first: the rows {@code f} lets through. */
    static List<JournalRow> select(List<JournalRow> oldestFirst, JournalFilter f) {
        List<JournalRow> shown = new ArrayList<>();
        for (int i = oldestFirst.size() - 1; i >= 0; i--) {
            JournalRow r = oldestFirst.get(i);
            if (f.test(r)) {
                shown.add(r);
            }
        }
        return shown;
    }

    /** Two lists oldest first into one, oldest first; at the same time this console's record comes first. */
    static List<JournalRow> merge(List<JournalRow> local, List<JournalRow> cluster) {
        List<JournalRow> out = new ArrayList<>(local.size() + cluster.size());
        int i = 0;
        int j = 0;
        while (i < local.size() || j < cluster.size()) {
            if (j >= cluster.size() || i < local.size() && !cluster.get(j).at().isBefore(local.get(i).at())) {
                out.add(local.get(i++));
            } else {
                out.add(cluster.get(j++));
            }
        }
        return out;
    }

    private void show(List<JournalRow> shown) {
        change(() -> rows.setAll(shown));
        updateCount();
    }

    private void change(Runnable c) {
        if (rowsListener != null) {
            rowsListener.beforeChange();
        }
        c.run();
        if (rowsListener != null) {
            rowsListener.afterChange();
        }
    }

    private void updateCount() {
        int total = showCluster.get() ? all.size() : all.size() - clusterShown;
        String of = String.format(Locale.ENGLISH, "%,d of %,d records", rows.size(), total);
        if (showCluster.get() && clusterShown > 0) {
            of += String.format(Locale.ENGLISH, " (%,d from the cluster)", clusterShown);
        }
        count.set(of);
    }

    private Instant cutoff() {
        return since.get() == null ? null : clock.instant().minus(since.get());
    }

    private static String rootMessage(Throwable e) {
        return ErrorWords.of(e); // the innermost cause's words, never its class name
    }

    /** Writes the rows the filters show, as shown, to {@code file} as CSV, off the FX thread. */
    public CompletableFuture<Path> exportCsv(Path file) {
        List<JournalRow> snapshot = List.copyOf(rows);
        return CompletableFuture.supplyAsync(() -> {
            try {
                export.write(file, rowsCsv(snapshot).getBytes(StandardCharsets.UTF_8));
                return file;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, io).whenCompleteAsync((p, e) -> status.set(e == null
                ? "exported " + snapshot.size() + " records to " + p : "export failed: " + rootMessage(e)), fx);
    }

    /** Writes {@code records} to {@code file} as CSV through {@code export} (the console's: its owner's only). */
    static void writeCsv(JournalExport export, Path file, List<JournalRecord> records) throws IOException {
        export.write(file, toCsv(records).getBytes(StandardCharsets.UTF_8));
    }

    static String toCsv(List<JournalRecord> records) {
        return rowsCsv(records.stream().map(JournalRow::of).toList());
    }

    static final String CSV_HEADER =
            "seq,at,kind,user,context,class,before,after,reason,detail,proposal,until,source,console\r\n";

    /** The rows as CSV: this console's records field by field, the cluster's events with their reason and message. */
    static String rowsCsv(List<JournalRow> rows) {
        StringBuilder b = new StringBuilder(CSV_HEADER);
        for (JournalRow row : rows) {
            JournalRecord r = row.record();
            if (r != null) {
                b.append(r.seq()).append(',').append(r.at()).append(',').append(r.kind()).append(',')
                        .append(cell(r.user())).append(',').append(cell(r.context())).append(',')
                        .append(cell(r.className())).append(',').append(r.before() == null ? "" : r.before())
                        .append(',').append(r.after() == null ? "" : r.after()).append(',').append(cell(r.reason()))
                        .append(',').append(cell(r.detail())).append(',').append(cell(r.proposalId())).append(',')
                        .append(r.until() == null ? "" : r.until()).append(",journal,\r\n");
            } else {
                b.append(',').append(row.at()).append(',').append(cell(row.kindLabel())).append(',')
                        .append(cell(row.actor())).append(',').append(cell(row.context())).append(',')
                        .append(cell(row.className())).append(",,,,").append(cell(row.detail())).append(",,,cluster,")
                        .append(cell(row.console())).append("\r\n");
            }
        }
        return b.toString();
    }

    /** What a spreadsheet may read as the start of a formula (OWASP's list, and a line feed). */
    private static final String FORMULA_START = "=+-@\t\r\n";

    /**
     * RFC 4180 quoting; a leading = + - @ TAB CR LF is neutralised so a spreadsheet does not run it as a
     * formula; secrets (held or by shape) are redacted.
     */
    static String cell(String s) {
        if (s == null) {
            return "";
        }
        // A record kept before a secret was loaded, or a cluster event another console posted, may quote it.
        s = Redactor.redact(s);
        String v = !s.isEmpty() && FORMULA_START.indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
        if (v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")) {
            return "\"" + v.replace("\"", "\"\"") + "\"";
        }
        return v;
    }

    /** For tests: everything loaded, oldest first. */
    List<JournalRow> loaded() {
        return Collections.unmodifiableList(all);
    }
}
