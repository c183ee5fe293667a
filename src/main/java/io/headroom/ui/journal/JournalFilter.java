package io.headroom.ui.journal;

import io.headroom.journal.JournalRecord.Kind;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What the journal window shows, as data: a class, kinds (several at once; none: every kind), a
 * preset, a text searched case-insensitively through the row's text, actor, class and reason, a time
 * from which on, and whether the cluster's events are shown. Pure: filtering runs off the FX thread.
 *
 * @param className null for every class
 * @param since     null for all time
 */
public record JournalFilter(String className, Set<Kind> kinds, Preset preset, String text, Instant since,
                            boolean cluster) {

    /** A ready-made choice of kinds. */
    public enum Preset {
        ALL("All records"),
        OPERATOR("Operator actions"),
        AUTOMATIC("Automatic records");

        private final String label;

        Preset(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /**
     * What the console does on its own: the decisions, their scaling and its outcome, expiries, a
     * drain's steps. Every other kind is a person's act (approve, reject, override, freeze, mode, drain,
     * policy edit or save, node drain, undo…), including kinds added later, which are operators' too.
     */
    static final Set<Kind> AUTOMATIC_KINDS = EnumSet.of(Kind.PROPOSED, Kind.SUPERSEDED, Kind.WITHDRAWN, Kind.EXPIRED,
            Kind.OVERRIDE_EXPIRED, Kind.FREEZE_EXPIRED, Kind.SCALING, Kind.APPLIED, Kind.FAILED, Kind.DRAIN_UNMARKED,
            Kind.CONSOLE_OPENED, Kind.NODE_CORDONED, Kind.POD_EVICTED, Kind.EVICTION_REFUSED, Kind.DRAIN_ENDED,
            Kind.DRAIN_RESUMED, Kind.NODE_DRAIN_ENDED);

    public JournalFilter {
        kinds = kinds == null || kinds.isEmpty() ? Set.of() : Set.copyOf(kinds);
        preset = preset == null ? Preset.ALL : preset;
        text = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    }

    /** Everything. */
    public static JournalFilter all() {
        return new JournalFilter(null, Set.of(), Preset.ALL, "", null, true);
    }

    /**
     * Whether a row is a person's act: its kind is not one the console does on its own, or a drain
     * ended because someone cancelled it. A cluster event of a reason this console does not know is
     * another console's act (Headroom posts events for operators' actions).
     */
    public static boolean isOperatorAction(JournalRow r) {
        if (r.kind() == null) {
            return true;
        }
        if (r.kind() == Kind.DRAIN_ENDED || r.kind() == Kind.NODE_DRAIN_ENDED) {
            return r.reason().contains("cancelled by") || r.detail().contains("cancelled by");
        }
        return !AUTOMATIC_KINDS.contains(r.kind());
    }

    public boolean test(JournalRow r) {
        if (!cluster && r.fromCluster()) {
            return false;
        }
        if (since != null && r.at().isBefore(since)) {
            return false;
        }
        if (className != null && !className.equals(r.className())) {
            return false;
        }
        if (!kinds.isEmpty() && (r.kind() == null || !kinds.contains(r.kind()))) {
            return false;
        }
        if (preset == Preset.OPERATOR && !isOperatorAction(r) || preset == Preset.AUTOMATIC && isOperatorAction(r)) {
            return false;
        }
        return text.isEmpty() || r.haystack().contains(text);
    }
}
