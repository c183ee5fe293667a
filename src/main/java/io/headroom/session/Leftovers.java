package io.headroom.session;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.NodeResult;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * What a console finds left behind on its clusters as it starts (issue 27): every pause, drain's marks,
 * cordon and replica bump Headroom wrote that is still there, whoever left it (this user before a restart, another
 * console, one that died or whose hand-back failed), each with its owner and expiry as the object carries
 * them. The operator hands each back, keeps it or clears Headroom's record of it; each choice is journaled,
 * a write's intent ({@code HANDING_BACK}) before it and its outcome ({@code HANDED_BACK} or
 * {@code HAND_BACK_REFUSED}) after, a kept one as {@code LEFTOVER_KEPT}. A pause is handed back through
 * {@link HandBack}, so a class's holds restored from the journal are lifted only once the cluster confirms.
 * Reads and writes run on the session's I/O executor; settling completes within its deadline.
 */
public final class Leftovers {
    private static final Logger LOG = Logger.getLogger(Leftovers.class.getName());

    /** What a start found: the leftovers, and what could not be read (in words). */
    public record Found(List<Leftover> leftovers, List<String> problems) {
        public Found {
            leftovers = List.copyOf(leftovers);
            problems = List.copyOf(problems);
        }
    }

    /** How one leftover's choice ended. */
    public record Settled(Leftover leftover, Leftover.Choice choice, boolean ok, String message) {
    }

    /** Every leftover settled, and those not confirmed before the deadline (their what). */
    public record Report(List<Settled> settled, List<String> unfinished) {
        public Report {
            settled = List.copyOf(settled);
            unfinished = List.copyOf(unfinished);
        }

        public boolean ok() {
            return unfinished.isEmpty() && settled.stream().allMatch(Settled::ok);
        }

        /** One line per problem, or one line counting what was done. */
        public String summary() {
            List<String> lines = new ArrayList<>();
            settled.stream().filter(s -> !s.ok()).forEach(s -> lines.add(s.leftover().what() + ": " + s.message()));
            if (!unfinished.isEmpty()) {
                lines.add("not confirmed before the deadline: " + String.join("; ", unfinished));
            }
            if (!lines.isEmpty()) {
                return String.join("\n", lines);
            }
            return count(Leftover.Choice.HAND_BACK) + " handed back, " + count(Leftover.Choice.KEEP) + " kept, "
                    + count(Leftover.Choice.CLEAR) + " cleared";
        }

        private long count(Leftover.Choice c) {
            return settled.stream().filter(s -> s.choice() == c).count();
        }
    }

    private final HandBack handBack;
    private final ClusterPorts cluster;
    private final Supplier<Journal> journal;
    private final Supplier<List<WorkloadClass>> classes;
    private final String user;
    private final Clock clock;
    private final Executor io;

    /**
     * @param cluster the session's own cluster, not the supervisor's gate (a leftover of a frozen class is
     *                still handed back)
     * @param io      where the work runs (blocking cluster calls), never the FX thread
     */
    public Leftovers(HandBack handBack, ClusterPorts cluster, Supplier<Journal> journal,
                     Supplier<List<WorkloadClass>> classes, String user, Clock clock, Executor io) {
        this.handBack = handBack;
        this.cluster = cluster;
        this.journal = journal;
        this.classes = classes;
        this.user = user;
        this.clock = clock;
        this.io = io;
    }

    /** The session's present (what has expired is judged by it). */
    public Instant now() {
        return clock.instant();
    }

    /** Every leftover on this session's workloads, their pods and their contexts' nodes, read off the FX thread. */
    public CompletableFuture<Found> find() {
        return CompletableFuture.supplyAsync(this::findNow, io);
    }

    /** What Headroom left on one workload of class {@code c}: a kept pause, a raised replica count, drain marks. */
    private void findOn(WorkloadClass c, WorkloadRef target, List<Leftover> out, List<String> problems) {
        try {
            cluster.pauses().keptPause(target).ifPresent(p -> out.add(new Leftover.Pause(c.name(), target, p)));
        } catch (RuntimeException e) {
            problems.add("pause on " + target.name() + " (class " + c.name() + ") not read: " + e.getMessage());
        }
        try {
            cluster.scaling().replicaBump(target).ifPresent(b -> cluster.workloads().freshWorkload(target).ifPresent(w ->
                    out.add(new Leftover.Bump(c.name(), target, b, w.specReplicas(), w.resourceVersion()))));
        } catch (RuntimeException e) {
            problems.add("replicas of " + target.name() + " (class " + c.name() + ") not read: " + e.getMessage());
        }
        try {
            Map<String, List<PodMarks.Found>> byDrain = new LinkedHashMap<>();
            cluster.drainMarks().drainMarks(target).forEach(m -> byDrain.computeIfAbsent(m.drainId(), k -> new ArrayList<>())
                    .add(m));
            byDrain.forEach((id, marks) -> out.add(new Leftover.Marks(c.name(), target, id, marks)));
        } catch (RuntimeException e) {
            problems.add("drain marks of class " + c.name() + " not read: " + e.getMessage());
        }
    }

    private Found findNow() {
        List<Leftover> out = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Set<WorkloadRef> seen = new LinkedHashSet<>();
        Set<String> contexts = new LinkedHashSet<>();
        for (WorkloadClass c : classes.get()) {
            // A class placed across pools (decision 0029) left what it left on every pool's Deployment.
            for (WorkloadRef target : c.pooled() ? c.pools().targets() : List.of(c.target())) {
                contexts.add(target.context());
                if (seen.add(target)) { // two classes on one workload: its leftovers once
                    findOn(c, target, out, problems);
                }
            }
        }
        for (String context : contexts) {
            try {
                for (NodeState n : cluster.nodes().nodes(context)) {
                    if (n.headroomCordon() != null) {
                        out.add(new Leftover.Cordon(n.ref(), n.headroomCordon()));
                    }
                }
            } catch (RuntimeException e) {
                problems.add("nodes of context " + context + " not read: " + e.getMessage());
            }
        }
        return new Found(out, problems);
    }

    /**
     * Carries out the operator's choices (a leftover not in {@code choices} is left out: neither written nor
     * journaled), each journaled; completes within {@code deadline} with what finished and what did not.
     */
    public CompletableFuture<Report> settle(Map<Leftover, Leftover.Choice> choices, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        Map<Leftover, Settled> done = new ConcurrentHashMap<>();
        List<Leftover> order = List.copyOf(choices.keySet());
        CompletableFuture<Report> report = new CompletableFuture<>();
        CompletableFuture.runAsync(() -> {
            for (Leftover l : order) {
                done.put(l, settle(l, choices.get(l), end));
            }
        }, io).whenComplete((v, e) -> {
            if (e != null) {
                LOG.warning("leftovers not settled: " + e.getMessage());
            }
            report.complete(report(order, done));
        });
        CompletableFuture.delayedExecutor(deadline.toNanos(), TimeUnit.NANOSECONDS)
                .execute(() -> report.complete(report(order, done)));
        return report;
    }

    private static Report report(List<Leftover> order, Map<Leftover, Settled> done) {
        List<Settled> settled = new ArrayList<>();
        List<String> unfinished = new ArrayList<>();
        for (Leftover l : order) {
            Settled s = done.get(l);
            if (s != null) {
                settled.add(s);
            } else {
                unfinished.add(l.what());
            }
        }
        return new Report(settled, unfinished);
    }

    private Settled settle(Leftover l, Leftover.Choice choice, long end) {
        Instant now = clock.instant();
        String found = "left " + l.whose(now) + ": " + l.what();
        if (!l.choices().contains(choice)) {
            return new Settled(l, choice, false, "cannot be " + choice.name().toLowerCase().replace('_', ' '));
        }
        if (choice == Leftover.Choice.KEEP) {
            try {
                journal.get().append(record(now, Kind.LEFTOVER_KEPT, l).reason("kept at start: " + found));
                return new Settled(l, choice, true, "kept");
            } catch (JournalException e) {
                return new Settled(l, choice, false, "kept, but not journaled: " + e.getMessage());
            }
        }
        if (l instanceof Leftover.Pause p && choice == Leftover.Choice.HAND_BACK) {
            HandBack.Result r = handBack.handBack(p.className(), p.workload(), "leftover handed back at start: "
                    + found, end);
            return new Settled(l, choice, r.ok(), r.message());
        }
        if (l instanceof Leftover.Bump b && choice == Leftover.Choice.HAND_BACK && handBack.frozen(b.className()) != null) {
            return new Settled(l, choice, false, "not lowered: " + b.className() + " is " + handBack.frozen(b.className())
                    + "; unfreeze it first, or keep it");
        }
        String intent = (choice == Leftover.Choice.CLEAR ? "record cleared at start: " : "leftover handed back at start: ")
                + found;
        try {
            journal.get().append(record(now, Kind.HANDING_BACK, l).reason(intent));
        } catch (JournalException e) {
            return new Settled(l, choice, false, "not done, not journaled: " + e.getMessage());
        }
        String failed;
        String did;
        try {
            if (l instanceof Leftover.Pause p) { // CLEAR: KEDA's pause stays, no longer Headroom's
                ScaleResult r = cluster.pauses().forgetPause(p.workload());
                failed = r.ok() ? null : r.message();
                did = r.message();
            } else if (l instanceof Leftover.Bump b) { // lowered back, or only its record removed
                int to = choice == Leftover.Choice.HAND_BACK ? b.bump().from() : b.replicasNow();
                ScaleResult r = cluster.scaling().scale(b.workload(), to, b.resourceVersion(), null,
                        fresh -> fresh.specReplicas() == b.replicasNow() ? Redecision.propose(to)
                                : Redecision.giveUp("replicas moved from " + b.replicasNow() + " to "
                                + fresh.specReplicas() + " since they were read"), 2);
                failed = r.ok() ? null : r.message();
                did = r.message();
            } else if (l instanceof Leftover.Marks m) {
                PodMarks.Result r = m.expiredAt(now) ? cluster.drainMarks().clearExpiredMarks(m.workload(), m.marks(), now)
                        : cluster.drainMarks().unmarkDrain(m.workload(), m.pods(), m.drainId());
                failed = r.ok() ? null : String.join("; ", r.failed());
                did = "marks removed from " + String.join(", ", r.done()) + " (their deletion cost restored)";
            } else {
                Leftover.Cordon c = (Leftover.Cordon) l;
                NodeResult r = cluster.nodes().cordon(c.node(), false, null);
                failed = r.ok() ? null : r.message();
                did = r.message();
            }
        } catch (RuntimeException e) {
            failed = String.valueOf(e.getMessage());
            did = null;
        }
        if (failed != null) {
            String said = "not done: " + failed + "; left as it was";
            append(record(clock.instant(), Kind.HAND_BACK_REFUSED, l).reason(said).detail("chosen: " + intent));
            return new Settled(l, choice, false, said);
        }
        append(record(clock.instant(), Kind.HANDED_BACK, l).reason(intent).detail(did));
        return new Settled(l, choice, true, did);
    }

    /** A record about the leftover: its class (a pause, marks) or its node (a cordon). */
    private JournalRecord record(Instant at, Kind kind, Leftover l) {
        if (l instanceof Leftover.Cordon c) {
            return JournalRecord.of(at, kind, user, c.context(), null).node(c.node().name());
        }
        if (l instanceof Leftover.Bump b) {
            return JournalRecord.of(at, kind, user, l.context(), b.className()).change(b.replicasNow(),
                    b.bump().from());
        }
        String cls = l instanceof Leftover.Pause p ? p.className() : ((Leftover.Marks) l).className();
        return JournalRecord.of(at, kind, user, l.context(), cls);
    }

    /** An outcome record: the work is done (or not) whether or not it can be written; a failure is logged. */
    private void append(JournalRecord r) {
        try {
            journal.get().append(r);
        } catch (JournalException e) {
            LOG.warning("the outcome was not journaled: " + e.getMessage());
        }
    }
}
