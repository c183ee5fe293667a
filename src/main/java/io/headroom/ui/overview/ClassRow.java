package io.headroom.ui.overview;

import javafx.beans.property.DoubleProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import java.util.List;

/** One overview row: raw numbers (NaN when unknown) that the view formats. */
public final class ClassRow {

    /** What needs the operator's eye, most urgent first. */
    public enum Alert {
        STALLED,
        /** Ready pods hold work and finish nothing for max(3 × S, stuckAfterSeconds) (issue 15 item 3). */
        STUCK,
        /** A required input has no data (replicas held). */
        TELEMETRY_MISSING,
        /** Every unusable required input has a value, but its newest sample is too old (replicas held). */
        TELEMETRY_STALE,
        /**
         * An input came from an answer Prometheus warned may be incomplete (Thanos, Mimir: a store did not
         * answer): used to scale up, never to scale down.
         */
        PARTIAL_DATA,
        DEPENDENCY_SATURATED, AGE_BREACH, CEILING, PROBLEM
    }

    /** A standing state that changes how the class is acted on, as a chip in the alerts column, worst first. */
    public enum State { FROZEN, PINNED, DRAINING, POOL_UNAVAILABLE, AUTO, ADMISSION_CLOSED, ADMISSION }

    /** One state chip: which state and its words ("PINNED 10"). */
    public record StateChip(State state, String text) {
    }

    // Properties
    private final String name;
    private final StringProperty mode = new SimpleStringProperty("");
    private final DoubleProperty queueLength = new SimpleDoubleProperty(Double.NaN);
    private final DoubleProperty oldestAge = new SimpleDoubleProperty(Double.NaN);
    private final DoubleProperty ageObjective = new SimpleDoubleProperty(Double.NaN);
    private final DoubleProperty arrivalRate = new SimpleDoubleProperty(Double.NaN);
    private final DoubleProperty serviceSeconds = new SimpleDoubleProperty(Double.NaN);
    private final IntegerProperty estimatedSlots = new SimpleIntegerProperty(-1);
    // Unknown (-1, "—") until read: a row never says 0 replicas it did not read.
    private final IntegerProperty currentReplicas = new SimpleIntegerProperty(-1);
    private final IntegerProperty readyReplicas = new SimpleIntegerProperty(-1);
    private final IntegerProperty desiredReplicas = new SimpleIntegerProperty(-1);
    private final StringProperty replicasNote = new SimpleStringProperty("");
    private final StringProperty bindingCeiling = new SimpleStringProperty(io.headroom.ui.Format.NO_DATA);
    private final ObjectProperty<List<Alert>> alerts = new SimpleObjectProperty<>(List.of());
    private final StringProperty alertDetail = new SimpleStringProperty("");
    private final StringProperty proposal = new SimpleStringProperty("");
    private final StringProperty drain = new SimpleStringProperty("");
    private final IntegerProperty drainTo = new SimpleIntegerProperty(-1);
    private final ObjectProperty<List<StateChip>> overlays = new SimpleObjectProperty<>(List.of());
    private final StringProperty overlayDetail = new SimpleStringProperty("");
    private final StringProperty admissionClosed = new SimpleStringProperty("");
    private final StringProperty admission = new SimpleStringProperty("");
    private final StringProperty admissionDetail = new SimpleStringProperty("");
    private final StringProperty poolsUnavailable = new SimpleStringProperty("");
    private final StringProperty poolsDetail = new SimpleStringProperty("");

    private final javafx.beans.property.ReadOnlyObjectWrapper<Badges> badges =
            new javafx.beans.property.ReadOnlyObjectWrapper<>(new Badges(List.of(), "", "", ""));

    private final String context;
    private final javafx.beans.property.ReadOnlyObjectWrapper<Severity> severity =
            new javafx.beans.property.ReadOnlyObjectWrapper<>(Severity.OK);
    private final ObjectProperty<AgeTrend> trend = new SimpleObjectProperty<>(AgeTrend.NONE);
    private final ObjectProperty<io.headroom.supervise.JobStates> work = new SimpleObjectProperty<>();

    /** The newest snapshot of the class the view model applied (FX thread). */
    io.headroom.loop.ClassSnapshot latest;
    /** The order the class was first seen in (the workloads file's): the tie-breaker that keeps rows still. */
    final int seen;
    /** The sort keys as of the last reorder: the table's order reads these, not the live values. */
    Severity keySeverity = Severity.OK;
    double keyNumber = Double.NaN;
    String keyText = "";

    /**
     * What the alerts column shows: the state chips, the proposal chip, the alert chips and the
     * tooltip, as one value.
     */
    public record Badges(List<Alert> alerts, String detail, String proposal, String drain, List<StateChip> states) {
        public Badges(List<Alert> alerts, String detail, String proposal, String drain) {
            this(alerts, detail, proposal, drain, List.of());
        }

        /** Every chip's words, then the detail: the cell's tooltip (a narrow cell cuts chips off). */
        public String fullText() {
            List<String> words = new java.util.ArrayList<>(states.stream().map(StateChip::text).toList());
            if (!proposal.isEmpty()) {
                words.add("PROPOSAL " + proposal);
            }
            alerts.forEach(a -> words.add(a.name().replace('_', ' ')));
            String chips = String.join(" · ", words);
            return detail == null || detail.isEmpty() ? chips : chips.isEmpty() ? detail : chips + "\n" + detail;
        }
    }

    public ClassRow(String name, String context) {
        this(name, context, 0);
    }

    ClassRow(String name, String context, int seen) {
        this.name = name;
        this.context = context;
        this.seen = seen;
        // One stable property for the alerts cell (a binding made in the cell value factory would be a
        // new object per lookup); kept current from its three parts.
        javafx.beans.InvalidationListener update = o -> {
            if (updating) {
                badgesStale = true; // once at the end of the view model's update, not per property
            } else {
                refreshBadges();
            }
        };
        alerts.addListener(update);
        alertDetail.addListener(update);
        // Whatever a row of the table draws: one revision per change, or one per update. (The badges'
        // parts count through the badges.) An invalidation, not a change listener: no boxing, no
        // comparing per set; a value fires again once read, which the view model does before each set
        // and a drawn row does as it draws.
        javafx.beans.InvalidationListener drawn = o -> {
            if (updating) {
                revisionStale = true;
            } else {
                revision.set(revision.get() + 1);
            }
        };
        for (javafx.beans.Observable v : List.of(mode, queueLength, oldestAge, ageObjective, arrivalRate,
                serviceSeconds, estimatedSlots, currentReplicas, readyReplicas, desiredReplicas, replicasNote,
                bindingCeiling, drainTo,
                badges, trend, work)) {
            v.addListener(drawn);
        }
        proposal.addListener(update);
        drain.addListener(update);
        overlays.addListener(update);
        overlayDetail.addListener(update);
        admissionClosed.addListener(update);
        admission.addListener(update);
        admissionDetail.addListener(update);
        poolsUnavailable.addListener(update);
        poolsDetail.addListener(update);
    }

    private boolean updating;
    private boolean badgesStale;
    private boolean revisionStale;
    private final javafx.beans.property.ReadOnlyLongWrapper revision = new javafx.beans.property.ReadOnlyLongWrapper();

    /**
     * Counts the changes of what the row shows (its values, badges, trend, work): one per change, or
     * one per {@link #beginUpdate}/{@link #endUpdate} however many values it changed. A drawn row
     * listens to this one property of its class instead of a listener per value.
     */
    public javafx.beans.property.ReadOnlyLongProperty revisionProperty() {
        return revision.getReadOnlyProperty();
    }

    /** The view model sets many properties of a row at once: the badges follow once, at {@link #endUpdate}. */
    void beginUpdate() {
        updating = true;
    }

    void endUpdate() {
        if (badgesStale) {
            badgesStale = false;
            refreshBadges(); // still updating: a change counts towards the one revision below
        }
        updating = false;
        if (revisionStale) {
            revisionStale = false;
            revision.set(revision.get() + 1);
        }
    }

    /** A new value only when the chips or their words changed, so a quiet tick redraws no cell. */
    private void refreshBadges() {
        Badges b = badges();
        if (!b.equals(badges.get())) {
            badges.set(b);
        }
    }

    private Badges badges() {
        List<StateChip> states = new java.util.ArrayList<>(overlays.get());
        List<String> detail = new java.util.ArrayList<>();
        if (!overlayDetail.get().isEmpty()) {
            detail.add(overlayDetail.get());
        }
        if (!drain.get().isEmpty()) {
            states.add(new StateChip(State.DRAINING, "DRAINING " + drain.get()));
        }
        if (!admission.get().isEmpty()) {
            // Admission as decided for producers supersedes the decision's advice.
            states.add(new StateChip(State.ADMISSION, "ADMISSION " + admission.get()));
            detail.add(admissionDetail.get());
        } else if (admissionDetail.get().isEmpty() && !admissionClosed.get().isEmpty()) {
            // Only for a class whose admission is not decided for producers (its detail is empty).
            states.add(new StateChip(State.ADMISSION_CLOSED, "ADMISSION CLOSED"));
            detail.add("admission closed: " + admissionClosed.get());
        }
        if (!poolsUnavailable.get().isEmpty()) {
            // A pool of a placed class cannot get nodes (decision 0029): a chip, not a column.
            states.add(new StateChip(State.POOL_UNAVAILABLE, poolsUnavailable.get()));
            detail.add(poolsDetail.get());
        }
        states.sort(java.util.Comparator.comparing(StateChip::state));
        if (!alertDetail.get().isEmpty()) {
            detail.add(alertDetail.get());
        }
        Badges b = new Badges(alerts.get(), String.join("\n", detail), proposal.get(), drain.get(), List.copyOf(states));
        severity.set(Severity.of(b.alerts(), !b.proposal().isEmpty(), b.states()));
        return b;
    }

    /** The severity the rows are ordered by now: the one at the last reorder (a new one waits while the pointer holds the order). */
    public Severity orderedSeverity() { return keySeverity; }

    /** How much the class needs the operator now (from its alerts, proposal and states). */
    public javafx.beans.property.ReadOnlyObjectProperty<Severity> severityProperty() { return severity.getReadOnlyProperty(); }
    /** Oldest age over the last 15 minutes and its worst moment, from the domain history. */
    public ObjectProperty<AgeTrend> trendProperty() { return trend; }
    /** The jobs by what they wait for (the detail's work strip, compact); null while the queue length is unknown. */
    public ObjectProperty<io.headroom.supervise.JobStates> workProperty() { return work; }

    /** "POOL UNAVAILABLE", "2 POOLS UNAVAILABLE", or empty: a placed class's pools that cannot get nodes. */
    public StringProperty poolsUnavailableProperty() { return poolsUnavailable; }
    /** Which pools, why, and where their share went (the chip's tooltip). */
    public StringProperty poolsDetailProperty() { return poolsDetail; }

    public String name() { return name; }
    /** The kubeconfig context (cluster) the class's workload lives in. */
    public String context() { return context; }
    public StringProperty modeProperty() { return mode; }
    public DoubleProperty queueLengthProperty() { return queueLength; }
    public DoubleProperty oldestAgeProperty() { return oldestAge; }
    public DoubleProperty ageObjectiveProperty() { return ageObjective; }
    public DoubleProperty arrivalRateProperty() { return arrivalRate; }
    public DoubleProperty serviceSecondsProperty() { return serviceSeconds; }
    /** -1 when the estimate could not be made (telemetry missing). */
    public IntegerProperty estimatedSlotsProperty() { return estimatedSlots; }
    /** -1 when not read at the last tick (the cluster unreadable, or its view stopped updating). */
    public IntegerProperty currentReplicasProperty() { return currentReplicas; }
    /** -1 when not read at the last tick. */
    public IntegerProperty readyReplicasProperty() { return readyReplicas; }
    /** -1 when no decision was made from replicas read at the last tick. */
    public IntegerProperty desiredReplicasProperty() { return desiredReplicas; }
    /** Why the replicas are unknown and what was last read, with when ("last known 4 (3) at 14:03:07; …"); empty while read. */
    public StringProperty replicasNoteProperty() { return replicasNote; }
    /** The binding ceiling and its limit; empty when none binds; "—" when no decision was made. */
    public StringProperty bindingCeilingProperty() { return bindingCeiling; }
    public ObjectProperty<List<Alert>> alertsProperty() { return alerts; }
    /** A tooltip-length sentence on the alerts. */
    public StringProperty alertDetailProperty() { return alertDetail; }
    /** The pending proposal as "3 → 8", or empty. */
    public StringProperty proposalProperty() { return proposal; }
    /** The running drain as "6 → 5", or empty. */
    public StringProperty drainProperty() { return drain; }
    /** The running drain's target, which the replicas column shows instead of the decision's; -1 when none. */
    public IntegerProperty drainToProperty() { return drainTo; }
    /** Frozen, pinned, auto: from supervised mode (the drain and admission have their own properties). */
    public ObjectProperty<List<StateChip>> overlaysProperty() { return overlays; }
    /** Who froze or pinned and why, for the alerts tooltip. */
    public StringProperty overlayDetailProperty() { return overlayDetail; }
    /** The class's admission for producers when not OPEN ("THROTTLE 2.5/s", "CLOSED"), else empty. */
    public StringProperty admissionProperty() { return admission; }
    /** Why, and what producers read: the admission chip's tooltip; set for every class that publishes, OPEN too. */
    public StringProperty admissionDetailProperty() { return admissionDetail; }
    /** Why admission is closed (the decision's admission advice), or empty while it is not. */
    public StringProperty admissionClosedProperty() { return admissionClosed; }
    /** Alerts, their detail, the proposal and the drain together: what the alerts column binds to. */
    public javafx.beans.property.ReadOnlyObjectProperty<Badges> badgesProperty() { return badges.getReadOnlyProperty(); }
}
