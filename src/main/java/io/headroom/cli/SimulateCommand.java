package io.headroom.cli;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;
import io.headroom.config.ConfigException;
import io.headroom.config.UntrustedText;
import io.headroom.baseline.Baselines;
import io.headroom.decision.Decider;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioReader;
import io.headroom.sim.PlacementSimulator;
import io.headroom.sim.Simulator;
import java.util.function.Consumer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code headroom simulate --scenario FILE [--baseline RULE]... [--json]}: a scenario faster than real time. */
@Command(name = "simulate", sortOptions = false, sortSynopsis = false,
        header = "run a scenario faster than real time",
        description = {
            "Runs FILE (YAML or JSON, see ${sys:headroom.examples:-examples}/scenarios/) faster than real time and prints one line per class "
                    + "per control tick, then a summary per class."})
final class SimulateCommand extends CliCommand {
    private static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();

    @Option(names = "--scenario", required = true, paramLabel = "FILE", converter = InputFiles.ConfigFile.class,
            description = "the scenario (.yaml, .yml or .json)")
    Path scenarioFile;

    @Option(names = "--baseline", paramLabel = "RULE", converter = BaselineRule.class,
            description = {"runs the same world under another rule too and prints the summaries side by side "
                    + "(JSON: a \"policy\" field on every line). RULE is keda:listLength=N[,activation=A]"
                    + "[,inFlight=true][,ignoreNullValues=false] (KEDA's length rule with the HPA's default "
                    + "behaviour) or hpa-cpu[:target=P][,busyPodCpu=F] (the HPA on CPU)"})
    List<Baselines.Named> baselines = new ArrayList<>();

    @Option(names = "--json", description = "one JSON object per line")
    boolean json;

    /** {@code --baseline RULE}: a rule {@link Baselines#parse} knows. */
    static final class BaselineRule implements CommandLine.ITypeConverter<Baselines.Named> {
        @Override
        public Baselines.Named convert(String value) {
            try {
                return Baselines.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(UntrustedText.line(e.getMessage(), 300));
            }
        }
    }

    @Override
    int execute() {
        Scenario scenario;
        try {
            scenario = ScenarioReader.read(scenarioFile);
        } catch (ConfigException e) {
            err.println(e.getMessage());
            return ExitCode.USAGE;
        }
        boolean asJson = json;
        boolean many = !baselines.isEmpty();
        List<Baselines.Named> rules = new ArrayList<>();
        rules.add(new Baselines.Named(HEADROOM, Decider.HEADROOM));
        rules.addAll(baselines);
        Map<String, List<Simulator.ClassSummary>> results = new LinkedHashMap<>();
        for (Baselines.Named rule : rules) {
            // Text mode prints Headroom's ticks; JSON prints every rule's, each line naming its policy.
            boolean print = asJson || rule.decider() == Decider.HEADROOM;
            PlacementPrinter pools = new PlacementPrinter(print && !asJson);
            Consumer<Simulator.TickLine> onTick = line -> {
                if (!print) {
                    return;
                }
                out.println(asJson ? tickJson(line, many ? rule.label() : null) : tickText(line));
                pools.after(line, out);
            };
            results.put(rule.label(), scenario.placement() == null ? Simulator.run(scenario, rule.decider(), onTick)
                    : PlacementSimulator.run(scenario, rule.decider(), onTick, pools::placed));
        }
        // The policy column fits the longest label (a rule with options: keda:listLength=5,inFlight=true).
        int width = Math.max(22, results.keySet().stream().mapToInt(String::length).max().orElse(0));
        String head = "%-22s %-" + width + "s %10s %10s %12s %12s %8s %10s";
        String row = "%-22s %-" + width + "s %10.1f %10.1f %12.0f %12.2f %8d %10d";
        if (!asJson) {
            out.println();
            out.println(String.format(Locale.ROOT, head, "class", "policy",
                    "max age s", "p95 age s", "violation s", "replica-h", "scales", "completed"));
        }
        for (int c = 0; c < scenario.classes().size(); c++) {
            for (Map.Entry<String, List<Simulator.ClassSummary>> e : results.entrySet()) {
                Simulator.ClassSummary s = e.getValue().get(c);
                out.println(asJson ? summaryJson(s, many ? e.getKey() : null)
                        : String.format(Locale.ROOT, row,
                        s.className(), e.getKey(), s.maxOldestAgeSeconds(), s.p95OldestAgeSeconds(),
                        s.ageObjectiveViolationSeconds(), s.replicaSeconds() / 3600, s.scaleEvents(),
                        s.jobsCompleted()));
                if (!asJson && (s.jobsRejected() > 0 || s.jobsHeld() > 0)) {
                    out.println(String.format(Locale.ROOT, "  %s: %d jobs refused by its producers (%d refusals, each"
                            + " retried), %d still held at the end", s.className(), s.jobsRejected(), s.rejections(),
                            s.jobsHeld()));
                }
            }
        }
        out.flush();
        return ExitCode.OK;
    }

    /** The policy name of Headroom's own decision in side-by-side output. */
    static final String HEADROOM = "headroom";

    static String tickJson(Simulator.TickLine l) {
        return tickJson(l, null);
    }

    static String tickJson(Simulator.TickLine l, String policy) {
        ObjectNode o = JSON.createObjectNode();
        if (policy != null) {
            o.put("policy", policy);
        }
        o.put("t", l.t());
        o.put("class", l.className());
        num(o, "queueLength", l.queueLength());
        num(o, "oldestAgeSeconds", l.oldestAgeSeconds());
        num(o, "arrivalRate", l.arrivalRate());
        num(o, "meanServiceSeconds", l.meanServiceSeconds());
        if (l.estimatedSlots() == null) {
            o.putNull("estimatedSlots");
        } else {
            o.put("estimatedSlots", l.estimatedSlots());
        }
        o.put("desiredReplicas", l.desiredReplicas());
        o.put("replicas", l.replicas());
        o.put("readyReplicas", l.readyReplicas());
        if (l.bindingCeiling() == null) {
            o.putNull("bindingCeiling");
        } else {
            o.put("bindingCeiling", l.bindingCeiling());
        }
        var reasons = o.putArray("reasons");
        l.reasons().forEach(reasons::add);
        o.put("explanation", l.explanation());
        DecisionJson.terms(o, l.terms(), l.governorLimit());
        return write(o);
    }

    static String summaryJson(Simulator.ClassSummary s, String policy) {
        ObjectNode o = JSON.createObjectNode();
        o.put("summary", true);
        if (policy != null) {
            o.put("policy", policy);
        }
        o.put("class", s.className());
        o.put("maxOldestAgeSeconds", round(s.maxOldestAgeSeconds()));
        o.put("p95OldestAgeSeconds", round(s.p95OldestAgeSeconds()));
        o.put("ageObjectiveViolationSeconds", round(s.ageObjectiveViolationSeconds()));
        o.put("replicaSeconds", round(s.replicaSeconds()));
        o.put("scaleEvents", s.scaleEvents());
        o.put("jobsCompleted", s.jobsCompleted());
        if (s.jobsRejected() > 0 || s.jobsHeld() > 0) { // producers that obey admission or a limit
            o.put("jobsRejected", s.jobsRejected());
            o.put("rejections", s.rejections());
            o.put("jobsHeld", s.jobsHeld());
        }
        return write(o);
    }

    static String tickText(Simulator.TickLine l) {
        return String.format(Locale.ROOT, "t=%6.0fs %-20s L=%-6s age=%-7s λ=%-6s S=%-6s slots=%-4s %2d→%-3d ready=%-3d %s",
                l.t(), l.className(), n(l.queueLength()), n(l.oldestAgeSeconds()), n(l.arrivalRate()),
                n(l.meanServiceSeconds()), l.estimatedSlots() == null ? "—" : l.estimatedSlots().toString(),
                l.replicas(), l.desiredReplicas(), l.readyReplicas(), String.join(",", l.reasons()));
    }

    private static String n(double v) {
        return Double.isNaN(v) ? "—" : io.headroom.decision.Figures.fmt(v);
    }

    private static void num(ObjectNode o, String field, double v) {
        if (Double.isFinite(v)) {
            o.put(field, round(v));
        } else {
            o.putNull(field); // missing telemetry is null, never 0
        }
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    private static String write(ObjectNode o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (tools.jackson.core.JacksonException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
