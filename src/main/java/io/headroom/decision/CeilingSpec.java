package io.headroom.decision;

import java.util.Objects;

/**
 * A named ceiling that turns a budget into a replica limit: {@code floor(budget / perReplica)}.
 * Either side may be a constant or a named signal (e.g. measured p95 pod memory). When a signal it
 * needs is missing or stale, the ceiling uses {@code conservativeReplicas}; never "unlimited".
 */
public record CeilingSpec(String name, Source budget, Source perReplica, Integer conservativeReplicas) {

    public CeilingSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a ceiling needs a name");
        }
        Objects.requireNonNull(budget, "budget");
        if (perReplica == null) {
            perReplica = Source.constant(1);
        }
        if (conservativeReplicas != null && conservativeReplicas < 0) {
            throw new IllegalArgumentException("ceiling " + name + ": conservativeReplicas cannot be negative");
        }
    }

    /** A fixed replica limit, e.g. a tenant limit of 8 replicas. */
    public static CeilingSpec replicas(String name, int limit) {
        return new CeilingSpec(name, Source.constant(limit), Source.constant(1), null);
    }

    /** A fixed budget split per replica, e.g. 200 DB connections at 10 per pod. */
    public static CeilingSpec budget(String name, double budget, double perReplica) {
        return new CeilingSpec(name, Source.constant(budget), Source.constant(perReplica), null);
    }

    public boolean dynamic() {
        return budget.signal() != null || perReplica.signal() != null;
    }

    /**
     * The ceiling as what it is, for comments and notes: "12 replicas", "floor(200 / 10 per replica)
     * = 20 replicas" for a budget, "budget from SIGNAL / 10 per replica (4 replicas while it is
     * missing)" for one fed by a signal.
     */
    public String expression() {
        if (!dynamic()) {
            long replicas = (long) Math.floor(budget.constant() / perReplica.constant());
            return perReplica.constant() == 1 ? Figures.fmt(budget.constant()) + " replicas"
                    : "floor(" + Figures.fmt(budget.constant()) + " / " + Figures.fmt(perReplica.constant())
                    + " per replica) = " + replicas + " replicas";
        }
        String b = budget.signal() != null ? "budget from " + budget.signal() : Figures.fmt(budget.constant());
        String p = perReplica.signal() != null ? perReplica.signal() + " per replica"
                : Figures.fmt(perReplica.constant()) + " per replica";
        return b + " / " + p + (conservativeReplicas == null ? "" : " (" + conservativeReplicas
                + " replicas while it is missing)");
    }

    /** A number that is either fixed or read from a named signal of the observation. */
    public record Source(double constant, SignalName signal) {
        public Source {
            if (signal == null && (!Double.isFinite(constant) || constant <= 0)) {
                throw new IllegalArgumentException("a ceiling constant must be a positive number, got " + constant);
            }
        }

        public static Source constant(double value) {
            return new Source(value, null);
        }

        public static Source signal(SignalName name) {
            return new Source(Double.NaN, Objects.requireNonNull(name));
        }
    }
}
