package io.headroom.ui.overview;

import static io.headroom.ui.Readings.input;
import static io.headroom.ui.Readings.signal;

import io.headroom.decision.Decision;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Reason;
import io.headroom.decision.Signals;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The overview table's state: one {@link ClassRow} per class, in severity order or the order the
 * operator chose, and the selected one. FX thread only.
 *
 * <p>Order: by default {@link Severity} (worst first), ties in the order classes were first seen;
 * a chosen {@link Sort} on a column, ties again by severity then first seen. The order is taken
 * from keys copied once per tick ({@link #reorder}), never from live values as they change, so a
 * tick moves rows at most once and only when their keys changed order. While the operator's
 * attention is on the rows, whichever device it came from ({@link #holdOrderProperty()}: the pointer
 * is on them; {@link #touch()}: a key, the focus or a selection in them in the last {@link #QUIET},
 * on an injected wall clock) a new order waits, so a row never jumps away from under the pointer or
 * the keys; it is applied once when the hold ends. The operator's own sort applies at once. Until
 * the operator chooses a class, the selection follows the worst row for {@link #FOLLOW_WORST}.
 */
public final class OverviewViewModel {

    /** What a column sorts by: a number (NaN last either way) or words (empty last). */
    public enum Column {
        CLASS(null, r -> r.name()),
        MODE(null, r -> r.modeProperty().get()),
        QUEUE(r -> r.queueLengthProperty().get(), null),
        AGE(r -> r.oldestAgeProperty().get(), null),
        /** The worst age against its objective in the last 15 minutes. */
        TREND(r -> {
            AgeTrend t = r.trendProperty().get();
            double ratio = t.peakRatio();
            return Double.isNaN(ratio) ? t.peakAge() : ratio;
        }, null),
        ARRIVALS(r -> r.arrivalRateProperty().get(), null),
        SERVICE(r -> r.serviceSecondsProperty().get(), null),
        SLOTS(r -> r.estimatedSlotsProperty().get() < 0 ? Double.NaN : r.estimatedSlotsProperty().get(), null),
        REPLICAS(r -> r.currentReplicasProperty().get() < 0 ? Double.NaN : r.currentReplicasProperty().get(), null),
        /** Jobs waiting, in all. */
        WORK(r -> r.workProperty().get() == null ? Double.NaN : r.workProperty().get().waiting(), null),
        CEILING(null, r -> io.headroom.ui.Format.NO_DATA.equals(r.bindingCeilingProperty().get()) ? ""
                : r.bindingCeilingProperty().get()),
        /** The severity tier. */
        ALERTS(r -> r.severityProperty().get().ordinal(), null);

        private final java.util.function.ToDoubleFunction<ClassRow> number;
        private final java.util.function.Function<ClassRow, String> text;

        Column(java.util.function.ToDoubleFunction<ClassRow> number, java.util.function.Function<ClassRow, String> text) {
            this.number = number;
            this.text = text;
        }
    }

    /** A sort the operator chose: a column, ascending or descending. */
    public record Sort(Column column, boolean descending) {
        public Sort {
            java.util.Objects.requireNonNull(column, "column");
        }
    }

    // Properties
    /** Every class of the session; {@link #rows()} shows those of the chosen context. */
    private final ObservableList<ClassRow> all = FXCollections.observableArrayList();
    private final javafx.collections.transformation.FilteredList<ClassRow> filtered = new javafx.collections.transformation.FilteredList<>(all);
    private final javafx.collections.transformation.SortedList<ClassRow> rows =
            new javafx.collections.transformation.SortedList<>(filtered, new RowOrder(null));
    private final ObjectProperty<Sort> sort = new SimpleObjectProperty<>();
    /** Set on the FX thread, read by {@link #prepare} on the loop's. */
    private volatile io.headroom.supervise.SupervisionState supervision;
    private volatile java.util.function.Function<String, io.headroom.supervise.ClassAdmission> admissions = n -> null;
    private volatile java.util.function.Function<String, io.headroom.history.ClassHistory> history = n -> null;
    private final javafx.beans.property.StringProperty context = new javafx.beans.property.SimpleStringProperty(ALL);
    private final ObjectProperty<ClassRow> selected = new SimpleObjectProperty<>();
    private final Map<String, ClassRow> byName = new LinkedHashMap<>();
    /** The rows in the order of the last tick's classes: the next tick finds its rows without a lookup. */
    private ClassRow[] tickOrder = new ClassRow[0];

    /** The context filter's value that shows every cluster. */
    public static final String ALL = "all contexts";

    /** The rows shown: in the chosen context and filter, in severity order or the chosen sort. */
    public ObservableList<ClassRow> rows() {
        return rows;
    }

    /** The operator's sort, or null for the default order by severity. */
    public ObjectProperty<Sort> sortProperty() {
        return sort;
    }

    /** Back to the default order: worst first. */
    public void sortBySeverity() {
        sort.set(null);
    }

    /** While true (the pointer is on the rows), a new order waits; the operator's own sort does not. */
    public javafx.beans.property.BooleanProperty holdOrderProperty() {
        return hold.pointerProperty();
    }

    /**
     * How long a touch of the rows from the keyboard (a key pressed in them, the focus arriving, a
     * selection changed) holds their order: the operator counting rows with Down is not overtaken.
     */
    public static final java.time.Duration QUIET = io.headroom.ui.AttentionHold.QUIET;

    /** The operator's attention on the rows, timed on a wall clock (not the session's, which the sandbox speeds up). */
    private final io.headroom.ui.AttentionHold hold;
    /** The wall clock the console's youth and the operator's touches are timed on. */
    private java.time.Clock attentionClock;
    /** Whether the operator has chosen a class (the selection no longer follows the worst row). */
    private boolean chosen;

    public OverviewViewModel() {
        this(java.time.Clock.systemUTC());
    }

    /** @param attentionClock the wall clock a touch's hold is timed on */
    public OverviewViewModel(java.time.Clock attentionClock) {
        this.attentionClock = java.util.Objects.requireNonNull(attentionClock, "attentionClock");
        this.hold = new io.headroom.ui.AttentionHold(attentionClock, () -> reorder(false));
    }

    /** Times the operator's touches on {@code clock} from now on (a test's manual clock). */
    public void setAttentionClock(java.time.Clock clock) {
        this.attentionClock = java.util.Objects.requireNonNull(clock, "clock");
        hold.setClock(clock);
    }

    /** The hold on the rows' order, for the view to feed ({@link io.headroom.ui.fx.AttentionArea}). */
    public io.headroom.ui.AttentionHold attention() {
        return hold;
    }

    /**
     * The operator touched the rows (a key pressed in them, the focus arriving, a selection of
     * theirs): the order is held for {@link #QUIET} from now, whichever device it came from.
     */
    public void touch() {
        hold.touch();
    }

    /** Whether the order is held now: the pointer is on the rows, or they were touched in the last {@link #QUIET}. */
    public boolean held() {
        return hold.held();
    }

    /**
     * Applies a waiting order once nothing holds it any more (the view calls this while one waits:
     * a touch's hold ends with time, not with an event). Does nothing while held or nothing waits.
     */
    public void releaseIfQuiet() {
        hold.releaseIfQuiet();
    }

    /** A new order is waiting for the hold to end. */
    public javafx.beans.property.ReadOnlyBooleanProperty orderWaitingProperty() {
        return hold.waitingProperty();
    }

    /** Where each class's load history is read (the session's domain history); none by default. */
    /**
     * Where each class's admission is read (the supervisor's, as the detail's admission panel): each
     * supervision snapshot shows it in the rows. Unset, no row shows an admission chip.
     */
    public void setAdmissions(java.util.function.Function<String, io.headroom.supervise.ClassAdmission> source) {
        this.admissions = java.util.Objects.requireNonNull(source, "source");
    }

    public void setHistory(java.util.function.Function<String, io.headroom.history.ClassHistory> history) {
        this.history = history == null ? n -> null : history;
    }

    /** Orders by the keys copied at the last reorder. A new instance makes the list sort again. */
    private static final class RowOrder implements java.util.Comparator<ClassRow> {
        private final Sort sort;

        RowOrder(Sort sort) {
            this.sort = sort;
        }

        @Override
        public int compare(ClassRow a, ClassRow b) {
            if (sort != null) {
                int c = sort.column().number != null ? compareNumbers(a.keyNumber, b.keyNumber, sort.descending())
                        : compareTexts(a.keyText, b.keyText, sort.descending());
                if (c != 0) {
                    return c;
                }
            }
            int c = a.keySeverity.compareTo(b.keySeverity);
            return c != 0 ? c : Integer.compare(a.seen, b.seen);
        }

        private static int compareNumbers(double a, double b, boolean descending) {
            boolean na = Double.isNaN(a);
            boolean nb = Double.isNaN(b);
            if (na || nb) {
                return na == nb ? 0 : na ? 1 : -1; // unknown last, either way
            }
            int c = Double.compare(a, b);
            return descending ? -c : c;
        }

        private static int compareTexts(String a, String b, boolean descending) {
            boolean ea = a == null || a.isEmpty();
            boolean eb = b == null || b.isEmpty();
            if (ea || eb) {
                return ea == eb ? 0 : ea ? 1 : -1;
            }
            int c = a.compareToIgnoreCase(b);
            return descending ? -c : c;
        }
    }

    private void takeKeys(ClassRow r) {
        r.keySeverity = r.severityProperty().get();
        Sort s = sort.get();
        if (s != null && s.column().number != null) {
            r.keyNumber = s.column().number.applyAsDouble(r);
        } else if (s != null) {
            r.keyText = s.column().text.apply(r);
        }
    }

    /**
     * Takes every row's keys and sorts again if they are out of order: once per tick, after its
     * values are in. Waits while the order is held, unless {@code now} (the operator asked).
     */
    private void reorder(boolean now) {
        if (held() && !now) {
            hold.setWaiting(true);
            return;
        }
        hold.setWaiting(false);
        for (ClassRow r : all) {
            takeKeys(r);
        }
        if (!now && inOrder()) {
            return; // nothing moves: no permutation for the table to lay out
        }
        rows.setComparator(new RowOrder(sort.get()));
    }

    private boolean inOrder() {
        java.util.Comparator<? super ClassRow> c = rows.getComparator();
        for (int i = 1; i < rows.size(); i++) {
            if (c.compare(rows.get(i - 1), rows.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Which cluster the overview shows: a context name, or {@link #ALL}. */
    public javafx.beans.property.StringProperty contextProperty() {
        return context;
    }

    private final javafx.beans.property.StringProperty filter = new javafx.beans.property.SimpleStringProperty("");

    /** Text typed after {@code /}: only rows whose class, context or mode contain it (any case) are shown. */
    public javafx.beans.property.StringProperty filterProperty() {
        return filter;
    }

    {
        context.addListener((o, a, c) -> refilter());
        filter.addListener((o, a, f) -> refilter());
        sort.addListener((o, a, b) -> reorder(true));
    }

    /**
     * "2 of 5 shown" while the filter hides classes (of the chosen context's); empty while it is off,
     * so no class is hidden without saying so.
     */
    public javafx.beans.binding.StringExpression shownProperty() {
        return shown;
    }

    private final javafx.beans.binding.StringBinding shown = javafx.beans.binding.Bindings.createStringBinding(() -> {
        String f = filter.get() == null ? "" : filter.get().strip();
        if (f.isEmpty()) {
            return "";
        }
        String c = context.get();
        long inContext = ALL.equals(c) || c == null ? all.size() : all.stream().filter(r -> c.equals(r.context())).count();
        return rows.size() + " of " + inContext + " shown";
    }, filter, context, all, rows);

    private void refilter() {
        String c = context.get();
        String f = filter.get() == null ? "" : filter.get().strip().toLowerCase(java.util.Locale.ROOT);
        java.util.function.Predicate<ClassRow> inContext = ALL.equals(c) || c == null ? r -> true
                : r -> c.equals(r.context());
        java.util.function.Predicate<ClassRow> matches = f.isEmpty() ? r -> true
                : r -> (r.name() + " " + r.context() + " " + r.modeProperty().get())
                        .toLowerCase(java.util.Locale.ROOT).contains(f);
        filtered.setPredicate(ALL.equals(c) || c == null ? f.isEmpty() ? null : matches : inContext.and(matches));
        ClassRow sel = selected.get();
        if ((sel == null || !rows.contains(sel)) && !rows.isEmpty()) {
            selected.set(rows.get(0));
        }
    }

    public ObjectProperty<ClassRow> selectedProperty() {
        return selected;
    }

    // Commands

    /** Applies the latest tick; earlier ticks of the same batch are superseded for the table. */
    public void apply(TickResult tick) {
        Frame f = ahead.get();
        apply(f != null && f.tick() == tick ? f : prepare(tick)); // a tick not prepared ahead is prepared here
    }

    /**
     * One tick's rows worked out: what each row shows and its trend. Made off the FX thread by
     * {@link #prepare}, so the FX thread only sets the values that changed.
     */
    public record Frame(TickResult tick, io.headroom.supervise.SupervisionState supervision, List<RowValues> rows) {
    }

    /**
     * Everything a row shows from one tick, as plain values: the numbers, the alerts and their
     * words, and the last 15 minutes.
     *
     * @param decided         false when the class could not be decided (its ceiling is unknown)
     * @param currentReplicas -1 (with {@code readyReplicas} and {@code desiredReplicas}) when the workload was
     *                        not read at this tick: unknown, never 0; {@code replicasNote} then says what was
     *                        last read and when
     */
    public record RowValues(ClassSnapshot snapshot, double ageObjective, String admissionClosed,
                            List<ClassRow.Alert> alerts, String alertDetail, int estimatedSlots, double queueLength,
                            double oldestAge, double arrivalRate, double serviceSeconds, boolean decided,
                            int currentReplicas, int readyReplicas, int desiredReplicas, String replicasNote,
                            String bindingCeiling, AgeTrend trend, io.headroom.supervise.JobStates work) {
    }

    /** The replicas a class's workload last had when read, and when: named once they cannot be read. */
    record LastRead(int replicas, int ready, java.time.Instant at) {
        String words() {
            return "last known " + replicas + (replicas == 1 ? " replica" : " replicas") + " (" + ready + " ready) at "
                    + io.headroom.ui.Format.time(at);
        }
    }

    /** Each class's replicas as last read (the loop's thread writes, as it prepares). */
    private final Map<String, LastRead> lastRead = new java.util.concurrent.ConcurrentHashMap<>();

    /** The trend each class was last prepared with, reused while its history has no newer point. */
    private final Map<String, AgeTrend> trends = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Works out every row of a tick, reading each class's last 15 minutes from the history (only
     * for a class whose history has a newer point). Pure but for that cache; safe on any one thread
     * at a time: the console calls it on the loop's thread, before the tick crosses to the FX thread.
     */
    public Frame prepare(TickResult tick) {
        java.util.function.Function<String, io.headroom.history.ClassHistory> h = history;
        io.headroom.supervise.SupervisionState st = supervision;
        List<RowValues> out = new ArrayList<>(tick.classes().size());
        for (ClassSnapshot s : tick.classes()) {
            Double objective = s.cls().policy().maxAgeSeconds();
            RowValues v = values(s, trend(h.apply(s.name()), s.name(), objective == null ? Double.NaN : objective),
                    work(s, st), lastRead.get(s.name()));
            if (v.currentReplicas() >= 0) {
                lastRead.put(s.name(), new LastRead(v.currentReplicas(), v.readyReplicas(),
                        s.workload().observedAt() == null ? s.at() : s.workload().observedAt()));
            }
            out.add(v);
        }
        return new Frame(tick, st, List.copyOf(out));
    }

    /** The newest tick prepared ahead, off the FX thread. */
    private final java.util.concurrent.atomic.AtomicReference<Frame> ahead = new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * Prepares a tick before it crosses to the FX thread (the console calls this on the loop's
     * thread, after the tick is in the history): {@link #apply(TickResult)} of the same tick then
     * only sets values. Ticks come in order, one thread at a time.
     */
    public void prepareAhead(TickResult tick) {
        ahead.set(prepare(tick));
    }

    private AgeTrend trend(io.headroom.history.ClassHistory h, String name, double objective) {
        double last = h == null ? Double.NaN : h.lastTime();
        AgeTrend old = trends.get(name);
        if (old != null && Double.compare(last, old == AgeTrend.NONE ? Double.NaN : old.to()) == 0
                && Double.compare(objective, old.objective()) == 0) {
            return old; // the same object: the FX side sees no change
        }
        AgeTrend t = AgeTrend.of(h, objective);
        trends.put(name, t);
        return t;
    }

    /** Applies a prepared tick: sets only what changed, then orders the rows once. FX thread. */
    public void apply(Frame frame) {
        List<ClassRow> added = new ArrayList<>();
        List<RowValues> values = frame.rows();
        ClassRow[] order = tickOrder.length == values.size() ? tickOrder : new ClassRow[values.size()];
        for (int i = 0; i < values.size(); i++) {
            RowValues v = values.get(i);
            ClassSnapshot s = v.snapshot();
            ClassRow row = order[i];
            if (row == null || !row.name().equals(s.name())) { // a tick lists its classes in the same order, as a rule
                row = byName.get(s.name());
                if (row == null) {
                    row = new ClassRow(s.name(), s.cls().target().context(), byName.size());
                    byName.put(s.name(), row);
                    added.add(row);
                }
                order[i] = row;
            }
            row.latest = s;
            row.beginUpdate();
            try {
                set(row, v);
                if (row.trendProperty().get() != v.trend()) {
                    row.trendProperty().set(v.trend());
                }
                if (frame.supervision() == supervision) {
                    setWork(row, v.work());
                } else {
                    updateWork(row); // supervision changed since the frame was prepared
                }
            } finally {
                row.endUpdate();
            }
        }
        tickOrder = order;
        for (ClassRow r : added) {
            takeKeys(r); // placed by its own keys, even while the order is held
        }
        all.addAll(added); // one change for the table, however many classes are new
        reorder(false);
        if (firstRows == null && !rows.isEmpty()) {
            firstRows = attentionClock.instant();
        }
        if (!rows.isEmpty() && (selected.get() == null || followsWorst() && selected.get() != rows.get(0))) {
            selected.set(rows.get(0));
        }
    }

    /**
     * How long after the first rows the selection follows the worst row until the operator chooses
     * a class: the first ticks have no rates yet (every class ties, first in the file first), so the
     * detail opens on the class the severity order puts first once it is known, not on a healthy one.
     */
    public static final java.time.Duration FOLLOW_WORST = java.time.Duration.ofSeconds(30);
    /** When the first rows came (attention clock); null before. */
    private java.time.Instant firstRows;

    /** Whether the selection still follows the worst row: the console is young, the operator chose nothing, nothing holds the rows. */
    private boolean followsWorst() {
        return !chosen && !held() && firstRows != null
                && attentionClock.instant().isBefore(firstRows.plus(FOLLOW_WORST));
    }

    /**
     * The operator chose this row (a click, the keyboard, the palette, the inbox): the selection stays
     * with it, and the order holds for {@link #QUIET} (a selection change is the operator's attention).
     */
    public void choose(ClassRow row) {
        chosen = true;
        touch();
        selected.set(row);
    }

    /**
     * The operator is at work in the class in view (the focus went into its detail: a pod's Drain…, a class
     * control): the selection stops following the worst row, so the detail is not swapped for another class
     * under their focus. The order is not held by it: the rows are not what they are looking at.
     */
    public void attendSelected() {
        if (selected.get() != null) {
            chosen = true;
        }
    }

    /** The row's work bar: the detail's five counts, for the row's newest tick and supervision. */
    private void updateWork(ClassRow row) {
        setWork(row, work(row.latest, supervision));
    }

    private static void setWork(ClassRow row, io.headroom.supervise.JobStates w) {
        if (!java.util.Objects.equals(w, row.workProperty().get())) {
            row.workProperty().set(w);
        }
    }

    private static io.headroom.supervise.JobStates work(ClassSnapshot s, io.headroom.supervise.SupervisionState st) {
        return s == null ? null : io.headroom.supervise.JobStates.of(s,
                st == null ? null : st.of(s.name()), st == null ? null : st.freezeAll(),
                st == null ? s.at() : st.at().isAfter(s.at()) ? st.at() : s.at());
    }

    /** Mode, overlays and pending proposals, from supervised mode. */
    public void applySupervision(io.headroom.supervise.SupervisionState s) {
        this.supervision = s;
        for (ClassRow row : all) {
            row.beginUpdate();
            try {
                updateWork(row);
                applySupervision(row, s);
                AdmissionChip.apply(row, admissions.apply(row.name()));
            } finally {
                row.endUpdate();
            }
        }
        reorder(false);
    }

    private static void applySupervision(ClassRow row, io.headroom.supervise.SupervisionState s) {
        {
            io.headroom.supervise.ClassSupervision c = s.of(row.name());
            if (c == null) {
                return;
            }
            StringBuilder m = new StringBuilder(c.mode().name().toLowerCase(java.util.Locale.ROOT));
            if (s.freezeAll() != null || c.freeze() != null) {
                m.append(" · frozen");
            }
            if (c.override() != null) {
                m.append(" · pinned ").append(c.override().replicas());
            }
            set(row.modeProperty(), m.toString());
            List<ClassRow.StateChip> chips = new ArrayList<>();
            List<String> why = new ArrayList<>();
            io.headroom.supervise.Freeze f = s.freezeAll() != null ? s.freezeAll() : c.freeze();
            if (f != null) {
                chips.add(new ClassRow.StateChip(ClassRow.State.FROZEN, "FROZEN"));
                why.add((s.freezeAll() != null ? "everything frozen" : "frozen") + " by " + f.by() + ": " + f.reason());
            }
            if (c.override() != null) {
                chips.add(new ClassRow.StateChip(ClassRow.State.PINNED, "PINNED " + c.override().replicas()));
                why.add("pinned to " + c.override().replicas() + " by " + c.override().by() + ": "
                        + c.override().reason());
            }
            if (c.mode() == io.headroom.supervise.Mode.AUTO) {
                chips.add(new ClassRow.StateChip(ClassRow.State.AUTO, "AUTO"));
                why.add("auto mode: decisions are applied without asking");
            }
            if (!chips.equals(row.overlaysProperty().get())) {
                row.overlaysProperty().set(List.copyOf(chips));
            }
            set(row.overlayDetailProperty(), String.join("\n", why));
            set(row.proposalProperty(), c.proposal() == null ? "" : c.proposal().from() + " → " + c.proposal().to());
            set(row.drainProperty(), c.draining() ? c.drain().change() : "");
            set(row.drainToProperty(), c.draining() ? c.drain().to() : -1);
        }
    }

    /** The operator chose {@code className} (the palette, the inbox): see {@link #choose}. */
    public void select(String className) {
        ClassRow row = byName.get(className);
        if (row != null) {
            choose(row);
        }
    }

    /**
     * A row's values from its snapshot (pure): what {@link #set} shows. Replicas not read at this tick
     * are unknown, with {@code before} (what was last read) in their note.
     */
    static RowValues values(ClassSnapshot s, AgeTrend trend, io.headroom.supervise.JobStates work, LastRead before) {
        Double objective = s.cls().policy().maxAgeSeconds();
        double ageObjective = objective == null ? Double.NaN : objective;
        Decision d = s.decision();
        String admissionClosed = d != null && d.admission() != null
                && d.admission().state() == io.headroom.decision.Admission.State.CLOSED ? d.admission().message() : "";
        if (d == null) {
            // Undecided (the cluster cannot be read), but what the metrics source read still shows.
            String problem = io.headroom.ui.PlainWords.reason(s.problem());
            return new RowValues(s, ageObjective, admissionClosed, canonical(List.of(ClassRow.Alert.PROBLEM)),
                    problem, -1, signal(s, Signals.QUEUE_LENGTH),
                    signal(s, Signals.OLDEST_AGE), signal(s, Signals.ARRIVAL_RATE), signal(s, Signals.MEAN_SERVICE),
                    false, -1, -1, -1, (before == null ? "" : before.words() + "; ") + "not read now: " + problem,
                    io.headroom.ui.Format.NO_DATA, trend, work);
        }
        List<ClassRow.Alert> alerts = new ArrayList<>();
        List<String> detail = new ArrayList<>();
        if (d.stalled()) {
            alerts.add(ClassRow.Alert.STALLED);
            detail.add("stalled: oldest age grows with no completions");
        }
        if (!d.stuckPods().isEmpty()) {
            alerts.add(ClassRow.Alert.STUCK);
            detail.add("STUCK: " + String.join(", ", d.stuckPods()) + (d.stuckPods().size() == 1 ? " is" : " are")
                    + " ready, holding work and finishing nothing: capacity is lower than the replica count says");
        }
        if (d.telemetryMissing()) {
            int unusable = 0;
            boolean allStale = true;
            for (InputStatus in : d.inputs()) {
                if (!in.usable() && d.reasons().contains(Reason.of(Reason.Code.TELEMETRY_MISSING, in.name()))) {
                    detail.add(in.name() + " " + in.label() + ": " + io.headroom.ui.PlainWords.reason(in.reason()));
                    allStale &= in.status() == InputStatus.Status.STALE;
                    unusable++;
                }
            }
            alerts.add(allStale && unusable > 0 ? ClassRow.Alert.TELEMETRY_STALE : ClassRow.Alert.TELEMETRY_MISSING);
        }
        List<String> partial = new ArrayList<>();
        for (InputStatus in : d.inputs()) {
            if (in.status() == InputStatus.Status.PARTIAL) {
                partial.add(in.name() + " " + io.headroom.ui.PlainWords.detail(in.reason()));
            }
        }
        if (!partial.isEmpty()) {
            alerts.add(ClassRow.Alert.PARTIAL_DATA);
            detail.add(String.join("\n", partial) + " (may scale up on it, never down)");
        }
        if (d.has(Reason.Code.DEPENDENCY_SATURATED) || d.has(Reason.Code.DEPENDENCY_UNKNOWN)) {
            alerts.add(ClassRow.Alert.DEPENDENCY_SATURATED);
            detail.add(d.has(Reason.Code.DEPENDENCY_SATURATED) ? "dependency saturated: no scale-up"
                    : "dependency signal unknown: no scale-up");
        }
        if (d.has(Reason.Code.AGE_BREACH)) {
            alerts.add(ClassRow.Alert.AGE_BREACH);
            detail.add("oldest age above objective");
        }
        if (d.bindingCeiling() != null) {
            alerts.add(ClassRow.Alert.CEILING);
            detail.add("capped by ceiling " + d.bindingCeiling());
        }
        if (!s.workloadCurrent()) {
            // Decided from a cluster view whose watches are down: its replicas are the last known, not the current.
            LastRead cached = new LastRead(d.currentReplicas(), d.readyReplicas(), s.workload().observedAt());
            return new RowValues(s, ageObjective, admissionClosed, canonical(alerts), String.join("\n", detail),
                    d.estimatedSlots() == null ? -1 : d.estimatedSlots(), input(d, Signals.QUEUE_LENGTH),
                    input(d, Signals.OLDEST_AGE), input(d, Signals.ARRIVAL_RATE), input(d, Signals.MEAN_SERVICE), true,
                    -1, -1, -1, cached.words() + "; the cluster's view has not been updated since", ceiling(d), trend,
                    work);
        }
        return new RowValues(s, ageObjective, admissionClosed, canonical(alerts), String.join("\n", detail),
                d.estimatedSlots() == null ? -1 : d.estimatedSlots(), input(d, Signals.QUEUE_LENGTH),
                input(d, Signals.OLDEST_AGE), input(d, Signals.ARRIVAL_RATE), input(d, Signals.MEAN_SERVICE), true,
                d.currentReplicas(), d.readyReplicas(), d.desiredReplicas(), "",
                ceiling(d), trend, work);
    }

    /** One list per set of alerts, so the FX thread compares a row's alerts by identity, not element by element. */
    private static final Map<List<ClassRow.Alert>, List<ClassRow.Alert>> ALERT_SETS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static List<ClassRow.Alert> canonical(List<ClassRow.Alert> alerts) {
        List<ClassRow.Alert> a = List.copyOf(alerts);
        return ALERT_SETS.computeIfAbsent(a, k -> k); // at most one per combination of nine alerts, in order
    }

    /** Shows a row's values, setting only the properties whose value changed (each change reaches its cell). */
    static void set(ClassRow row, RowValues v) {
        set(row.ageObjectiveProperty(), v.ageObjective());
        set(row.admissionClosedProperty(), v.admissionClosed());
        if (!v.alerts().equals(row.alertsProperty().get())) {
            row.alertsProperty().set(v.alerts());
        }
        set(row.alertDetailProperty(), v.alertDetail());
        set(row.estimatedSlotsProperty(), v.estimatedSlots());
        set(row.queueLengthProperty(), v.queueLength());
        set(row.oldestAgeProperty(), v.oldestAge());
        set(row.arrivalRateProperty(), v.arrivalRate());
        set(row.serviceSecondsProperty(), v.serviceSeconds());
        set(row.currentReplicasProperty(), v.currentReplicas());
        set(row.readyReplicasProperty(), v.readyReplicas());
        set(row.desiredReplicasProperty(), v.desiredReplicas());
        set(row.replicasNoteProperty(), v.replicasNote());
        set(row.bindingCeilingProperty(), v.bindingCeiling());
        set(row.poolsUnavailableProperty(), PoolChip.text(v.snapshot()));
        set(row.poolsDetailProperty(), PoolChip.detail(v.snapshot()));
    }

    /** Only a new value is set (and read first: an invalidation listener then always hears of it). */
    private static void set(javafx.beans.property.IntegerProperty p, int v) {
        if (p.get() != v) {
            p.set(v);
        }
    }

    /** NaN stays NaN without an event (a plain set fires for NaN every time: NaN != NaN). */
    private static void set(javafx.beans.property.DoubleProperty p, double v) {
        if (Double.compare(p.get(), v) != 0) {
            p.set(v);
        }
    }

    private static void set(javafx.beans.property.StringProperty p, String v) {
        if (!v.equals(p.get())) {
            p.set(v);
        }
    }

    /** The binding ceiling and the replicas it allows, e.g. "db-connections 6"; empty when none binds. */
    static String ceiling(Decision d) {
        if (d.bindingCeiling() == null) {
            return "";
        }
        for (io.headroom.decision.CeilingResult c : d.ceilings()) {
            if (c.name().equals(d.bindingCeiling())) {
                return c.name() + " " + c.limit();
            }
        }
        return d.bindingCeiling();
    }

}
