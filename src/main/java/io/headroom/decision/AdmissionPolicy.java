package io.headroom.decision;

import java.util.Locale;
import java.util.Objects;

/**
 * A class's admission choices (the workloads file's {@code admission:} block, design.md §2b): whether its
 * decision is published where producers read it, and what admission says while telemetry is missing.
 *
 * @param publish            true to write the class's admission for producers (a ConfigMap, ADR 0027); false
 *                           (the default, and every class without an {@code admission:} block) to compute
 *                           and show it only
 * @param onMissingTelemetry what admission says while a required input is missing
 * @param degradeTo          the cheaper class new work goes to under {@link OnMissing#DEGRADE}, else null
 */
public record AdmissionPolicy(boolean publish, OnMissing onMissingTelemetry, String degradeTo) {

    /**
     * CLOSE: stop new work; CONSERVATIVE (the default): throttle to what the ready replicas serve at the
     * target utilisation with the last known service time; DEGRADE: close this class and name the class
     * producers send new work to instead.
     */
    public enum OnMissing { CLOSE, CONSERVATIVE, DEGRADE }

    /** A class with no {@code admission:} block: computed and shown, not published; conservative. */
    public static final AdmissionPolicy DEFAULT = new AdmissionPolicy(false, OnMissing.CONSERVATIVE, null);

    public AdmissionPolicy {
        Objects.requireNonNull(onMissingTelemetry, "onMissingTelemetry");
        if (onMissingTelemetry == OnMissing.DEGRADE && (degradeTo == null || degradeTo.isBlank())) {
            throw new IllegalArgumentException("degrade needs the class to degrade to, e.g. degrade:batch-cheap");
        }
        if (onMissingTelemetry != OnMissing.DEGRADE) {
            degradeTo = null;
        }
    }

    /**
     * Reads {@code close}, {@code conservative} or {@code degrade:<class>} (case-insensitive keyword).
     *
     * @throws IllegalArgumentException naming what is accepted
     */
    public static AdmissionPolicy onMissing(boolean publish, String text) {
        String t = text == null ? "" : text.trim();
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.equals("close")) {
            return new AdmissionPolicy(publish, OnMissing.CLOSE, null);
        }
        if (lower.equals("conservative")) {
            return new AdmissionPolicy(publish, OnMissing.CONSERVATIVE, null);
        }
        if (lower.startsWith("degrade:") && t.length() > "degrade:".length()) {
            return new AdmissionPolicy(publish, OnMissing.DEGRADE, t.substring("degrade:".length()).trim());
        }
        throw new IllegalArgumentException("must be close, conservative or degrade:<class>, got \"" + t + "\"");
    }

    /** The file's words for the choice: {@code close}, {@code conservative}, {@code degrade:<class>}. */
    public String onMissingText() {
        return onMissingTelemetry == OnMissing.DEGRADE ? "degrade:" + degradeTo
                : onMissingTelemetry.name().toLowerCase(Locale.ROOT);
    }
}
