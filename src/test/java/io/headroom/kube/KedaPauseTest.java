package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * KEDA's pause annotations read as KEDA reads them. The first rows are ported from kedacore/keda
 * {@code apis/keda/v1alpha1/scaledobject_types_test.go} {@code TestNeedToBePausedByAnnotation}; the
 * scale-in/out rows follow {@code NeedToPauseScaleIn}/{@code NeedToPauseScaleOut}
 * ({@code getBoolAnnotation}) and the e2e tests {@code tests/internals/pause_scale_in} and
 * {@code pause_scale_out}.
 */
class KedaPauseTest {
    static final String SRC = "scaledobject_types_test.go TestNeedToBePausedByAnnotation ";

    static Stream<Arguments> rows() {
        return Stream.of(
                // row, annotations (key=value, …), paused, replicas, scale-in, scale-out
                Arguments.of(SRC + "\"No annotations\"", "", false, null, false, false),
                Arguments.of(SRC + "\"PausedAnnotation with true value\"", "paused=true", true, null, false, false),
                Arguments.of(SRC + "\"PausedAnnotation with false value\"", "paused=false", false, null, false, false),
                Arguments.of(SRC + "\"PausedAnnotation with invalid value\"", "paused=invalid", true, null, false, false),
                Arguments.of(SRC + "\"PausedReplicasAnnotation with value and status set\"", "paused-replicas=5", true, 5,
                        false, false),
                Arguments.of(SRC + "\"PausedReplicasAnnotation with value but no status set\"", "paused-replicas=5", true,
                        5, false, false),
                Arguments.of(SRC + "\"Both annotations set\"", "paused=true,paused-replicas=5", true, 5, false, false),
                Arguments.of(SRC + "\"Both annotations set, PausedAnnotation false\"", "paused=false,paused-replicas=5",
                        true, 5, false, false),
                Arguments.of("scaledobject_types.go getBoolAnnotation: Go's ParseBool \"0\" is false", "paused=0", false,
                        null, false, false),
                Arguments.of("e2e pause_scale_in: paused-scale-in \"true\"", "paused-scale-in=true", false, null, true,
                        false),
                Arguments.of("e2e pause_scale_out: paused-scale-out \"true\"", "paused-scale-out=true", false, null,
                        false, true),
                Arguments.of("scaledobject_types.go getBoolAnnotation: a non-boolean scale-in value is true",
                        "paused-scale-in=yes", false, null, true, false),
                Arguments.of("scaledobject_types.go GetPausedReplicaCount: a count that is not a number still pauses",
                        "paused-replicas=three", true, null, false, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void readAsKedaReadsThem(String row, String annotations, boolean paused, Integer replicas, boolean scaleIn,
                             boolean scaleOut) {
        Map<String, String> ann = new HashMap<>();
        for (String kv : annotations.split(",")) {
            if (!kv.isEmpty()) {
                ann.put("autoscaling.keda.sh/" + kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        KedaPause p = KedaPause.of(ann);
        if (!paused && !scaleIn && !scaleOut) {
            assertNull(p, row);
            return;
        }
        assertEquals(paused, p.paused(), row);
        assertEquals(replicas, p.replicas(), row);
        assertEquals(scaleIn, p.scaleIn(), row);
        assertEquals(scaleOut, p.scaleOut(), row);
        String words = p.describe();
        assertTrue(words.startsWith("PAUSED in KEDA: "), words);
        assertTrue(words.contains("observe mode or frozen"), "says what to do with the class: " + words);
        if (replicas != null) {
            assertTrue(words.contains("paused at " + replicas + " replicas"), words);
        }
    }
}
