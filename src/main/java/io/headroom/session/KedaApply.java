package io.headroom.session;

import io.headroom.config.ClassConfig;
import io.headroom.config.UntrustedText;
import io.headroom.config.WorkloadsFile;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.ScaledObjectApply;
import io.headroom.kube.ScaledObjectExport;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * "Export / apply as KEDA" from the console (issue 14, item 2): a class's live policy as a KEDA
 * ScaledObject (what KEDA cannot express as comments), a server-side dry run and the difference
 * against the live object; the write only after the operator confirmed it, journaled first
 * ({@link Kind#SCALED_OBJECT_APPLYING}, then {@link Kind#SCALED_OBJECT_APPLIED} or
 * {@link Kind#SCALED_OBJECT_REFUSED}) and posted as events (the team timeline on the workload,
 * {@link ScaledObjectApply} on the ScaledObject). Every call that talks to the cluster runs on the
 * session's I/O executor.
 */
public final class KedaApply {

    /** What the dialog shows before the operator decides. */
    public static final class Preview {
        private final String className;
        private final String context;
        private final String yaml;
        private final String diff;
        private final String problem;
        private final ScaledObjectApply.Plan plan;

        Preview(String className, String context, String yaml, String diff, String problem, ScaledObjectApply.Plan plan) {
            this.className = className;
            this.context = context;
            this.yaml = yaml;
            this.diff = diff;
            this.problem = problem;
            this.plan = plan;
        }

        public String className() {
            return className;
        }

        public String context() {
            return context;
        }

        /** The ScaledObject as YAML, what KEDA cannot express as comments at the top; empty when it cannot be exported. */
        public String yaml() {
            return yaml;
        }

        /** The dry run's difference against the live object, one field a line ({@code ~ spec.minReplicaCount: 1 → 3}). */
        public String diff() {
            return diff;
        }

        /** Why it cannot be applied (no cluster, the dry run refused, …), or null when it can. */
        public String problem() {
            return problem;
        }

        /** True when applying would write something (a dry run passed and the live object differs). */
        public boolean applicable() {
            return problem == null && plan != null && !plan.unchanged();
        }

        /** Where it would go: "billing/invoices". */
        public String object() {
            return plan == null ? "" : plan.namespace() + "/" + plan.name();
        }
    }

    private final Supplier<List<WorkloadClass>> live;
    private final WorkloadsFile file;
    private final java.util.function.Function<String, KubeConnection> connections;
    private final Supplier<Journal> journal;
    private final String user;
    private final Clock clock;
    private final Executor io;

    /**
     * @param live        the classes as they run now (a policy edited in the console is exported as edited)
     * @param file        the workloads file (queries, Prometheus); null in the sandbox
     * @param connections the open kubeconfig context of a name (waiting for its client), null if none (the sandbox)
     */
    KedaApply(Supplier<List<WorkloadClass>> live, WorkloadsFile file,
              java.util.function.Function<String, KubeConnection> connections,
              Supplier<Journal> journal, String user, Clock clock, Executor io) {
        this.live = live;
        this.file = file;
        this.connections = connections;
        this.journal = journal;
        this.user = user;
        this.clock = clock;
        this.io = io;
    }

    /** The export, the dry run and the difference, off the FX thread. */
    public CompletableFuture<Preview> preview(String className) {
        return CompletableFuture.supplyAsync(() -> previewNow(className), io);
    }

    Preview previewNow(String className) {
        WorkloadClass c = live.get().stream().filter(x -> x.name().equals(className)).findFirst().orElse(null);
        if (c == null) {
            return new Preview(className, null, "", "", "no class " + className, null);
        }
        String context = c.target().context();
        ClassConfig cfg = file == null ? null
                : file.classes().stream().filter(x -> x.name().equals(className)).findFirst().orElse(null);
        if (cfg == null) {
            return new Preview(className, context, "", "", "the sandbox has no Prometheus queries to give KEDA: "
                    + "export and apply need a console opened from a workloads file", null);
        }
        ScaledObjectExport.Export export;
        try {
            export = ScaledObjectExport.of(className, c.target(), c.policy(), cfg.queries(), cfg.grouped(),
                    file.prometheus().url().toString());
        } catch (IllegalArgumentException e) {
            return new Preview(className, context, "", "", "cannot export: " + e.getMessage(), null);
        }
        String yaml = export.toYaml();
        KubeConnection conn = connections.apply(context);
        if (conn == null) {
            return new Preview(className, context, yaml, "", "context '" + context + "' is not open", null);
        }
        try {
            ScaledObjectApply.Plan plan = ScaledObjectApply.plan(conn, export.object());
            return new Preview(className, context, yaml, UntrustedText.lines(plan.diff()), null, plan);
        } catch (RuntimeException e) {
            return new Preview(className, context, yaml, "", UntrustedText.line(String.valueOf(e.getMessage()), 1000),
                    null);
        }
    }

    /**
     * Writes what {@code preview} showed, after the operator confirmed it: journaled first; refused when
     * the live object changed since (nothing written). Completes with what happened, in a sentence.
     */
    public CompletableFuture<Outcome> apply(Preview preview, String reason) {
        if (!preview.applicable()) {
            return CompletableFuture.completedFuture(Outcome.refused(Outcome.Why.CLUSTER, preview.problem() != null ? preview.problem()
                    : "nothing to apply: the live ScaledObject already matches"));
        }
        return CompletableFuture.supplyAsync(() -> applyNow(preview, reason), io);
    }

    private Outcome applyNow(Preview p, String reason) {
        ScaledObjectApply.Plan plan = p.plan;
        int n = plan.changes().size();
        String why = (reason == null || reason.isBlank() ? "" : reason.strip() + " ") + "(ScaledObject " + p.object()
                + ", " + (plan.creates() ? "created" : n + " field" + (n == 1 ? "" : "s") + " changed") + ")";
        try {
            journal.get().append(record(Kind.SCALED_OBJECT_APPLYING, p).reason(why).detail(p.diff()));
        } catch (JournalException e) {
            return Outcome.refused(Outcome.Why.UNJOURNALED, "not applied, not journaled: " + e.getMessage());
        }
        ScaledObjectApply.Outcome o;
        try {
            o = ScaledObjectApply.apply(connections.apply(p.context()), plan, user, clock.instant());
        } catch (RuntimeException e) {
            o = new ScaledObjectApply.Outcome.Refused(String.valueOf(e.getMessage()));
        }
        if (o instanceof ScaledObjectApply.Outcome.Applied a) {
            journalQuietly(record(Kind.SCALED_OBJECT_APPLIED, p).reason(why).detail("resourceVersion "
                    + a.resourceVersion()));
            return Outcome.ok("Applied ScaledObject " + p.object() + " in " + p.context()
                    + (a.event() == null ? "" : "; " + a.event()));
        }
        String message = o instanceof ScaledObjectApply.Outcome.Changed ch ? ch.message()
                : ((ScaledObjectApply.Outcome.Refused) o).message();
        journalQuietly(record(Kind.SCALED_OBJECT_REFUSED, p).reason(why).detail(message));
        return Outcome.refused(o instanceof ScaledObjectApply.Outcome.Changed ? Outcome.Why.MOVED : Outcome.Why.CLUSTER,
                "Not applied: " + message);
    }

    private JournalRecord record(Kind kind, Preview p) {
        return JournalRecord.of(clock.instant(), kind, user, p.context(), p.className());
    }

    /** The outcome's record: the write happened (or not) whatever the journal says now. */
    private void journalQuietly(JournalRecord r) {
        try {
            journal.get().append(r);
        } catch (JournalException e) {
            java.util.logging.Logger.getLogger(KedaApply.class.getName()).warning("not journaled: " + r.kind()
                    + " " + r.className() + ": " + e.getMessage());
        }
    }
}
