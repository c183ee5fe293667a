package io.headroom.supervise;

import io.headroom.decision.Decision;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.loop.ClassSnapshot;
import java.time.Instant;

/**
 * The user's view of a class's work (design.md §1: jobs queued, waiting for pods to start, executing,
 * waiting for an operator's approval, or held back by a limit): the waiting jobs split by what they wait
 * for, and the jobs executing. Waiting jobs are assigned in order to the capacity that will take
 * them: pods already starting, then capacity a proposal asks the operator for, then capacity a
 * limit holds back; the rest simply wait their turn. Counts are of jobs (a slot holds one).
 *
 * @param queued           waiting, with no more capacity on its way for them (their turn comes)
 * @param starting         waiting for pods that are starting (created, not ready)
 * @param executing        in flight on ready pods
 * @param awaitingApproval waiting for capacity a pending proposal asks the operator for
 * @param heldBack         waiting for capacity the decision wants but a limit holds back
 * @param heldBy           what holds it back ({@code ceiling db-connections}, {@code governor},
 *                         {@code freeze}, {@code override}, {@code maxReplicas}, {@code observe mode}), or null
 * @param admissionHeld    jobs the producers hold back because admission refused them (not in the queue, so
 *                         not in {@link #waiting}); 0 when the producers report none
 */
public record JobStates(long queued, long starting, long executing, long awaitingApproval, long heldBack,
                        String heldBy, long admissionHeld) {

    public JobStates(long queued, long starting, long executing, long awaitingApproval, long heldBack, String heldBy) {
        this(queued, starting, executing, awaitingApproval, heldBack, heldBy, 0);
    }

    /** "· 120 held back by admission", or empty when none is. */
    public String admissionWords() {
        return admissionHeld > 0 ? " · " + admissionHeld + " held back by admission" : "";
    }

    /** Waiting jobs in all. */
    public long waiting() {
        return queued + starting + awaitingApproval + heldBack;
    }

    /**
     * The split for one class at a tick; null when the queue length is not known (nothing honest to split).
     *
     * @param supervision the class's supervision (null: no supervisor, the loop acts directly)
     * @param freezeAll   a freeze of every class, or null
     */
    public static JobStates of(ClassSnapshot s, ClassSupervision supervision, Freeze freezeAll, Instant now) {
        if (s == null || s.observation() == null) {
            return null;
        }
        Signal length = s.observation().signals().get(Signals.QUEUE_LENGTH);
        if (length == null || !length.present()) {
            return null;
        }
        int k = s.cls().policy().slotsPerReplica();
        long rest = Math.max(0, Math.round(length.value()));
        Signal inFlight = s.observation().signals().get(Signals.IN_FLIGHT);
        long executing = inFlight != null && inFlight.present() ? Math.max(0, Math.round(inFlight.value())) : 0;

        int current = s.observation().currentReplicas();
        int ready = s.observation().readyReplicas();
        long starting = take(rest, (long) Math.max(0, current - ready) * k);
        rest -= starting;

        long awaiting = 0;
        Proposal p = supervision == null ? null : supervision.proposal();
        if (p != null && p.to() > Math.max(current, p.from())) {
            awaiting = take(rest, (long) (p.to() - Math.max(current, p.from())) * k);
            rest -= awaiting;
        }

        long held = 0;
        String heldBy = null;
        Decision d = s.decision();
        if (d != null) {
            int wanted = wanted(d);
            Integer limit = null;
            boolean frozen = freezeAll != null && freezeAll.activeAt(now)
                    || supervision != null && supervision.freeze() != null && supervision.freeze().activeAt(now);
            ReplicaOverride pin = supervision == null ? null : supervision.override();
            if (frozen) {
                limit = current;
                heldBy = "freeze";
            } else if (pin != null && pin.activeAt(now)) {
                limit = pin.replicas();
                heldBy = "override";
            } else if (supervision != null && supervision.mode() == Mode.OBSERVE) {
                limit = current;
                heldBy = "observe mode";
            } else {
                Limit l = limitOf(d, wanted);
                if (l != null) {
                    limit = l.replicas();
                    heldBy = l.name();
                }
            }
            if (limit != null) {
                // Capacity present, or asked for in a proposal, is not held back by the limit.
                int gap = wanted - Math.max(limit, Math.max(current, p == null ? 0 : p.to()));
                held = gap > 0 ? take(rest, (long) gap * k) : 0;
                rest -= held;
            }
            if (held == 0) {
                heldBy = null;
            }
        }
        Signal refused = s.observation().signals().get(Signals.ADMISSION_HELD);
        long admissionHeld = refused != null && refused.present() ? Math.max(0, Math.round(refused.value())) : 0;
        return new JobStates(rest, starting, executing, awaiting, held, heldBy, admissionHeld);
    }

    /** What the estimate asks for before any limit: the slot and age terms (replicas held on missing data count as is). */
    private static int wanted(Decision d) {
        int w = d.recommendedReplicas();
        if (d.slotReplicas() != null) {
            w = Math.max(w, d.slotReplicas());
        }
        if (d.ageReplicas() != null && !d.stalled()) {
            w = Math.max(w, d.ageReplicas());
        }
        return w;
    }

    private record Limit(String name, int replicas) {
    }

    /**
     * The tightest limit below what the estimate asks for (a ceiling, the governor, maxReplicas), or
     * null when none is: a rate policy or a window only delays capacity that is on its way.
     */
    private static Limit limitOf(Decision d, int wanted) {
        Limit tightest = null;
        for (io.headroom.decision.CeilingResult c : d.ceilings()) {
            if (c.limit() < wanted && (tightest == null || c.limit() < tightest.replicas())) {
                tightest = new Limit("ceiling " + c.name(), c.limit());
            }
        }
        if (d.governorLimit() != null && d.governorLimit() < wanted
                && (tightest == null || d.governorLimit() < tightest.replicas())) {
            tightest = new Limit("governor", d.governorLimit());
        }
        if (d.recommendedReplicas() < wanted && (tightest == null || d.recommendedReplicas() < tightest.replicas())) {
            tightest = new Limit("maxReplicas", d.recommendedReplicas());
        }
        return tightest;
    }

    private static long take(long available, long capacity) {
        return Math.max(0, Math.min(available, capacity));
    }
}
