package io.headroom.cli;

import tools.jackson.core.JsonGenerator;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import io.headroom.config.ClassConfig;
import io.headroom.config.ConfigException;
import io.headroom.config.UntrustedText;
import io.headroom.config.WorkloadsFile;
import io.headroom.decision.Decider;
import io.headroom.decision.Policy;
import io.headroom.history.Backfill;
import io.headroom.history.ClassHistory;
import io.headroom.history.History;
import io.headroom.history.HistoryRecorder;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.PrometheusMetricsSource;
import io.headroom.prometheus.PrometheusSetupException;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioClass;
import io.headroom.sim.ScenarioReader;
import io.headroom.sim.Simulator;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Replay;
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
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code headroom whatif --config FILE --class NAME --set maxReplicas=8 [--set k=v …] [--window 1h]
 * [--keda-list-length N] [--json]}: the What-if window without the UI. The class's history comes
 * from Prometheus ({@code query_range} over the window, on the class's polling grid), goes through
 * the same {@link Replay} and prints the same {@link ComparisonTable} rows as the window.
 * Public only for the test that holds it to the window's comparison on one history.
 */
@Command(name = "whatif", sortOptions = false, sortSynopsis = false,
        header = {"replay the class's recent load (Prometheus, or a scenario's simulated load) under its live and an "
                + "edited policy, and KEDA's rule: the What-if window's comparison"},
        description = {"Replays the class's recent load (from the workloads file's Prometheus, query_range over the "
                + "window, at most 24h; or the last window of a scenario, simulated as `headroom simulate` runs it) "
                + "under its live policy and the edited one, with KEDA's length rule as a third run, and prints the "
                + "comparison the What-if window shows. Nothing is applied."})
public final class WhatIfCommand extends CliCommand {
    private static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().disable(StreamWriteFeature.AUTO_CLOSE_TARGET).build();
    /** The window's default: the What-if window opens on the last 30 minutes too. */
    static final Duration DEFAULT_WINDOW = Duration.ofMinutes(30);
    /** Editable with --set, as in the What-if window; plus ceiling.NAME. */
    static final List<String> KEYS = java.util.Arrays.stream(io.headroom.whatif.PolicyEdit.Field.values())
            .map(io.headroom.whatif.PolicyEdit.Field::key).toList();

    /** Where a class's history comes from: Prometheus in real use, a fixed history in tests. */
    public interface HistoryLoader {
        /**
         * The class's history over the window ending at {@code now}.
         *
         * @throws LoadFailure with a message for the operator when there is no source to ask
         */
        Loaded load(WorkloadsFile file, ClassConfig cls, Instant now, Duration window, PrintStream err)
                throws LoadFailure;
    }

    /** A loaded history, where it came from, and the signals that had none. */
    public record Loaded(ClassHistory history, String source, List<String> missing) {
    }

    /** The history could not be asked for (a setup problem: bad input, exit 2). */
    public static final class LoadFailure extends Exception {
        private static final long serialVersionUID = 1L;

        public LoadFailure(String message) {
            super(message);
        }
    }

    /** Where the history comes from: one of the two. */
    static final class Source {
        @Option(names = "--config", required = true, paramLabel = "FILE", converter = InputFiles.ConfigFile.class,
                description = "a workloads file: the history from its Prometheus")
        Path config;

        @Option(names = "--scenario", required = true, paramLabel = "FILE", converter = InputFiles.ConfigFile.class,
                description = "a scenario: its simulated load, no cluster or Prometheus needed")
        Path scenarioFile;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--class", required = true, paramLabel = "NAME", description = "the class to replay")
    String className;

    @Option(names = "--set", paramLabel = "key=value", converter = Edit.class,
            description = {"an edit of the live policy; keys: targetUtilization, slotsPerReplica, drainTargetSeconds, "
                    + "maxAgeSeconds, minReplicas, maxReplicas (maxAgeSeconds=none drops the objective), "
                    + "scheduledFloors ('Mon-Fri 08:00-20:00 -> 2', several joined by ';', none for none);",
                    "ceiling.NAME=N sets a ceiling in its own units: N replicas, or a budget ceiling's budget (its "
                    + "per-replica amount kept)"})
    List<Map.Entry<String, String>> edits = new ArrayList<>();

    @Option(names = {"--window", "--range"}, paramLabel = "30m", converter = Window.class,
            description = "how far back: 90s, 30m, 1h, 24h, 3d … at most 7d (default 30m)")
    Duration window = DEFAULT_WINDOW;

    @Option(names = "--week", description = "replay the last week (--window 7d) and add the predictive run")
    boolean week;

    @Option(names = "--predictive", description = {"add a fourth run: the live policy with the floors auto mode "
            + "would have held ahead of forecast rises, each forecast made only from the history before its step "
            + "(up to a week before the window is read for them)"})
    boolean predictive;

    @Option(names = "--keda-list-length", paramLabel = "5", converter = ListLength.class,
            description = "KEDA's listLength for the third run (0.01 to 1000000 jobs per replica); 0 leaves KEDA's"
                    + " run out")
    Double listLength = ComparisonTable.DEFAULT_KEDA_LIST_LENGTH;

    @Option(names = "--json", description = "one JSON object")
    boolean json;

    /** {@code --set key=value}. */
    static final class Edit implements CommandLine.ITypeConverter<Map.Entry<String, String>> {
        @Override
        public Map.Entry<String, String> convert(String v) {
            int eq = v.indexOf('=');
            if (eq <= 0) {
                throw new CommandLine.TypeConversionException("--set needs key=value, got '"
                        + UntrustedText.line(v, 100) + "'");
            }
            return Map.entry(v.substring(0, eq).trim(), v.substring(eq + 1).trim());
        }
    }

    /** {@code --window 90s|30m|1h}. */
    static final class Window implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String v) {
            Duration d = window(v);
            if (d == null) {
                throw new CommandLine.TypeConversionException("--window must be a duration such as 90s, 30m, 1h, "
                        + "24h or 7d, at most 7d, got '" + UntrustedText.line(v, 100) + "'");
            }
            return d;
        }
    }

    /** {@code --keda-list-length N}: a number >= 0. */
    /** The smallest and largest {@code --keda-list-length} (0 aside). */
    static final double MIN_LIST_LENGTH = 0.01;
    static final double MAX_LIST_LENGTH = 1_000_000;

    static final class ListLength implements CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String v) {
            double n;
            try {
                n = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                n = Double.NaN;
            }
            // 0 leaves KEDA's run out; otherwise waiting jobs per replica as a Redis list trigger counts them: a
            // hundredth of a job is already absurd, and past a million every queue is "below one per replica".
            if (!(n == 0 || n >= MIN_LIST_LENGTH && n <= MAX_LIST_LENGTH)) {
                throw new CommandLine.TypeConversionException("--keda-list-length must be 0 (no KEDA run) or between "
                        + "0.01" + " and " + "1000000"
                        + " waiting jobs per replica, got '" + UntrustedText.line(v, 100) + "'");
            }
            return n;
        }
    }

    private final Clock clock;
    private final HistoryLoader loader;

    WhatIfCommand() {
        this(Clock.systemUTC(), prometheus(System::getenv));
    }

    private WhatIfCommand(Clock clock, HistoryLoader loader) {
        this.clock = clock;
        this.loader = loader;
    }

    /** The command with its clock and history source given; returns the exit code. */
    public static int run(List<String> args, PrintStream out, PrintStream err, Clock clock, HistoryLoader loader) {
        return Cli.execute(new WhatIfCommand(clock, loader), args, System.in, out, err);
    }

    @Override
    int execute() {
        Path config = source.config;
        Path scenarioFile = source.scenarioFile;
        Map<String, String> sets = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : edits) {
            sets.put(e.getKey(), e.getValue());
        }
        String wanted = className;
        Policy current;
        io.headroom.whatif.AdmissionPlacement.Ask loops = io.headroom.whatif.AdmissionPlacement.Ask.NONE;
        WorkloadsFile file = null;
        ClassConfig cls = null;
        Scenario scenario = null;
        try {
            if (config != null) {
                file = WorkloadsFile.read(config);
                cls = file.classConfig(wanted).orElse(null);
                if (cls == null) {
                    return noClass(err, wanted, file.source(), file.classes().stream().map(ClassConfig::name).toList());
                }
                current = cls.policy();
                loops = new io.headroom.whatif.AdmissionPlacement.Ask(cls.admission().publish(), cls.placed()
                        ? cls.pools().stream().map(io.headroom.config.ClassPool::spec).toList() : List.of(), null);
            } else {
                scenario = ScenarioReader.read(scenarioFile);
                ScenarioClass sc = scenario.classes().stream().filter(x -> x.name().equals(wanted)).findFirst()
                        .orElse(null);
                if (sc == null) {
                    return noClass(err, wanted, scenarioFile.toString(),
                            scenario.classes().stream().map(ScenarioClass::name).toList());
                }
                current = sc.policy();
                var placed = scenario.placement() == null ? null : scenario.placement().pools().get(wanted);
                loops = new io.headroom.whatif.AdmissionPlacement.Ask(
                        sc.producers().mode() == io.headroom.sandbox.ProducerGate.Mode.OBEY,
                        placed == null ? List.of() : placed.stream().map(io.headroom.sim.SimPool::spec).toList(),
                        placed == null ? null : scenario.placement().timing());
            }
        } catch (ConfigException e) {
            err.println(e.getMessage());
            return ExitCode.USAGE;
        }
        Policy edited;
        try {
            edited = edit(current, sets);
        } catch (IllegalArgumentException e) {
            err.println("headroom whatif: " + UntrustedText.line(e.getMessage(), 300));
            return ExitCode.USAGE;
        }
        Duration replayed = week ? MAX_WINDOW : window;
        boolean withPredictive = week || predictive;
        // The forecasts of the predictive run learn from up to a week before the window.
        Duration asked = withPredictive ? replayed.plus(MAX_WINDOW) : replayed;
        Loaded loaded;
        if (scenario != null) {
            loaded = simulated(scenario, wanted);
        } else {
            try {
                loaded = loader.load(file, cls, clock.instant(), asked, err);
            } catch (LoadFailure e) {
                err.println("headroom whatif: " + UntrustedText.line(e.getMessage(), 1000));
                return ExitCode.USAGE;
            }
        }
        LoadHistory load = LoadHistory.of(loaded.history(), replayed.toSeconds());
        io.headroom.baseline.Baselines.Named keda = ComparisonTable.keda(listLength);
        io.headroom.whatif.Predictive forecasts = !withPredictive ? null : io.headroom.whatif.Predictive.of(
                LoadHistory.of(loaded.history(), asked.toSeconds()), current.timeZone());
        Replay.Comparison c;
        // The runs (live, edited, KEDA's, predictive) side by side, on threads of their own: every core.
        ExecutorService runs = io.headroom.threads.NamedThreads.fixed("headroom-whatif-run", 2);
        try {
            c = Replay.compare(load, current, edited, ComparisonTable.SEED, keda, forecasts, Replay.Progress.NONE,
                    Replay.Model.forWindow(load.seconds()), runs);
        } catch (IllegalArgumentException e) {
            err.println("headroom whatif: " + wanted + ": " + UntrustedText.line(e.getMessage(), 300)
                    + (loaded.missing().isEmpty() ? "" : " (no history for " + String.join(", ", loaded.missing())
                    + ")"));
            return ExitCode.FAILED;
        } finally {
            runs.shutdownNow();
        }
        List<ComparisonTable.Row> rows = ComparisonTable.rows(c, current, edited);
        io.headroom.whatif.AdmissionPlacement.Result other;
        try {
            // Admission off vs on and placement vs one pool, under the live policy (issue 30).
            other = io.headroom.whatif.AdmissionPlacement.replay(load, current, loops, ComparisonTable.SEED, () -> false);
        } catch (IllegalArgumentException e) {
            other = new io.headroom.whatif.AdmissionPlacement.Result(null, null, List.of(e.getMessage()));
        }
        if (json) {
            ObjectNode o = toJson(wanted, c, rows, sets, loaded);
            loopsJson(o, other, current, loops);
            String trade = ComparisonTable.trade(c, current, edited);
            if (trade == null) {
                o.putNull("trade");
            } else {
                o.put("trade", trade);
            }
            predictiveJson(o, c, current);
            out.println(write(o));
        } else {
            String trade = ComparisonTable.trade(c, current, edited);
            String said = ComparisonTable.predictive(c, current);
            String after = (trade == null ? "" : trade + "\n") + (said == null ? "" : said + "\n");
            out.println(UntrustedText.lines(text(wanted, c, rows, sets, loaded)
                    .replace("\nNothing is applied", "\n" + after + "Nothing is applied")));
        }
        String others = json ? "" : loopsText(other, current, loops);
        if (!others.isEmpty()) {
            out.println(UntrustedText.lines(others.substring(1))); // admission and placement, after the comparison
        }
        out.flush();
        return ExitCode.OK;
    }

    private static int noClass(PrintStream err, String wanted, String source, List<String> names) {
        err.println("headroom whatif: no class '" + UntrustedText.line(wanted, 100) + "' in "
                + UntrustedText.line(source, 300) + "; its classes: " + String.join(", ", names));
        return ExitCode.USAGE;
    }

    /**
     * The history of a scenario's class: the whole scenario run through the same sandbox, loop and
     * decision as {@code headroom simulate}, each tick recorded as the console records it. No
     * cluster and no Prometheus needed.
     */
    static Loaded simulated(Scenario scenario, String className) {
        History history = new History(Duration.ofMillis(Math.max(1, Math.round(scenario.tickSeconds() * 1000))),
                scenario.ticks() + 2);
        Simulator.run(scenario, Decider.HEADROOM, line -> { }, new HistoryRecorder(history));
        return new Loaded(history.of(className), "scenario " + scenario.name(), List.of());
    }

    /**
     * The live policy with the operator's edits, exactly as the What-if window builds it: a
     * ceiling's edit replaces it with a fixed replica limit of the same name.
     *
     * @throws IllegalArgumentException naming the key that is wrong
     */
    static Policy edit(Policy current, Map<String, String> sets) {
        Map<io.headroom.whatif.PolicyEdit.Field, String> fields = new LinkedHashMap<>();
        Map<String, String> ceilings = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : sets.entrySet()) {
            String k = e.getKey();
            if (k.startsWith("ceiling.")) {
                ceilings.put(k.substring("ceiling.".length()), e.getValue());
                continue;
            }
            io.headroom.whatif.PolicyEdit.Field f = io.headroom.whatif.PolicyEdit.Field.ofKey(k);
            if (f == null) {
                throw new IllegalArgumentException("--set: unknown key '" + k + "'; editable: "
                        + String.join(", ", KEYS) + ", ceiling.NAME");
            }
            fields.put(f, f == io.headroom.whatif.PolicyEdit.Field.MAX_AGE_SECONDS
                    && e.getValue().equalsIgnoreCase("none") ? "" : e.getValue());
        }
        try {
            return io.headroom.whatif.PolicyEdit.apply(current, fields, ceilings);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--set " + e.getMessage(), e);
        }
    }

    /** The longest window: the week the console keeps (and the past the predictive run's forecasts read). */
    static final Duration MAX_WINDOW = Duration.ofDays(7);

    /** 90s, 30m, 1h, 24h, 7d (at most a week); null when it is none of those. */
    static Duration window(String v) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,6})([smhd])").matcher(v.trim());
        if (!m.matches()) {
            return null;
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        return d.isZero() || d.compareTo(MAX_WINDOW) > 0 ? null : d;
    }

    /** The history from the workloads file's Prometheus, on the class's polling grid. */
    static HistoryLoader prometheus(Function<String, String> env) {
        return (file, cls, now, window, err) -> {
            PrometheusClient client;
            try {
                client = PrometheusClient.connect(file.prometheus(), env, Clock.systemUTC());
            } catch (PrometheusSetupException e) {
                throw new LoadFailure(file.source() + ": " + e.getMessage());
            }
            if (client.insecure()) {
                err.println("headroom whatif: warning: TLS verification is off for " + client.url()
                        + " (insecureSkipVerify)");
            }
            // The polling grid, or coarser for a long window: a range query answers at most 11,000 points.
            Duration step = Duration.ofSeconds(Math.max(Math.max(1, Math.round(cls.policy().pollIntervalSeconds())),
                    (long) Math.ceil(window.toSeconds() / (double) MAX_POINTS)));
            ExecutorService pool = io.headroom.threads.NamedThreads.fixed("headroom-whatif-query", 1);
            try (PrometheusMetricsSource source = new PrometheusMetricsSource(client, List.of(cls), pool,
                    PrometheusMetricsSource.defaultDeadline(client.timeout()), Clock.systemUTC())) {
                History history = new History(step, (int) (window.toSeconds() / step.toSeconds()) + 2);
                ClassHistory h = history.of(cls.name());
                Backfill.Result r = Backfill.fill(h, source, now, window, step);
                return new Loaded(h, client.url(), r.missing());
            } finally {
                pool.shutdownNow();
            }
        };
    }

    /** Points a range query is asked for at most (Prometheus refuses more than 11,000). */
    static final int MAX_POINTS = 10_000;

    /** The predictive run in the JSON: what it did, and the sentence the table ends with (null without one). */
    static void predictiveJson(ObjectNode o, Replay.Comparison c, Policy current) {
        if (c.predictive() == null) {
            o.putNull("predictive");
            return;
        }
        io.headroom.whatif.Predictive.Summary s = c.predictiveSummary();
        ObjectNode p = o.putObject("predictive");
        p.put("violationSeconds", c.predictive().summary().ageObjectiveViolationSeconds());
        p.put("replicaHours", c.predictive().replicaHours());
        p.put("forecastsMade", s.forecastsMade());
        p.put("forecastsGiven", s.forecastsGiven());
        p.put("floorsPlanned", s.floorsPlanned());
        p.put("floorSeconds", s.heldSeconds());
        p.put("words", ComparisonTable.predictive(c, current));
    }

    static ObjectNode toJson(String cls, Replay.Comparison c, List<ComparisonTable.Row> rows, Map<String, String> sets,
                             Loaded loaded) {
        ObjectNode o = JSON.createObjectNode();
        o.put("class", cls);
        o.put("source", loaded.source());
        o.put("from", Instant.ofEpochSecond((long) c.start()).toString());
        o.put("seconds", c.seconds());
        ObjectNode edits = o.putObject("edits");
        sets.forEach(edits::put);
        if (c.baselineLabel() == null) {
            o.putNull("baseline");
        } else {
            o.put("baseline", c.baselineLabel());
        }
        ArrayNode table = o.putArray("rows");
        for (ComparisonTable.Row r : rows) {
            ObjectNode row = table.addObject();
            row.put("what", r.what());
            row.put("current", r.current());
            row.put("edited", r.edited());
            row.put("change", r.change());
            row.put("keda", r.keda());
            row.put("predictive", r.predictive());
            row.put("verdict", r.verdict().name().toLowerCase(Locale.ROOT));
        }
        ArrayNode caveats = o.putArray("caveats");
        c.caveats().forEach(caveats::add);
        ArrayNode missing = o.putArray("noHistory");
        loaded.missing().forEach(missing::add);
        return o;
    }

    static String text(String cls, Replay.Comparison c, List<ComparisonTable.Row> rows, Map<String, String> sets,
                       Loaded loaded) {
        StringBuilder sb = new StringBuilder();
        sb.append("what-if for ").append(cls).append(": the last ").append(span(c.seconds()))
                .append(" from ").append(loaded.source()).append(" under the live policy and the edited one")
                .append(c.baseline() != null ? (c.predictive() != null ? ", " : " and ") + c.baselineLabel() : "")
                .append(c.predictive() != null ? " and the live policy with predictive floors" : "")
                .append(", same arrivals\n");
        sb.append("edits: ").append(sets.isEmpty() ? "none" : String.join(", ",
                sets.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList())).append('\n');
        String fmt = "%-22s %-26s %-26s %-12s %-26s %s%n";
        sb.append(String.format(Locale.ROOT, fmt, "", "Live policy", "Edited", "Change",
                c.baseline() != null ? "KEDA's rule" : "", c.predictive() != null ? "With predictive" : "").stripTrailing()
                + "\n");
        for (ComparisonTable.Row r : rows) {
            sb.append(String.format(Locale.ROOT, fmt, r.what(), r.current(), r.edited(), r.change(), r.keda(),
                    r.predictive()).stripTrailing()).append('\n');
        }
        for (String caveat : c.caveats()) {
            sb.append("note: ").append(caveat).append('\n');
        }
        if (!loaded.missing().isEmpty()) {
            sb.append("no history for: ").append(String.join("; ", loaded.missing())).append('\n');
        }
        sb.append("Nothing is applied: the live policy is unchanged.");
        return sb.toString();
    }

    /** "30 min", "24 h", "7 days": how much was replayed. */
    static String span(double seconds) {
        long m = Math.round(seconds / 60);
        if (m >= 2 * 1440 && m % 1440 == 0) {
            return m / 1440 + " days";
        }
        return m >= 120 && m % 60 == 0 ? m / 60 + " h" : m + " min";
    }

    private static String write(ObjectNode o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (tools.jackson.core.JacksonException e) {
            throw new UncheckedIOException(new IOException(e));
        }
    }

    /** Admission off vs on and placement vs one pool as text, each its own table; empty when neither is asked. */
    static String loopsText(io.headroom.whatif.AdmissionPlacement.Result r, Policy live,
                            io.headroom.whatif.AdmissionPlacement.Ask ask) {
        StringBuilder sb = new StringBuilder();
        String fmt = "%-34s %-22s %-26s %s%n";
        if (r.admission() != null) {
            sb.append("\nadmission under the live policy: producers submitting every job, and obeying admission (a"
                    + " refused job retried after ").append(ComparisonTable.num(
                    io.headroom.whatif.AdmissionPlacement.RETRY_SECONDS)).append(" s), same arrivals\n");
            sb.append(String.format(Locale.ROOT, fmt, "", "Admission off", "Admission on", "Change"));
            for (ComparisonTable.Row row : io.headroom.whatif.AdmissionPlacement.admissionRows(r.admission(), live)) {
                sb.append(String.format(Locale.ROOT, fmt, row.what(), row.current(), row.edited(), row.change()));
            }
        }
        if (r.placement() != null) {
            var p = r.placement();
            sb.append("\nplacement under the live policy: ").append(io.headroom.whatif.AdmissionPlacement
                    .scenarioWords(p, ask.timing())).append(", same arrivals\n");
            sb.append(String.format(Locale.ROOT, fmt, "", "One pool (" + p.pools().get(0).name() + ")", "Placed ("
                    + String.join(", ", p.pools().stream().map(io.headroom.decision.Placement.PoolSpec::name).toList())
                    + ")", "Change"));
            for (ComparisonTable.Row row : io.headroom.whatif.AdmissionPlacement.placementRows(p)) {
                sb.append(String.format(Locale.ROOT, fmt, row.what(), row.current(), row.edited(), row.change()));
            }
        }
        for (String note : r.notes()) {
            sb.append("\nnote: ").append(note);
        }
        String text = sb.toString();
        return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    }

    /** The same as {@code admission} and {@code placement} objects (null when not replayed), notes as caveats. */
    static void loopsJson(ObjectNode o, io.headroom.whatif.AdmissionPlacement.Result r, Policy live,
                          io.headroom.whatif.AdmissionPlacement.Ask ask) {
        if (r.admission() == null) {
            o.putNull("admission");
        } else {
            ObjectNode a = o.putObject("admission");
            a.put("retrySeconds", io.headroom.whatif.AdmissionPlacement.RETRY_SECONDS);
            rowsJson(a.putArray("rows"), io.headroom.whatif.AdmissionPlacement.admissionRows(r.admission(), live),
                    "off", "on");
        }
        if (r.placement() == null) {
            o.putNull("placement");
        } else {
            var p = r.placement();
            ObjectNode pl = o.putObject("placement");
            pl.put("scenario", io.headroom.whatif.AdmissionPlacement.scenarioWords(p, ask.timing()));
            pl.put("lostFromSeconds", p.lostFrom());
            pl.put("lostToSeconds", p.lostTo());
            if (Double.isNaN(p.movedAfter())) {
                pl.putNull("movedAfterSeconds");
            } else {
                pl.put("movedAfterSeconds", p.movedAfter());
            }
            ObjectNode split = pl.putObject("replicaHoursByPool");
            p.split().forEach(split::put);
            rowsJson(pl.putArray("rows"), io.headroom.whatif.AdmissionPlacement.placementRows(p), "onePool", "placed");
        }
        ArrayNode caveats = (ArrayNode) o.get("caveats");
        r.notes().forEach(caveats::add);
    }

    private static void rowsJson(ArrayNode table, List<ComparisonTable.Row> rows, String before, String after) {
        for (ComparisonTable.Row r : rows) {
            ObjectNode row = table.addObject();
            row.put("what", r.what());
            row.put(before, r.current());
            row.put(after, r.edited());
            row.put("change", r.change());
            row.put("verdict", r.verdict().name().toLowerCase(Locale.ROOT));
        }
    }
}
