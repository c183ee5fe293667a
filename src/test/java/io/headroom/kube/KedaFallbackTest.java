package io.headroom.kube;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * KEDA's fallback, ported from kedacore/keda {@code pkg/fallback/fallback_test.go}: each case's
 * ScaledObject fallback is imported, and Headroom's decision engine is run on as many ticks without
 * data as KEDA saw failures; the replicas must be KEDA's, except where Headroom deliberately never
 * scales down on missing data ({@code static} above the current count: docs/decisions/0015).
 */
class KedaFallbackTest {
    static final String SRC = "fallback_test.go ";
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static Stream<Arguments> cases() {
        return Stream.of(
                // row, fallback (null: none), failures so far (KEDA's startingNumberOfFailures) + this one,
                // current replicas, KEDA's replicas (null: KEDA returns the error, the HPA holds), Headroom's
                Arguments.of(SRC + "\"should propagate the error when fallback is disabled\"", null, 5, 5, null, 5),
                Arguments.of(SRC + "\"should bump the number of failures when metrics call fails\"",
                        "{failureThreshold: 3, replicas: 10}", 1, 5, null, 5),
                Arguments.of(SRC + "\"should return a normalised metric when number of failures are beyond threshold\"",
                        "{failureThreshold: 3, replicas: 10}", 4, 5, 10, 10),
                Arguments.of(SRC + "\"should use fallback replicas when current replicas is lower when behavior is"
                        + " 'currentReplicasIfHigher'\"", "{failureThreshold: 3, replicas: 10, behavior: currentReplicasIfHigher}",
                        4, 4, 10, 10),
                Arguments.of(SRC + "\"should use current replicas when behavior is 'currentReplicas'\"",
                        "{failureThreshold: 3, replicas: 10, behavior: currentReplicas}", 4, 6, 6, 6),
                Arguments.of(SRC + "\"should ignore current replicas when behavior is 'static'\" (differs: 0015, Headroom"
                        + " never scales down on missing data)", "{failureThreshold: 3, replicas: 10, behavior: static}", 4,
                        15, 10, 15),
                Arguments.of("fallback.go doFallback currentReplicasIfLower (no upstream unit case; differs: 0015)",
                        "{failureThreshold: 3, replicas: 10, behavior: currentReplicasIfLower}", 4, 15, 10, 15));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void missingDataAsKedaFallsBack(String row, String fallback, int failures, int current, Integer keda, int headroom) {
        Policy p = ScaledObjectImport.from(ScaledObjectImportTest.parse("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: fb, namespace: ops}
                spec:
                  scaleTargetRef: {name: worker}
                  minReplicaCount: 1
                  maxReplicaCount: 50
                """ + (fallback == null ? "" : "  fallback: " + fallback + "\n") + """
                  triggers:
                    - type: prometheus
                      metadata: {serverAddress: "http://prom:9090", query: "sum(q)", threshold: "10"}
                """), "prod").policy();
        ClassMemory m = ClassMemory.initial();
        Decision d = null;
        for (int i = 0; i < failures; i++) {
            Instant at = T0.plusSeconds(15L * i);
            d = DecisionEngine.decide("c", p, missing(current), m, at);
            m = d.memory();
            if (i < failures - 1) {
                assertEquals(current, d.desiredReplicas(), row + ": before the last failure, the replicas hold");
            }
        }
        assertEquals(headroom, d.desiredReplicas(), row);
        if (fallback != null) {
            // KEDA falls back once its failures exceed failureThreshold 3; Headroom's imported threshold is 4.
            assertEquals(failures > 3, d.has(Reason.Code.FALLBACK), row + ": the fallback is said exactly when KEDA's"
                    + " applies");
        }
    }

    private static Observation missing(int current) {
        Map<SignalName, Signal> s = new HashMap<>();
        for (SignalName name : List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE)) {
            s.put(name, Signal.missing("HTTP 503"));
        }
        return new Observation(current, current, s);
    }

    @Test
    void aNegativeThresholdIsRefusedAsKedaRefusesIt() {
        // scaledobject_types_test.go TestCheckFallbackValid "Negative FailureThreshold - invalid".
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ScaledObjectImport.from(ScaledObjectImportTest.parse("""
                        apiVersion: keda.sh/v1alpha1
                        kind: ScaledObject
                        metadata: {name: fb, namespace: ops}
                        spec:
                          scaleTargetRef: {name: worker}
                          fallback: {failureThreshold: -1, replicas: 1}
                          triggers:
                            - type: prometheus
                              metadata: {query: "sum(q)", threshold: "10"}
                        """), "prod"));
        assertEquals("fallback.failureThreshold must be at least 0, got -1", e.getMessage());
    }
}
