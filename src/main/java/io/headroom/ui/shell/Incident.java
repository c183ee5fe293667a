package io.headroom.ui.shell;

import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Freeze;
import io.headroom.supervise.Mode;
import io.headroom.supervise.SupervisionState;
import io.headroom.ui.Format;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One standing state that changes how the console acts until it ends: a freeze, an override
 * (pin), a drain or auto mode. Plain data read from a {@link SupervisionState}; the banner, the
 * event list and the expiry notification all read it.
 *
 * @param className null for the global freeze
 * @param by        who set it, or null when the state does not say (drains, modes)
 * @param until     when it ends by itself (freeze, override, a drain's deadline), or null (auto mode)
 * @param detail    what it does in a few words ("pinned to 10", "draining 6 → 5")
 */
public record Incident(Kind kind, String className, String by, String reason, Instant since, Instant until,
                       String detail) {

    /** What kind of state, worst first: the banner shows them in this order. */
    public enum Kind { FREEZE_ALL, FREEZE, OVERRIDE, DRAIN, AUTO,
        /** A forecast floor held (issue 29): at least so many replicas until its end, approved or auto. */
        FLOOR }

    private static final java.time.format.DateTimeFormatter HHMM = java.time.format.DateTimeFormatter
            .ofPattern("HH:mm").withZone(java.time.ZoneId.systemDefault());

    /** Identifies the state across snapshots: the same freeze of the same class is the same incident. */
    public String key() {
        return kind + ":" + (className == null ? "*" : className);
    }

    /** The chip at the start of the banner's line. */
    public String tag() {
        return switch (kind) {
            case FREEZE_ALL, FREEZE -> "FROZEN";
            case OVERRIDE -> "PINNED";
            case DRAIN -> "DRAINING";
            case AUTO -> "AUTO";
            case FLOOR -> "FLOOR";
        };
    }

    /** "everything" or the class's name. */
    public String subject() {
        return className == null ? "every class" : className;
    }

    /** What the lift button says. */
    public String liftLabel() {
        return switch (kind) {
            case FREEZE_ALL -> "Unfreeze all";
            case FREEZE -> "Unfreeze";
            case OVERRIDE -> "Clear override";
            case DRAIN -> "Cancel drain";
            case AUTO -> "Back to supervised";
            case FLOOR -> "Cancel floor";
        };
    }

    /** "12m 03s left", "ends now", or empty when it does not end by itself. */
    public String countdown(Instant now) {
        if (until == null) {
            return "";
        }
        long s = Duration.between(now, until).toSeconds();
        return s <= 0 ? "ends now" : Format.duration(s) + " left";
    }

    /** One line: "FROZEN every class · incident 4711 · by alice · until 13:49 · 12m 03s left". */
    public String line(Instant now, java.util.function.Function<Instant, String> clockTime) {
        List<String> parts = new ArrayList<>();
        parts.add(tag() + " " + subject());
        if (detail != null && !detail.isEmpty()) {
            parts.add(detail);
        }
        if (reason != null && !reason.isEmpty()) {
            parts.add("“" + reason + "”");
        }
        if (by != null && !by.isEmpty()) {
            parts.add("by " + by);
        }
        if (until != null) {
            parts.add("until " + clockTime.apply(until) + " (" + countdown(now) + ")");
        }
        return String.join(" · ", parts);
    }

    /** True when the state ran out by itself at {@code now} rather than being lifted (auto mode never runs out). */
    public boolean expiredAt(Instant now) {
        return until != null && kind != Kind.DRAIN && !now.isBefore(until);
    }

    /** Every standing incident of a snapshot, worst first (global freeze, freezes, pins, drains, auto), then by class. */
    public static List<Incident> of(SupervisionState s) {
        List<Incident> out = new ArrayList<>();
        if (s == null) {
            return out;
        }
        Freeze all = s.freezeAll();
        if (all != null) {
            out.add(new Incident(Kind.FREEZE_ALL, null, all.by(), all.reason(), all.since(), all.until(),
                    "no scaling anywhere"));
        }
        for (ClassSupervision c : s.classes().values()) {
            if (c.freeze() != null) {
                Freeze f = c.freeze();
                out.add(new Incident(Kind.FREEZE, c.className(), f.by(), f.reason(), f.since(), f.until(), ""));
            }
            if (c.override() != null) {
                var o = c.override();
                out.add(new Incident(Kind.OVERRIDE, c.className(), o.by(), o.reason(), o.since(), o.until(),
                        "pinned to " + o.replicas()));
            }
            if (c.draining()) {
                var d = c.drain();
                out.add(new Incident(Kind.DRAIN, c.className(), null, null, d.startedAt(), d.deadline(),
                        d.change()));
            }
            if (c.mode() == Mode.AUTO) {
                out.add(new Incident(Kind.AUTO, c.className(), null, null, null, null, "acts without asking"));
            }
            if (c.floor() != null) {
                var f = c.floor();
                // Who holds it is said whole ("approved by alice", "auto"), not as a "by" of its own.
                out.add(new Incident(Kind.FLOOR, c.className(), null, null, f.from(), f.until(),
                        "forecast floor " + f.replicas() + " from " + HHMM.format(f.from()) + " ("
                                + (c.floorBy() == null ? "held" : c.floorBy()) + ")"));
            }
        }
        out.sort(Comparator.comparing(Incident::kind)
                .thenComparing(i -> i.className() == null ? "" : i.className()));
        return out;
    }
}
