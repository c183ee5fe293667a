package io.headroom.ui;

import io.headroom.journal.MemoryJournal;
import io.headroom.loop.TickResult;
import io.headroom.session.Session;
import io.headroom.session.SessionTick;
import io.headroom.time.ManualClock;
import io.headroom.time.SwitchableClock;
import io.headroom.ui.detail.DetailViewModel;
import io.headroom.ui.fx.PulseBatcher;
import io.headroom.ui.overview.OverviewViewModel;
import io.headroom.ui.shell.MainViewModel;
import io.headroom.ui.shell.SessionFeed;
import io.headroom.ui.supervise.SupervisionViewModel;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * The console's view models on a sandbox session, without a window or the JavaFX toolkit: wired as
 * {@code MainView} wires them (one {@link PulseBatcher} feeding {@link SessionFeed}), on a
 * {@link ManualClock} that only the test moves. Ticks run on the test's thread; the "FX thread" is
 * a queue the test drains ({@link #settle()}), so each step is deterministic and needs no waiting.
 * Operator commands still run on the session's loop thread, as in the console: {@link #await} waits
 * for their outcome (with a deadline), then settles.
 */
public final class SandboxConsole implements AutoCloseable {
    /** The wall clock's "now" the sandbox's simulated past ends at. */
    public static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");

    private final Session session;
    private final ManualClock clock;
    private final ConcurrentLinkedQueue<Runnable> fxQueue = new ConcurrentLinkedQueue<>();
    private final Executor fx = fxQueue::add;
    private final PulseBatcher<SessionTick> feed;
    private final Runnable unsubscribe;
    private final List<TickResult> ticks = new ArrayList<>();

    public final MainViewModel main;
    public final OverviewViewModel overview = new OverviewViewModel();
    public final DetailViewModel detail;
    public final SupervisionViewModel supervision;

    private SandboxConsole(Session session) {
        this.session = session;
        this.clock = (ManualClock) ((SwitchableClock) session.clock()).delegate();
        main = new MainViewModel(session.loop().cluster().contextName(), session.loop().metrics().name(),
                session.isSandbox(), session.tick(), session::setSpeed);
        detail = new DetailViewModel(session.clock(), fx);
        supervision = new SupervisionViewModel(session.supervisor(), session.clock(), fx);
        overview.setHistory(session.history()::find); // as MainView
        overview.setAdmissions(session.supervisor()::admission);
        // As MainView: the selected row shows in the detail.
        overview.selectedProperty().addListener((o, a, row) -> {
            if (row != null) {
                detail.select(row.name());
            }
        });
        // A test that selects a class in the detail is the operator choosing it (in the console a choice comes
        // through the rows): the overview's selection stops following the worst row, as after a click.
        detail.classNameProperty().addListener((o, a, name) -> {
            var sel = overview.selectedProperty().get();
            if (name != null && (sel == null || !sel.name().equals(name))) {
                overview.rows().stream().filter(r -> r.name().equals(name)).findFirst().ifPresent(overview::choose);
            }
        });
        feed = new PulseBatcher<>(fx, batch -> SessionFeed.apply(batch, main, overview, detail, supervision));
        unsubscribe = session.subscribe(feed::offer);
        session.loop().addListener(ticks::add);
    }

    /** The built-in sandbox's five classes with {@code seed}, its clock at {@link #NOW} minus 15 minutes. */
    public static SandboxConsole open(long seed) {
        return new SandboxConsole(Session.sandbox(seed, NOW, Duration.ofMinutes(15), new MemoryJournal()));
    }

    /** The same with intake-api, whose producers obey the admission the console publishes. */
    public static SandboxConsole openWithAdmission(long seed) {
        return new SandboxConsole(Session.sandboxWithAdmission(seed, NOW, Duration.ofMinutes(15), new MemoryJournal()));
    }

    /**
     * Hands the loop to supervised mode, as going live does (the journal restored, the supervisor as
     * the actuator), but the clock stays manual: decisions that want a change become proposals.
     */
    public SandboxConsole supervised() {
        session.supervisor().restore(session.journal().replay());
        session.loop().setActuator(session.supervisor());
        settle();
        return this;
    }

    /** Runs {@code n} control ticks, one control interval apart, then applies what they published. */
    public SandboxConsole tick(int n) {
        for (int i = 0; i < n; i++) {
            session.loop().tick();
            clock.advance(session.tick());
        }
        settle();
        return this;
    }

    /** Runs the control ticks of {@code span} of simulated time. */
    public SandboxConsole run(Duration span) {
        return tick((int) (span.toMillis() / session.tick().toMillis()));
    }

    /** Ticks until {@code done} holds, at most {@code limit} of simulated time; false when it never did. */
    public boolean runUntil(java.util.function.BooleanSupplier done, Duration limit) {
        Instant end = clock.instant().plus(limit);
        while (!done.getAsBoolean()) {
            if (clock.instant().isAfter(end)) {
                return false;
            }
            tick(1);
        }
        return true;
    }

    /** Moves the clock without ticking (a tick that is late). */
    public void advance(Duration d) {
        clock.advance(d);
    }

    /** Does what the FX thread would do next: every task handed to it so far, in order. */
    public void settle() {
        Runnable r;
        while ((r = fxQueue.poll()) != null) {
            r.run();
        }
    }

    /** A command's outcome (run on the session's loop thread), then what it published, applied. */
    public <T> T await(CompletableFuture<T> f) {
        try {
            T t = f.get(10, TimeUnit.SECONDS);
            settle();
            return t;
        } catch (Exception e) {
            throw new AssertionError("the command did not complete: " + e, e);
        }
    }

    /** How many batches reached the view models (a burst of ticks is one). */
    public long batches() {
        return feed.batches();
    }

    /** Every tick the loop ran, oldest first. */
    public List<TickResult> ticks() {
        return ticks;
    }

    public TickResult lastTick() {
        return ticks.get(ticks.size() - 1);
    }

    public Session session() {
        return session;
    }

    public Instant now() {
        return clock.instant();
    }

    @Override
    public void close() {
        unsubscribe.run();
        feed.stop();
        session.close();
    }
}
