package io.headroom.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The set of cluster ports one session uses, assembled in one place: each adapter (Kubernetes, sandbox)
 * builds its set, {@link RoutingClusterGateway#of} joins the sets of several contexts, and the supervisor's
 * freeze gate replaces the write ports once. Not a port itself: a value holding the small ports
 * ({@link Workloads}, {@link Scaling}, {@link Pauses}, {@link DrainMarks}, {@link Nodes}, {@link TeamEvents},
 * {@link Health}, {@link Admissions}), none of which has a default a wrapper could forget to forward.
 */
public final class ClusterPorts implements AutoCloseable {
    private final String contextName;
    private final Workloads workloads;
    private final Scaling scaling;
    private final Pauses pauses;
    private final DrainMarks drainMarks;
    private final Nodes nodes;
    private final TeamEvents events;
    private final Health health;
    private final Admissions admissions;
    private final Object adapter;
    private final Map<String, ClusterPorts> byContext;
    private final AutoCloseable closer;

    private ClusterPorts(Builder b, Map<String, ClusterPorts> byContext) {
        this.contextName = Objects.requireNonNull(b.contextName, "contextName");
        this.workloads = Objects.requireNonNull(b.workloads, "workloads");
        this.scaling = Objects.requireNonNull(b.scaling, "scaling");
        this.pauses = b.pauses != null ? b.pauses : Unsupported.pauses();
        this.drainMarks = b.drainMarks != null ? b.drainMarks : Unsupported.drainMarks(workloads);
        this.nodes = b.nodes != null ? b.nodes : Unsupported.nodes();
        this.events = b.events != null ? b.events : Unsupported.events("this cluster keeps no events");
        this.health = b.health != null ? b.health : () -> ClusterHealth.live(null);
        this.admissions = b.admissions != null ? b.admissions : Unsupported.admissions();
        this.adapter = b.adapter;
        this.closer = b.closer;
        this.byContext = byContext != null ? byContext : Map.of(contextName, this);
    }

    /** {@code base} with its write ports replaced; it does not own the cluster (closing it closes nothing). */
    private ClusterPorts(ClusterPorts base, Scaling scaling, DrainMarks drainMarks, Nodes nodes) {
        this(base, scaling, drainMarks, nodes, base.admissions);
    }

    /** {@code base} with its write ports replaced; it does not own the cluster (closing it closes nothing). */
    private ClusterPorts(ClusterPorts base, Scaling scaling, DrainMarks drainMarks, Nodes nodes,
                         Admissions admissions) {
        this.contextName = base.contextName;
        this.workloads = base.workloads;
        this.scaling = Objects.requireNonNull(scaling, "scaling");
        this.pauses = base.pauses;
        this.drainMarks = Objects.requireNonNull(drainMarks, "drainMarks");
        this.nodes = Objects.requireNonNull(nodes, "nodes");
        this.events = base.events;
        this.health = base.health;
        this.admissions = Objects.requireNonNull(admissions, "admissions");
        this.adapter = base.adapter;
        this.closer = null;
        this.byContext = base.byContext.size() == 1 && base.byContext.containsValue(base) ? Map.of(contextName, this)
                : base.byContext;
    }

    /**
     * A set for one context: {@code workloads} and {@code scaling} are required; a port not given is the
     * {@link Unsupported} one (the cluster lacks it), health not given is "live".
     */
    public static Builder builder(String contextName) {
        return new Builder(contextName);
    }

    /** The kubeconfig context (or "sandbox") these ports talk to; several, joined, when routed. */
    public String contextName() {
        return contextName;
    }

    public Workloads workloads() {
        return workloads;
    }

    public Scaling scaling() {
        return scaling;
    }

    public Pauses pauses() {
        return pauses;
    }

    public DrainMarks drainMarks() {
        return drainMarks;
    }

    public Nodes nodes() {
        return nodes;
    }

    public TeamEvents events() {
        return events;
    }

    /** Where producers read admission (the {@link Unsupported} one where none do). */
    public Admissions admissions() {
        return admissions;
    }

    /** How live the view is (the {@link Health} port's answer). */
    public ClusterHealth health() {
        return health.health();
    }

    /** The open contexts, in order, each with its own set (this set alone when it is one context's). */
    public Map<String, ClusterPorts> byContext() {
        return byContext;
    }

    /** Health per context, for the top bar's tooltip. */
    public Map<String, ClusterHealth> healthByContext() {
        Map<String, ClusterHealth> out = new LinkedHashMap<>();
        byContext.forEach((c, p) -> out.put(c, p.health()));
        return out;
    }

    /** The adapter that built this set when it is a {@code type} (the Kubernetes gateway, for its connection). */
    public <T> Optional<T> adapter(Class<T> type) {
        if (type.isInstance(adapter)) {
            return Optional.of(type.cast(adapter));
        }
        Object built = adapter instanceof Deferred d ? d.await() : null; // never on the FX thread
        return type.isInstance(built) ? Optional.of(type.cast(built)) : Optional.empty();
    }

    /**
     * An adapter still being built on another thread (a Kubernetes client while the console's first frame
     * shows): {@link #adapter} asked for another type waits for it.
     */
    public interface Deferred {
        /** The adapter once built; null when building it failed. */
        Object await();
    }

    /** The same set with the write ports replaced (the freeze gate); reads, pauses and events stay as they are. */
    public ClusterPorts withWrites(Scaling scaling, DrainMarks drainMarks, Nodes nodes) {
        return new ClusterPorts(this, scaling, drainMarks, nodes);
    }

    /** The same set with the admission port replaced (the freeze gate); the other ports stay as they are. */
    public ClusterPorts withAdmissions(Admissions gated) {
        return new ClusterPorts(this, scaling, drainMarks, nodes, gated);
    }

    static ClusterPorts routed(Builder b, Map<String, ClusterPorts> byContext) {
        return new ClusterPorts(b, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byContext)));
    }

    /** Closes what the adapter opened (a routed set: every context's). */
    @Override
    public void close() {
        if (closer != null) {
            try {
                closer.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the cluster " + contextName + " failed: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public String toString() {
        return "ports of " + contextName;
    }

    /** Assembles one context's ports. */
    public static final class Builder {
        private final String contextName;
        private Workloads workloads;
        private Scaling scaling;
        private Pauses pauses;
        private DrainMarks drainMarks;
        private Nodes nodes;
        private TeamEvents events;
        private Health health;
        private Admissions admissions;
        private Object adapter;
        private AutoCloseable closer;

        private Builder(String contextName) {
            this.contextName = contextName;
        }

        public Builder workloads(Workloads w) {
            this.workloads = w;
            return this;
        }

        public Builder scaling(Scaling s) {
            this.scaling = s;
            return this;
        }

        public Builder pauses(Pauses p) {
            this.pauses = p;
            return this;
        }

        public Builder drainMarks(DrainMarks m) {
            this.drainMarks = m;
            return this;
        }

        public Builder nodes(Nodes n) {
            this.nodes = n;
            return this;
        }

        public Builder events(TeamEvents e) {
            this.events = e;
            return this;
        }

        public Builder admissions(Admissions a) {
            this.admissions = a;
            return this;
        }

        public Builder health(Health h) {
            this.health = h;
            return this;
        }

        /** The adapter behind these ports, found again by {@link ClusterPorts#adapter}. */
        public Builder adapter(Object a) {
            this.adapter = a;
            return this;
        }

        /** What closing the set closes (the adapter's connection); none by default. */
        public Builder closer(AutoCloseable c) {
            this.closer = c;
            return this;
        }

        public ClusterPorts build() {
            return new ClusterPorts(this, null);
        }
    }
}
