package io.headroom.kube;

import io.headroom.config.UntrustedText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * KEDA's pause annotations on a ScaledObject, read as KEDA reads them
 * ({@code apis/keda/v1alpha1/scaledobject_types.go}): {@code paused-replicas} pauses whatever its
 * value, {@code paused}, {@code paused-scale-in} and {@code paused-scale-out} are Go booleans
 * ({@code strconv.ParseBool}) and any other value counts as true.
 *
 * @param paused      autoscaling is stopped ({@code paused} true, or {@code paused-replicas} present)
 * @param replicas    the count {@code paused-replicas} holds, or null (not set, or not a number)
 * @param replicasText {@code paused-replicas} as written when it is not a whole number, else null
 * @param scaleIn     scale-in (down, and to zero) is stopped
 * @param scaleOut    scale-out (up, and from zero) is stopped
 */
public record KedaPause(boolean paused, Integer replicas, String replicasText, boolean scaleIn, boolean scaleOut) {
    public static final String PAUSED = "autoscaling.keda.sh/paused";
    public static final String PAUSED_REPLICAS = Autoscalers.PAUSED_REPLICAS;
    public static final String PAUSED_SCALE_IN = "autoscaling.keda.sh/paused-scale-in";
    public static final String PAUSED_SCALE_OUT = "autoscaling.keda.sh/paused-scale-out";

    /** The pause the annotations ask for, or null when KEDA autoscales the object in both directions. */
    static KedaPause of(Map<String, String> annotations) {
        if (annotations == null) {
            return null;
        }
        Integer replicas = null;
        String replicasText = null;
        boolean paused = false;
        if (annotations.containsKey(PAUSED_REPLICAS)) {
            paused = true;
            String v = String.valueOf(annotations.get(PAUSED_REPLICAS)); // ParseInt(val, 10, 32): no trimming
            try {
                replicas = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                replicasText = v;
            }
        }
        paused |= bool(annotations, PAUSED);
        boolean in = bool(annotations, PAUSED_SCALE_IN);
        boolean out = bool(annotations, PAUSED_SCALE_OUT);
        return paused || in || out ? new KedaPause(paused, replicas, replicasText, in, out) : null;
    }

    /** getBoolAnnotation: absent is false; Go's ParseBool words; anything else is true. */
    private static boolean bool(Map<String, String> annotations, String key) {
        if (!annotations.containsKey(key)) {
            return false;
        }
        return switch (String.valueOf(annotations.get(key))) {
            case "0", "f", "F", "false", "FALSE", "False" -> false;
            default -> true;
        };
    }

    /** In words, what KEDA does now and what that means for the imported class. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (replicas != null) {
            parts.add("paused at " + replicas + " replicas (" + PAUSED_REPLICAS + " \"" + replicas + "\"): KEDA scaled the"
                    + " workload to " + replicas + " and stopped autoscaling it");
        } else if (replicasText != null) {
            parts.add("paused (" + PAUSED_REPLICAS + " \"" + UntrustedText.line(replicasText, 40) + "\" is not a whole"
                    + " number: KEDA stops autoscaling and reports that it cannot set the count)");
        } else if (paused) {
            parts.add("paused (" + PAUSED + "): KEDA stopped autoscaling and keeps the current replicas");
        }
        if (!paused && scaleIn) {
            parts.add("scale-in paused (" + PAUSED_SCALE_IN + "): KEDA's HPA does not scale down and KEDA does not"
                    + " scale to zero");
        }
        if (!paused && scaleOut) {
            parts.add("scale-out paused (" + PAUSED_SCALE_OUT + "): KEDA's HPA does not scale up and KEDA does not"
                    + " scale from zero");
        }
        return "PAUSED in KEDA: " + String.join("; ", parts) + ". The class below is the policy KEDA runs when the"
                + " pause is lifted; until then keep it in observe mode or frozen in the console (Headroom's own changes"
                + " would go through the same " + PAUSED_REPLICAS + " annotation).";
    }

    /** A few words for a list: "paused at 3 replicas", "scale-in paused". */
    public String label() {
        if (replicas != null) {
            return "paused in KEDA at " + replicas + " replicas";
        }
        if (paused) {
            return "paused in KEDA";
        }
        return scaleIn && scaleOut ? "scale-in and scale-out paused in KEDA"
                : scaleIn ? "scale-in paused in KEDA" : "scale-out paused in KEDA";
    }
}
