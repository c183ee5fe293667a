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
    private final javafx.beans.property.IntegerProperty blockedCount = new javafx.beans.property.SimpleIntegerProperty();

    private final Duration tick;
    private final DoubleConsumer speedSink;
    private Instant lastTickAt;
    private int staleInputs;
    /** Inputs of the last tick with no value at all (Prometheus down, the cluster unread). */
    private int missingNow;
    /** Inputs from answers Prometheus warned may be incomplete (PARTIAL), as of the last tick. */
    private int partialInputs;
    /** What the last tick's inputs say of the data, before its age is judged. */
    private Health byInputs = Health.OK;
    /** Each input not sampled fresh at the last tick ("reports · queueLength"), and since when. */
    private final java.util.Map<String, Instant> since = new java.util.HashMap<>();
    /** The first tick at which the metrics source's requests were failing, null while they succeed. */
    private Instant metricsFailingSince;

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
    /** How many classes this console may not actuate (the chip's short form). */
    public javafx.beans.property.ReadOnlyIntegerProperty blockedCountProperty() { return blockedCount; }

    /** Which classes this console may not actuate, and why (another console's lease, RBAC, an HPA). */
    public void applyAccess(java.util.Map<String, io.headroom.cluster.ActionCheck> access) {
        java.util.List<String> reasons = new java.util.ArrayList<>();
        access.forEach((cls, check) -> {
            if (!check.allowed()) {
                reasons.add(cls + ": " + check.reason());
            }
        });
        blockedCount.set(reasons.size());
        blocked.set(ChipWords.blocked(reasons.size(), false));
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
     * so even before the classes show it, with since when.
     */
    public void apply(TickResult t, io.headroom.cluster.ClusterHealth cluster, io.headroom.metrics.MetricsHealth metrics) {
        judge(t, metrics != null && metrics.state() == io.headroom.metrics.MetricsHealth.State.FAILING);
        if (cluster != null && !cluster.connected()) {
            clusterHealth.set(Health.DOWN);
            clusterDetail.set("API unreachable" + (cluster.lastError() == null ? ""
                    : ": " + io.headroom.ui.PlainWords.detail(cluster.lastError()))
                    + (cluster.staleSince() == null ? "" : " · since " + clockTime(cluster.staleSince())));
        } else if (cluster != null && !cluster.synced()) {
            clusterHealth.set(Health.DEGRADED);
            clusterDetail.set("syncing: " + String.join(", ", cluster.notReady()));
        } else if (cluster != null) {
            clusterDetail.set(clusterDetail.get() + " · " + cluster.requests() + " API requests"
                    + (cluster.staleSince() == null ? "" : " · stale since " + clockTime(cluster.staleSince())));
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
            boolean failing = metrics.state() == io.headroom.metrics.MetricsHealth.State.FAILING;
            if (!failing) {
                metricsFailingSince = null;
            } else if (metricsFailingSince == null) {
                metricsFailingSince = t.at();
            }
            if (failing) {
                metricsHealth.set(Health.DOWN);
            }
            // The source's own sentence may carry its client's codes and class names: said in words here.
            metricsDetail.set(metricsDetail.get() + "\n" + io.headroom.ui.PlainWords.sentence(metrics.detail())
                    + (failing ? "\nfailing since " + clockTime(metricsFailingSince) : ""));
        }
    }

    /** As {@link #apply(TickResult, io.headroom.cluster.ClusterHealth, io.headroom.metrics.MetricsHealth)} without the connections' own health. */
    public void apply(TickResult t) {
        judge(t, false);
    }

    /**
     * Connection health follows what the tick could read. Data is green only when every input of the
     * tick was sampled within two polling intervals: each class's replicas (an unreadable cluster, or a
     * cluster view whose watches are down, leaves them unread) and its signals: any stale one, and any
     * missing one the decision needed or that a failing metrics source could not read. (A signal with
     * no value the decision did not need, such as the mean service time of a queue that completed
     * nothing, was read: there is nothing to sample.) What was not is counted and listed with since when.
     */
    private void judge(TickResult t, boolean metricsFailing) {
        lastTickAt = t.at();
        int classes = t.classes().size();
        int problems = 0;
        int missing = 0;
        int staleOnly = 0;
        int inputs = 0;
        List<String> notFresh = new java.util.ArrayList<>();
        int missingInputs = 0;
        int staleInputsNow = 0;
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<String> partial = new java.util.ArrayList<>();
        int partialClasses = 0;
        for (ClassSnapshot s : t.classes()) {
            Decision d = s.decision();
            boolean anyMissing = false;
            boolean anyStale = false;
            if (d == null) {
                problems++;
                // Undecided (the cluster cannot be read): the signals were still read, and judged here.
                for (var e : s.signals().entrySet()) {
                    io.headroom.decision.Signal sig = e.getValue();
                    if (sig.notCollected()) {
                        continue;
                    }
                    inputs++;
                    if (!sig.present()) {
                        if (metricsFailing) { // which are needed is the decision's to say; none was made
                            anyMissing = true;
                            missingInputs++;
                            notFresh.add(line(t, seen, s.name(), e.getKey().id(), "missing", null,
                                    io.headroom.ui.PlainWords.reason(sig.missingReason())));
                        }
                    } else if (sig.sampledAt().isBefore(t.at().minus(twoPolls(s)))) {
                        anyStale = true;
                        staleInputsNow++;
                        notFresh.add(line(t, seen, s.name(), e.getKey().id(), "stale", sig.sampledAt(),
                                "newest sample older than two polling intervals"));
                    }
                }
            } else {
                int partialBefore = partial.size();
                for (InputStatus in : d.inputs()) {
                    switch (in.status()) {
                        case OK -> inputs++;
                        case STALE -> {
                            inputs++;
                            staleInputsNow++;
                            notFresh.add(line(t, seen, s.name(), in.name().id(), "stale", in.sampledAt(),
                                    io.headroom.ui.PlainWords.reason(in.reason())));
                        }
                        case MISSING -> {
                            inputs++;
                            boolean needed = d.reasons().contains(io.headroom.decision.Reason.of(
                                    io.headroom.decision.Reason.Code.TELEMETRY_MISSING, in.name()));
                            anyMissing |= needed;
                            if (needed || metricsFailing) {
                                missingInputs++;
                                notFresh.add(line(t, seen, s.name(), in.name().id(), "missing", null,
                                        io.headroom.ui.PlainWords.reason(in.reason())));
                            }
                        }
                        case PARTIAL -> {
                            inputs++;
                            partial.add(s.name() + " · " + in.name() + ": " + io.headroom.ui.PlainWords.detail(in.reason()));
                        }
                        case NOT_COLLECTED -> { }
                    }
                }
                anyStale = d.telemetryMissing() && !anyMissing;
                partialClasses += partial.size() > partialBefore ? 1 : 0;
            }
            // The replicas are an input too: read from the cluster at this tick, or not.
            inputs++;
            if (s.workload() == null) {
                missingInputs++;
                notFresh.add(line(t, seen, s.name(), "replicas", "missing", null,
                        io.headroom.ui.PlainWords.reason(s.problem())));
            } else if (!s.workloadCurrent()) {
                staleInputsNow++;
                notFresh.add(line(t, seen, s.name(), "replicas", "stale", s.workload().observedAt(),
                        "the cluster's view stopped updating; the last replicas read are from then"));
            }
            // Stale samples are answers from a healthy Prometheus about series that stopped; not "down".
            if (anyMissing) {
                missing++;
            } else if (anyStale) {
                staleOnly++;
            }
        }
        since.keySet().retainAll(seen);
        clusterHealth.set(problems == 0 ? Health.OK : problems == classes ? Health.DOWN : Health.DEGRADED);
        clusterDetail.set(problems == 0 ? classes + " workloads read"
                : problems + " of " + classes + " workloads unreadable");
        metricsHealth.set(missing > 0 && missing == classes ? Health.DOWN
                : missing + staleOnly + partialClasses > 0 ? Health.DEGRADED : Health.OK);
        List<String> said = new java.util.ArrayList<>();
        if (missing > 0) {
            said.add(missing + " of " + classes + " classes missing data");
        }
        if (staleOnly > 0) {
            said.add(staleOnly + " of " + classes + " classes on stale samples");
        }
        if (partialClasses > 0) {
            said.add(partialClasses + " of " + classes + " classes on partial answers (" + partial.get(0) + ")");
        }
        metricsDetail.set(said.isEmpty() ? "every class has data" : String.join("; ", said));
        missingNow = missingInputs;
        staleInputs = staleInputsNow;
        partialInputs = partial.size();
        int bad = missingInputs + staleInputsNow;
        byInputs = bad == 0 ? partial.isEmpty() ? Health.OK : Health.DEGRADED
                : bad >= inputs ? Health.DOWN : Health.DEGRADED;
        freshnessDetail.set((notFresh.isEmpty() ? partial.isEmpty() ? "every input sampled within two polling intervals" : ""
                : bad + " of " + inputs + (inputs == 1 ? " input" : " inputs")
                + " not sampled within two polling intervals:\n" + String.join("\n", notFresh))
                + (partial.isEmpty() ? "" : (notFresh.isEmpty() ? "" : "\n") + partial.size()
                + (partial.size() == 1 ? " partial input" : " partial inputs")
                + " (Prometheus warned the answer may be incomplete):\n" + String.join("\n", partial)));
    }

    /**
     * One input that was not sampled fresh, with since when: for a stale one its newest sample; for a
     * missing one the first tick it went missing (kept while it stays so).
     */
    private String line(TickResult t, java.util.Set<String> seen, String cls, String input, String state,
                        Instant sampled, String why) {
        String key = cls + " · " + input;
        seen.add(key);
        Instant from = sampled != null ? sampled : since.computeIfAbsent(key, k -> t.at());
        if (sampled != null) {
            since.put(key, sampled);
        }
        return key + ": " + state + " since " + clockTime(from) + " — " + why;
    }

    private static Duration twoPolls(ClassSnapshot s) {
        return Duration.ofMillis(Math.round(2000 * s.cls().policy().pollIntervalSeconds()));
    }

    /** A time of day as the top bar says it ({@code 14:03:07}, the machine's zone). */
    static String clockTime(Instant at) {
        return io.headroom.ui.Format.time(at);
    }

    /** Called about once a second with the session's time: how old is the newest tick? */
    public void updateClock(Instant now) {
        sessionTime.set(clockTime(now));
        if (lastTickAt == null) {
            freshness.set("—");
            freshnessHealth.set(Health.UNKNOWN);
            return;
        }
        double age = Math.max(0, Duration.between(lastTickAt, now).toMillis() / 1000.0);
        double interval = tick.toMillis() / 1000.0;
        freshness.set(Math.round(age) + " s ago" + (missingNow == 0 ? "" : " · " + missingNow + " missing")
                + (staleInputs == 0 ? "" : " · " + staleInputs + " stale")
                + (partialInputs == 0 ? "" : " · " + partialInputs + " partial"));
        Health byAge = age <= 1.5 * interval ? Health.OK : age <= 3 * interval ? Health.DEGRADED : Health.DOWN;
        freshnessHealth.set(byAge.ordinal() >= byInputs.ordinal() ? byAge : byInputs); // the worse of the two
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
