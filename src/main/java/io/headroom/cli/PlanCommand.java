package io.headroom.cli;

import io.headroom.decision.SignalName;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import io.headroom.config.ClassConfig;
import io.headroom.config.PolicyReader;
import io.headroom.config.UntrustedText;
import io.headroom.config.WorkloadsFile;
import io.headroom.decision.CeilingResult;
import io.headroom.decision.Decision;
import io.headroom.decision.Figures;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Observation;
import io.headroom.decision.Reason;
import io.headroom.decision.Signal;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.ObserveOnlyActuator;
import io.headroom.loop.TickResult;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.PrometheusMetricsSource;
import io.headroom.prometheus.PrometheusSetupException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code headroom plan --config FILE [--once] [--json] [--replicas class=N …]}: what the decision
 * would be for every class, from live Prometheus data, without acting. Each round is one tick of the
 * console's {@link ControlLoop} on a {@link PlanWorld}, acted on by an observe-only actuator. With
 * {@code --once} it evaluates once; otherwise it repeats every polling interval, each class
 * remembering its past decisions, until interrupted.
 */
@Command(name = "plan", sortOptions = false, sortSynopsis = false,
        header = "the decision per class from live Prometheus data",
        description = {"Reads FILE (a workloads file, see ${sys:headroom.examples:-examples}/README-workloads.md), queries Prometheus and "
                + "prints the decision for every class without acting: one JSON object per class with --json, "
                + "else a table. Without --once, plan repeats every polling interval until interrupted."})
final class PlanCommand extends CliCommand {
    private static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();
    /** Concurrent queries per tick. */
    static final int QUERY_THREADS = 8;

    /** Waits between rounds; tests pass one that returns at once. */
    interface Pause {
        void pause(Duration d) throws InterruptedException;
    }

    @Mixin
    SharedOptions.WorkloadsFileOption config;

    @Option(names = "--once", description = "evaluates once")
    boolean once;

    @Option(names = "--json", description = "one JSON object per class")
    boolean json;

    @Option(names = "--replicas", paramLabel = "class=N", converter = ReplicaCount.Converter.class,
            description = "the current replicas of a class (else its 'replicas' signal)")
    List<ReplicaCount> replicaCounts = new ArrayList<>();

    /** {@code --replicas class=N}. */
    record ReplicaCount(String className, int replicas) {
        static final class Converter implements CommandLine.ITypeConverter<ReplicaCount> {
            @Override
            public ReplicaCount convert(String kv) {
                int eq = kv.lastIndexOf('=');
                Integer n = null;
                if (eq > 0) {
                    try {
                        n = Integer.parseInt(kv.substring(eq + 1));
                    } catch (NumberFormatException e) {
                        n = null;
                    }
                }
                if (n == null || n < 0 || n > PolicyReader.MAX_REPLICAS) {
                    throw new CommandLine.TypeConversionException("--replicas needs class=N with N a whole number in 0.."
                            + PolicyReader.MAX_REPLICAS + ", got '" + UntrustedText.line(kv, 100) + "'");
                }
                return new ReplicaCount(kv.substring(0, eq), n);
            }
        }
    }

    private final Pause pause;
    private final int maxRounds;
    private final Clock clock;

    PlanCommand() {
        this(System::getenv, d -> Thread.sleep(d.toMillis()), Integer.MAX_VALUE, Clock.systemUTC());
    }

    PlanCommand(Function<String, String> env, Pause pause, int maxRounds, Clock clock) {
        super(env::apply);
        this.pause = pause;
        this.maxRounds = maxRounds;
        this.clock = clock;
    }

    static int run(List<String> args, PrintStream out, PrintStream err, Function<String, String> env, Pause pause,
                   int maxRounds) {
        return run(args, out, err, env, pause, maxRounds, Clock.systemUTC());
    }

    /** As an operator runs it, with the environment, the pause between rounds and the clock injected. */
    static int run(List<String> args, PrintStream out, PrintStream err, Function<String, String> env, Pause pause,
                   int maxRounds, Clock clock) {
        return Cli.execute(new PlanCommand(env, pause, maxRounds, clock), args, System.in, out, err);
    }

    @Override
    int execute() {
        Map<String, Integer> replicas = new LinkedHashMap<>();
        for (ReplicaCount r : replicaCounts) {
            replicas.put(r.className(), r.replicas());
        }
        WorkloadsFile file = config.read(err);
        if (file == null) {
            return ExitCode.USAGE;
        }
        for (String cls : replicas.keySet()) {
            if (file.classConfig(cls).isEmpty()) {
                err.println("headroom plan: --replicas " + UntrustedText.line(cls, 100) + "=…: no class '"
                        + UntrustedText.line(cls, 100) + "' in " + file.source());
                return ExitCode.USAGE;
            }
        }
        PrometheusClient client;
        try {
            client = PrometheusClient.connect(file.prometheus(), env, clock);
        } catch (PrometheusSetupException e) {
            err.println(UntrustedText.line(file.source() + ": " + e.getMessage(), 1000));
            return ExitCode.USAGE;
        }
        if (client.insecure()) {
            err.println("headroom plan: warning: TLS verification is off for " + client.url()
                    + " (insecureSkipVerify)");
        }
        String clearText = file.prometheus().clearTextWarning();
        if (clearText != null) {
            err.println("headroom plan: warning: " + clearText);
        }
        warn(io.headroom.kube.Contexts.warningsFor(file.classes().stream().map(c -> c.target().context()).toList(),
                env::apply));
        ExecutorService pool = Executors.newFixedThreadPool(QUERY_THREADS, daemonThreads());
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(client, file.classes(), pool,
                PrometheusMetricsSource.defaultDeadline(client.timeout()), clock)) {
            // The console's own loop, acting on nothing: each class remembers its past decisions as it does live.
            PlanWorld world = new PlanWorld(source, file.classes(), replicas);
            ControlLoop loop = new ControlLoop(world.classes(), world.cluster(), world.metrics(),
                    new ObserveOnlyActuator(), clock);
            int rounds = once ? 1 : maxRounds;
            int code = ExitCode.OK;
            for (int round = 0; round < rounds; round++) {
                if (round > 0) {
                    try {
                        pause.pause(pollInterval(file));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                code = print(file, world, loop.tick(), json, out);
            }
            out.flush();
            return code;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Prints one tick of every class; FAILED when some class could not be evaluated. */
    private static int print(WorkloadsFile file, PlanWorld world, TickResult tick, boolean json, PrintStream out) {
        int code = ExitCode.OK;
        if (!json) {
            out.println(String.format(Locale.ROOT, "%-22s %7s %6s %6s %6s %7s  %-18s %s", "class", "current",
                    "slots", "slotR", "ageR", "desired", "binding ceiling", "reasons"));
        }
        for (int i = 0; i < tick.classes().size(); i++) {
            ClassSnapshot snap = tick.classes().get(i);
            ClassConfig c = file.classes().get(i); // the loop keeps the file's order
            PlanWorld.Current current = world.current(c.name());
            if (!snap.decided()) {
                code = ExitCode.FAILED;
                String why = current.unknown() != null ? current.unknown() : snap.problem();
                if (json) {
                    ObjectNode o = JSON.createObjectNode();
                    o.put("class", c.name());
                    o.put("error", "current replicas unknown: " + why);
                    out.println(write(o));
                } else {
                    out.println(UntrustedText.lines(String.format(Locale.ROOT,
                            "%-22s error: current replicas unknown: %s", c.name(), why)));
                }
                continue;
            }
            Decision d = snap.decision();
            io.headroom.decision.AdmissionVerdict a = io.headroom.decision.AdmissionRule.decide(d, c.policy(),
                    c.admission());
            out.println(json ? write(admission(toJson(c, d, snap.observation(), current.from()), a))
                    : UntrustedText.lines(text(d) + "\n  admission: " + a.label() + ": " + a.reason()));
        }
        return code;
    }

    /** A replica count: a whole number from 0 to {@link PolicyReader#MAX_REPLICAS}. */
    static boolean isReplicaCount(double v) {
        return v >= 0 && v <= PolicyReader.MAX_REPLICAS && v == Math.rint(v);
    }

    /** 4294967296 and 2.5 as they are, not 4.294967296E9. */
    static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /** The class's admission (design.md §2b) as the console would publish it: state, rate, reason. */
    static ObjectNode admission(ObjectNode o, io.headroom.decision.AdmissionVerdict a) {
        ObjectNode n = o.putObject("admission");
        n.put("state", a.state().name());
        if (a.state() == io.headroom.decision.AdmissionVerdict.State.OPEN) {
            n.putNull("rate");
        } else {
            n.put("rate", a.rate());
        }
        n.put("reason", a.reason());
        if (a.degradeTo() != null) {
            n.put("degradeTo", a.degradeTo());
        }
        if (a.waitsFor() > 0) {
            n.put("waitsForReplicas", a.waitsFor());
            n.put("readyInSeconds", a.readyInSeconds());
        }
        return o;
    }

    static ObjectNode toJson(ClassConfig c, Decision d, Observation obs, String currentFrom) {
        ObjectNode o = JSON.createObjectNode();
        o.put("class", d.className());
        o.put("at", d.at().toString());
        o.put("currentReplicas", d.currentReplicas());
        o.put("currentReplicasFrom", currentFrom);
        putInt(o, "estimatedSlots", d.estimatedSlots());
        putInt(o, "slotReplicas", d.slotReplicas());
        putInt(o, "ageReplicas", d.ageReplicas());
        o.put("desiredReplicas", d.desiredReplicas());
        ObjectNode ceilings = o.putObject("ceilings");
        for (CeilingResult r : d.ceilings()) {
            ceilings.put(r.name(), r.limit());
        }
        if (d.bindingCeiling() == null) {
            o.putNull("bindingCeiling");
        } else {
            o.put("bindingCeiling", d.bindingCeiling());
        }
        var reasons = o.putArray("reasons");
        for (Reason r : d.reasons()) {
            reasons.add(r.toString());
        }
        o.put("explanation", d.explanation());
        DecisionJson.terms(o, d.terms(), d.governorLimit());
        ObjectNode inputs = o.putObject("inputs");
        Map<SignalName, InputStatus> all = new LinkedHashMap<>();
        for (InputStatus s : d.inputs()) {
            all.put(s.name(), s);
        }
        double staleAfter = 2 * c.policy().pollIntervalSeconds();
        for (SignalName name : c.queries().keySet()) {
            all.computeIfAbsent(name, n -> status(n, obs.signal(n), d.at(), staleAfter));
        }
        for (InputStatus s : all.values()) {
            ObjectNode i = inputs.putObject(s.name().id());
            if (Double.isFinite(s.value())) {
                i.put("value", s.value());
            } else {
                i.putNull("value"); // missing is null, never 0
            }
            if (s.sampledAt() == null) {
                i.putNull("sampleTimestamp");
            } else {
                i.put("sampleTimestamp", s.sampledAt().toString());
            }
            i.put("status", s.status().name());
            if (s.reason() != null) {
                i.put("reason", s.reason());
            }
            // What Prometheus said about the answer: warnings make it PARTIAL, infos are notes.
            strings(i, "warnings", s.annotations().warnings());
            strings(i, "infos", s.annotations().infos());
        }
        return o;
    }

    private static void strings(ObjectNode o, String field, List<String> values) {
        if (!values.isEmpty()) {
            var a = o.putArray(field);
            values.forEach(a::add);
        }
    }

    /** The status of a signal the decision does not list itself (replicas, ceiling queries). */
    private static InputStatus status(SignalName name, Signal s, Instant now, double staleAfterSeconds) {
        if (!s.present()) {
            return new InputStatus(name, InputStatus.Status.MISSING, Double.NaN, null, s.missingReason(),
                    s.annotations());
        }
        double age = Duration.between(s.sampledAt(), now).toMillis() / 1000.0;
        if (age > staleAfterSeconds) {
            return new InputStatus(name, InputStatus.Status.STALE, s.value(), s.sampledAt(),
                    "sample " + Figures.fmt(age) + " s old", s.annotations());
        }
        if (s.partial()) {
            return new InputStatus(name, InputStatus.Status.PARTIAL, s.value(), s.sampledAt(),
                    s.annotations().partialReason(), s.annotations());
        }
        return new InputStatus(name, InputStatus.Status.OK, s.value(), s.sampledAt(), null, s.annotations());
    }

    static String text(Decision d) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-22s %7d %6s %6s %6s %7d  %-18s %s",
                d.className(), d.currentReplicas(), n(d.estimatedSlots()), n(d.slotReplicas()), n(d.ageReplicas()),
                d.desiredReplicas(), d.bindingCeiling() == null ? "—" : d.bindingCeiling(),
                String.join(",", d.reasons().stream().map(Reason::toString).toList())));
        sb.append("\n  ").append(d.explanation());
        List<String> problems = new ArrayList<>();
        for (InputStatus s : d.inputs()) {
            if (!s.usable() && s.status() != InputStatus.Status.NOT_COLLECTED) {
                problems.add(s.name() + " " + s.label() + " (" + s.reason() + ")");
            }
        }
        if (!problems.isEmpty()) {
            sb.append("\n  inputs: ").append(String.join("; ", problems));
        }
        return sb.toString();
    }

    private static String n(Integer v) {
        return v == null ? "—" : v.toString();
    }

    private static void putInt(ObjectNode o, String field, Integer v) {
        if (v == null) {
            o.putNull(field);
        } else {
            o.put(field, v);
        }
    }

    private static Duration pollInterval(WorkloadsFile file) {
        double min = file.classes().stream().mapToDouble(c -> c.policy().pollIntervalSeconds()).min().orElse(15);
        return Duration.ofMillis(Math.round(min * 1000));
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        return io.headroom.threads.NamedThreads.numbered("headroom-plan-query");
    }

    private static String write(ObjectNode o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (tools.jackson.core.JacksonException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
