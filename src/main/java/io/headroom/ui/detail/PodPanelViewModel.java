package io.headroom.ui.detail;

import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.PodWork;
import io.headroom.ui.Format;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The selected class's pods, one row each (issue 15, items 2 and 3): phase, ready, node, age, jobs in
 * flight, jobs finished lately, {@code pod-deletion-cost}, drain mark and who set it, and STUCK. Every
 * figure comes from the class's latest tick (read on the loop's thread); STUCK is the decision's own
 * finding ({@link Decision#stuckPods()}), not worked out again here. Drain hands one pod to the
 * supervised drain path (the operator's dialogs and warnings, journaled). FX thread only; holds no nodes.
 */
public final class PodPanelViewModel {

    /**
     * One pod as the panel shows it. Text fields are ready to show ({@link Format#NO_DATA} for no data).
     *
     * @param stuckDetail why the pod is STUCK, empty when it is not
     * @param drainable   whether Drain is offered (not for a pod that is terminating or already marked)
     * @param gone        the pod is no longer listed, its row kept where it was while the operator's attention is
     *                    on the rows (issue 28)
     */
    public record PodRow(String name, String phase, boolean ready, String node, String age, String inFlight,
                         String completions, String deletionCost, String drainMark, String owner, boolean stuck,
                         String stuckDetail, boolean drainable, boolean gone) {

        /** This row as it stays once its pod is gone: nothing to drain (the same again for a row already gone). */
        PodRow goneRow() {
            return new PodRow(name, phase, false, node, age, inFlight, completions, deletionCost, drainMark, owner,
                    false, "", false, true);
        }
    }

    /** Where a pod drain goes: the operator's flow (dialog, warnings, the supervisor). */
    public interface PodDrainer {
        /**
         * @param current the class's replicas now (the drain lowers them by one)
         * @param pool    the pod's pool and its replicas, whose Deployment the drain lowers, for a class placed
         *                across pools; null for a class with one
         * @param note    what the dialog should add about this pod (STUCK), or null
         */
        void drainPod(String className, String pod, int current, ClassSnapshot.PodPool pool, String note);
    }

    /** Where Drain… on a STUCK pod goes: replacing it (a drain of a hung worker could never end). */
    public interface PodReplacer {
        /**
         * @param current the class's replicas now (one more is asked for, then they return to it)
         * @param pool    the pod's pool and its replicas, whose Deployment asks for the replacement, for a class
         *                placed across pools; null for a class with one
         * @param why     why the pod is STUCK, for the dialog
         */
        void replacePod(String className, String pod, int current, ClassSnapshot.PodPool pool, String why);
    }

    private final StringProperty className = new SimpleStringProperty("");
    private final StringProperty summary = new SimpleStringProperty("");
    private final ObservableList<PodRow> rows = FXCollections.observableArrayList();
    /** The rows as the latest tick lists them (the rows shown may be held apart, under the operator's attention). */
    private List<PodRow> latest = List.of();
    private final io.headroom.ui.AttentionHold hold = new io.headroom.ui.AttentionHold(java.time.Clock.systemUTC(),
            this::release);
    private PodDrainer drainer = (c, p, n, pool, note) -> { };
    private PodReplacer replacer = (c, p, n, pool, why) -> { };
    private ClassSnapshot shown;

    public ReadOnlyStringProperty classNameProperty() { return className; }

    /** "4 pods · 1 STUCK · 23 jobs finished in the last 5 min", or why there is nothing to show. */
    public ReadOnlyStringProperty summaryProperty() { return summary; }

    public ObservableList<PodRow> rows() { return rows; }

    /**
     * The hold on the rows' order (the view feeds it, {@link io.headroom.ui.fx.AttentionArea}): while the operator's
     * attention is on the rows, a pod that went keeps its row, greyed, and a new one comes below, so a Drain… never
     * moves between the aim and the click; the cluster's order comes back once nothing holds it.
     */
    public io.headroom.ui.AttentionHold attention() { return hold; }

    /** Times the operator's touches of the rows on {@code clock} from now on (a test's manual clock). */
    public void setAttentionClock(java.time.Clock clock) { hold.setClock(clock); }

    public void setReplacer(PodReplacer replacer) {
        this.replacer = replacer == null ? (c, p, n, pool, why) -> { } : replacer;
    }

    public void setDrainer(PodDrainer drainer) {
        this.drainer = drainer == null ? (c, p, n, pool, note) -> { } : drainer;
    }

    /** Shows a class's latest tick (null: nothing yet). Rows are rebuilt only when what they show changed. */
    public void show(ClassSnapshot s) {
        boolean sameClass = s != null && shown != null && s.name().equals(shown.name());
        shown = s;
        className.set(s == null ? "" : s.name());
        if (s == null) {
            latest = List.of();
            release();
            summary.set("no tick yet");
            return;
        }
        WorkloadState w = s.workload();
        if (w == null) {
            latest = List.of();
            release();
            summary.set("pods unknown: " + io.headroom.ui.PlainWords.reason(s.problem()));
            return;
        }
        Decision d = s.decision();
        Set<String> stuck = d == null ? Set.of() : Set.copyOf(d.stuckPods());
        List<PodRow> next = new ArrayList<>();
        double finished = 0;
        boolean anyCompletions = false;
        long over = 0;
        for (PodState p : w.pods()) {
            PodWork work = s.work(p.name());
            boolean isStuck = stuck.contains(p.name());
            next.add(new PodRow(p.name(), p.terminating() ? "Terminating" : p.phase(), p.ready(),
                    p.node() == null ? Format.NO_DATA : p.node(),
                    p.createdAt() == null ? Format.NO_DATA
                            : Format.duration(Math.max(0, Duration.between(p.createdAt(), s.at()).toSeconds())),
                    Format.number(work.inFlight()), completions(work), cost(p), mark(p),
                    p.drainOwner() == null ? Format.NO_DATA : p.drainOwner(), isStuck,
                    isStuck ? stuckDetail(s, p, work) : "", !p.terminating() && !p.draining(), false));
            if (work.completionsKnown()) {
                finished += work.completions();
                anyCompletions = true;
                over = Math.max(over, work.overSeconds());
            }
        }
        latest = next;
        if (sameClass && hold.held()) {
            holdRows(next);
        } else {
            release(); // nothing holds them, or another class is in view: its own rows at once
        }
        int n = w.pods().size();
        summary.set(n + " pod" + (n == 1 ? "" : "s")
                + (stuck.isEmpty() ? "" : " · " + stuck.size() + " STUCK")
                + (anyCompletions ? " · " + Format.number(finished) + " jobs finished in the last "
                + Format.duration(over) : " · per-pod completions: no data"));
    }

    /** The rows where they are: each updated in place, or kept greyed once its pod went; new pods below. */
    private void holdRows(List<PodRow> next) {
        List<PodRow> held = io.headroom.ui.AttentionHold.keptInPlace(rows, next, PodRow::name, PodRow::goneRow);
        if (!held.equals(rows)) {
            rows.setAll(held); // the panel keeps each pod's row by name: nothing is built anew
        }
        hold.setWaiting(!held.equals(next));
    }

    /** The rows as the latest tick lists them. */
    private void release() {
        hold.setWaiting(false);
        if (!latest.equals(rows)) {
            rows.setAll(latest);
        }
    }

    /**
     * Asks to drain one pod of the shown class (the operator's dialog follows). A STUCK pod is offered a
     * replacement instead: its jobs never finish, so a drain that waits for them never ends.
     */
    public void drain(String pod) {
        ClassSnapshot s = shown;
        if (s == null || s.workload() == null) {
            return;
        }
        PodRow row = rows.stream().filter(r -> r.name().equals(pod)).findFirst().orElse(null);
        if (row == null || !row.drainable()) {
            return;
        }
        if (row.stuck()) {
            replacer.replacePod(s.name(), pod, s.workload().specReplicas(), s.podPool(pod), row.stuckDetail());
            return;
        }
        drainer.drainPod(s.name(), pod, s.workload().specReplicas(), s.podPool(pod), null);
    }

    /** "12 in 5m 00s", NaN as no data (no per-pod counter, or seen once so far). */
    static String completions(PodWork w) {
        return w.completionsKnown() ? Format.number(w.completions()) + " in " + Format.duration(w.overSeconds())
                : Format.NO_DATA;
    }

    /** The pod-deletion-cost, "drain (lowest)" for a drain's mark, with the cost it replaced. */
    static String cost(PodState p) {
        if (p.deletionCost() == null) {
            return Format.NO_DATA;
        }
        String c = p.deletionCost() == PodMarks.DRAIN_DELETION_COST ? "lowest (drain)" : p.deletionCost().toString();
        return p.priorCost() == null ? c : c + ", was " + p.priorCost();
    }

    static String mark(PodState p) {
        return p.drainId() == null ? Format.NO_DATA : p.drainId();
    }

    /** "no completion for 2m 10s, 4 in flight (STUCK after max(3 × S, stuckAfterSeconds))". */
    public static String stuckDetail(ClassSnapshot s, PodState p, PodWork w) {
        Instant since = s.observation() == null ? null : s.observation().podsWithoutProgress().get(p.name());
        return (since == null ? "no progress" : "no completion for "
                + Format.duration(Math.max(0, Duration.between(since, s.at()).toSeconds())))
                + (w.inFlightKnown() ? ", " + Format.number(w.inFlight()) + " in flight" : "");
    }
}
