package io.headroom.arch;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The layers, checked on the compiled classes (every reference counts, written out in full or
 * imported). Rules are phrased over all of {@code io.headroom}, so a new package is covered the day
 * it appears: it needs a row in {@link #ALLOWED} before it may use any other package of ours.
 */
@AnalyzeClasses(packages = "io.headroom", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    static final String ROOT = "io.headroom";

    /**
     * The adapters to the world outside (design.md §9 "one small interface per outside system"): Kubernetes,
     * Prometheus, the queue exporter's sources, the simulated cluster, and the journal's files (journalfile: FileJournal, its segments,
     * checkpoints, key and private files). The ports they plug into live in cluster, metrics and journal.
     */
    static final Set<String> ADAPTERS = Set.of("exporter", "kube", "prometheus", "sandbox", "journalfile");

    /** The core that must stay free of adapters, UI and JavaFX (issue 12). */
    static final Set<String> CORE = Set.of("decision", "cluster", "metrics", "journal", "time", "history", "forecast");

    /**
     * Which other packages of ours each top-level package may use ("(root)" is {@code io.headroom}
     * itself: the launcher). A package missing here may use none; a dependency missing here fails
     * {@link #everyPackageUsesOnlyWhatItsRowAllows}. Rows may name packages other branches are
     * adding (history; threads, the named executors) so they land covered.
     */
    static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("(root)", Set.of("cli", "ui")),
            Map.entry("decision", Set.of()),
            Map.entry("baseline", Set.of("decision")),
            Map.entry("time", Set.of()),
            Map.entry("threads", Set.of()),
            Map.entry("journal", Set.of("time")),
            Map.entry("journalfile", Set.of("journal", "time")),
            Map.entry("cluster", Set.of("decision", "time")),
            Map.entry("metrics", Set.of("decision", "time")),
            Map.entry("drain", Set.of("cluster", "decision")),
            Map.entry("loop", Set.of("cluster", "decision", "metrics", "threads", "time")),
            Map.entry("history", Set.of("cluster", "decision", "loop", "metrics", "time")),
            // The forecast reads a class's history and nothing else of ours (design.md §2a, decision 0028); its
            // anticipation turns a forecast into the decision's ForecastFloor by the policy (decision 0030).
            Map.entry("forecast", Set.of("decision", "history")),
            Map.entry("config", Set.of("cluster", "decision", "loop")),
            Map.entry("supervise", Set.of("cluster", "decision", "drain", "journal", "loop", "metrics", "threads",
                    "time")),
            Map.entry("kube", Set.of("cluster", "config", "decision", "loop", "threads", "time")),
            Map.entry("prometheus", Set.of("config", "decision", "metrics", "threads", "time")),
            // The exporter is an adapter to queue systems; only the CLI starts it (nothing in the core may use it).
            Map.entry("exporter", Set.of("config", "threads")),
            Map.entry("sandbox", Set.of("cluster", "decision", "loop", "metrics", "threads", "time")),
            Map.entry("sim", Set.of("baseline", "cluster", "config", "decision", "forecast", "loop", "metrics", "sandbox",
                    "time")),
            Map.entry("whatif", Set.of("baseline", "cluster", "config", "decision", "forecast", "history", "loop",
                    "metrics", "sandbox", "sim", "time")),
            Map.entry("session", Set.of("baseline", "cluster", "config", "decision", "drain", "forecast", "history",
                    "journal", "journalfile", "kube", "loop", "metrics", "prometheus", "sandbox", "sim", "supervise",
                    "threads", "time", "whatif")),
            Map.entry("cli", Set.of("baseline", "cluster", "config", "decision", "drain", "forecast", "history",
                    "exporter", "journal", "kube", "loop", "metrics", "prometheus", "sandbox", "session", "sim",
                    "supervise", "threads", "time", "whatif")),
            // No adapters: the UI reaches kube, prometheus and the sandbox through session.
            Map.entry("ui", Set.of("baseline", "cluster", "config", "decision", "drain", "forecast", "history",
                    "journal", "loop", "metrics", "session", "sim", "supervise", "threads", "time", "whatif")));

    /**
     * Classes of the root package that every package may use: leaf values that use nothing of ours
     * (the build's version, for the CLI, the window title and the journal; a failure in words, for every
     * message the operator reads; the secrets the console has loaded, registered where they are read and
     * taken out of every text shown or kept). The launcher, Main, is not
     * one of them: nothing may use it.
     */
    static final Set<String> SHARED_ROOT_CLASSES = Set.of("io.headroom.BuildInfo", "io.headroom.ErrorWords",
            "io.headroom.LoadedSecrets");

    static final String JAVAFX = "javafx..";
    static final String FABRIC8 = "io.fabric8..";
    static final String[] OKHTTP = {"okhttp3..", "okio..", "kotlin.."};

    static final DescribedPredicate<JavaClass> CLI = resideInAPackage("io.headroom.cli..");
    static final DescribedPredicate<JavaClass> UI = resideInAPackage("io.headroom.ui..");
    static final DescribedPredicate<JavaClass> OUTSIDE_UI = resideOutsideOfPackage("io.headroom.ui..");
    static final DescribedPredicate<JavaClass> ANY_ADAPTER = resideInAnyPackage(packages(ADAPTERS));
    static final DescribedPredicate<JavaClass> JAVAFX_CLASSES = resideInAPackage(JAVAFX);

    // --- Rules that hold today -------------------------------------------------------------------

    @ArchTest
    static final ArchRule the_core_uses_no_adapter_no_ui_and_no_javafx = noClasses()
            .that().resideInAnyPackage(packages(CORE))
            .should().dependOnClassesThat().resideInAnyPackage(packages(ADAPTERS, "ui", "session", "cli"))
            .orShould().dependOnClassesThat().resideInAnyPackage(JAVAFX, FABRIC8)
            .orShould().dependOnClassesThat().resideInAnyPackage(OKHTTP)
            .because("decision, cluster, metrics, journal, time and history are the domain: adapters plug into them")
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule the_forecast_uses_nothing_but_the_jdk_and_the_history = classes()
            .that().resideInAPackage("io.headroom.forecast..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.headroom.forecast..",
                    "io.headroom.history..", "io.headroom.decision..")
            .because("design.md §2a: a class's history in, a forecast out, time passed in; no FX, no adapters"
                    + " (decision 0030: Anticipation reads the policy and gives the decision's ForecastFloor)");

    @ArchTest
    static final ArchRule the_decision_core_uses_nothing_but_the_jdk = classes()
            .that().resideInAPackage("io.headroom.decision..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.headroom.decision..")
            .because("design.md §3: plain values in, a decision out, time passed in");

    /**
     * The engine calls the stages, never the other way: a stage that needs a number in words uses
     * {@code Figures}, a leaf (issue 31). {@code Decider} names the engine as the function it is.
     */
    @ArchTest
    static final ArchRule decision_stages_never_call_back_into_the_engine = noClasses()
            .that().resideInAPackage("io.headroom.decision..")
            .and().doNotHaveFullyQualifiedName("io.headroom.decision.DecisionEngine")
            .and().doNotHaveFullyQualifiedName("io.headroom.decision.Decider")
            .should().dependOnClassesThat().haveFullyQualifiedName("io.headroom.decision.DecisionEngine")
            .because("DecisionEngine runs the stages in order; an arrow back makes the stages a cycle with it");

    @ArchTest
    static final ArchRule baselines_are_pure_deciders = classes()
            .that().resideInAPackage("io.headroom.baseline..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.headroom.decision..",
                    "io.headroom.baseline..")
            .because("the rules Headroom is judged against are pure deciders, like its own");

    @ArchTest
    static final ArchRule drains_are_data = classes()
            .that().resideInAPackage("io.headroom.drain..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.headroom.drain..",
                    "io.headroom.cluster..", "io.headroom.decision..")
            .because("drain plans and steps are data; the supervisor carries them out");

    @ArchTest
    static final ArchRule only_kube_uses_fabric8 = noClasses()
            .that().resideOutsideOfPackage("io.headroom.kube..")
            .should().dependOnClassesThat().resideInAPackage(FABRIC8)
            .because("everything else reaches Kubernetes through ClusterGateway");

    @ArchTest
    static final ArchRule only_prometheus_uses_okhttp = noClasses()
            .that().resideOutsideOfPackage("io.headroom.prometheus..")
            .should().dependOnClassesThat().resideInAnyPackage(OKHTTP)
            .because("everything else reads telemetry through MetricsSource");

    @ArchTest
    static final ArchRule pure_packages_never_read_the_wall_clock_or_sleep = noClasses()
            .that().resideInAnyPackage(packages(Set.of("decision", "baseline", "drain", "sandbox", "config", "sim")))
            .should().callMethod(System.class, "currentTimeMillis")
            .orShould().callMethod(Instant.class, "now")
            .orShould().callMethod(LocalDateTime.class, "now")
            .orShould().callMethod(Clock.class, "systemUTC")
            .orShould().callMethod(Clock.class, "systemDefaultZone")
            .orShould().callMethod(Thread.class, "sleep", long.class)
            .because("time is passed in (design.md §9): the simulator and the tests move it by hand");

    @ArchTest
    static final ArchRule only_ui_fx_goes_onto_the_fx_thread = noClasses()
            .that().resideOutsideOfPackage("io.headroom.ui.fx..")
            .should().callMethod(javafx.application.Platform.class, "runLater", Runnable.class)
            .because("one way onto the FX thread (ui/fx: FxExecutor, its nextTurn): view models take an Executor");

    @ArchTest
    static final ArchRule threads_come_from_the_named_factories = noClasses()
            .that().resideOutsideOfPackage("io.headroom.threads..")
            .should().callConstructorWhere(DescribedPredicate.describe("a Thread is constructed",
                    call -> call.getTarget().getOwner().isAssignableTo(Thread.class)))
            .because("background work runs on named, injected executors (threads/NamedThreads)");

    @ArchTest
    static final ArchRule shared_root_classes_use_nothing_of_ours = classes()
            .that(DescribedPredicate.describe("are shared root classes", c -> SHARED_ROOT_CLASSES.contains(c.getName())))
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", ROOT)
            .because("every package may use them, so they may use none (that would be a cycle)")
            .allowEmptyShould(true);

    @ArchTest
    static final ArchRule no_package_cycles = slices().matching("io.headroom.(*)..").should().beFreeOfCycles();

    /** Every package of ours has a row, and uses only the packages its row allows. */
    @ArchTest
    static final ArchRule everyPackageUsesOnlyWhatItsRowAllows = classes()
            .that().resideInAPackage("io.headroom..")
            .should(useOnlyAllowedPackages());

    @ArchTest
    static void theTableKeepsTheLayersItsRulesName(JavaClasses classes) {
        for (String core : CORE) {
            Set<String> row = ALLOWED.get(core);
            for (String forbidden : List.of("kube", "prometheus", "sandbox", "ui", "session", "cli")) {
                assertFalse(row.contains(forbidden), core + " may not be allowed " + forbidden);
            }
        }
        for (String adapter : ADAPTERS) {
            assertFalse(ALLOWED.get("ui").contains(adapter), "ui reaches " + adapter + " through session only");
        }
        assertFalse(ALLOWED.get("cli").contains("ui"), "cli never imports ui");
        // Guard against an importer that silently sees nothing: the UI does use JavaFX, kube fabric8.
        assertFalse(dependencies(classes, UI, JAVAFX_CLASSES).isEmpty(), "the importer sees the UI's JavaFX");
        assertTrue(classes.contain("io.headroom.decision.DecisionEngine"), "the importer sees the decision core");
        assertFalse(classes.contain("io.headroom.arch.ArchitectureTest"), "tests are not part of the layers");
    }

    // --- The one-way flow (issue 12): the session owns start-up, Main decides console vs CLI ---------

    @ArchTest
    static final ArchRule cli_never_imports_ui = noClasses().that(CLI).should().dependOnClassesThat(UI)
            .because("every CLI command would otherwise link JavaFX (issue 12)");
    @ArchTest
    static final ArchRule only_ui_uses_javafx = noClasses().that(OUTSIDE_UI).should()
            .dependOnClassesThat(JAVAFX_CLASSES).because("nothing below the console needs a toolkit");
    @ArchTest
    static final ArchRule ui_reaches_adapters_only_through_session = noClasses().that(UI)
            .should().dependOnClassesThat(ANY_ADAPTER)
            .because("session owns what the console is connected to; the UI reads and exports the journal through"
                    + " its ports (Journal, JournalExport), never its files (journalfile)");

    /**
     * Of config, which reads and writes the workloads files, the UI uses only the text made safe to show:
     * a policy becomes YAML through the session's port (PolicyEdits.yaml), never PolicyWriter (issue 31).
     */
    @ArchTest
    static final ArchRule ui_uses_of_config_only_untrusted_text = noClasses().that(UI)
            .should().dependOnClassesThat(DescribedPredicate.describe("are config classes other than UntrustedText",
                    c -> c.getPackageName().startsWith(ROOT + ".config")
                            && !outermost(c).equals(ROOT + ".config.UntrustedText")))
            .because("reading and writing workloads files is the session's, behind its ports");

    // --- Small cluster ports (issue 31, ADR 0022) ----------------------------------------------------

    /** The most methods a port may have: a wrapper or adapter of it stays small enough to read whole. */
    static final int PORT_METHODS = 8;

    @ArchTest
    static final ArchRule cluster_ports_are_small = classes().that().resideInAPackage("io.headroom.cluster")
            .and().areInterfaces().should(haveAtMost(PORT_METHODS))
            .because("a port of " + PORT_METHODS + " methods at most is one seam (ADR 0022): split a larger one"
                    + " along its seams instead of growing it");

    /** An interface's methods (its own and those it inherits from ours), statics aside. */
    private static ArchCondition<JavaClass> haveAtMost(int max) {
        return new ArchCondition<>("have at most " + max + " methods") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                long n = c.getAllMethods().stream()
                        .filter(m -> !m.getModifiers().contains(com.tngtech.archunit.core.domain.JavaModifier.STATIC))
                        .filter(m -> m.getOwner().getPackageName().startsWith(ROOT)).count();
                if (n > max) {
                    events.add(SimpleConditionEvent.violated(c, "port " + c.getName() + " has " + n
                            + " methods, more than " + max));
                }
            }
        };
    }

    // --- Helpers ------------------------------------------------------------------------------------

    /** "origin -> target" for every dependency between the two sides, origins named by their top-level class. */
    static Set<String> dependencies(JavaClasses classes, DescribedPredicate<JavaClass> from,
                                    DescribedPredicate<JavaClass> to) {
        Set<String> out = new java.util.TreeSet<>();
        for (JavaClass c : classes.that(from)) {
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                if (to.test(d.getTargetClass())) {
                    out.add(outermost(d.getOriginClass()) + " -> " + outermost(d.getTargetClass()));
                }
            }
        }
        return out;
    }

    private static String outermost(JavaClass c) {
        String name = c.getName();
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    /** The top-level package of ours a class lives in ("(root)" for io.headroom itself), or null when not ours. */
    static String topLevel(JavaClass c) {
        String p = c.getPackageName();
        if (p.equals(ROOT)) {
            return "(root)";
        }
        if (!p.startsWith(ROOT + ".")) {
            return null;
        }
        String rest = p.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static ArchCondition<JavaClass> useOnlyAllowedPackages() {
        return new ArchCondition<>("use only the packages of ours their row in ALLOWED names") {
            @Override
            public void check(JavaClass c, ConditionEvents events) {
                String top = topLevel(c);
                Set<String> row = ALLOWED.get(top);
                if (row == null) {
                    events.add(SimpleConditionEvent.violated(c, "package " + c.getPackageName()
                            + " has no row in ArchitectureTest.ALLOWED (a new package must say what it may use)"));
                    return;
                }
                for (Dependency d : c.getDirectDependenciesFromSelf()) {
                    String target = topLevel(d.getTargetClass());
                    if (SHARED_ROOT_CLASSES.contains(outermost(d.getTargetClass()))) {
                        continue;
                    }
                    if (target != null && !target.equals(top) && !row.contains(target)) {
                        events.add(SimpleConditionEvent.violated(c, top + " may not use " + target + ": "
                                + d.getDescription()));
                    }
                }
            }
        };
    }

    private static String[] packages(Set<String> names, String... more) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            out.add(ROOT + "." + n + "..");
        }
        for (String n : more) {
            out.add(ROOT + "." + n + "..");
        }
        return out.stream().sorted().collect(Collectors.toList()).toArray(new String[0]);
    }
}
