package io.headroom.history;

import io.headroom.decision.SignalName;
import io.headroom.decision.Decision;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Observation;
import io.headroom.history.ClassHistory.Series;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Writes each control tick into the {@link History}: one point per class per tick, in domain
 * units, as the decision saw its inputs (a stale or missing input is NaN, never 0) plus the
 * replicas the workload had, had ready, and the decision wanted. Runs on the loop's thread: a few
 * array writes per class.
 */
public final class HistoryRecorder implements Consumer<TickResult> {
    private final History history;
    private final double[] row = new double[ClassHistory.SERIES]; // loop's thread only

    public HistoryRecorder(History history) {
        this.history = history;
    }

    @Override
    public void accept(TickResult tick) {
        for (ClassSnapshot s : tick.classes()) {
            record(s);
        }
    }

    private void record(ClassSnapshot s) {
        double t = s.at().getEpochSecond() + s.at().getNano() / 1e9;
        Arrays.fill(row, Double.NaN);
        Decision d = s.decision();
        for (Series series : Series.values()) {
            if (series.signal() != null) {
                row[series.ordinal()] = value(d, s.observation(), series.signal());
            }
        }
        if (d != null) {
            row[Series.REPLICAS.ordinal()] = d.currentReplicas();
            row[Series.READY_REPLICAS.ordinal()] = d.readyReplicas();
            row[Series.DESIRED_REPLICAS.ordinal()] = d.desiredReplicas();
            row[Series.ESTIMATED_SLOTS.ordinal()] = d.estimatedSlots() == null ? Double.NaN : d.estimatedSlots();
        } else if (s.workload() != null) {
            row[Series.REPLICAS.ordinal()] = s.workload().specReplicas();
            row[Series.READY_REPLICAS.ordinal()] = s.workload().readyReplicas();
        }
        history.of(s.name()).append(t, row);
        history.rollUp(s.name(), t, row); // and, a minute at a time, into the week the forecast reads
    }

    /** The input as the decision judged it; a signal the decision did not list, as observed. */
    private static double value(Decision d, Observation o, SignalName signal) {
        InputStatus in = d == null ? null : d.input(signal);
        if (in != null) {
            return in.usable() ? in.value() : Double.NaN;
        }
        if (o != null && o.signals() != null) {
            var sig = o.signals().get(signal);
            if (sig != null && sig.present()) {
                return sig.value();
            }
        }
        return Double.NaN;
    }
}
