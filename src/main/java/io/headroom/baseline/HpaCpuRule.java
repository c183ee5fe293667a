package io.headroom.baseline;

import io.headroom.decision.Behaviour;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.Figures;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.decision.Term;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The HPA on CPU (design.md §1: it "stays satisfied while a backlog of 200,000 jobs builds up"), as a
 * pure function over the same observations. Queue workers are mostly I/O-bound, so CPU is modelled
 * from the busy slots: a pod with every slot busy uses {@code busyPodCpu} of its CPU request.
 * {@code desired = ceil(ready × utilization / target)} with the HPA's 10 % tolerance and behaviour;
 * it never scales to or from zero.
 *
 * @param target     target CPU utilization of the request, e.g. 0.7
 * @param busyPodCpu CPU used by a pod whose every slot is busy, as a share of its request
 */
public record HpaCpuRule(double target, double busyPodCpu) implements Decider {

    /** An I/O-bound worker: half its CPU request with every slot busy. */
    public static final double DEFAULT_BUSY_POD_CPU = 0.5;

    public HpaCpuRule {
        if (!(target > 0) || target > 10) {
            throw new IllegalArgumentException("target must be in (0, 1000] %, got " + target * 100);
        }
        if (!(busyPodCpu > 0) || Double.isInfinite(busyPodCpu)) {
            throw new IllegalArgumentException("busyPodCpu must be > 0, got " + busyPodCpu);
        }
    }

    @Override
    public Decision decide(String className, Policy p, Observation obs, ClassMemory memory, Instant now) {
        ClassMemory mem = memory == null ? ClassMemory.initial() : memory;
        int current = obs.currentReplicas();
        int ready = obs.readyReplicas();
        List<Term> terms = new ArrayList<>();
        List<Reason> reasons = new ArrayList<>();
        List<String> story = new ArrayList<>();
        List<InputStatus> inputs = new ArrayList<>();
        List<ClassMemory.Stamped> events = Behaviour.observedEvents(p.scaleUp(), p.scaleDown(), mem, obs, now);
        List<ClassMemory.Stamped> recs = Baselines.recommendations(mem, current, now);
        Signal inFlight = obs.signal(Signals.IN_FLIGHT);
        boolean fresh = inFlight.present()
                && KedaLengthRule.seconds(inFlight.sampledAt(), now) <= 2 * p.pollIntervalSeconds();
        inputs.add(fresh ? new InputStatus(Signals.IN_FLIGHT, InputStatus.Status.OK, inFlight.value(),
                inFlight.sampledAt(), null)
                : new InputStatus(Signals.IN_FLIGHT, InputStatus.Status.MISSING, Double.NaN, null,
                inFlight.present() ? "stale" : inFlight.missingReason()));
        Baselines.observed(obs, p, now, inputs);
        int min = Math.max(1, p.minReplicas());
        // Outside min..max the HPA moves the count before it reads any metric; at zero it does not scale at all.
        Behaviour.Result bound = current == 0 ? null
                : Behaviour.outOfRange(min, p.maxReplicas(), current, recs, true);
        if (bound != null) {
            terms.addAll(bound.terms());
            reasons.addAll(bound.reasons());
            story.add("HPA (CPU): " + bound.story().get(0));
            terms.add(new Term("desired", bound.replicas(), "back within min..max"));
            story.add(current + " → " + bound.replicas());
            return Baselines.decision(className, now, obs, bound.replicas(), Double.NaN, terms, reasons, inputs,
                    String.join("; ", story), mem.next(current, now, now, bound.recommendations(), events));
        }
        if (!fresh || current == 0 || ready == 0) {
            // No pod metrics (or no pods): the HPA does not scale.
            reasons.add(Reason.of(Reason.Code.TELEMETRY_MISSING, "cpu"));
            story.add("HPA (CPU): no CPU metrics → hold " + current);
            return Baselines.decision(className, now, obs, current, Double.NaN, terms, reasons, inputs,
                    String.join("; ", story), mem.next(current, now, now, recs, events));
        }
        double utilization = Math.min(1, inFlight.value() / ((double) ready * p.slotsPerReplica())) * busyPodCpu;
        double ratio = utilization / target;
        terms.add(new Term("cpuUtilization", utilization, "busy slots × " + Figures.fmt(busyPodCpu)
                + " of the request"));
        int rec;
        if (Math.abs(ratio - 1) <= KedaLengthRule.TOLERANCE) {
            rec = current;
            story.add("HPA (CPU): " + pct(utilization) + " within 10 % of the " + pct(target) + " target");
        } else {
            rec = (int) Math.ceil(ready * ratio - 1e-9);
            story.add("HPA (CPU): ceil(" + ready + " × " + pct(utilization) + " / " + pct(target) + ") = " + rec);
        }
        Behaviour.Result n = Behaviour.normaliseWithin(p.scaleUp(), p.scaleDown(), min, p.maxReplicas(), current, rec,
                recs, events, now);
        return Baselines.normalised(className, now, obs, n, utilization, terms, reasons, story, inputs,
                mem.next(current, now, now, n.recommendations(), events));
    }

    private static String pct(double v) {
        return Figures.fmt(v * 100) + " %";
    }
}
