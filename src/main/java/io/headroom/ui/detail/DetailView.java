package io.headroom.ui.detail;

import io.headroom.ui.fx.Tips;
import io.headroom.ui.Styles;
import io.headroom.ui.chart.ChartSeries;
import io.headroom.ui.chart.ChartTheme;
import io.headroom.ui.chart.ForecastBand;
import io.headroom.ui.chart.ReferenceLine;
import io.headroom.history.SeriesBuffer;
import io.headroom.ui.chart.SeriesKind;
import io.headroom.ui.chart.TimeAxis;
import io.headroom.ui.chart.TimeChart;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.HPos;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;

/**
 * The class detail: three charts on one time axis (age and queue; capacity, desired and ceilings
 * in slots; arrivals and service time) and the live decision with its numbers beside them.
 */
public final class DetailView extends VBox {
    public static final String AGE_CHART_ID = "chart-age";
    public static final String CAPACITY_CHART_ID = "chart-capacity";
    public static final String LOAD_CHART_ID = "chart-load";
    public static final String HEADLINE_ID = "decision-headline";
    public static final String EXPLANATION_ID = "decision-explanation";

    /** Windows the operator can pick, in seconds. */
    static final List<Integer> WINDOWS = List.of(300, 900, 3600, 6 * 3600, 24 * 3600, 7 * 24 * 3600);
    static final List<String> WINDOW_LABELS = List.of("5m", "15m", "1h", "6h", "24h", "7d");
    /** Id of the window selector's button for a label: "window-7d". */
    public static String windowId(String label) {
        return "window-" + label;
    }

    /** Colours with a meaning of their own, readable on both themes. */
    static final Color DESIRED = Color.web("#a371f7");
    static final Color CEILING = Color.web("#e5534b");
    static final Color GOVERNOR = Color.web("#39c5cf");

    private final DetailViewModel vm;
    private final TimeAxis axis;
    private final TimeChart ageChart;
    private final TimeChart capacityChart;
    private final TimeChart loadChart;
    private final List<TimeChart> charts;
    private final PodPanelViewModel pods = new PodPanelViewModel();
    /** Whether the POOLS section shows: only for a class placed across pools. */
    private javafx.beans.binding.BooleanBinding poolsShown;

    /** @param clock the session's clock: in the sandbox, simulated time may run faster than the wall. */
    public DetailView(DetailViewModel vm, java.time.Clock clock) {
        this.vm = vm;
        poolsShown = javafx.beans.binding.Bindings.isNotEmpty(vm.pools());
        axis = new TimeAxis(clock, java.time.ZoneId.systemDefault());
        ageChart = new TimeChart("Oldest age", axis);
        capacityChart = new TimeChart("Capacity in slots (replicas × slots per replica)", axis);
        loadChart = new TimeChart("Load", axis);
        charts = List.of(ageChart, capacityChart, loadChart);
        getStyleClass().add(Styles.DETAIL);

        ageChart.setId(AGE_CHART_ID);
        capacityChart.setId(CAPACITY_CHART_ID);
        loadChart.setId(LOAD_CHART_ID);
        ageChart.setUnit("s");
        capacityChart.setUnit("slots");
        loadChart.setUnit("jobs/s");
        axis.setWindowLength(900);
        axis.setFollowLive(true);

        VBox chartBox = new VBox();
        chartBox.getStyleClass().add(Styles.CHARTS);
        for (TimeChart c : charts) {
            VBox.setVgrow(c, Priority.ALWAYS);
            c.setMinHeight(90); // three charts fit under five classes at 1280×800
            chartBox.getChildren().add(panel(c));
        }
        HBox.setHgrow(chartBox, Priority.ALWAYS);

        Node decision = decisionPanel();
        HBox body = new HBox(10, chartBox, decision);
        VBox.setVgrow(body, Priority.ALWAYS);
        getChildren().addAll(header(), body);

        vm.structureProperty().addListener((o, a, b) -> rebuildSeries());
        // Opening a class, or widening the window, fills the charts from history where the
        // metrics source keeps it (Prometheus query_range); results arrive on the FX thread.
        // The range selector sets the view model's window; the axis follows it (M4 keeps a 24 h
        // view at a few points per pixel column).
        Runnable backfill = () -> vm.backfill(vm.windowProperty().get(), (int) Math.max(200, ageChart.getWidth()));
        vm.classNameProperty().addListener((o, a, b) -> backfill.run());
        vm.windowProperty().addListener((o, a, w) -> showForecast());
        // At 7 d, the part of the week not read yet says how far the backfill got, not a blank chart.
        // The age and capacity charts say so where the week's history lacks their series (the sandbox's past has
        // arrivals and service time only), not "no data" over six days, which reads like an outage.
        Runnable pending = () -> {
            ageChart.setPending(vm.weekAgePendingUntilProperty().get(), vm.weekAgePendingProperty().get());
            capacityChart.setPending(vm.weekCapacityPendingUntilProperty().get(), vm.weekCapacityPendingProperty().get());
            loadChart.setPending(vm.weekPendingUntilProperty().get(), vm.weekPendingProperty().get());
        };
        for (javafx.beans.Observable p : List.of(vm.weekPendingProperty(), vm.weekPendingUntilProperty(),
                vm.weekAgePendingProperty(), vm.weekAgePendingUntilProperty(), vm.weekCapacityPendingProperty(),
                vm.weekCapacityPendingUntilProperty())) {
            p.addListener(o -> pending.run());
        }
        vm.revisionProperty().addListener((o, a, b) -> onNewPoints());
        // The pod panel follows the selected class's latest tick.
        vm.revisionProperty().addListener((o, a, b) -> pods.show(vm.latest(vm.classNameProperty().get())));
        vm.ageObjectiveProperty().addListener((o, a, b) -> updateObjective());
        // The forecast under the live lines, its next hours right of now (a quarter of the window kept for them).
        vm.forecast().loadBandProperty().addListener((o, a, b) -> showForecast());
        vm.forecast().capacityBandProperty().addListener((o, a, b) -> showForecast());
        showForecast();
        setDarkTheme(true);
    }

    /** The decision panel's sections at its foot (reasons, terms, ceilings, inputs), below the fold at any size. */
    private final List<Node> belowTheFold = new java.util.ArrayList<>();
    private VBox decisionContent;

    /**
     * Leaves the decision panel's foot (reasons, terms, ceilings, inputs: a sixth of the console's nodes, below the
     * fold at every window size) out of the first frame this view is drawn in, and adds it, filled, right after it
     * (issue 28: the console's start). Call before the view is in a scene; the console does, tests need not.
     */
    public void buildBelowTheFoldAfterFirstFrame(java.util.concurrent.Executor fx) {
        decisionContent.getChildren().removeAll(belowTheFold);
        io.headroom.ui.fx.FirstFrame.after(this, fx, () -> decisionContent.getChildren().addAll(belowTheFold));
    }

    /** Whether the decision panel's foot is in the view (false only until the first frame, when deferred). */
    public boolean belowTheFoldShown() {
        return decisionContent.getChildren().containsAll(belowTheFold);
    }

    /** Share of the window right of now while the class has a forecast band. */
    static final double LOOK_AHEAD = 0.25;
    /** The most of the window kept right of now, for a rise further ahead than {@link #LOOK_AHEAD}. */
    static final double LOOK_AHEAD_FOR_A_RISE = 2.0 / 3;
    /** A slot this many times the band's first slot (p80) is a rise. */
    static final double RISE = 1.5;

    /**
     * Seconds of a window of {@code w} seconds kept right of {@code now} for {@code band}: a quarter of it, or, when the
     * band rises (p80 1.5× its first slot's) beyond that and within two thirds of the window, as far as the slot
     * after the rise; never beyond the band's end, 0 without a band.
     */
    static double lookAhead(ForecastBand band, double now, double w) {
        if (band == null || band.size() == 0) {
            return 0;
        }
        double end = band.times()[band.size() - 1] + band.slotSeconds() - now;
        double ahead = LOOK_AHEAD * w;
        int first = -1;
        for (int i = 0; i < band.size(); i++) {
            if (band.times()[i] + band.slotSeconds() > now && band.p80()[i] == band.p80()[i]) {
                first = i;
                break;
            }
        }
        for (int i = first + 1; first >= 0 && i < band.size(); i++) {
            double t = band.times()[i] - now;
            if (t > LOOK_AHEAD_FOR_A_RISE * w) {
                break;
            }
            if (band.p80()[i] >= RISE * band.p80()[first] && band.p80()[i] > 0) {
                ahead = Math.max(ahead, Math.min(LOOK_AHEAD_FOR_A_RISE * w, t + band.slotSeconds()));
                break;
            }
        }
        return Math.max(0, Math.min(ahead, end));
    }

    /**
     * The bands on their charts and the axis's window: the chosen window, a share of it (at most a quarter) right of
     * now for the band's hours; at 7 d the band's hours are added beside the whole week.
     */
    private void showForecast() {
        ForecastBand band = vm.forecast().loadBandProperty().get();
        loadChart.setForecastBand(band);
        capacityChart.setForecastBand(vm.forecast().capacityBandProperty().get());
        double w = vm.windowProperty().get().toSeconds();
        double ahead = lookAhead(band, axis.now(), w);
        double length = vm.weekShown() ? w + Math.max(0, ahead) : w;
        axis.setWindowLength(length);
        axis.setLookAhead(Math.max(0, ahead) / length);
    }

    /** Switches the charts' palette with the window's theme. */
    public void setDarkTheme(boolean dark) {
        ChartTheme theme = dark ? ChartTheme.dark() : ChartTheme.light();
        for (TimeChart c : charts) {
            c.setTheme(theme);
        }
    }

    /** The pod panel's view model (the console gives it the operator's drain flow). */
    public PodPanelViewModel pods() {
        return pods;
    }

    public TimeAxis timeAxis() {
        return axis;
    }

    public List<TimeChart> charts() {
        return charts;
    }

    private final HBox controls = new HBox();
    /** The class's published admission (design.md §2b), under the advice: {@link #setAdmission}. */
    private final VBox admissionSlot = new VBox();
    public static final String POLICY_EDITED_ID = "policy-edited";
    public static final String POLICY_REVERT_ID = "policy-revert";

    /** The decision's admission advice (chip and words), for a class whose admission is not published. */
    private final VBox admissionAdvice = new VBox(8);

    /**
     * Puts what producers read of the class's admission (and a tightening to approve) where the decision's
     * admission advice is: while {@code node} is shown, it alone says the class's admission (issue 30).
     */
    public void setAdmission(Node node) {
        admissionSlot.getChildren().setAll(node);
        admissionAdvice.visibleProperty().bind(node.visibleProperty().not());
        admissionAdvice.managedProperty().bind(admissionAdvice.visibleProperty());
    }

    /** Puts the class's actuation controls (mode, freeze, override) in the header. */
    public void setControls(Node node) {
        controls.getChildren().setAll(node);
        HBox.setHgrow(node, Priority.ALWAYS); // its status line takes the rest of the line, and only it gives way
    }

    private Node header() {
        Label title = new Label();
        title.textProperty().bind(vm.classNameProperty());
        title.getStyleClass().add(Styles.CLASS_TITLE);
        Label policy = new Label();
        policy.textProperty().bind(vm.policySummaryProperty());
        policy.getStyleClass().add(Styles.MUTED);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);

        ToggleGroup group = new ToggleGroup();
        HBox windows = new HBox(2);
        windows.setAlignment(javafx.geometry.Pos.CENTER_RIGHT);
        Label label = new Label("Window");
        label.getStyleClass().add(Styles.MUTED);
        windows.getChildren().add(label);
        HBox.setMargin(label, new Insets(0, 6, 0, 0));
        for (int i = 0; i < WINDOWS.size(); i++) {
            ToggleButton b = new ToggleButton(WINDOW_LABELS.get(i));
            b.setId(windowId(WINDOW_LABELS.get(i)));
            b.setUserData(WINDOWS.get(i));
            b.setToggleGroup(group);
            Tips.set(b, "Chart window" + (i == WINDOWS.size() - 1 ? ": the week, a point a minute" : "")
                    + " (Tab here, then ← → to change it)");
            b.setSelected(WINDOWS.get(i) == vm.windowProperty().get().toSeconds());
            windows.getChildren().add(b);
        }
        // Keyboard: Tab reaches the chosen window; ← and → choose the one beside it (Home, End: the ends).
        windows.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, e -> {
            int at = group.getToggles().indexOf(group.getSelectedToggle());
            int to = switch (e.getCode()) {
                case LEFT, KP_LEFT -> at - 1;
                case RIGHT, KP_RIGHT -> at + 1;
                case HOME -> 0;
                case END -> group.getToggles().size() - 1;
                default -> -2;
            };
            if (to == -2) {
                return;
            }
            e.consume();
            if (to >= 0 && to < group.getToggles().size()) {
                ToggleButton b = (ToggleButton) group.getToggles().get(to);
                group.selectToggle(b);
                b.requestFocus();
            }
        });
        // One Tab stop for the selector, the chosen window's button.
        Runnable roving = () -> group.getToggles().forEach(t -> ((ToggleButton) t).setFocusTraversable(t.isSelected()));
        roving.run();
        group.selectedToggleProperty().addListener((obs, old, sel) -> roving.run());
        group.selectedToggleProperty().addListener((obs, old, sel) -> {
            if (sel == null) {
                old.setSelected(true);
            } else {
                vm.showWindow(java.time.Duration.ofSeconds((Integer) sel.getUserData()),
                        (int) Math.max(200, ageChart.getWidth()));
            }
        });
        Label history = new Label();
        history.textProperty().bind(vm.backfillStatusProperty());
        history.getStyleClass().add(Styles.FAINT);
        Label edited = new Label("POLICY EDITED");
        edited.setId(POLICY_EDITED_ID);
        edited.getStyleClass().addAll(Styles.CHIP, Styles.WARN);
        Tips.bind(edited, vm.policyEditProperty());
        Button revert = new Button("Revert");
        revert.setId(POLICY_REVERT_ID);
        Tips.set(revert, "Back to the workloads file's policy (journaled)");
        revert.setOnAction(e -> vm.revertPolicy());
        HBox editBox = new HBox(6, edited, revert);
        editBox.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        HBox.setMargin(editBox, new Insets(0, 0, 0, 10));
        editBox.visibleProperty().bind(vm.policyEditProperty().isNotEmpty());
        editBox.managedProperty().bind(editBox.visibleProperty());
        HBox header = new HBox(title, policy, editBox, spacer, history, windows);
        header.getStyleClass().add(Styles.DETAIL_HEADER);
        header.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        // Actuation controls get their own line: their state text must never push buttons off screen.
        return new VBox(2, header, controls);
    }

    private static Node panel(TimeChart c) {
        VBox p = new VBox(c);
        p.getStyleClass().add(Styles.CHART_PANEL);
        VBox.setVgrow(p, Priority.ALWAYS);
        VBox.setVgrow(c, Priority.ALWAYS);
        return p;
    }

    private Node decisionPanel() {
        Label headline = new Label();
        headline.setId(HEADLINE_ID);
        headline.getStyleClass().add(Styles.HEADLINE);
        headline.textProperty().bind(vm.headlineProperty());
        // A held class's headline says the hold and what the decision would do: it wraps, never cut with "…".
        headline.setWrapText(true);
        headline.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        vm.directionProperty().addListener((o, a, dir) -> Styles.toggle(headline,
                List.of("up", "down", "hold", "problem"), dir));

        Label admissionChip = new Label();
        admissionChip.getStyleClass().add(Styles.CHIP);
        admissionChip.textProperty().bind(javafx.beans.binding.Bindings.concat("ADMISSION ",
                vm.admissionStateProperty()));
        vm.admissionStateProperty().addListener((o, a, s) -> Styles.toggle(admissionChip,
                List.of(Styles.OK, Styles.WARN, Styles.DANGER), switch (s == null ? "" : s) {
                    case "OPEN" -> Styles.OK;
                    case "THROTTLE" -> Styles.WARN;
                    case "CLOSED" -> Styles.DANGER;
                    default -> null;
                }));
        Label admission = new Label();
        admission.textProperty().bind(vm.admissionProperty());
        admission.getStyleClass().add(Styles.MUTED);
        admission.setWrapText(true);
        admissionAdvice.getChildren().setAll(new HBox(8, admissionChip), admission);

        Label explanation = new Label();
        explanation.setId(EXPLANATION_ID);
        explanation.getStyleClass().add(Styles.EXPLANATION);
        explanation.textProperty().bind(vm.explanationProperty());
        explanation.setWrapText(true);
        explanation.setMinHeight(Region.USE_PREF_SIZE);

        GridPane terms = grid();
        GridPane ceilings = grid();
        GridPane inputs = grid();
        FlowPane reasons = new FlowPane();
        reasons.getStyleClass().add(Styles.REASONS);

        rebuildOnChange(vm.terms(), () -> fillTerms(terms));
        rebuildOnChange(vm.ceilings(), () -> fillCeilings(ceilings));
        rebuildOnChange(vm.inputs(), () -> fillInputs(inputs));
        rebuildOnChange(vm.reasons(), () -> {
            reasons.getChildren().clear();
            for (String r : vm.reasons()) {
                Label chip = new Label(r);
                chip.getStyleClass().add(Styles.CHIP);
                reasons.getChildren().add(chip);
            }
        });

        Label actuation = new Label();
        actuation.textProperty().bind(vm.actuationProperty());
        actuation.setWrapText(true);
        actuation.getStyleClass().add(Styles.MUTED);
        Label other = new Label();
        other.textProperty().bind(vm.autoscalerProperty());
        other.setWrapText(true);
        other.getStyleClass().add(Styles.TERM_FORMULA);
        Label otherTitle = section("OTHER AUTOSCALER");
        otherTitle.visibleProperty().bind(vm.autoscalerProperty().isNotEmpty());
        otherTitle.managedProperty().bind(otherTitle.visibleProperty());
        other.visibleProperty().bind(vm.autoscalerProperty().isNotEmpty());
        other.managedProperty().bind(other.visibleProperty());
        VBox content = new VBox(8, headline, admissionAdvice, admissionSlot, explanation,
                actuation, otherTitle, other, section("THE WORK"), workStrip(),
                section("FORECAST"), new ForecastPanel(vm.forecast()), section("PODS"), new PodPanel(pods));
        belowTheFold.addAll(List.of(shownWhen(section("REASONS"), vm.reasonsShownProperty()),
                shownWhen(reasons, vm.reasonsShownProperty()), section("TERMS"), terms, section("CEILINGS"), ceilings,
                section("INPUTS"), inputs));
        content.getChildren().addAll(belowTheFold);
        decisionContent = content;
        content.getStyleClass().add(Styles.DECISION_PANEL);
        // POOLS (issue 30) just before PODS, added apart from the list above: sections others add there merge beside it.
        int pods = content.getChildren().indexOf(content.getChildren().stream().filter(n -> n instanceof PodPanel)
                .findFirst().orElseThrow()) - 1;
        content.getChildren().addAll(pods, List.of(shownWhen(section("POOLS"), poolsShown), poolPanel()));
        ScrollPane scroll = new ScrollPane(content);
        scroll.setFitToWidth(true);
        scroll.setHbarPolicy(ScrollPane.ScrollBarPolicy.NEVER);
        scroll.setPrefWidth(460);
        scroll.setMinWidth(380);
        io.headroom.ui.FocusReveal.install(scroll); // Tab to a pod's Drain… below the fold brings it into view
        return scroll;
    }

    /** Ids of the work strip's counts, in order: queued, starting, executing, awaiting approval, held back. */
    public static final List<String> WORK_IDS = List.of("work-queued", "work-starting", "work-executing",
            "work-awaiting", "work-held");

    /** The user's view of the work (design.md §1): five counts, each with what it means. */
    private Node workStrip() {
        String[] names = {"queued", "starting", "executing", "awaiting approval", "held back"};
        String[] tips = {
            "Jobs waiting their turn: no more capacity is on its way for them",
            "Jobs waiting for pods that are starting (created, not ready)",
            "Jobs in flight on ready pods",
            "Jobs waiting for capacity a proposal asks you to approve",
            "Jobs waiting for capacity the decision wants but a limit (ceiling, governor, freeze, override, "
                    + "maxReplicas, observe mode) holds back"};
        GridPane g = new GridPane();
        g.setHgap(14);
        g.getStyleClass().add("work-strip");
        Label[] counts = new Label[names.length];
        for (int i = 0; i < names.length; i++) {
            counts[i] = new Label("—");
            counts[i].setId(WORK_IDS.get(i));
            counts[i].getStyleClass().addAll(Styles.NUMERIC, "work-count");
            Label name = new Label(names[i]);
            name.getStyleClass().add(Styles.MUTED);
            Tips.set(counts[i], tips[i]);
            Tips.set(name, tips[i]);
            g.add(counts[i], i, 0);
            g.add(name, i, 1);
        }
        Label heldBy = new Label();
        heldBy.getStyleClass().add(Styles.MUTED);
        heldBy.setWrapText(true);
        heldBy.managedProperty().bind(heldBy.visibleProperty());
        Runnable fill = () -> {
            io.headroom.supervise.JobStates w = vm.workProperty().get();
            long[] v = w == null ? null
                    : new long[] {w.queued(), w.starting(), w.executing(), w.awaitingApproval(), w.heldBack()};
            for (int i = 0; i < counts.length; i++) {
                counts[i].setText(v == null ? "—" : Long.toString(v[i]));
                Styles.toggle(counts[i], List.of(Styles.WARN), v != null && v[i] > 0 && (i == 3 || i == 4)
                        ? Styles.WARN : null);
            }
            String limit = w == null || w.heldBy() == null ? "" : w.heldBack() + " held back by " + w.heldBy();
            String admission = w == null ? "" : w.admissionWords();
            heldBy.setText(limit.isEmpty() && !admission.isEmpty() ? admission.substring(3) : limit + admission);
            heldBy.setVisible(!heldBy.getText().isEmpty());
        };
        vm.workProperty().addListener((o, a, b) -> fill.run());
        fill.run();
        // Beside "held back by admission": replicas no available pool takes (decision 0029).
        Label pool = new Label();
        pool.setId(WORK_POOL_ID);
        pool.getStyleClass().add(Styles.WARN);
        pool.setWrapText(true);
        pool.setMinHeight(Region.USE_PREF_SIZE);
        pool.managedProperty().bind(pool.visibleProperty());
        Tips.set(pool, "Replicas the class needs that no available pool can take: those that fit"
                + " no pool, and pods pending in a pool whose nodes cannot be had");
        Runnable poolFill = () -> {
            PoolBreakdown.Waiting w = vm.poolWaitingProperty().get();
            pool.setText(w == null ? "" : w.words());
            pool.setVisible(!pool.getText().isEmpty());
        };
        vm.poolWaitingProperty().addListener((o, a, b) -> poolFill.run());
        poolFill.run();
        return new VBox(2, g, heldBy, pool);
    }

    /** Id of the POOLS section's grid, and of the work strip's "waiting for a pool" line. */
    public static final String POOLS_ID = "pools";
    public static final String WORK_POOL_ID = "work-pool";

    /**
     * The per-pool breakdown of a placed class (decision 0029): each pool's share and spec / ready on one line,
     * under it its bound and cost weight, whether it is available (or why not) and why it got what it got.
     */
    private Node poolPanel() {
        GridPane g = new GridPane();
        g.setId(POOLS_ID);
        g.getStyleClass().add(Styles.GRID);
        g.setHgap(10);
        g.setVgap(2);
        for (int i = 0; i < 3; i++) {
            ColumnConstraints c = new ColumnConstraints();
            c.setMinWidth(Region.USE_PREF_SIZE);
            if (i > 0) {
                c.setHalignment(HPos.RIGHT);
            }
            g.getColumnConstraints().add(c);
        }
        ColumnConstraints rest = new ColumnConstraints();
        rest.setHgrow(Priority.ALWAYS);
        g.getColumnConstraints().add(rest);
        Runnable fill = () -> {
            g.getChildren().clear();
            if (vm.pools().isEmpty()) {
                return;
            }
            g.addRow(0, cell("pool", Styles.MUTED), cell("share", Styles.MUTED), cell("spec / ready", Styles.MUTED));
            int row = 1;
            for (PoolBreakdown.PoolRow p : vm.pools()) {
                Label name = cell(p.pool(), p.available() ? Styles.TERM_NAME : Styles.BAD);
                name.setId("pool-" + p.pool());
                g.addRow(row++, name, cell(p.share(), Styles.TERM_VALUE), cell(p.specReady(), Styles.TERM_VALUE));
                Label bound = wrap(cell("bound " + p.bound() + " · cost " + p.cost(), Styles.MUTED));
                bound.setId("pool-bound-" + p.pool());
                g.add(bound, 0, row++, 4, 1);
                Label state = wrap(cell(p.state(), p.available() ? Styles.MUTED : Styles.BAD));
                state.setId("pool-state-" + p.pool());
                g.add(state, 0, row++, 4, 1);
                Label why = wrap(cell(p.why(), Styles.TERM_FORMULA));
                why.setId("pool-why-" + p.pool());
                GridPane.setMargin(why, new Insets(0, 0, 4, 0));
                g.add(why, 0, row++, 4, 1);
            }
        };
        rebuildOnChange(vm.pools(), fill);
        return shownWhen(g, poolsShown);
    }

    /** The node takes no room unless {@code shown}. */
    private static <N extends Node> N shownWhen(N node, javafx.beans.value.ObservableBooleanValue shown) {
        node.visibleProperty().bind(shown);
        node.managedProperty().bind(node.visibleProperty());
        return node;
    }

    private static Label section(String title) {
        Label l = new Label(title);
        l.getStyleClass().add(Styles.SECTION_TITLE);
        VBox.setMargin(l, new Insets(6, 0, 0, 0));
        return l;
    }

    private static GridPane grid() {
        GridPane g = new GridPane();
        g.getStyleClass().add(Styles.GRID);
        g.setHgap(10);
        g.setVgap(3);
        ColumnConstraints name = new ColumnConstraints();
        name.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints value = new ColumnConstraints();
        value.setHalignment(HPos.RIGHT);
        value.setMinWidth(Region.USE_PREF_SIZE);
        ColumnConstraints rest = new ColumnConstraints();
        rest.setHgrow(Priority.ALWAYS);
        g.getColumnConstraints().addAll(name, value, rest);
        return g;
    }

    private static <T> void rebuildOnChange(ObservableList<T> list, Runnable rebuild) {
        list.addListener((ListChangeListener<T>) c -> rebuild.run());
        rebuild.run();
    }

    private void fillTerms(GridPane g) {
        g.getChildren().clear();
        int row = 0;
        for (DetailViewModel.TermRow t : vm.terms()) {
            g.addRow(row++, cell(t.name(), Styles.TERM_NAME), cell(t.value(), Styles.TERM_VALUE),
                    wrap(cell(t.formula(), Styles.TERM_FORMULA)));
        }
    }

    private void fillCeilings(GridPane g) {
        g.getChildren().clear();
        int row = 0;
        if (vm.ceilings().isEmpty()) {
            g.addRow(0, cell("none configured", Styles.MUTED));
        }
        for (DetailViewModel.CeilingRow c : vm.ceilings()) {
            Label name = cell(c.name(), c.binding() ? Styles.BINDING : Styles.TERM_NAME);
            Label limit = cell(c.limit() + " repl.", Styles.TERM_VALUE);
            Label detail = wrap(cell((c.binding() ? "BINDING · " : "") + c.detail(),
                    c.fallback() ? Styles.BAD : Styles.TERM_FORMULA));
            g.addRow(row++, name, limit, detail);
        }
    }

    private void fillInputs(GridPane g) {
        g.getChildren().clear();
        int row = 0;
        for (DetailViewModel.InputRow in : vm.inputs()) {
            g.addRow(row++, cell(in.name(), Styles.TERM_NAME), cell(in.value(), Styles.TERM_VALUE),
                    wrap(cell(in.status(), in.usable() ? Styles.TERM_FORMULA : Styles.BAD)));
        }
    }

    private static Label cell(String text, String style) {
        Label l = new Label(text);
        l.getStyleClass().add(style);
        return l;
    }

    private static Label wrap(Label l) {
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return l;
    }

    /** The selected class changed, or a ceiling appeared: point the charts at its buffers. */
    private void rebuildSeries() {
        for (TimeChart c : charts) {
            for (ChartSeries s : new ArrayList<>(c.getSeries())) {
                c.removeSeries(s);
            }
        }
        ClassSeries cs = vm.seriesProperty().get();
        if (cs == null) {
            return;
        }
        ChartSeries age = ageChart.addSeries("oldest age (s)", SeriesKind.LINE, cs.oldestAge);
        // Missing ages are shaded and labelled, a current outage marked at the right edge (issue 11).
        ageChart.setGapSeries(age, gapSpacing());
        ChartSeries queue = ageChart.addSeries("queue length (jobs, right axis)", SeriesKind.LINE, cs.queueLength);
        queue.setRightAxis(true);
        ageChart.setRightUnit("jobs");

        capacityChart.addSeries("estimated slots", SeriesKind.LINE, cs.estimatedSlots);
        capacityChart.addSeries("replicas × k", SeriesKind.STEP, cs.capacitySlots);
        // Replicas, ready and desired often sit at the same value: 3 px apart (desired above,
        // ready below) and dashed differently, so none hides another (issue 11).
        ChartSeries ready = capacityChart.addSeries("ready × k (drawn 3 px below)", SeriesKind.STEP, cs.readySlots);
        ready.setDashed(true);
        ready.setPixelOffset(3);
        ChartSeries desired = capacityChart.addSeries("desired × k (drawn 3 px above)", SeriesKind.STEP,
                cs.desiredSlots);
        desired.setDashed(true);
        desired.setColor(DESIRED);
        desired.setPixelOffset(-3);
        for (Map.Entry<String, SeriesBuffer> e : cs.ceilingSlots.entrySet()) {
            ChartSeries c = capacityChart.addSeries("ceiling " + e.getKey() + " × k", SeriesKind.STEP, e.getValue());
            c.setDashed(true);
            c.setColor(CEILING);
        }
        if (vm.governedProperty().get()) {
            ChartSeries g = capacityChart.addSeries("governor limit × k", SeriesKind.STEP, cs.governorSlots);
            g.setColor(GOVERNOR);
        }

        loadChart.addSeries("arrivals (jobs/s)", SeriesKind.LINE, cs.arrivalRate);
        ChartSeries service = loadChart.addSeries("mean service (s, right axis)", SeriesKind.LINE, cs.serviceSeconds);
        service.setRightAxis(true);
        loadChart.setRightUnit("s");
        updateObjective();
        onNewPoints();
    }

    /** Two ticks and a bit: a longer stretch without an age is missing data. */
    private double gapSpacing() {
        return vm.gapSpacingSeconds();
    }

    private void updateObjective() {
        ageChart.getReferenceLines().clear();
        Double objective = vm.ageObjectiveProperty().get();
        if (objective != null) {
            ageChart.getReferenceLines().add(new ReferenceLine(objective, "objective " + Math.round(objective) + " s"));
        }
    }

    private void onNewPoints() {
        // Following live, the axis tracks the session clock itself; new points only need a redraw.
        for (TimeChart c : charts) {
            c.requestRedraw();
        }
    }
}
