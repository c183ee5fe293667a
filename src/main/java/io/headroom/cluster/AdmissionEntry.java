package io.headroom.cluster;

import io.headroom.decision.AdmissionVerdict;
import java.time.Instant;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One class's admission as producers read it (ADR 0027): the value of the class's key in the namespace's
 * {@value #CONFIG_MAP} ConfigMap. After {@code expiresAt} a producer applies its own documented default
 * (fail-open or fail-closed), so a console that stops never leaves admission closed for ever.
 *
 * @param rate      jobs/s when THROTTLE; null when OPEN (no limit); 0 when CLOSED
 * @param owner     the console that wrote it (its lease identity)
 * @param degradeTo the class producers send new work to instead while CLOSED, or null
 */
public record AdmissionEntry(String className, AdmissionVerdict.State state, Double rate, String reason,
                             Instant decidedAt, Instant expiresAt, String owner, String degradeTo) {

    /** The ConfigMap producers watch, one per namespace. */
    public static final String CONFIG_MAP = "headroom-admission";
    /** A ConfigMap key's characters (the API server's rule): a class whose name has others is not published. */
    private static final Pattern KEY = Pattern.compile("[-._a-zA-Z0-9]{1,253}");

    public AdmissionEntry {
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(decidedAt, "decidedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        reason = reason == null ? "" : reason;
        owner = owner == null ? "" : owner;
    }

    /** The verdict as published, decided at {@code at}, valid until {@code expiresAt}. */
    public static AdmissionEntry of(String className, AdmissionVerdict v, Instant at, Instant expiresAt, String owner) {
        Double rate = switch (v.state()) {
            case OPEN -> null;
            case THROTTLE -> v.rate();
            case CLOSED -> 0.0;
        };
        return new AdmissionEntry(className, v.state(), rate, v.reason(), at, expiresAt, owner, v.degradeTo());
    }

    /** OPEN, decided by the operator at {@code at} (the exit's "set OPEN"). */
    public static AdmissionEntry open(String className, String reason, Instant at, Instant expiresAt, String owner) {
        return new AdmissionEntry(className, AdmissionVerdict.State.OPEN, null, reason, at, expiresAt, owner, null);
    }

    /** The same entry, expiring at {@code at} (the exit's "expire now"). */
    public AdmissionEntry expiringAt(Instant at) {
        return new AdmissionEntry(className, state, rate, reason, decidedAt, at, owner, degradeTo);
    }

    /** Why an entry read as decided at {@code readAsDecidedAt} is not written over: this one was written since. */
    public String changedSince(Instant readAsDecidedAt) {
        return "the admission of " + className + " was written again since it was read (then decided at "
                + readAsDecidedAt + "; now " + label() + " decided at " + decidedAt + " by " + owner + ", until "
                + expiresAt + "): left as it is";
    }

    /** True once producers no longer trust it. */
    public boolean expired(Instant now) {
        return !now.isBefore(expiresAt);
    }

    /** True when a class name can be a ConfigMap key. */
    public static boolean validKey(String className) {
        return className != null && KEY.matcher(className).matches();
    }

    /** "THROTTLE 2.5/s until 10:01:00Z", for the operator. */
    public String label() {
        return state + (state == AdmissionVerdict.State.THROTTLE ? " " + io.headroom.decision.Figures.fmt(rate) + "/s"
                : "") + (degradeTo != null ? " → " + degradeTo : "");
    }
}
