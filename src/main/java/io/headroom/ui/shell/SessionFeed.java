package io.headroom.ui.shell;

import io.headroom.loop.TickResult;
import io.headroom.session.SessionTick;
import io.headroom.ui.detail.DetailViewModel;
import io.headroom.ui.overview.OverviewViewModel;
import io.headroom.ui.supervise.SupervisionViewModel;
import java.util.List;

/**
 * Applies a batch of the session's ticks to the window's view models, on the FX thread: every new
 * tick to the charts' history, the newest to the table and the top bar, and the newest supervision
 * state after them (the rows it marks exist by then). One ordered stream, so nothing is re-applied.
 */
public final class SessionFeed {
    private SessionFeed() {
    }

    public static void apply(List<SessionTick> batch, MainViewModel main, OverviewViewModel overview,
                             DetailViewModel detail, SupervisionViewModel supervision) {
        if (batch.isEmpty()) {
            return;
        }
        List<TickResult> fresh = batch.stream().filter(SessionTick::newTick).map(SessionTick::result).toList();
        if (!fresh.isEmpty()) {
            SessionTick newest = batch.stream().filter(SessionTick::newTick).reduce((a, b) -> b).orElseThrow();
            overview.apply(newest.result());
            detail.apply(fresh);
            main.apply(newest.result(), newest.cluster(), newest.metrics());
            main.applyAccess(newest.access());
            supervision.applyAccess(newest.access());
            detail.applyAccess(newest.access(), newest.autoscalers());
        }
        SessionTick last = batch.get(batch.size() - 1);
        if (last.supervision() != null) {
            supervision.apply(last.supervision());
            overview.applySupervision(last.supervision());
            detail.applySupervision(last.supervision());
        }
    }
}
