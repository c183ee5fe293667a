package io.headroom.ui.shell;

import io.headroom.history.WeekBackfill;
import io.headroom.session.Session;
import io.headroom.whatif.LoadSource;
import io.headroom.whatif.WeekAhead;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import javafx.beans.value.ObservableValue;

/**
 * When the console computes the week what-if of the class in view ahead (issue 29, {@link WeekAhead}): once switched
 * on (after the what-if's warm-up), at a turn of the console's clock, when that class has stayed in view
 * {@link #AFTER} with no What-if window open, none runs, the week's backfill is done and the class has none fresh.
 * It runs on the session's I/O pool; a What-if window opening cancels it. FX thread only.
 */
final class WeeksAhead {
    /** How long the class in view stays in view, no what-if open, before its week is computed ahead. */
    static final Duration AFTER = Duration.ofSeconds(10);

    private final Session session;
    private final WeekAhead ahead;
    private final Executor fx;
    private boolean on;
    private boolean running;
    private boolean disposed;
    private int whatIfsOpen;
    private String inView;
    private Instant inViewSince;

    WeeksAhead(Session session, Executor fx) {
        this.session = session;
        this.fx = fx;
        this.ahead = new WeekAhead(session.clock());
    }

    /** The weeks computed ahead, for the What-if windows. */
    WeekAhead ahead() {
        return ahead;
    }

    /** Follows the class in view from now on (its time in view counts from each change). */
    void follow(ObservableValue<String> className) {
        inView(className.getValue());
        className.addListener((o, a, name) -> inView(name));
    }

    /** Computes from now on (the warm-up has ended), unless disposed. */
    void switchOn() {
        on = !disposed;
        tick();
    }

    /** A What-if window opened: what runs stops, and nothing starts while one is open. */
    void whatIfOpened() {
        whatIfsOpen++;
        ahead.cancel();
    }

    /** A What-if window closed: the class must stay in view a while again first. */
    void whatIfClosed() {
        whatIfsOpen--;
        inView(inView);
    }

    /** Stops for good. */
    void dispose() {
        disposed = true;
        on = false;
        ahead.cancel();
    }

    /** One turn of the console's clock: computes the class in view's week ahead when it is time to. */
    void tick() {
        String name = inView;
        if (!on || running || whatIfsOpen > 0 || name == null
                || session.weekProgress().state() == WeekBackfill.State.RUNNING
                || Duration.between(inViewSince, session.clock().instant()).compareTo(AFTER) < 0) {
            return;
        }
        var cls = session.loop().classes().stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
        if (cls == null || !ahead.needs(name, cls.policy())) {
            return;
        }
        running = true;
        try {
            ahead.compute(name, cls.policy(), LoadSource.of(() -> session.history().find(name)),
                    LoadSource.of(() -> session.history().findWeek(name)), session.io())
                    .whenCompleteAsync((entry, e) -> {
                        running = false;
                        if (e != null || entry.isEmpty()) {
                            inView(inView); // none (no week yet, or cancelled): asked again after a while in view
                        }
                    }, fx);
        } catch (RejectedExecutionException e) {
            running = false; // the session is closing
        }
    }

    private void inView(String name) {
        inView = name;
        inViewSince = session.clock().instant();
    }
}
