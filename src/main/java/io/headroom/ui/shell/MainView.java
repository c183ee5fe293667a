package io.headroom.ui.shell;

import io.headroom.loop.ClassSnapshot;
import io.headroom.session.Session;
import io.headroom.session.SessionTick;
import io.headroom.ui.Styles;
import io.headroom.ui.detail.DetailView;
import io.headroom.ui.detail.DetailViewModel;
import io.headroom.ui.fx.PulseBatcher;
import io.headroom.ui.overview.OverviewView;
import io.headroom.ui.overview.OverviewViewModel;
import io.headroom.ui.supervise.ClassControls;
import io.headroom.ui.supervise.InboxView;
import io.headroom.ui.supervise.OperatorActions;
import io.headroom.ui.supervise.ProposalRow;
import io.headroom.ui.supervise.SupervisionViewModel;
import io.headroom.ui.whatif.WhatIfView;
import io.headroom.ui.whatif.WhatIfViewModel;
import io.headroom.whatif.ComparisonTable;
import java.util.List;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.geometry.Orientation;
import javafx.scene.Scene;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.util.Duration;

/**
 * The console window's content: top bar, overview with the proposals inbox, and class detail,
 * wired to one session. The session's {@link SessionTick}s arrive on the loop's thread and reach
 * the view models on the FX thread, merged, through one {@link PulseBatcher} ({@link SessionFeed}).
 */
public final class MainView extends BorderPane {
    /** The overview and inbox's least height: five rows, or one proposal card with its buttons. */
    static final double TOP_MIN_HEIGHT = 244;
    /** The upper part's share of the split by default (TopFits grows it to the rows). */
    static final double TOP_SHARE = 0.34;
    private final MainViewModel main;
    private final OverviewViewModel overview = new OverviewViewModel();
    private OverviewView overviewView;
    private final DetailViewModel detail;
    /** Completes once the detail has joined the window and been laid out: a frame after the console's first. */
    private final java.util.concurrent.CompletableFuture<Void> detailShown = new java.util.concurrent.CompletableFuture<>();
    private final java.util.concurrent.Executor fx;
    private final SupervisionViewModel supervision;
    private final OperatorActions actions;
    private final InboxView inbox;
    private final PulseBatcher<SessionTick> ticks;
    private final Timeline clock;
    /** Nodes Headroom left cordoned, in the top bar; read every {@link #CORDON_REFRESH_TURNS} clock turns. */
    private final CordonWarningViewModel cordonWarning = new CordonWarningViewModel();
    /** 30 s of wall time: listing nodes asks the API server for every pod, too much for every tick. */
    private static final int CORDON_REFRESH_TURNS = 60;
    private long clockTurns;
    private final Session session;
    private final Runnable unsubscribe;
    private Runnable openSettings = () -> { };
    private Notifier notifier;
    private final List<Stage> whatIfStages = new java.util.ArrayList<>();
    private final io.headroom.whatif.WarmUp warmUp = new io.headroom.whatif.WarmUp();
    /** After the warm-up: the class in view's week what-if computed ahead (issue 29). */
    private final WeeksAhead weeksAhead;
    private java.time.Duration warmUpDelay;
    private javafx.beans.value.ObservableBooleanValue attention;
    private javafx.beans.value.ChangeListener<Boolean> titleReset;
    private Stage journalStage;
    private final Runnable stopEdits;
    private final IncidentBannerViewModel incidents = new IncidentBannerViewModel();
    private final EventListViewModel events;
    private final Toast toast = new Toast();
    private final Commands commands;
    private final Overlays overlays;
    private final EventStrip strip;
    private final NodeCommands nodeCommands;

    /** @param fx the FX thread's executor ({@link io.headroom.ui.fx.FxExecutor} in the console) */
    public MainView(Session session, java.util.concurrent.Executor fx) {
        this(session, fx, new EventListViewModel());
    }

    /**
     * @param events the event list: a new one, or the one of the console this view replaces (the workloads
     *               file read again after a save), so the strip goes on where it was
     */
    public MainView(Session session, java.util.concurrent.Executor fx, EventListViewModel events) {
        this.session = session;
        this.fx = fx;
        this.events = events;
        this.detail = new DetailViewModel(session.clock(), fx);
        this.weeksAhead = new WeeksAhead(session, fx);
        // The per-pool breakdown's bounds and cost weights (each pool's spec / ready comes with the loop's snapshot).
        detail.setPoolFacts(name -> new io.headroom.ui.detail.PoolBreakdown.Facts(pools(name) == null ? List.of()
                : pools(name).specs(), java.util.Map.of()));
        detail.setRevert(name -> recorded(name, java.util.concurrent.CompletableFuture.supplyAsync(
                () -> session.policyEdits().revert(name, "reverted in the console"), session.io())));
        detail.applyPolicyEdits(session.policyEdits().all());
        this.stopEdits = session.policyEdits().addListener(
                () -> fx.execute(() -> detail.applyPolicyEdits(session.policyEdits().all())));
        this.notifier = Notifier.desktop(session.io());
        this.main = new MainViewModel(session.loop().cluster().contextName(), session.loop().metrics().name(),
                session.isSandbox(), session.tick(), session::setSpeed);
        this.supervision = new SupervisionViewModel(session.supervisor(), session.clock(), fx);
        this.actions = new OperatorActions(supervision, this::window);
        // A class's forecast mode is a field of its live policy: changed as a policy edit (journaled, revertable).
        supervision.setForecastModes(name -> session.loop().classes().stream().filter(c -> c.name().equals(name))
                .findFirst().map(c -> c.policy().forecastMode()).orElse(null),
                (name, m) -> java.util.concurrent.CompletableFuture.supplyAsync(() -> session.loop().classes().stream()
                        .filter(c -> c.name().equals(name)).findFirst()
                        .map(c -> session.policyEdits().apply(name, c.policy().toBuilder().forecastMode(m).build(),
                                "forecast mode set to " + m.word() + " in the console"))
                        .orElse(io.headroom.supervise.Outcome.refused(io.headroom.supervise.Outcome.Why.NOT_FOUND,
                                "no class named " + name)), session.io()));
        actions.setDecisions(name -> {
            ClassSnapshot s = detail.latest(name);
            return s == null ? null : s.decision();
        });
        getStyleClass().add(Styles.THEME_DARK);
        main.speedProperty().set(session.speed());
        main.operatorProperty().set(session.supervisor().user());

        overview.setHistory(session.history()::find); // the rows' last 15 minutes, from the domain history
        overview.setAdmissions(session.supervisor()::admission); // each row's admission chip
        OverviewView overviewView = new OverviewView(overview);
        this.overviewView = overviewView;
        inbox = new InboxView(actions);
        HBox.setHgrow(overviewView, Priority.ALWAYS);
        // The overview takes what the inbox leaves (its columns fit any width): a small preferred width,
        // so a narrow window never squeezes the inbox below its own width and wraps a card's buttons.
        overviewView.setPrefWidth(600);
        HBox top = new HBox(overviewView, inbox);
        if (!session.isSandbox()) {
            detail.setHistorySource(session.loop().metrics()::historyFor);
        }
        // The charts read the day the session keeps (ticks and the start-up backfill), at its tick.
        detail.setDomainHistory(session.history()::find, session.history().capacity(), session.io());
        // At 7 d they read the week tier, a point a minute, and say how far its backfill got (issue 29).
        detail.setWeekHistory(session.history()::findWeek, session::weekProgress, session.io());
        // The forecasts the session makes in the background, and how much of the week is in (issue 29).
        detail.forecast().setForecasts(session.classForecasts(), () -> session.weekProgress().words());
        DetailView detailView = new DetailView(detail, session.clock());
        detailView.buildBelowTheFoldAfterFirstFrame(fx); // fast start: the decision's foot right after the first frame
        ClassControls controls = new ClassControls(actions, detail.classNameProperty(), this::selectedReplicas);
        controls.setOnWhatIf(() -> openWhatIf(detail.classNameProperty().get()));
        controls.setOnNodes(() -> openNodes(detail.classNameProperty().get()));
        controls.setOnExportKeda(() -> openExportKeda(detail.classNameProperty().get()));
        detailView.setControls(controls);
        // The class's admission as producers read it, with a tightening to approve (design.md §2b).
        detailView.setAdmission(new io.headroom.ui.supervise.AdmissionPanel(new io.headroom.ui.supervise.AdmissionViewModel(
                session.supervisor(), detail.classNameProperty(), session.clock(), fx, java.time.ZoneId.systemDefault())));
        detailView.pods().setDrainer(actions::drainPod);
        detailView.pods().setReplacer(actions::replacePod);
        controls.bindActionable(detail.actionableProperty()); // nothing to act on before a decision; What-if stays
        // Fast start (issue 28): the detail joins the window right after the console's first frame, which then styles
        // and lays out the top bar, the overview and the inbox alone (a tenth less of the FX thread's CPU, 0.1 s
        // sooner on two cores); the lower pane is the split's own background until then, one frame.
        javafx.scene.layout.StackPane lower = new javafx.scene.layout.StackPane();
        SplitPane split = new SplitPane(top, lower);
        afterFirstFrame(() -> {
            lower.getChildren().setAll(detailView);
            io.headroom.ui.fx.FirstFrame.after(detailView, fx, () -> detailShown.complete(null));
        });
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(TOP_SHARE);
        SplitPane.setResizableWithParent(top, false);
        // Five classes and a whole proposal card (its buttons included) fit at 1280×800; more rows grow it (TopFits).
        top.setMinHeight(TOP_MIN_HEIGHT);
        TopFits.install(split, top, overviewView.table(), TOP_SHARE);
        // State you cannot miss: the incident banner under the top bar, the event list at the foot.
        IncidentBanner banner = new IncidentBanner(incidents, this::lift, supervision.undoLabelProperty(),
                actions::undo);
        TopBar topBar = new TopBar(main, actions, this::openJournal, () -> openSettings.run());
        javafx.scene.layout.VBox head = new javafx.scene.layout.VBox(topBar);
        // No incident when the console opens (usually): the banner joins the window when the first one does.
        io.headroom.ui.fx.WhenShown.insert(head.getChildren(), 1, banner, banner.visibleProperty());
        setTop(head);
        this.strip = new EventStrip(events);
        main.contexts().setAll(session.loop().cluster().byContext().keySet());
        main.selectedContextProperty().addListener((o, a, c) -> overview.contextProperty().set(c));
        // One registry of actions and keys: the key dispatch, the ? help and the Ctrl+K palette read it.
        Overlays[] host = new Overlays[1];
        this.commands = ConsoleCommands.build(new ConsoleCommands.Console(actions, main, overview,
                () -> detail.classNameProperty().get(), detail::latest,
                () -> session.loop().classes().stream().map(c -> c.name()).toList(), this::onProposalInView,
                this::openJournal, () -> openSettings.run(), this::openWhatIf, this::openNodes, this::openExportKeda,
                overviewView::focusFilter, () -> host[0].toggleHelp(), () -> host[0].togglePalette(), this::quit));
        // Every node of the classes' contexts by name, read when the palette opens (not while the operator types).
        this.nodeCommands = new NodeCommands(n -> openNodesIn(n.context()).askToDrain(n.name()),
                n -> openNodesIn(n.context()).uncordon(n.name()),
                n -> session.supervisor().nodeDrains().stream().anyMatch(d -> d.active() && d.node().equals(n)));
        commands.addGenerated(nodeCommands::all);
        PaletteViewModel palette = new PaletteViewModel(commands::all);
        palette.showingProperty().addListener((o, was, now) -> {
            if (now) {
                readNodeNames(); // for the next opening: this one's commands are read already
            }
        });
        this.overlays = new Overlays(new HelpOverlay(commands), () -> new CommandPalette(palette), palette);
        host[0] = overlays;
        topBar.setOnShowKeys(overlays::toggleHelp);
        topBar.setCordonWarning(cordonWarning, this::openNodesIn);
        // Fast start: the nodes are listed (for the palette and the left-cordoned chip) once the whole window is
        // drawn, the detail in, not beside it: on two cores their thread took CPU from the FX thread's frames.
        detailShown.thenRun(() -> {
            readNodeNames();
            refreshCordonWarning();
            startWarmUp();
        });
        javafx.scene.layout.StackPane center = new javafx.scene.layout.StackPane(split, toast, overlays);
        // The event list lies over the content while it is open: it joins the window when first opened.
        io.headroom.ui.fx.WhenShown.insert(center.getChildren(), 1, strip.list(), strip.toggle().selectedProperty());
        javafx.scene.layout.StackPane.setAlignment(strip.list(), javafx.geometry.Pos.BOTTOM_LEFT);
        javafx.scene.layout.StackPane.setAlignment(toast, javafx.geometry.Pos.BOTTOM_RIGHT);
        javafx.scene.layout.StackPane.setMargin(toast, new javafx.geometry.Insets(12));
        toast.setManaged(true);
        setCenter(center);
        setBottom(strip); // set after the centre: Tab goes in reading order, the strip at the foot last
        supervision.stateProperty().addListener((o, a, s) -> {
            if (s != null) {
                incidents.apply(s);
            }
        });
        incidents.setOnChange(this::incidentsChanged);
        supervision.statusProperty().addListener((o, a, text) ->
                events.outcome(session.clock().instant(), supervision.statusOkProperty().get(), text));
        session.policyEdits().lastSave().ifPresent(this::offerRevert);

        overview.selectedProperty().addListener((obs, old, row) -> {
            if (row != null) {
                detail.select(row.name());
            }
        });
        // Clicking a proposal shows its class; proposals arriving never move the operator's view.
        inbox.list().setOnMouseClicked(e -> {
            ProposalRow p = inbox.list().getSelectionModel().getSelectedItem();
            if (p != null) {
                overview.select(p.className());
            }
        });
        main.darkThemeProperty().addListener((obs, old, dark) -> {
            Styles.toggle(this, List.of(Styles.THEME_DARK, Styles.THEME_LIGHT),
                    dark ? Styles.THEME_DARK : Styles.THEME_LIGHT);
            detailView.setDarkTheme(dark);
            if (journalStage != null) {
                Styles.toggle(journalStage.getScene().getRoot(), List.of(Styles.THEME_DARK, Styles.THEME_LIGHT),
                        dark ? Styles.THEME_DARK : Styles.THEME_LIGHT);
            }
        });
        supervision.setOnNewProposals(this::announce);
        // The window keeps one scene for its life (the console swaps its root), so the shortcuts
        // leave the scene with this view: a view replaced by the next session's never acts again.
        sceneProperty().addListener((obs, old, scene) -> {
            if (old != null) {
                old.removeEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, shortcuts);
                old.removeEventFilter(javafx.scene.input.KeyEvent.KEY_TYPED, shortcuts);
            }
            if (scene != null) {
                scene.addEventFilter(javafx.scene.input.KeyEvent.KEY_PRESSED, shortcuts);
                scene.addEventFilter(javafx.scene.input.KeyEvent.KEY_TYPED, shortcuts);
            }
        });
        // Focus inside the detail is the operator at work on the class in view: the young console's selection stops
        // following the worst row, or the detail (and the focused Drain… in it) would be swapped for another class.
        javafx.beans.value.ChangeListener<javafx.scene.Node> detailFocus = (o, a, n) -> {
            for (javafx.scene.Node x = n; x != null; x = x.getParent()) {
                if (x == detailView) {
                    overview.attendSelected();
                    return;
                }
            }
        };
        sceneProperty().addListener((obs, old, scene) -> {
            if (old != null) {
                old.focusOwnerProperty().removeListener(detailFocus);
            }
            if (scene != null) {
                scene.focusOwnerProperty().addListener(detailFocus);
            }
        });

        // One ordered stream, enriched on the loop's thread; merged onto the FX thread once per turn.
        ticks = new PulseBatcher<>(fx, this::applyTicks);
        unsubscribe = session.subscribe(t -> {
            if (t.newTick()) {
                overview.prepareAhead(t.result()); // the rows' values and trends on the loop's thread, not the FX thread's
            }
            ticks.offer(t);
        });
        clock = new Timeline(new KeyFrame(Duration.millis(500), e -> {
            if (++clockTurns % CORDON_REFRESH_TURNS == 0) {
                refreshCordonWarning();
            }
            main.updateClock(session.clock().instant());
            incidents.tick(session.clock().instant());
            inbox.showAges(); // ages and expiry countdowns, each card where it is (focus stays on its proposal)
            weeksAhead.tick();
        }));
        clock.setCycleCount(Timeline.INDEFINITE);
        clock.play();
    }

    /**
     * Runs {@code then} on the FX thread once, after the first layout pulse of the first scene this view is in (the
     * frame that follows paints it), outside that pulse.
     */
    private void afterFirstFrame(Runnable then) {
        io.headroom.ui.fx.FirstFrame.after(this, fx, then);
    }

    private void applyTicks(List<SessionTick> batch) {
        SessionFeed.apply(batch, main, overview, detail, supervision);
        main.updateClock(session.clock().instant());
    }

    /**
     * Keyboard-first for incidents: every key comes from one registry ({@link Commands}), which the
     * {@code ?} help and the {@code Ctrl+K} palette list. A, R, O and D act on what the operator sees:
     * the inbox card highlighted (when the inbox has the focus and the card is on screen), otherwise
     * the proposal of the class shown in the detail, never a selection scrolled out of view. Bare
     * letters, {@code /}, {@code ?} and Ctrl+Z are the text field's while one has the focus (a filter,
     * a search); while the help shows, only Escape, {@code ?} and the Ctrl keys work.
     */
    private final javafx.event.EventHandler<javafx.scene.input.KeyEvent> shortcuts = this::shortcut;

    private void shortcut(javafx.scene.input.KeyEvent e) {
        if (overlays.handle(e) || strip.closeOnEscape(e)) {
            return;
        }
        Scene scene = getScene();
        boolean typing = (scene != null && typing(scene.getFocusOwner())) || overlays.helpShowing();
        commands.match(e, typing).ifPresent(c -> {
            e.consume();
            c.run().run();
        });
    }

    /** True while the operator types into a text field (or a spinner's or combo box's editor). */
    static boolean typing(javafx.scene.Node focused) {
        return focused instanceof javafx.scene.control.TextInputControl;
    }

    /** The proposal the operator sees, or says in words that none waits for the class in view. */
    private Runnable onProposalInView(String verb, java.util.function.Consumer<ProposalRow> act) {
        return () -> {
            ProposalRow p = inbox.highlightedOnScreen();
            if (p == null) {
                p = supervision.proposalOf(detail.classNameProperty().get());
            }
            if (p == null) {
                supervision.nothingToActOn(verb, detail.classNameProperty().get());
                return;
            }
            act.accept(p);
        };
    }

    /** The window's title: the build, so a screenshot in an incident report says which build acted, and the context. */
    public static String windowTitle(String context) {
        return "Headroom " + io.headroom.BuildInfo.current().shortVersion() + " — " + context;
    }

    /** What a banner line's button does: the same flow as the control that set the state. */
    private void lift(Incident i) {
        switch (i.kind()) {
            case FREEZE_ALL -> actions.toggleFreezeAll();
            case FREEZE -> actions.toggleFreeze(i.className());
            case OVERRIDE -> actions.toggleOverride(i.className(), 0);
            case DRAIN -> actions.toggleDrain(i.className(), 0);
            case AUTO -> actions.setMode(i.className(), io.headroom.supervise.Mode.SUPERVISED);
            case FLOOR -> actions.cancelFloor(i.className());
        }
    }

    /**
     * Into the event list; a freeze or an override that ran out is also a notice over the window,
     * and on the desktop while the operator looks elsewhere (as new proposals are).
     */
    private void incidentsChanged(IncidentBannerViewModel.Change change) {
        for (String expired : events.apply(change)) {
            toast.show(expired);
            javafx.beans.value.ObservableBooleanValue present = attention();
            if (present != null && !present.get()) {
                notifier.notify("Headroom", expired);
            }
        }
    }

    /** A new proposal while the operator looks elsewhere: tell the desktop, and the title bar. */
    private void announce(List<ProposalRow> fresh) {
        javafx.beans.value.ObservableBooleanValue present = attention();
        if (present == null || present.get() || !(window() instanceof Stage stage)) {
            return;
        }
        ProposalRow p = fresh.get(0);
        notifier.notify("Headroom: " + fresh.size() + " proposal" + (fresh.size() == 1 ? "" : "s"),
                p.className() + ": " + p.from() + " → " + p.to());
        String title = windowTitle(session.loop().cluster().contextName());
        stage.setTitle("(" + supervision.pendingCountProperty().get() + ") " + title);
        if (titleReset == null) {
            // Back at the console: the count in the title has done its job.
            titleReset = (o, was, now) -> {
                if (now) {
                    stage.setTitle(title);
                }
            };
            present.addListener(titleReset);
        }
    }

    /** Whether the operator is at the console: the window's focus, unless a test says otherwise. */
    private javafx.beans.value.ObservableBooleanValue attention() {
        if (attention != null) {
            return attention;
        }
        return window() instanceof Stage stage ? stage.focusedProperty() : null;
    }

    private int selectedReplicas() {
        ClassSnapshot s = detail.latest(detail.classNameProperty().get());
        return s == null || s.decision() == null ? 0 : s.decision().currentReplicas();
    }

    /** Quit from the palette: the same close request as the window's close box and Ctrl+Q (ExitDialog asks). */
    private void quit() {
        Window w = window();
        if (w != null) {
            w.fireEvent(new javafx.stage.WindowEvent(w, javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST));
        }
    }

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }

    /** Opens (or brings forward) the journal window; its reading happens off the FX thread. */
    public void openJournal() {
        if (journalStage == null) {
            journalStage = io.headroom.ui.fx.EscapeCloses.install(io.headroom.ui.journal.JournalWindow.create(session,
                    fx, window(), main.darkThemeProperty().get() ? Styles.THEME_DARK : Styles.THEME_LIGHT));
        }
        journalStage.show();
        journalStage.toFront();
    }

    /** What the Settings button does (the application owns sessions, so it decides). */
    public void setOnOpenSettings(Runnable r) {
        this.openSettings = r;
    }

    private Runnable reload;

    /** How the console reads its workloads file again (after a what-if edit was saved into it). */
    public void setOnReload(Runnable r) {
        this.reload = r;
    }

    /**
     * Whether the operator is at the console, in place of the window's focus: headless test
     * platforms never take focus away from a window. Set it before the first proposal.
     */
    public void setAttention(javafx.beans.value.ObservableBooleanValue present) {
        this.attention = present;
    }

    /** For tests and for consoles without a desktop: where notifications go. */
    public void setNotifier(Notifier n) {
        this.notifier = n;
    }

    /** Completes on the FX thread once the detail is in the window and laid out (a frame after the first). */
    public java.util.concurrent.CompletableFuture<Void> detailShown() {
        return detailShown;
    }

    public MainViewModel viewModel() {
        return main;
    }

    public OverviewViewModel overviewViewModel() {
        return overview;
    }

    public DetailViewModel detailViewModel() {
        return detail;
    }

    public SupervisionViewModel supervisionViewModel() {
        return supervision;
    }

    public OperatorActions actions() {
        return actions;
    }

    /** The console's actions and keys (the help and the palette list them). */
    public Commands commands() {
        return commands;
    }

    /** Shows or hides the {@code ?} list of keys. */
    public void toggleHelp() {
        overlays.toggleHelp();
    }

    /** Opens or closes the {@code Ctrl+K} command palette. */
    public void togglePalette() {
        overlays.togglePalette();
    }

    public IncidentBannerViewModel incidentsViewModel() {
        return incidents;
    }

    public EventListViewModel eventsViewModel() {
        return events;
    }

    /**
     * Warms the what-if's code once, {@code delay} after the first frame (issue 29: the first week what-if in a
     * fresh console ran cold); off unless asked (the console asks, tests do only when they test it). Opening a
     * what-if cancels it.
     */
    public io.headroom.whatif.WarmUp warmUpWhatIf(java.time.Duration delay) {
        warmUpDelay = delay;
        startWarmUp();
        return warmUp;
    }

    /**
     * A later console of the same process (a reload, another session: the code is warm already): the class in view's
     * week is computed ahead as after a warm-up, with no warm-up replay first.
     */
    public io.headroom.whatif.WarmUp computeWeeksAhead() {
        warmUp.cancel(); // its replay never runs; its end (cancelled) switches the weeks ahead on
        return warmUpWhatIf(java.time.Duration.ZERO);
    }

    private void startWarmUp() {
        if (detailShown.isDone() && warmUpDelay != null && warmUp.start(warmUpDelay, session.io())) { // once
            weeksAhead.follow(detail.classNameProperty());
            // Then the week of the class in view is computed ahead (issue 29): the operator's week what-if shows it at
            // once. Also after a what-if cancelled the warm-up: that replay warmed the code.
            warmUp.done().whenCompleteAsync((ok, e) -> weeksAhead.switchOn(), fx);
        }
    }

    /** The weeks computed ahead for the What-if windows (issue 29). */
    public io.headroom.whatif.WeekAhead weekAhead() {
        return weeksAhead.ahead();
    }

    /** Opens the what-if window for a class: its live policy against edits, replayed on its charted load. */
    public WhatIfViewModel openWhatIf(String className) {
        warmUp.cancel(); // the operator's own replay comes first
        var cls = session.loop().classes().stream().filter(c -> c.name().equals(className)).findFirst().orElse(null);
        if (cls == null) {
            return null;
        }
        // The domain history, in replicas and jobs/s: not the charts' buffers.
        WhatIfViewModel vm = new WhatIfViewModel(className, cls.policy(),
                io.headroom.whatif.LoadSource.of(() -> session.history().find(className)), session.io(), fx,
                ComparisonTable.SEED);
        vm.setReplayRuns(session.io()); // the live and edited runs side by side
        // The week range and the predictive run's forecasts read the class's week (a point a minute).
        vm.setWeek(io.headroom.whatif.LoadSource.of(() -> session.history().findWeek(className)));
        vm.setWeekAhead(weeksAhead.ahead()); // the week computed ahead, shown at once for the live policy
        vm.setPolicyText(session.policyEdits()::yaml);
        // Admission off vs on for a class that publishes it, placement vs one pool for a class with pools (issue 30).
        io.headroom.supervise.ClassAdmission admission = session.supervisor().admission(className);
        io.headroom.loop.ClassPools pools = pools(className);
        vm.setAdmissionPlacement(new io.headroom.whatif.AdmissionPlacement.Ask(admission != null
                && admission.policy() != null && admission.policy().publish(), pools == null ? List.of() : pools.specs(),
                pools == null ? null : pools.timing()));
        vm.setCommit((policy, reason) -> recorded(className, java.util.concurrent.CompletableFuture.supplyAsync(
                () -> session.policyEdits().apply(className, policy, reason), session.io())));
        session.workloadsFile().ifPresent(file -> vm.setSave((policy, reason) -> recorded(className,
                java.util.concurrent.CompletableFuture.supplyAsync(
                        () -> session.policyEdits().save(className, policy, reason, file), session.io()))
                .whenCompleteAsync((o, e) -> {
                    if (e == null && o.ok() && reload != null) {
                        reload.run(); // the file now says it: run what it says
                    }
                }, fx), String.valueOf(file.getFileName())));
        Stage stage = io.headroom.ui.fx.EscapeCloses.install(WhatIfView.open(window(), vm, session.clock()));
        if (main.clusterHealthProperty().get() == MainViewModel.Health.DOWN) {
            // It needs only the history recorded: open, saying what it cannot know.
            stage.setTitle(stage.getTitle() + " — the cluster is out of reach: replaying the history recorded so far");
        }
        whatIfStages.add(stage);
        weeksAhead.whatIfOpened(); // what runs ahead stops; nothing starts while a What-if is open
        stage.setOnHidden(e -> { // closed windows are not kept
            whatIfStages.remove(stage);
            weeksAhead.whatIfClosed();
        });
        return vm;
    }

    /** The pools a class is placed across (decision 0029), or null for a class with one pool. */
    private io.headroom.loop.ClassPools pools(String className) {
        return session.loop().classes().stream().filter(c -> c.name().equals(className)).findFirst()
                .map(io.headroom.loop.WorkloadClass::pools).orElse(null);
    }

    /**
     * An action taken outside the supervisor (a policy edit, its revert, a save into the workloads file, a
     * node drain, an uncordon): its outcome joins the event list on the FX thread, naming what it acted on.
     */
    private java.util.concurrent.CompletableFuture<io.headroom.supervise.Outcome> recorded(String subject,
            java.util.concurrent.CompletableFuture<io.headroom.supervise.Outcome> f) {
        return f.whenCompleteAsync((o, e) -> record(subject, e == null && o.ok(),
                e != null ? "could not act: " + io.headroom.ErrorWords.of(e) : o.message()), fx);
    }

    /** Into the event list, with what it acted on in front unless the text names it. FX thread. */
    private void record(String subject, boolean ok, String text) {
        boolean named = subject == null || text.contains(subject);
        events.outcome(session.clock().instant(), ok, named ? text : subject + ": " + text);
    }

    /** A save into the workloads file can be taken back: the strip's chip and Ctrl+Z offer it. */
    private void offerRevert(io.headroom.session.SavedFile s) {
        String what = "save of the policy of " + s.className() + " into " + s.fileName();
        supervision.offerUndo(what, "The file is written back as it was (the text taken back kept as its .bak),"
                + " journaled as POLICY_SAVE_REVERTED, and read again.", this::revertSave);
        events.offerRevert(s.fileName(), () -> {
            if (io.headroom.ui.supervise.Dialogs.confirm(window(), "Revert " + s.fileName() + "?", "Puts "
                    + s.fileName() + " back as it was before the save of the policy of " + s.className() + " ("
                    + String.join(", ", s.changes()) + "). It is journaled, and the console reads the file again.",
                    "Revert")) {
                supervision.undo(what);
            }
        });
    }

    /** Writes the workloads file back as it was before the save (journaled), then reads it again. */
    private java.util.concurrent.CompletableFuture<io.headroom.supervise.Outcome> revertSave() {
        return java.util.concurrent.CompletableFuture.supplyAsync(
                () -> session.policyEdits().revertSave("save reverted in the console"), session.io())
                .whenCompleteAsync((o, e) -> {
                    if (e == null && o.ok()) {
                        events.savedReverted();
                        if (reload != null) {
                            fx.execute(reload); // after the outcome is in the event list
                        }
                    }
                }, fx);
    }

    /** Opens "Export / apply as KEDA" for a class (the export and the dry run run in the session). */
    public io.headroom.ui.export.ExportKedaViewModel openExportKeda(String className) {
        var vm = new io.headroom.ui.export.ExportKedaViewModel(session.kedaApply(), className, fx);
        vm.setOnOutcome(o -> record(className, o.ok(), o.message()));
        Stage stage = io.headroom.ui.export.ExportKedaView.open(window(), vm);
        whatIfStages.add(stage);
        stage.setOnHidden(e -> whatIfStages.remove(stage));
        return vm;
    }

    /**
     * Opens the node drain window on the nodes {@code className}'s pods run on (null: every node of the
     * first context); a filter the operator can clear to see every node.
     */
    public io.headroom.ui.nodes.NodeDrainViewModel openNodes(String className) {
        var cls = className == null ? null : session.loop().classes().stream()
                .filter(c -> c.name().equals(className)).findFirst().orElse(null);
        String context = cls != null ? cls.target().context() : session.loop().classes().get(0).target().context();
        return openNodes(context, cls);
    }

    /** Opens the node drain window on every node of {@code context} (the top bar's left-cordoned chip). */
    public io.headroom.ui.nodes.NodeDrainViewModel openNodesIn(String context) {
        return openNodes(context, null);
    }

    /** The palette's node names (and which are cordoned), read off the FX thread. */
    private java.util.concurrent.CompletableFuture<Void> readNodeNames() {
        return nodeCommands.refresh(session.loop().classes().stream().map(c -> c.target().context()).distinct()
                .toList(), session.supervisor()::nodes, fx);
    }

    /** The top bar's chip: nodes Headroom left cordoned, in every context this console has classes in. */
    public java.util.concurrent.CompletableFuture<Void> refreshCordonWarning() {
        List<String> contexts = session.loop().classes().stream().map(c -> c.target().context()).distinct().toList();
        return cordonWarning.refresh(contexts, session.supervisor()::leftCordoned, fx);
    }

    public CordonWarningViewModel cordonWarning() {
        return cordonWarning;
    }

    private io.headroom.ui.nodes.NodeDrainViewModel openNodes(String context,
                                                              io.headroom.loop.WorkloadClass cls) {
        io.headroom.ui.nodes.NodeDrainViewModel vm = new io.headroom.ui.nodes.NodeDrainViewModel(
                session.supervisor(), context, fx);
        vm.setOnOutcome(o -> record(null, o.ok(), o.message())); // drains, cancels, uncordons: each names its node
        vm.classFilterProperty().set(cls == null ? null : cls.name());
        vm.onChanged(() -> { // the top bar's chip and the palette's uncordons follow an uncordon or a drain's end at once
            refreshCordonWarning();
            readNodeNames();
        });
        Stage stage = io.headroom.ui.nodes.NodeDrainView.open(window(), vm, "Nodes — " + context
                + (cls == null ? "" : " (where " + cls.name() + " runs)"));
        io.headroom.ui.fx.EscapeCloses.install(stage);
        whatIfStages.add(stage);
        stage.setOnHidden(e -> {
            whatIfStages.remove(stage);
            vm.dispose();
            refreshCordonWarning(); // the operator may have uncordoned, or drained again
        });
        return vm;
    }

    /** Stops listening and animating; the session itself is closed by its owner. */
    public void dispose() {
        warmUp.cancel();
        weeksAhead.dispose();
        List.copyOf(whatIfStages).forEach(Stage::close);
        unsubscribe.run();
        stopEdits.run();
        ticks.stop();
        clock.stop();
        if (journalStage != null) {
            journalStage.close();
        }
    }
}
