package io.headroom.ui.journal;

import io.headroom.cluster.TimelineEvent;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.UntrustedText;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.supervise.TeamTimeline;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

/**
 * One line of the journal window: a record of this console's journal, or a Headroom event read from
 * the cluster (written by this console before, or by another). Built off the FX thread, with the text
 * a search looks through already lower-cased.
 *
 * @param kind        the journal kind, or for a cluster event the kind its reason stands for; null when none does
 * @param kindLabel   what the Kind column says
 * @param actor       who acted
 * @param console     for a cluster event, the console that posted it; null for this console's records
 * @param record      this console's record; null for a cluster event
 * @param timelineKey what a record and the event posted for it have in common (reason, message, second); null when not posted
 */
public record JournalRow(Source source, long seq, Instant at, Kind kind, String kindLabel, String className,
                         String change, String actor, String console, String context, String reason, String detail,
                         JournalRecord record, String timelineKey, String haystack) {

    /** Where a row comes from. */
    public enum Source { LOCAL, CLUSTER }

    public boolean fromCluster() {
        return source == Source.CLUSTER;
    }

    /** A record of this console's journal. */
    public static JournalRow of(JournalRecord r) {
        String change = r.before() == null && r.after() == null ? ""
                : (r.before() == null ? "" : r.before() + " → ") + (r.after() == null ? "" : r.after());
        String cls = r.className() == null ? r.node() != null ? "node " + r.node() : "(all classes)" : r.className();
        String key = TeamTimeline.eventOf(r).map(e -> key(e.reason(), e.message(), r.at())).orElse(null);
        return new JournalRow(Source.LOCAL, r.seq(), r.at(), r.kind(), r.kind().name(), cls, change, r.user(), null,
                r.context(), nz(r.reason()), nz(r.detail()), r, key,
                haystack(r.kind().name(), cls, change, r.user(), null, r.context(), r.reason(), r.detail()));
    }

    /** A Headroom event read from the cluster; {@code classes} names the class whose workload it is on. */
    public static JournalRow of(TimelineEvent e, Map<String, WorkloadRef> classes) {
        Kind kind = KINDS.get(e.reason());
        String label = kind != null ? kind.name() : e.reason();
        String cls = classes.entrySet().stream().filter(c -> e.isOn(c.getValue())).map(Map.Entry::getKey).findFirst()
                .orElseGet(() -> e.objectName() == null ? "(cluster)" : "Node".equals(e.objectKind())
                        ? "node " + e.objectName()
                        : (e.objectKind() == null ? "" : e.objectKind() + " ") + e.namespace() + "/" + e.objectName());
        String actor = e.actor() == null ? "" : e.actor();
        String console = e.console() == null ? "another console" : e.console();
        return new JournalRow(Source.CLUSTER, 0, e.at(), kind, label, cls, "", actor, console, e.context(), "",
                e.message(), null, key(e.reason(), e.message(), e.at()),
                haystack(label + " " + e.reason() + " from the cluster", cls, "", actor, console, e.context(),
                        null, e.message()));
    }

    /** Event reason → the kind it was posted for. */
    private static final Map<String, Kind> KINDS = TeamTimeline.reasons();

    static String key(String reason, String message, Instant at) {
        return reason + "\u0000" + UntrustedText.line(message, 1000) + "\u0000" + at.getEpochSecond();
    }

    private static String haystack(String kind, String cls, String change, String actor, String console,
                                   String context, String reason, String detail) {
        StringBuilder b = new StringBuilder(128);
        for (String s : new String[] {kind, kind.replace('_', ' '), cls, change, actor, console, context, reason, detail}) {
            if (s != null) {
                b.append(s).append('\u0000');
            }
        }
        return b.toString().toLowerCase(Locale.ROOT);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
