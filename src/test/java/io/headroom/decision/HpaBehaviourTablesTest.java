package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ClassMemory.Stamped;
import io.headroom.decision.Reason.Code;
import io.headroom.decision.ScalingBehavior.SelectPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The HPA's behaviour tables, ported row by row from kubernetes/kubernetes
 * {@code pkg/controller/podautoscaler/horizontal_test.go} (commit 003e86297d18a8538c9da3619871393f9703bf70);
 * every row names its upstream test function and case. The semantics are the HPA's
 * ({@code horizontal.go}: {@code reconcileAutoscaler}, {@code normalizeDesiredReplicasWithBehaviors},
 * {@code stabilizeRecommendationWithBehaviors}, {@code convertDesiredReplicasWithBehaviorRate},
 * {@code calculateScaleUpLimitWithScalingRules}, {@code calculateScaleDownLimitWithBehaviors}); the code under
 * test is Headroom's {@link Behaviour} and, for the reconcile rows, {@link DecisionEngine}.
 *
 * <p>How the Go fields map:
 * <ul>
 * <li>{@code HPAScalingRules} → {@link ScalingBehavior}: {@code StabilizationWindowSeconds} → the window,
 *     {@code Policies} → {@link ScalingRule}s, {@code SelectPolicy} Max/Min/Disabled → {@link SelectPolicy};
 *     {@code generateScalingRules(pods, podsPeriod, percent, percentPeriod, window)} → {@link #rules};
 *     {@code GenerateHPAScaleUpRules(nil)} / {@code GenerateHPAScaleDownRules(nil)} → the HPA defaults
 *     {@link ScalingBehavior#defaultUp()} / {@link ScalingBehavior#defaultDown()}.</li>
 * <li>{@code scaleUpEvents} / {@code scaleDownEvents} ({@code timestampedScaleEvent}: a positive
 *     {@code replicaChange} and when it happened) → one list of scale events {@link Stamped}{@code (at, delta)},
 *     delta positive up and negative down; {@code generateEventsUniformDistribution} → {@link #events}.</li>
 * <li>{@code recommendations} ({@code timestampedRecommendation}) → past recommendations
 *     {@link Stamped}{@code (at, value)}; {@code time.Now()} → {@link #NOW}.</li>
 * <li>{@code NormalizationArg}: {@code CurrentReplicas} → current, {@code DesiredReplicas}
 *     ({@code prenormalizedDesiredReplicas}) → desired, {@code MinReplicas}/{@code MaxReplicas} → min/max.</li>
 * <li>The conditions the HPA returns → Headroom's reasons ({@link #condition}): {@code ScaleUpLimit} ↔
 *     RATE_LIMITED_UP, {@code ScaleDownLimit} ↔ RATE_LIMITED_DOWN, {@code TooManyReplicas} ↔ MAX_REPLICAS or
 *     ABOVE_MAX, {@code TooFewReplicas} ↔ MIN_REPLICAS or BELOW_MIN, {@code DesiredWithinRange} ↔ none of them.</li>
 * <li>Stored lists: the HPA keeps entries that no window or period reads any more and reuses one slot for
 *     the newest; Headroom drops them. Where a row asserts what is stored, the comparison is of the entries
 *     that still count (the upstream list without the ones older than every window or period), in any order.</li>
 * </ul>
 */
class HpaBehaviourTablesTest {
    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    static final String FILE = "horizontal_test.go ";

    /** {@code generateScalingRules}: a Pods and/or a Percent policy (0 leaves it out), select Max. */
    static ScalingBehavior rules(int pods, int podsPeriod, int percent, int percentPeriod, int window) {
        List<ScalingRule> r = new ArrayList<>();
        if (pods != 0) {
            r.add(ScalingRule.pods(pods, podsPeriod));
        }
        if (percent != 0) {
            r.add(ScalingRule.percent(percent, percentPeriod));
        }
        return new ScalingBehavior(window, r, SelectPolicy.MAX);
    }

    /**
     * {@code generateEventsUniformDistribution(changes, period)}: the period split into one segment per event,
     * each event in the middle of its segment, the first the oldest ({@code period − seg·(i+1) + seg/2} seconds
     * ago); {@code sign} +1 for scale-up events, −1 for scale-down.
     */
    static List<Stamped> events(int sign, int period, int... changes) {
        List<Stamped> out = new ArrayList<>();
        double seg = (double) period / changes.length;
        for (int i = 0; i < changes.length; i++) {
            long ago = (long) (period - seg * (i + 1) + seg / 2); // Go: time.Duration(float) truncates
            out.add(new Stamped(NOW.minusSeconds(ago), sign * changes[i]));
        }
        return out;
    }

    static Stamped rec(int value, long secondsAgo) {
        return new Stamped(NOW.minusSeconds(secondsAgo), value);
    }

    /** The HPA condition Headroom's reasons amount to (see the class comment). */
    static String condition(List<Reason> reasons) {
        List<Code> codes = reasons.stream().map(Reason::code).toList();
        if (codes.contains(Code.RATE_LIMITED_UP) || codes.contains(Code.SCALE_UP_DISABLED)) {
            return "ScaleUpLimit";
        }
        if (codes.contains(Code.RATE_LIMITED_DOWN) || codes.contains(Code.SCALE_DOWN_DISABLED)) {
            return "ScaleDownLimit";
        }
        if (codes.contains(Code.MAX_REPLICAS) || codes.contains(Code.ABOVE_MAX)) {
            return "TooManyReplicas";
        }
        if (codes.contains(Code.MIN_REPLICAS) || codes.contains(Code.BELOW_MIN)) {
            return "TooFewReplicas";
        }
        return "DesiredWithinRange";
    }

    static List<Integer> sorted(List<Integer> values) {
        return values.stream().sorted().toList();
    }

    // ---------------------------------------------------------------------------------------------------------
    // TestScalingWithRules: convertDesiredReplicasWithBehaviorRate (rate policies and min/max, no windows).

    static List<Stamped> both(List<Stamped> up, List<Stamped> down) {
        List<Stamped> all = new ArrayList<>(up);
        all.addAll(down);
        return all;
    }

    /**
     * One row: current, prenormalized desired, min, max, scale-up rules (null: default), scale-down rules (null:
     * default), scale events, expected replicas, expected condition.
     */
    static Arguments scaling(String name, int current, int desired, int min, int max, ScalingBehavior up,
                             ScalingBehavior down, List<Stamped> events, int expected, String condition) {
        return Arguments.of(FILE + "TestScalingWithRules: " + name, current, desired, min, max,
                up == null ? ScalingBehavior.defaultUp() : up, down == null ? ScalingBehavior.defaultDown() : down,
                events, expected, condition);
    }

    static Stream<Arguments> scalingWithRules() {
        List<Stamped> none = List.of();
        List<Stamped> up159 = events(1, 120, 1, 5, 9);
        List<Stamped> down159 = events(-1, 120, 1, 5, 9);
        return Stream.of(
                scaling("prenormalized desired replicas within range", 5, 7, 3, 8, null, null, none, 7,
                        "DesiredWithinRange"),
                scaling("prenormalized desired replicas < minReplicas", 3, 1, 2, 8, null, null, none, 2,
                        "TooFewReplicas"),
                scaling("prenormalized desired replicas within range when minReplicas is 0", 1, 0, 0, 10, null, null,
                        none, 0, "DesiredWithinRange"),
                scaling("maxReplicas is the limit because maxReplicas < scaleUpLimit", 20, 1000, 1, 10, null, null,
                        none, 10, "TooManyReplicas"),
                scaling("desired replica count is more than the maximum replica count", 100, 1000, 100, 150, null,
                        null, none, 150, "TooManyReplicas"),
                scaling("scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies", 3, 1000, 1,
                        2000, rules(0, 0, 1, 60, 0), null, none, 4, "ScaleUpLimit"),
                // Upstream skips this row (its testThis flag returns early); ported with its stated expectation.
                scaling("scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies",
                        1000, 3, 3, 2000, null, rules(20, 60, 0, 0, 0), none, 980, "ScaleDownLimit"),
                scaling("scaleUp with default behavior", 10, 50, 1, 1000, null, null, none, 20, "ScaleUpLimit"),
                scaling("scaleUp with pods policy larger than percent policy", 10, 500, 1, 1000,
                        rules(100, 60, 100, 60, 0), null, none, 110, "ScaleUpLimit"),
                scaling("scaleUp with percent policy larger than pods policy", 10, 500, 1, 1000,
                        rules(2, 60, 100, 60, 0), null, none, 20, "ScaleUpLimit"),
                scaling("scaleUp with spec MaxReplicas limitation with large pod policy", 10, 50, 1, 1000,
                        rules(100, 60, 0, 0, 0), null, none, 50, "DesiredWithinRange"),
                scaling("scaleUp with spec MaxReplicas limitation with large percent policy", 10, 50, 1, 1000,
                        rules(10000, 60, 0, 0, 0), null, none, 50, "DesiredWithinRange"),
                scaling("scaleUp with pod policy limitation", 10, 50, 1, 1000, rules(30, 60, 0, 0, 0), null, none, 40,
                        "ScaleUpLimit"),
                scaling("scaleUp with percent policy limitation", 10, 50, 1, 1000, rules(0, 0, 200, 60, 0), null,
                        none, 30, "ScaleUpLimit"),
                scaling("scaleDown with percent policy larger than pod policy", 100, 2, 1, 1000, null,
                        rules(20, 60, 1, 60, 300), none, 80, "ScaleDownLimit"),
                scaling("scaleDown with pod policy larger than percent policy", 100, 2, 1, 1000, null,
                        rules(2, 60, 1, 60, 300), none, 98, "ScaleDownLimit"),
                scaling("scaleDown with spec MinReplicas=nil limitation with large pod policy", 10, 0, 1, 1000, null,
                        rules(100, 60, 0, 0, 300), none, 1, "TooFewReplicas"),
                scaling("scaleDown with spec MinReplicas limitation with large pod policy", 10, 0, 1, 1000, null,
                        rules(100, 60, 0, 0, 300), none, 1, "TooFewReplicas"),
                scaling("scaleDown with spec MinReplicas limitation with large percent policy", 10, 2, 5, 1000, null,
                        rules(0, 0, 100, 60, 300), none, 5, "TooFewReplicas"),
                scaling("scaleDown with pod policy limitation", 10, 2, 1, 1000, null, rules(5, 60, 0, 0, 300), none, 5,
                        "ScaleDownLimit"),
                scaling("scaleDown with percent policy limitation", 10, 5, 1, 1000, null, rules(0, 0, 50, 60, 300),
                        none, 5, "DesiredWithinRange"),
                scaling("scaleUp with spec MaxReplicas limitation with large pod policy and events", 100, 500, 1, 200,
                        rules(300, 60, 0, 0, 0), null, up159, 200, "TooManyReplicas"),
                scaling("scaleUp with spec MaxReplicas limitation with large percent policy and events", 100, 500, 1,
                        200, rules(0, 0, 10000, 60, 0), null, up159, 200, "TooManyReplicas"),
                scaling("scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up"
                        + " events", 100, 500, 1, 1000, rules(5, 120, 0, 0, 0), null, up159, 100, "ScaleUpLimit"),
                scaling("scaleUp with pod policy and previous scale up events", 100, 500, 1, 1000,
                        rules(150, 120, 0, 0, 0), null, up159, 235, "ScaleUpLimit"),
                scaling("scaleUp with percent policy and previous scale up events", 100, 500, 1, 1000,
                        rules(0, 0, 200, 120, 0), null, up159, 255, "ScaleUpLimit"),
                scaling("scaleUp with percent policy and previous scale up and down events", 6, 24, 1, 1000,
                        rules(0, 0, 300, 300, 0), null, both(events(1, 120, 4), events(-1, 120, 2)), 16,
                        "ScaleUpLimit"),
                scaling("scaleDown with default policy and previous events", 10, 5, 1, 1000, null, null, down159, 5,
                        "DesiredWithinRange"),
                scaling("scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events",
                        100, 0, 1, 1000, null, rules(115, 120, 0, 0, 300), down159, 1, "TooFewReplicas"),
                scaling("scaleDown with spec MinReplicas limitation with large pod policy and previous events", 100, 0,
                        5, 1000, null, rules(130, 120, 0, 0, 300), down159, 5, "TooFewReplicas"),
                scaling("scaleDown with spec MinReplicas limitation with large percent policy and previous events",
                        100, 2, 5, 1000, null, rules(0, 0, 100, 120, 300), down159, 5, "TooFewReplicas"),
                scaling("scaleDown with pod policy limitation and previous events", 100, 2, 1, 1000, null,
                        rules(5, 120, 0, 0, 300), down159, 100, "ScaleDownLimit"),
                scaling("scaleDown with percent policy limitation and previous events", 100, 0, 1, 1000, null,
                        rules(0, 0, 50, 120, 300), events(-1, 120, 2, 4, 6), 56, "ScaleDownLimit"),
                scaling("scaleDown with percent policy and previous scale up and down events", 10, 1, 1, 1000, null,
                        rules(0, 0, 50, 180, 0), both(events(1, 120, 2), events(-1, 120, 4)), 6, "ScaleDownLimit"),
                scaling("scaleDown with previous events preventing further scale down", 100, 0, 1, 1000, null,
                        rules(0, 0, 10, 120, 300), events(-1, 120, 10, 10, 10), 100, "ScaleDownLimit"),
                scaling("scaleDown with with previous events still allowing more scale down", 10, 5, 1, 1000, null,
                        rules(0, 0, 1000, 120, 300), events(-1, 120, 10, 10, 10), 5, "DesiredWithinRange"),
                scaling("check 'outdated' flag for events for one behavior for up", 100, 200, 1, 1000,
                        rules(1000, 60, 0, 0, 0), null, events(1, 120, 8, 12, 9, 11), 200, "DesiredWithinRange"),
                scaling("check that events were not marked 'outdated' for two different policies in the behavior for"
                        + " up", 100, 200, 1, 1000, rules(1000, 120, 100, 60, 0), null, events(1, 120, 8, 12, 9, 11),
                        200, "DesiredWithinRange"),
                scaling("check that events were marked 'outdated' for two different policies in the behavior for up",
                        100, 200, 1, 1000, rules(1000, 30, 100, 60, 0), null, events(1, 120, 8, 12, 9, 11), 200,
                        "DesiredWithinRange"),
                scaling("check 'outdated' flag for events for one behavior for down", 100, 5, 1, 1000, null,
                        rules(1000, 60, 0, 0, 300), events(-1, 120, 8, 12, 9, 11), 5, "DesiredWithinRange"),
                scaling("check that events were not marked 'outdated' for two different policies in the behavior for"
                        + " down", 100, 5, 1, 1000, null, rules(1000, 120, 100, 60, 300),
                        events(-1, 120, 8, 12, 9, 11), 5, "DesiredWithinRange"),
                scaling("check that events were marked 'outdated' for two different policies in the behavior for down",
                        100, 5, 1, 1000, null, rules(1000, 30, 100, 60, 300), events(-1, 120, 8, 12, 9, 11), 5,
                        "DesiredWithinRange"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scalingWithRules")
    void scalingWithRules(String row, int current, int desired, int min, int max, ScalingBehavior up,
                          ScalingBehavior down, List<Stamped> events, int expected, String condition) {
        // No past recommendations: the upstream function under test has no windows.
        Behaviour.Result r = Behaviour.normaliseWithin(up, down, min, max, current, desired, List.of(), events, NOW);
        assertEquals(expected, r.replicas(), row + ": replicas; " + r.story());
        assertEquals(condition, condition(r.reasons()), row + ": condition; " + r.reasons());
    }

    // ---------------------------------------------------------------------------------------------------------
    // TestConvertDesiredReplicasWithRules: convertDesiredReplicasWithRules, the HPA without a behaviour. The API
    // server defaults every HPA's behaviour (SetDefaults_HorizontalPodAutoscalerBehavior), so Headroom has no
    // behaviour-less path: the rows run with the defaults. Its fifth row ("scaleUpLimit is the limit because
    // scaleUpLimit < maxReplicas") asserts calculateScaleUpLimit(3) with the test's scaleUpLimitFactor of 8, a
    // limit only that path has; it is not ported.

    static Stream<Arguments> convertWithRules() {
        String f = FILE + "TestConvertDesiredReplicasWithRules: ";
        return Stream.of(
                Arguments.of(f + "prenormalized desired replicas within range", 5, 7, 3, 8, 7, "DesiredWithinRange"),
                Arguments.of(f + "prenormalized desired replicas < minReplicas", 3, 1, 2, 8, 2, "TooFewReplicas"),
                Arguments.of(f + "prenormalized desired zeroed replicas within range", 1, 0, 0, 10, 0,
                        "DesiredWithinRange"),
                Arguments.of(f + "maxReplicas is the limit because maxReplicas < scaleUpLimit", 20, 1000, 1, 10, 10,
                        "TooManyReplicas"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("convertWithRules")
    void convertDesiredReplicasWithRules(String row, int current, int desired, int min, int max, int expected,
                                         String condition) {
        Behaviour.Result r = Behaviour.normaliseWithin(ScalingBehavior.defaultUp(), ScalingBehavior.defaultDown(), min,
                max, current, desired, List.of(), List.of(), NOW);
        assertEquals(expected, r.replicas(), row + ": replicas; " + r.story());
        assertEquals(condition, condition(r.reasons()), row + ": condition; " + r.reasons());
    }

    // ---------------------------------------------------------------------------------------------------------
    // TestCalculateScaleUpLimitWithScalingRules / TestCalculateScaleDownLimitWithBehaviors: select Min over
    // 2 pods and 50 % per 60 s, no events.

    static Stream<Arguments> limits() {
        ScalingBehavior minOfBoth = new ScalingBehavior(300,
                List.of(ScalingRule.pods(2, 60), ScalingRule.percent(50, 60)), SelectPolicy.MIN);
        return Stream.of(
                Arguments.of(FILE + "TestCalculateScaleUpLimitWithScalingRules", true, minOfBoth, 1, 2),
                Arguments.of(FILE + "TestCalculateScaleDownLimitWithBehaviors", false, minOfBoth, 5, 3));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limits")
    void calculateLimits(String row, boolean up, ScalingBehavior rules, int current, int expected) {
        int limit = up ? Behaviour.scaleUpLimit(rules, current, List.of(), NOW)
                : Behaviour.scaleDownLimit(rules, current, List.of(), NOW);
        assertEquals(expected, limit, row);
    }

    // ---------------------------------------------------------------------------------------------------------
    // TestNormalizeDesiredReplicasWithBehavior: stabilizeRecommendationWithBehaviors. The upstream rules there have
    // windows and no policies; here the policies never bind (a million pods up, 100 % down, per second), so the
    // windows alone decide. A window the row leaves unset is Go's zero, 0 s.

    static final List<ScalingRule> UNBOUNDED_UP = List.of(ScalingRule.pods(1_000_000, 1));
    static final List<ScalingRule> UNBOUNDED_DOWN = List.of(ScalingRule.percent(100, 1));

    /** One row; {@code stored} is upstream's expectedRecommendations (values), null where the row has none. */
    static Arguments window(String name, List<Stamped> recs, int current, int desired, int expected,
                            List<Integer> stored, int upWindow, int downWindow) {
        return Arguments.of(FILE + "TestNormalizeDesiredReplicasWithBehavior: " + name, recs, current, desired,
                expected, stored, upWindow, downWindow);
    }

    static Stream<Arguments> stabilisation() {
        return Stream.of(
                window("empty recommendations for scaling down", List.of(), 100, 5, 5, List.of(5), 0, 0),
                window("simple scale down stabilization", List.of(rec(4, 120), rec(5, 60)), 100, 3, 5,
                        List.of(4, 5, 3), 0, 180),
                window("simple scale up stabilization", List.of(rec(4, 120), rec(5, 60)), 1, 7, 4, List.of(4, 5, 7),
                        300, 0),
                window("no scale down stabilization", List.of(rec(1, 120), rec(2, 60)), 100, 3, 3, List.of(1, 2, 3),
                        300, 0),
                window("no scale up stabilization", List.of(rec(4, 120), rec(5, 60)), 1, 3, 3, List.of(4, 5, 3), 0,
                        300),
                window("no scale down stabilization, reuse recommendation element", List.of(rec(10, 600), rec(9, 540)),
                        100, 3, 3, List.of(10, 3), 0, 0),
                window("no scale up stabilization, reuse recommendation element", List.of(rec(10, 600), rec(9, 540)),
                        1, 100, 100, List.of(10, 100), 0, 0),
                window("scale down stabilization, reuse one of obsolete recommendation element",
                        List.of(rec(10, 600), rec(4, 60), rec(5, 120), rec(9, 540)), 100, 3, 5, List.of(10, 4, 5, 3),
                        0, 180),
                window("scale up stabilization, reuse one of obsolete recommendation element",
                        List.of(rec(10, 6000), rec(6, 60), rec(5, 120), rec(9, 180)), 1, 100, 5, List.of(100, 6, 5, 9),
                        300, 0),
                window("scale up and down stabilization, do not scale up when prenormalized rec goes down",
                        List.of(rec(2, 6000), rec(3, 180)), 2, 1, 2, null, 300, 300),
                window("scale up and down stabilization, do not scale down when prenormalized rec goes up",
                        List.of(rec(2, 6000), rec(1, 180)), 2, 3, 2, null, 300, 300));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stabilisation")
    void stabiliseRecommendationWithBehaviors(String row, List<Stamped> recs, int current, int desired, int expected,
                                              List<Integer> stored, int upWindow, int downWindow) {
        ScalingBehavior up = new ScalingBehavior(upWindow, UNBOUNDED_UP, SelectPolicy.MAX);
        ScalingBehavior down = new ScalingBehavior(downWindow, UNBOUNDED_DOWN, SelectPolicy.MAX);
        Behaviour.Result r = Behaviour.normalise(up, down, current, desired, recs, List.of(), NOW, false);
        assertEquals(expected, r.replicas(), row + ": replicas; " + r.story());
        if (stored != null) {
            assertEquals(sorted(stillCounting(stored, recs, Math.max(upWindow, downWindow))),
                    sorted(r.recommendations().stream().map(Stamped::value).toList()), row + ": recommendations kept");
        }
    }

    /**
     * Upstream's stored list without the entries no window reads any more: it replaces the last recommendation
     * older than every window with the new one and keeps the other obsolete ones; Headroom keeps neither.
     */
    static List<Integer> stillCounting(List<Integer> upstreamStored, List<Stamped> input, int longestWindow) {
        List<Stamped> obsolete = input.stream()
                .filter(s -> Behaviour.seconds(s.at(), NOW) >= longestWindow).toList();
        List<Integer> out = new ArrayList<>(upstreamStored);
        for (int i = 0; i < obsolete.size() - 1; i++) { // the last obsolete entry was the one replaced
            out.remove(Integer.valueOf(obsolete.get(i).value()));
        }
        return out;
    }

    // ---------------------------------------------------------------------------------------------------------
    // TestNormalizeDesiredReplicas: stabilizeRecommendation, the HPA without a behaviour, whose only window is the
    // controller's 5-minute downscale window: a scale-down window of 300 s and no scale-up window. The upstream
    // function has no current count (it returns the highest recommendation in the window); current is 20 here,
    // above every row's values, so the window's highest is what a scale-down keeps.

    static Stream<Arguments> legacyStabilisation() {
        String f = FILE + "TestNormalizeDesiredReplicas: ";
        return Stream.of(
                Arguments.of(f + "empty log", List.of(), 5, 5, 1),
                Arguments.of(f + "stabilize", List.of(rec(4, 120), rec(5, 60)), 3, 5, 3),
                Arguments.of(f + "no stabilize", List.of(rec(1, 120), rec(2, 60)), 3, 3, 3),
                Arguments.of(f + "no stabilize - old recommendations", List.of(rec(10, 600), rec(9, 540)), 3, 3, 2),
                Arguments.of(f + "stabilize - old recommendations",
                        List.of(rec(10, 600), rec(4, 60), rec(5, 120), rec(9, 540)), 3, 5, 4));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("legacyStabilisation")
    void normalizeDesiredReplicas(String row, List<Stamped> recs, int desired, int expected, int logLength) {
        ScalingBehavior up = new ScalingBehavior(0, UNBOUNDED_UP, SelectPolicy.MAX);
        ScalingBehavior down = new ScalingBehavior(300, UNBOUNDED_DOWN, SelectPolicy.MAX);
        Behaviour.Result r = Behaviour.normalise(up, down, 20, desired, recs, List.of(), NOW, false);
        assertEquals(expected, r.replicas(), row + ": replicas; " + r.story());
        long obsolete = recs.stream().filter(s -> Behaviour.seconds(s.at(), NOW) >= 300).count();
        long keptUpstreamThoughObsolete = Math.max(0, obsolete - 1); // one obsolete slot was reused
        assertEquals(logLength - keptUpstreamThoughObsolete, r.recommendations().size(), row + ": log length");
    }

    // ---------------------------------------------------------------------------------------------------------
    // TestStoreScaleEvents: storeScaleEvent and getReplicasChangePerPeriod(60, …). Storing is
    // ClassMemory.applied (the loop stamps a change when it applied it) and the next decision keeping what a
    // period still reads (Behaviour.recentEvents, over the longest period of either direction; upstream stores each
    // direction under its own rules, the rows give both directions the same). The replicas changed within 60 s
    // are read back through a 500-pod policy of 60 s from 1,000 replicas. Its two rows without a behaviour
    // ("empty entries with default behavior", "one outdated entry to be kept untouched without behavior": nothing
    // is stored) have no counterpart: a Headroom class always has a behaviour (the HPA's defaults unless edited).

    /** One row: the earlier events (change, seconds ago), the rules, the change within 60 s, what is stored. */
    static Arguments store(String name, int[][] previous, ScalingBehavior rules, int expectedChange, int[] stored,
                           boolean[] outdated) {
        return Arguments.of(FILE + "TestStoreScaleEvents: " + name, previous, rules, expectedChange, stored, outdated);
    }

    static Stream<Arguments> storeScaleEvents() {
        return Stream.of(
                store("empty entries with two-policy-behavior", new int[][]{}, rules(10, 60, 100, 60, 0), 0,
                        new int[]{5}, new boolean[]{false}),
                store("one outdated entry to be replaced with behavior", new int[][]{{7, 61}}, rules(10, 60, 100, 60, 0),
                        0, new int[]{5}, new boolean[]{false}),
                store("one actual entry to be not touched with behavior", new int[][]{{7, 58}},
                        rules(10, 60, 100, 60, 0), 7, new int[]{7, 5}, new boolean[]{false, false}),
                store("two entries, one of them to be replaced", new int[][]{{7, 61}, {6, 59}}, rules(10, 60, 0, 0, 0),
                        6, new int[]{5, 6}, new boolean[]{false, false}),
                store("replace one entry, use policies with different periods",
                        new int[][]{{8, 29}, {6, 59}, {7, 61}, {9, 61}}, rules(10, 60, 100, 30, 0), 14,
                        new int[]{8, 6, 7, 5}, new boolean[]{false, false, true, false}),
                store("two entries, both actual", new int[][]{{7, 58}, {6, 59}}, rules(10, 120, 100, 30, 0), 13,
                        new int[]{7, 6, 5}, new boolean[]{false, false, false}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storeScaleEvents")
    void storeScaleEvents(String row, int[][] previous, ScalingBehavior rules, int expectedChange, int[] stored,
                          boolean[] outdated) {
        List<Integer> counting = new ArrayList<>();
        for (int i = 0; i < stored.length; i++) {
            if (!outdated[i]) {
                counting.add(stored[i]);
            }
        }
        ScalingBehavior probe = new ScalingBehavior(0, List.of(ScalingRule.pods(500, 60)), SelectPolicy.MAX);
        for (int sign : new int[]{1, -1}) {
            String direction = sign > 0 ? "up" : "down";
            List<Stamped> earlier = new ArrayList<>();
            for (int[] e : previous) {
                earlier.add(new Stamped(NOW.minusSeconds(e[1]), sign * e[0]));
            }
            int changed = sign > 0 ? 1500 - Behaviour.scaleUpLimit(probe, 1000, earlier, NOW)
                    : Behaviour.scaleDownLimit(probe, 1000, earlier, NOW) - 500;
            assertEquals(expectedChange, changed, row + ": " + direction + ": replicas changed within 60 s");

            ClassMemory mem = ClassMemory.initial().next(10, NOW.minusSeconds(15), NOW, List.of(), earlier)
                    .applied(NOW, 10, 10 + sign * 5);
            List<Integer> kept = Behaviour.recentEvents(rules, rules, mem.scaleEvents(), NOW).stream()
                    .map(s -> Math.abs(s.value())).toList();
            assertEquals(sorted(counting), sorted(kept), row + ": " + direction + ": events kept");
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reconcile tests whose numbers come from min/max and the behaviour (the metric part computed by hand from the
    // row's CPU levels and requests: utilization = Σ levels / Σ requests, desired = ceil(current × utilization /
    // target)); all with the HPA's default behaviour unless the row sets scale-up rules, no recommendations.

    static Stream<Arguments> reconcileWithinRange() {
        return Stream.of(
                // 115 m of 3,000 m = 3.8 % against 90 %: ceil(3 × 0.0426) = 1
                Arguments.of(FILE + "TestMinReplicas", null, 2, 5, 3, 1, 2, "TooFewReplicas"),
                Arguments.of(FILE + "TestMinReplicasDesiredZero", null, 2, 5, 3, 0, 2, "TooFewReplicas"),
                Arguments.of(FILE + "TestZeroMinReplicasDesiredZero", null, 0, 5, 3, 0, 0, "DesiredWithinRange"),
                // 18,500 m of 3,000 m = 617 % against 90 %: ceil(3 × 6.85) = 21
                Arguments.of(FILE + "TestMaxReplicas", null, 2, 5, 3, 21, 5, "TooManyReplicas"),
                // four pods: 23,500 m of 4,000 m = 588 % against 100 %: ceil(4 × 5.875) = 24
                Arguments.of(FILE + "TestSuperfluousMetrics", null, 2, 6, 4, 24, 6, "TooManyReplicas"),
                // 600 m of 300 m = 200 % against 10 %: 60; 700 % per 60 s from 3 allows 24
                Arguments.of(FILE + "TestUpscaleCap", rules(0, 0, 700, 60, 0), 1, 100, 3, 60, 24, "ScaleUpLimit"),
                Arguments.of(FILE + "TestUpscaleCapGreaterThanMaxReplicas", rules(0, 0, 700, 60, 0), 1, 20, 3, 60, 20,
                        "TooManyReplicas"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reconcileWithinRange")
    void reconcileWithinRange(String row, ScalingBehavior up, int min, int max, int current, int desired,
                              int expected, String condition) {
        Behaviour.Result r = Behaviour.normaliseWithin(up == null ? ScalingBehavior.defaultUp() : up,
                ScalingBehavior.defaultDown(), min, max, current, desired, List.of(), List.of(), NOW);
        assertEquals(expected, r.replicas(), row + ": replicas; " + r.story());
        assertEquals(condition, condition(r.reasons()), row + ": condition; " + r.reasons());
    }

    // ---------------------------------------------------------------------------------------------------------
    // Reconcile tests of counts outside [min, max] (reconcileAutoscaler's branches before any metric is read), run
    // through Headroom's whole decision with the HPA's default behaviour. As upstream, whatever the metrics say
    // does not matter: the rows run with no telemetry at all (the decision holds otherwise) and with the queue
    // idle. The HPA first records the count it found as a recommendation (recordInitialRecommendation); the
    // memory holds it, so a scale-down window would hold the count if the rule did not apply.

    static Stream<Arguments> reconcileOutOfRange() {
        return Stream.of(
                Arguments.of(FILE + "TestTooFewReplicas", 3, 5, 2, 3, Code.BELOW_MIN),
                Arguments.of(FILE + "TestTooManyReplicas", 3, 5, 10, 5, Code.ABOVE_MAX),
                Arguments.of(FILE + "TestScaleUpRCImmediately", 2, 6, 1, 2, Code.BELOW_MIN),
                Arguments.of(FILE + "TestScaleDownRCImmediately", 2, 5, 6, 5, Code.ABOVE_MAX),
                // Differs (decision 0018): at zero with min 3 the HPA counts scaling as disabled and keeps 0;
                // Headroom goes to min, as KEDA's scale executor does.
                Arguments.of(FILE + "TestZeroReplicas (differs, decision 0018)", 3, 5, 0, 3, Code.BELOW_MIN));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reconcileOutOfRange")
    void reconcileOutOfRange(String row, int min, int max, int current, int expected, Code reason) {
        Policy p = Policy.builder().minReplicas(min).maxReplicas(max).build();
        ClassMemory mem = ClassMemory.initial().next(current, NOW.minusSeconds(15), NOW.minusSeconds(15),
                List.of(new Stamped(NOW.minusSeconds(15), current)), List.of());
        Map<SignalName, Signal> idle = new HashMap<>();
        for (SignalName s : Arrays.asList(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE,
                Signals.IN_FLIGHT, Signals.COMPLETION_RATE)) {
            idle.put(s, Signal.of(0, NOW));
        }
        idle.put(Signals.MEAN_SERVICE, Signal.of(1, NOW));
        for (Map<SignalName, Signal> signals : List.of(idle, Map.<SignalName, Signal>of())) {
            String with = signals.isEmpty() ? " (no telemetry)" : " (queue idle)";
            Decision d = DecisionEngine.decide("c", p, new Observation(current, current, signals), mem, NOW);
            assertEquals(expected, d.desiredReplicas(), row + with + ": " + d.explanation());
            assertTrue(d.has(reason), row + with + ": " + d.reasons());
            assertTrue(d.explanation().contains("straight to " + expected), row + with + ": " + d.explanation());
        }
    }
}
