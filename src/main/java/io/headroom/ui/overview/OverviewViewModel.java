package io.headroom.ui.overview;

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
 * tick moves rows at most once and only when their keys changed order. While
 * {@link #holdOrderProperty()} is set (the pointer is on the rows) a new order waits, so a row
 * never jumps away from under the pointer; it is applied when the hold ends. The operator's own
 * sort applies at once.
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
        REPLICAS(r -> r.currentReplicasProperty().get(), null),
        /** Jobs waiting, in all. */
        WORK(r -> r.workProperty().get() == null ? Double.NaN : r.workProperty().get().waiting(), null),
        CEILING(null, r -> r.bindingCeilingProperty().get()),
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
    private final javafx.beans.property.BooleanProperty holdOrder = new javafx.beans.property.SimpleBooleanProperty();
    private final javafx.beans.property.ReadOnlyBooleanWrapper orderWaiting = new javafx.beans.property.ReadOnlyBooleanWrapper();
    private final Map<String, ClassSnapshot> latest = new java.util.HashMap<>();
    private io.headroom.supervise.SupervisionState supervision;
    private java.util.function.Function<String, io.headroom.history.ClassHistory> history = n -> null;
    private final javafx.beans.property.StringProperty context = new javafx.beans.property.SimpleStringProperty(ALL);
    private final ObjectProperty<ClassRow> selected = new SimpleObjectProperty<>();
    private final Map<String, ClassRow> byName = new LinkedHashMap<>();

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
        return holdOrder;
    }

    /** A new order is waiting for the hold to end. */
    public javafx.beans.property.ReadOnlyBooleanProperty orderWaitingProperty() {
        return orderWaiting.getReadOnlyProperty();
    }

    /** Where each class's load history is read (the session's domain history); none by default. */
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
        if (holdOrder.get() && !now) {
            orderWaiting.set(true);
            return;
        }
        orderWaiting.set(false);
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
        holdOrder.addListener((o, a, held) -> {
            if (!held && orderWaiting.get()) {
                reorder(false);
            }
        });
    }

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
        List<ClassRow> added = new ArrayList<>();
        for (ClassSnapshot s : tick.classes()) {
            ClassRow row = byName.get(s.name());
            if (row == null) {
                row = new ClassRow(s.name(), s.cls().target().context(), byName.size());
                byName.put(s.name(), row);
                added.add(row);
            }
            latest.put(s.name(), s);
            row.beginUpdate();
            try {
                update(row, s);
            } finally {
                row.endUpdate();
            }
            updateTrend(row);
            updateWork(row);
        }
        for (ClassRow r : added) {
            takeKeys(r); // placed by its own keys, even while the order is held
        }
        all.addAll(added); // one change for the table, however many classes are new
        reorder(false);
        if (selected.get() == null && !rows.isEmpty()) {
            selected.set(rows.get(0));
        }
    }

    /** The row's last 15 minutes, read again only when its history has a newer point. */
    private void updateTrend(ClassRow row) {
        io.headroom.history.ClassHistory h = history.apply(row.name());
        double last = h == null ? Double.NaN : h.lastTime();
        double objective = row.ageObjectiveProperty().get();
        AgeTrend old = row.trendProperty().get();
        if (Double.compare(last, row.trendAt) == 0 && Double.compare(objective, old.objective()) == 0) {
            return;
        }
        row.trendAt = last;
        row.trendProperty().set(AgeTrend.of(h, objective));
    }

    /** The row's work bar: the detail's five counts, for the row's newest tick and supervision. */
    private void updateWork(ClassRow row) {
        ClassSnapshot s = latest.get(row.name());
        io.headroom.supervise.SupervisionState st = supervision;
        io.headroom.supervise.JobStates w = s == null ? null : io.headroom.supervise.JobStates.of(s,
                st == null ? null : st.of(s.name()), st == null ? null : st.freezeAll(),
                st == null ? s.at() : st.at().isAfter(s.at()) ? st.at() : s.at());
        if (!java.util.Objects.equals(w, row.workProperty().get())) {
            row.workProperty().set(w);
        }
    }

    /** Mode, overlays and pending proposals, from supervised mode. */
    public void applySupervision(io.headroom.supervise.SupervisionState s) {
        this.supervision = s;
        for (ClassRow row : all) {
            updateWork(row);
            row.beginUpdate();
            try {
                applySupervision(row, s);
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
            row.modeProperty().set(m.toString());
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
            row.overlayDetailProperty().set(String.join("\n", why));
            row.proposalProperty().set(c.proposal() == null ? "" : c.proposal().from() + " → " + c.proposal().to());
            row.drainProperty().set(c.draining() ? c.drain().change() : "");
            row.drainToProperty().set(c.draining() ? c.drain().to() : -1);
        }
    }

    public void select(String className) {
        ClassRow row = byName.get(className);
        if (row != null) {
            selected.set(row);
        }
    }

    static void update(ClassRow row, ClassSnapshot s) {
        Double objective = s.cls().policy().maxAgeSeconds();
        row.ageObjectiveProperty().set(objective == null ? Double.NaN : objective);
        Decision d = s.decision();
        row.admissionClosedProperty().set(d != null && d.admission() != null
                && d.admission().state() == io.headroom.decision.Admission.State.CLOSED ? d.admission().message() : "");
        if (d == null) {
            row.alertsProperty().set(List.of(ClassRow.Alert.PROBLEM));
            row.alertDetailProperty().set(io.headroom.ui.PlainWords.reason(s.problem()));
            row.estimatedSlotsProperty().set(-1);
            // Undecided (the cluster cannot be read), but what the metrics source read still shows.
            row.queueLengthProperty().set(signal(s, Signals.QUEUE_LENGTH));
            row.oldestAgeProperty().set(signal(s, Signals.OLDEST_AGE));
            row.arrivalRateProperty().set(signal(s, Signals.ARRIVAL_RATE));
            row.serviceSecondsProperty().set(signal(s, Signals.MEAN_SERVICE));
            return;
        }
        row.queueLengthProperty().set(value(d, Signals.QUEUE_LENGTH));
        row.oldestAgeProperty().set(value(d, Signals.OLDEST_AGE));
        row.arrivalRateProperty().set(value(d, Signals.ARRIVAL_RATE));
        row.serviceSecondsProperty().set(value(d, Signals.MEAN_SERVICE));
        row.estimatedSlotsProperty().set(d.estimatedSlots() == null ? -1 : d.estimatedSlots());
        row.currentReplicasProperty().set(d.currentReplicas());
        row.readyReplicasProperty().set(d.readyReplicas());
        row.desiredReplicasProperty().set(d.desiredReplicas());
        row.bindingCeilingProperty().set(d.bindingCeiling() == null ? "" : d.bindingCeiling());
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
        row.alertsProperty().set(List.copyOf(alerts));
        row.alertDetailProperty().set(String.join("\n", detail));
    }

    private static double signal(ClassSnapshot s, String name) {
        io.headroom.decision.Signal v = s.signals().get(name);
        return v != null && v.present() ? v.value() : Double.NaN;
    }

    private static double value(Decision d, String signal) {
        InputStatus in = d.input(signal);
        return in != null && in.usable() ? in.value() : Double.NaN;
    }
}
