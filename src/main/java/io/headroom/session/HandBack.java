package io.headroom.session;

import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.HeadroomPause;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.HeldClass;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Handing classes back (design.md §4) when the console exits. Every class held by hand (frozen, overridden,
 * in auto mode) is either handed back (KEDA's {@code paused-replicas} and Headroom's record of it removed,
 * any kept pause's annotations too, and then Headroom's holds lifted) or kept (owner, expiry and reason
 * written on the workload and its ScaledObject). The intent is journaled before the cluster is touched
 * and the outcome after it: a hold is journaled lifted only once the cluster has confirmed the hand-back,
 * so a write that fails (a 500, an API server out of reach, another console's lease) leaves the class
 * held and its pause owned, for the next console to offer ({@link Leftovers}). Posted as Events by the
 * team timeline. Everything runs on the session's I/O executor under a deadline: what did not finish in
 * time is named in the report, never waited for, so an exit cannot hang.
 */
public final class HandBack {
    private static final Logger LOG = Logger.getLogger(HandBack.class.getName());
    /** How long an exit waits for the hand-back before it goes anyway (and says what did not finish). */
    public static final Duration EXIT_DEADLINE = Duration.ofSeconds(10);
    /** How long a kept pause of a class in auto mode lasts (a freeze or a pin keeps its own end). */
    public static final Duration AUTO_KEEP = Duration.ofHours(4);

    /** What the operator chose for a class. */
    public enum Choice { HAND_BACK, KEEP }

    /**
     * One class to ask about at exit.
     *
     * @param holds      what holds it, in words
     * @param autoscaler who takes it back: "KEDA (ScaledObject x)", "the HPA x" or "nothing else scales it"
     * @param keepUntil  when a kept pause would end
     */
    public record Item(String className, WorkloadRef target, String holds, String autoscaler, Instant keepUntil,
                       HeldClass held) {
        /** The same class, its kept pause ending at {@code until} (the operator's choice, see {@link KeepUntil}). */
        public Item withKeepUntil(Instant until) {
            return new Item(className, target, holds, autoscaler, until, held);
        }
    }

    /** How one class's hand-back or kept pause ended. */
    public record Result(String className, Choice choice, boolean ok, String message) {
    }

    /** Every result, and the classes that did not finish before the deadline. */
    public record Report(List<Result> results, List<String> unfinished) {
        public Report {
            results = List.copyOf(results);
            unfinished = List.copyOf(unfinished);
        }

        public boolean ok() {
            return unfinished.isEmpty() && results.stream().allMatch(Result::ok);
        }

        /** One line per problem (or one line saying all went well), for the exit's last notice. */
        public String summary() {
            List<String> lines = new ArrayList<>();
            for (Result r : results) {
                if (!r.ok()) {
                    lines.add(r.className() + ": " + r.message());
                }
            }
            if (!unfinished.isEmpty()) {
                lines.add("not confirmed before the deadline: " + String.join(", ", unfinished));
            }
            if (lines.isEmpty()) {
                long back = results.stream().filter(r -> r.choice() == Choice.HAND_BACK).count();
                return back + " handed back, " + (results.size() - back) + " kept";
            }
            return String.join("\n", lines);
        }
    }

    private final Supervisor supervisor;
    private final ClusterPorts cluster;
    private final Supplier<Journal> journal;
    private final Supplier<List<WorkloadClass>> classes;
    private final Clock clock;
    private final Executor io;

    /**
     * @param cluster the session's own cluster, not the supervisor's gate (a frozen class's pause must
     *                still be handed back)
     * @param io      where the work runs (blocking cluster calls), never the FX thread
     */
    public HandBack(Supervisor supervisor, ClusterPorts cluster, Supplier<Journal> journal,
                    Supplier<List<WorkloadClass>> classes, Clock clock, Executor io) {
        this.supervisor = supervisor;
        this.cluster = cluster;
        this.journal = journal;
        this.classes = classes;
        this.clock = clock;
        this.io = io;
    }

    /** The session's present (a kept pause's end is chosen from it). */
    public Instant now() {
        return clock.instant();
    }

    /** The classes to ask about at exit, read off the FX thread (the autoscaler views may ask the cluster). */
    public CompletableFuture<List<Item>> atExit() {
        return CompletableFuture.supplyAsync(this::items, io);
    }

    /** The classes held by hand now, with who would take each back. */
    public List<Item> items() {
        Instant now = clock.instant();
        Map<String, WorkloadClass> byName = byName();
        List<Item> out = new ArrayList<>();
        Map<String, HeldClass> held = new java.util.HashMap<>();
        supervisor.state().heldByHand(now).forEach(h -> held.put(h.className(), h));
        for (WorkloadClass c : byName.values()) { // in the workloads file's order
            HeldClass h = held.get(c.name());
            if (h == null) {
                continue;
            }
            String who;
            try {
                AutoscalerView v = cluster.workloads().autoscaler(c.target());
                who = switch (v.kind()) {
                    case KEDA -> "KEDA (ScaledObject " + v.name() + ")";
                    case HPA -> "the HPA " + v.name();
                    default -> "nothing else scales it";
                };
            } catch (RuntimeException e) {
                who = "unknown (" + e.getMessage() + ")";
            }
            Instant until = h.until() != null ? h.until() : now.plus(AUTO_KEEP);
            out.add(new Item(h.className(), c.target(), h.describe(), who, until, h));
        }
        return out;
    }

    /**
     * Hands back or keeps each class as chosen (a class not in {@code choices} is kept), journaled
     * first; completes within {@code deadline} with what finished and what did not.
     */
    public CompletableFuture<Report> finish(List<Item> items, Map<String, Choice> choices, Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        Map<String, Result> done = new ConcurrentHashMap<>();
        List<String> names = items.stream().map(Item::className).toList();
        CompletableFuture<Report> report = new CompletableFuture<>();
        CompletableFuture.runAsync(() -> {
            boolean globalKept = false;
            boolean globalHeld = false;
            for (Item it : items) {
                Choice c = choices.getOrDefault(it.className(), Choice.KEEP);
                Result r = c == Choice.HAND_BACK ? handBack(it.className(), it.target(),
                        "handed back at exit: " + it.holds(), end) : keep(it, end);
                globalHeld |= it.held().global();
                // A class kept, or not confirmed handed back, keeps the freeze of everything too.
                globalKept |= it.held().global() && !(c == Choice.HAND_BACK && r.ok());
                done.put(it.className(), r);
            }
            if (globalHeld && !globalKept) {
                Outcome o = await(supervisor.unfreeze(null, "every class handed back at exit"), end);
                if (!o.ok()) {
                    LOG.warning("global freeze not lifted at exit: " + o.message());
                }
            }
        }, io).whenComplete((v, e) -> report.complete(report(names, done, e)));
        CompletableFuture.delayedExecutor(deadline.toNanos(), TimeUnit.NANOSECONDS)
                .execute(() -> report.complete(report(names, done, null)));
        return report;
    }

    /**
     * Hands one class back: the intent journaled ({@code HANDING_BACK}), the class's writes held while the
     * cluster is written (KEDA's pause and Headroom's record of it removed, a kept pause's annotations too),
     * then, only once the cluster has confirmed it, the class's own holds lifted (each journaled) and the
     * outcome journaled ({@code HANDED_BACK}). A write that fails journals {@code HAND_BACK_REFUSED} and
     * lifts nothing: the class stays held and its pause stays owned on the cluster.
     */
    Result handBack(String name, WorkloadRef target, String why, long end) {
        Instant now = clock.instant();
        String holds = supervisor.state().heldByHand(now).stream().filter(h -> h.className().equals(name))
                .map(HeldClass::describe).findFirst().orElse("");
        try {
            journal.get().append(JournalRecord.of(now, Kind.HANDING_BACK, supervisor.user(), target.context(), name)
                    .reason(why).detail("KEDA's pause and Headroom's record of it removed from the cluster"
                            + (holds.isEmpty() ? "" : "; then lifted: " + holds)));
        } catch (JournalException e) {
            return new Result(name, Choice.HAND_BACK, false, "not handed back, not journaled: " + e.getMessage());
        }
        supervisor.handingBack(name);
        try {
            List<String> did = new ArrayList<>();
            List<String> unwritten = new ArrayList<>(); // what the cluster refused or never answered
            for (WorkloadRef ref : workloadsOf(name, target)) { // every pool's Deployment of a pooled class
                try {
                    if (cluster.workloads().autoscaler(ref).kind() == AutoscalerView.Kind.KEDA) {
                        ScaleResult r = cluster.pauses().handBack(ref);
                        (r.outcome() == ScaleResult.Outcome.APPLIED ? did : unwritten).add(r.message());
                    }
                    if (unwritten.isEmpty()) { // KEDA's pause first: a kept pause's record goes only once it has
                        ScaleResult cleared = cluster.pauses().clearPause(ref);
                        if (cleared.outcome() != ScaleResult.Outcome.APPLIED) {
                            unwritten.add(cleared.message());
                        } else if (!cleared.message().startsWith("no pause recorded")) {
                            did.add(cleared.message());
                        }
                    }
                } catch (RuntimeException e) {
                    unwritten.add("cluster: " + e.getMessage());
                }
            }
            if (!unwritten.isEmpty()) {
                String said = "not handed back: " + String.join("; ", unwritten) + "; nothing lifted"
                        + (holds.isEmpty() ? "" : ": " + name + " stays " + holds) + "; what Headroom wrote on the"
                        + " cluster stays there with its owner and expiry, for the next console to offer";
                LOG.warning(name + ": " + said);
                refused(name, target, said, "hand back");
                return new Result(name, Choice.HAND_BACK, false, said);
            }
            List<String> problems = new ArrayList<>();
            io.headroom.supervise.ClassSupervision held = supervisor.state().of(name);
            if (held != null) { // the class's own holds; a freeze of everything is lifted once every class is back
                if (held.freeze() != null) {
                    note(await(supervisor.unfreeze(name, why), end), did, problems);
                }
                if (held.override() != null) {
                    note(await(supervisor.clearOverride(name, why), end), did, problems);
                }
                if (held.mode() == Mode.AUTO) {
                    note(await(supervisor.setMode(name, Mode.SUPERVISED), end), did, problems);
                }
            }
            String said = problems.isEmpty() ? "handed back" + (did.isEmpty() ? "" : ": " + String.join("; ", did))
                    : "handed back on the cluster (" + String.join("; ", did) + "), but not lifted: "
                    + String.join("; ", problems);
            if (!problems.isEmpty()) {
                LOG.warning(name + ": " + said);
            }
            try {
                journal.get().append(JournalRecord.of(clock.instant(), Kind.HANDED_BACK, supervisor.user(),
                        target.context(), name).reason(why).detail(said));
            } catch (JournalException e) {
                LOG.warning(name + ": the hand-back's outcome was not journaled: " + e.getMessage());
            }
            return new Result(name, Choice.HAND_BACK, problems.isEmpty(), said);
        } finally {
            supervisor.handedBack(name);
        }
    }

    /** What holds the class now when a freeze does ("frozen until 14:05 (incident 812)"), or null: its replicas are not to move. */
    String frozen(String className) {
        return supervisor.state().heldByHand(clock.instant()).stream()
                .filter(h -> h.className().equals(className) && h.freeze() != null)
                .map(HeldClass::describe).findFirst().orElse(null);
    }

    private Result keep(Item it, long end) {
        HeadroomPause pause = new HeadroomPause(supervisor.user(), it.keepUntil(), it.holds(),
                it.held().override() != null ? it.held().override().replicas() : null);
        try {
            journal.get().append(JournalRecord.of(clock.instant(), Kind.PAUSE_KEPT, supervisor.user(),
                    it.target().context(), it.className()).reason("kept at exit: " + it.holds()).until(it.keepUntil()));
        } catch (JournalException e) {
            return new Result(it.className(), Choice.KEEP, false, "pause not written, not journaled: " + e.getMessage());
        }
        String failed = null;
        List<String> kept = new ArrayList<>();
        for (WorkloadRef ref : workloadsOf(it.className(), it.target())) { // every pool's Deployment
            try {
                ScaleResult r = cluster.pauses().keepPause(ref, pause);
                if (r.outcome() == ScaleResult.Outcome.APPLIED) {
                    kept.add(r.message());
                    continue;
                }
                failed = "pause not kept: " + r.message();
            } catch (RuntimeException e) {
                failed = "pause not kept: " + e.getMessage();
            }
            break;
        }
        if (failed == null) {
            return new Result(it.className(), Choice.KEEP, true, String.join("; ", kept));
        }
        LOG.warning(it.className() + ": " + failed);
        refused(it.className(), it.target(), failed, "keep the pause until " + it.keepUntil());
        return new Result(it.className(), Choice.KEEP, false, failed);
    }

    /**
     * Journals that a hand-back or kept pause journaled a moment ago was not written (another console's
     * lease, the server's refusal, no answer), so the journal and the team timeline do not claim what did
     * not happen.
     */
    void refused(String name, WorkloadRef target, String said, String chosen) {
        try {
            journal.get().append(JournalRecord.of(clock.instant(), Kind.HAND_BACK_REFUSED, supervisor.user(),
                    target.context(), name).reason(said).detail("chosen: " + chosen));
        } catch (JournalException e) {
            LOG.warning(name + ": the refusal was not journaled: " + e.getMessage());
        }
    }

    private static void note(Outcome o, List<String> did, List<String> problems) {
        (o.ok() ? did : problems).add(o.message());
    }

    /** A command's outcome, or a refusal once the deadline has passed. */
    private static Outcome await(CompletableFuture<Outcome> f, long end) {
        try {
            long left = Math.max(1, end - System.nanoTime());
            return f.get(left, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return Outcome.refused(Outcome.Why.CLUSTER, "no answer before the deadline");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.failed("interrupted");
        } catch (java.util.concurrent.ExecutionException e) {
            return Outcome.failed(String.valueOf(e.getCause().getMessage()));
        }
    }

    private static Report report(List<String> names, Map<String, Result> done, Throwable failure) {
        List<Result> results = new ArrayList<>();
        List<String> unfinished = new ArrayList<>();
        for (String n : names) {
            Result r = done.get(n);
            if (r != null) {
                results.add(r);
            } else {
                unfinished.add(n);
            }
        }
        if (failure != null) {
            LOG.warning("hand back failed: " + failure.getMessage());
        }
        return new Report(results, unfinished);
    }

    /** The workloads a class scales: its target, or each of its pools' (decision 0029). */
    private List<WorkloadRef> workloadsOf(String className, WorkloadRef target) {
        WorkloadClass c = byName().get(className);
        return c != null && c.pooled() ? c.pools().targets() : List.of(target);
    }

    private Map<String, WorkloadClass> byName() {
        Map<String, WorkloadClass> out = new LinkedHashMap<>();
        classes.get().forEach(c -> out.put(c.name(), c));
        return out;
    }
}
