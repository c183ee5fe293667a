package io.headroom.ui.shell;

import io.headroom.decision.Decision;
import io.headroom.decision.InputStatus;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.DoubleConsumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** The window's own state: what it is connected to, how healthy that is, theme and sandbox speed. */
public final class MainViewModel {

    /** Health of one connection, as the top bar shows it. */
    public enum Health { UNKNOWN, OK, DEGRADED, DOWN }

    // Properties
    private final StringProperty context = new SimpleStringProperty("");
    private final StringProperty operator = new SimpleStringProperty("");
    private final StringProperty metricsSource = new SimpleStringProperty("");
    private final BooleanProperty sandbox = new SimpleBooleanProperty();
    private final ObjectProperty<Health> clusterHealth = new SimpleObjectProperty<>(Health.UNKNOWN);
    private final StringProperty clusterDetail = new SimpleStringProperty("waiting for the first tick");
    private final ObjectProperty<Health> metricsHealth = new SimpleObjectProperty<>(Health.UNKNOWN);
    private final StringProperty metricsDetail = new SimpleStringProperty("waiting for the first tick");
    private final ObjectProperty<Health> freshnessHealth = new SimpleObjectProperty<>(Health.UNKNOWN);
    private final StringProperty freshness = new SimpleStringProperty("—");
    private final StringProperty freshnessDetail = new SimpleStringProperty("waiting for the first tick");
    private final StringProperty sessionTime = new SimpleStringProperty("");
    private final DoubleProperty speed = new SimpleDoubleProperty(1);
    private final BooleanProperty darkTheme = new SimpleBooleanProperty(true);
    private final StringProperty warning = new SimpleStringProperty("");
    private String standingWarning = "";
    private final javafx.collections.ObservableList<String> contexts = javafx.collections.FXCollections
            .observableArrayList();
    private final StringProperty selectedContext = new SimpleStringProperty();
    private final StringProperty blocked = new SimpleStringProperty("");
    private final StringProperty blockedDetail = new SimpleStringProperty("");

    private final Duration tick;
    private final DoubleConsumer speedSink;
    private Instant lastTickAt;
    private int staleInputs;
    /** Inputs from answers Prometheus warned may be incomplete (PARTIAL), as of the last tick. */
    private int partialInputs;

    /**
     * @param tick the control interval, against which data freshness is judged
     * @param speedSink applies a new sandbox speed (off the FX thread's concern: it only retimes the loop)
     */
    public MainViewModel(String context, String metricsSource, boolean sandbox, Duration tick,
                         DoubleConsumer speedSink) {
        this.context.set(context);
        this.metricsSource.set(metricsSource);
        this.sandbox.set(sandbox);
        this.tick = tick;
        this.speedSink = speedSink;
    }

    public StringProperty contextProperty() { return context; }
    /** Who acts from this console (the kubeconfig user or --operator): written into every record and event. */
    public StringProperty operatorProperty() { return operator; }
    public StringProperty metricsSourceProperty() { return metricsSource; }
    public BooleanProperty sandboxProperty() { return sandbox; }
    public ObjectProperty<Health> clusterHealthProperty() { return clusterHealth; }
    public StringProperty clusterDetailProperty() { return clusterDetail; }
    public ObjectProperty<Health> metricsHealthProperty() { return metricsHealth; }
    public StringProperty metricsDetailProperty() { return metricsDetail; }
    public ObjectProperty<Health> freshnessHealthProperty() { return freshnessHealth; }
    public StringProperty freshnessProperty() { return freshness; }
    /** Which inputs are stale and how old, for the freshness field's tooltip. */
    public StringProperty freshnessDetailProperty() { return freshnessDetail; }
    public StringProperty sessionTimeProperty() { return sessionTime; }
    public DoubleProperty speedProperty() { return speed; }
    public BooleanProperty darkThemeProperty() { return darkTheme; }
    /** The contexts the session has open; the switcher shows them (with "all contexts") when there are several. */
    public javafx.collections.ObservableList<String> contexts() { return contexts; }
    public StringProperty selectedContextProperty() { return selectedContext; }
    /** "2 classes cannot be scaled from here", or empty; the reasons (lease holder, RBAC, HPA) in the detail. */
    public StringProperty blockedProperty() { return blocked; }
    public StringProperty blockedDetailProperty() { return blockedDetail; }

    /** Which classes this console may not actuate, and why (another console's lease, RBAC, an HPA). */
    public void applyAccess(java.util.Map<String, io.headroom.cluster.ActionCheck> access) {
        java.util.List<String> reasons = new java.util.ArrayList<>();
        access.forEach((cls, check) -> {
            if (!check.allowed()) {
                reasons.add(cls + ": " + check.reason());
            }
        });
        blocked.set(reasons.isEmpty() ? "" : reasons.size() + (reasons.size() == 1 ? " class" : " classes")
                + " observe-only here");
        blockedDetail.set(String.join("\n", reasons));
    }
    /** The top bar's warning: the standing one and what is unsafe about the connections; empty when none. */
    public javafx.beans.property.ReadOnlyStringProperty warningProperty() { return warning; }

    /** A warning that stays for the session (e.g. the journal could not be opened); empty for none. */
    public void setStandingWarning(String text) {
        standingWarning = text == null ? "" : text;
        warning.set(standingWarning);
    }

    // Commands

    /**
     * Takes the newest tick of a batch with the connections' own health, read on the loop's
     * thread at that tick: a disconnected or unsynced cluster and failing Prometheus requests say
     * so even before the classes show it.
     */
    public void apply(TickResult t, io.headroom.cluster.ClusterHealth cluster, io.headroom.metrics.MetricsHealth metrics) {
        apply(t);
        if (cluster != null && !cluster.connected()) {
            clusterHealth.set(Health.DOWN);
            clusterDetail.set("API unreachable" + (cluster.lastError() == null ? ""
                    : ": " + io.headroom.ui.PlainWords.detail(cluster.lastError())));
        } else if (cluster != null && !cluster.synced()) {
            clusterHealth.set(Health.DEGRADED);
            clusterDetail.set("syncing: " + String.join(", ", cluster.notReady()));
        } else if (cluster != null) {
            clusterDetail.set(clusterDetail.get() + " · " + cluster.requests() + " API requests"
                    + (cluster.staleSince() == null ? "" : " · stale since " + cluster.staleSince()));
        }
        java.util.List<String> warnings = new java.util.ArrayList<>();
        if (!standingWarning.isEmpty()) {
            warnings.add(standingWarning);
        }
        if (cluster != null) {
            warnings.addAll(cluster.warnings()); // TLS verification off, plain http
        }
        if (metrics != null) {
            warnings.addAll(metrics.warnings());
        }
        warning.set(String.join("; ", warnings.stream().distinct().toList()));
        if (metrics != null) {
            if (metrics.state() == io.headroom.metrics.MetricsHealth.State.FAILING) {
                metricsHealth.set(Health.DOWN);
            }
            metricsDetail.set(metricsDetail.get() + "\n" + metrics.detail());
        }
    }

    /**
     * Connection health follows what the tick could read; data freshness counts the inputs whose
     * newest sample is older than two polling intervals (stale), apart from inputs with no data.
     */
    public void apply(TickResult t) {
        lastTickAt = t.at();
        int classes = t.classes().size();
        int problems = 0;
        int missing = 0;
        int staleOnly = 0;
        java.util.List<String> stale = new java.util.ArrayList<>();
        java.util.List<String> partial = new java.util.ArrayList<>();
        int partialClasses = 0;
        for (ClassSnapshot s : t.classes()) {
            Decision d = s.decision();
            if (d == null) {
                problems++;
                continue;
            }
            boolean anyMissing = false;
            int partialBefore = partial.size();
            for (InputStatus in : d.inputs()) {
                if (in.status() == InputStatus.Status.PARTIAL) {
                    partial.add(s.name() + " · " + in.name() + ": " + io.headroom.ui.PlainWords.detail(in.reason()));
                } else if (in.status() == InputStatus.Status.STALE) {
                    stale.add(s.name() + " · " + in.name() + ": " + io.headroom.ui.PlainWords.reason(in.reason()));
                } else if (in.status() == InputStatus.Status.MISSING
                        && d.reasons().contains(io.headroom.decision.Reason.of(
                        io.headroom.decision.Reason.Code.TELEMETRY_MISSING, in.name()))) {
                    anyMissing = true;
                }
            }
            partialClasses += partial.size() > partialBefore ? 1 : 0;
            if (d.telemetryMissing()) {
                // Stale samples are answers from a healthy Prometheus about series that stopped; not "down".
                if (anyMissing) {
                    missing++;
                } else {
                    staleOnly++;
                }
            }
        }
        clusterHealth.set(problems == 0 ? Health.OK : problems == classes ? Health.DOWN : Health.DEGRADED);
        clusterDetail.set(problems == 0 ? classes + " workloads read"
                : problems + " of " + classes + " workloads unreadable");
        int decided = classes - problems;
        metricsHealth.set(missing > 0 && missing == decided ? Health.DOWN
                : missing + staleOnly + partialClasses > 0 ? Health.DEGRADED : Health.OK);
        List<String> said = new java.util.ArrayList<>();
        if (missing > 0) {
            said.add(missing + " of " + decided + " classes missing data");
        }
        if (staleOnly > 0) {
            said.add(staleOnly + " of " + decided + " classes on stale samples");
        }
        if (partialClasses > 0) {
            said.add(partialClasses + " of " + decided + " classes on partial answers (" + partial.get(0) + ")");
        }
        metricsDetail.set(said.isEmpty() ? "every class has data" : String.join("; ", said));
        staleInputs = stale.size();
        partialInputs = partial.size();
        freshnessDetail.set((stale.isEmpty() ? partial.isEmpty() ? "every input sampled within two polling intervals" : ""
                : stale.size() + (stale.size() == 1 ? " stale input" : " stale inputs")
                + " (newest sample older than two polling intervals):\n" + String.join("\n", stale))
                + (partial.isEmpty() ? "" : (stale.isEmpty() ? "" : "\n") + partial.size()
                + (partial.size() == 1 ? " partial input" : " partial inputs")
                + " (Prometheus warned the answer may be incomplete):\n" + String.join("\n", partial)));
    }

    /** Called about once a second with the session's time: how old is the newest tick? */
    public void updateClock(Instant now) {
        sessionTime.set(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss")
                .withZone(java.time.ZoneId.systemDefault()).format(now));
        if (lastTickAt == null) {
            freshness.set("—");
            freshnessHealth.set(Health.UNKNOWN);
            return;
        }
        double age = Math.max(0, Duration.between(lastTickAt, now).toMillis() / 1000.0);
        double interval = tick.toMillis() / 1000.0;
        freshness.set(Math.round(age) + " s ago" + (staleInputs == 0 ? "" : " · " + staleInputs + " stale")
                + (partialInputs == 0 ? "" : " · " + partialInputs + " partial"));
        Health byAge = age <= 1.5 * interval ? Health.OK : age <= 3 * interval ? Health.DEGRADED : Health.DOWN;
        freshnessHealth.set(byAge == Health.OK && staleInputs + partialInputs > 0 ? Health.DEGRADED : byAge);
    }

    public void setSpeed(double s) {
        if (s != speed.get()) {
            speed.set(s);
            speedSink.accept(s);
        }
    }

    public void toggleTheme() {
        darkTheme.set(!darkTheme.get());
    }
}
