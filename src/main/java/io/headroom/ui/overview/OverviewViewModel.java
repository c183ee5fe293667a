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

/** The overview table's state: one {@link ClassRow} per class and the selected one. FX thread only. */
public final class OverviewViewModel {

    // Properties
    /** Every class of the session; {@link #rows()} shows those of the chosen context. */
    private final ObservableList<ClassRow> all = FXCollections.observableArrayList();
    private final javafx.collections.transformation.FilteredList<ClassRow> rows = new javafx.collections.transformation.FilteredList<>(all);
    private final javafx.beans.property.StringProperty context = new javafx.beans.property.SimpleStringProperty(ALL);
    private final ObjectProperty<ClassRow> selected = new SimpleObjectProperty<>();
    private final Map<String, ClassRow> byName = new LinkedHashMap<>();

    /** The context filter's value that shows every cluster. */
    public static final String ALL = "all contexts";

    public ObservableList<ClassRow> rows() {
        return rows;
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
    }

    private void refilter() {
        String c = context.get();
        String f = filter.get() == null ? "" : filter.get().strip().toLowerCase(java.util.Locale.ROOT);
        java.util.function.Predicate<ClassRow> inContext = ALL.equals(c) || c == null ? r -> true
                : r -> c.equals(r.context());
        java.util.function.Predicate<ClassRow> matches = f.isEmpty() ? r -> true
                : r -> (r.name() + " " + r.context() + " " + r.modeProperty().get())
                        .toLowerCase(java.util.Locale.ROOT).contains(f);
        rows.setPredicate(ALL.equals(c) || c == null ? f.isEmpty() ? null : matches : inContext.and(matches));
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
        for (ClassSnapshot s : tick.classes()) {
            ClassRow row = byName.get(s.name());
            if (row == null) {
                row = new ClassRow(s.name(), s.cls().target().context());
                byName.put(s.name(), row);
                all.add(row);
            }
            update(row, s);
        }
        if (selected.get() == null && !rows.isEmpty()) {
            selected.set(rows.get(0));
        }
    }

    /** Mode, overlays and pending proposals, from supervised mode. */
    public void applySupervision(io.headroom.supervise.SupervisionState s) {
        for (ClassRow row : all) {
            io.headroom.supervise.ClassSupervision c = s.of(row.name());
            if (c == null) {
                continue;
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
            row.drainProperty().set(c.draining() ? c.drain().from() + " → " + c.drain().to() : "");
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
