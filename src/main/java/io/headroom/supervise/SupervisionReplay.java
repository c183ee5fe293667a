package io.headroom.supervise;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.loop.WorkloadClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Supervised mode's state rebuilt from the journal, as a pure fold: modes, freezes, overrides,
 * pending proposals, drains started and never ended, the id counters, and what could not be
 * trusted (the journal's own warnings, a scale or a hand-back whose outcome was never written). What has
 * expired by {@code now} is dropped. Records of other clusters are skipped.
 */
final class SupervisionReplay {

    /** One class as the journal left it. */
    record ClassState(Mode mode, Freeze freeze, ReplicaOverride override, Proposal proposal,
                      List<Unfinished> orphanDrains) {
        ClassState {
            orphanDrains = List.copyOf(orphanDrains);
        }
    }

    /**
     * A drain the journal started and never ended (the console stopped mid-drain): its {@code DRAIN_STARTED} and
     * what it did since, in order ({@link JournalRecord.Kind#drainProgress}): how far it got.
     */
    record Unfinished(JournalRecord started, List<JournalRecord> since) {
        Unfinished {
            since = List.copyOf(since);
        }

        String id() {
            return started.proposalId();
        }
    }

    /** Everything restored. */
    record Restored(Freeze freezeAll, Map<String, ClassState> classes, long proposalCounter, long drainCounter,
                    List<String> warnings) {
        Restored {
            classes = Map.copyOf(classes);
            warnings = List.copyOf(warnings);
        }
    }

    private static final class Building {
        Mode mode = Mode.SUPERVISED;
        Freeze freeze;
        ReplicaOverride override;
        Proposal proposal;
        /** Drain id → its start and the records of it since. */
        final Map<String, List<JournalRecord>> orphanDrains = new LinkedHashMap<>();
        JournalRecord scaling;
        JournalRecord handingBack;
    }

    private SupervisionReplay() {
    }

    /**
     * @param classes        the classes supervised now (records of others are skipped)
     * @param clusterContext the context records without a class of their own name (a global freeze)
     */
    static Restored replay(Journal.Replay replay, Map<String, WorkloadClass> classes, String clusterContext,
                           Instant now) {
        Map<String, Building> b = new LinkedHashMap<>();
        classes.keySet().forEach(n -> b.put(n, new Building()));
        Freeze freezeAll = null;
        long proposals = 0;
        long drains = 0;
        List<String> warnings = new ArrayList<>(replay.warnings());
        for (JournalRecord r : replay.records()) {
            if (!ours(r, classes, clusterContext)) {
                continue;
            }
            Building s = r.className() == null ? null : b.get(r.className());
            List<JournalRecord> open = s == null || r.proposalId() == null ? null : s.orphanDrains.get(r.proposalId());
            if (open != null && JournalRecord.Kind.drainProgress(r.kind())) {
                open.add(r);
            }
            switch (r.kind()) {
                case FROZEN -> {
                    Freeze f = new Freeze(r.reason(), r.until(), r.user(), r.at());
                    if (r.className() == null) {
                        freezeAll = f;
                    } else if (s != null) {
                        s.freeze = f;
                    }
                }
                case UNFROZEN, FREEZE_EXPIRED -> {
                    if (r.className() == null) {
                        freezeAll = null;
                    } else if (s != null) {
                        s.freeze = null;
                    }
                }
                case OVERRIDE_SET -> {
                    if (s != null && r.after() != null) {
                        s.override = new ReplicaOverride(r.after(), r.until(), r.reason(), r.user(), r.at());
                    }
                }
                case OVERRIDE_CLEARED, OVERRIDE_EXPIRED -> {
                    if (s != null) {
                        s.override = null;
                    }
                }
                case MODE_CHANGED -> {
                    if (s != null && r.detail() != null) {
                        try {
                            s.mode = Mode.valueOf(r.detail());
                        } catch (IllegalArgumentException e) {
                            warnings.add("record " + r.seq() + ": unknown mode " + r.detail() + "; kept "
                                    + s.mode.name().toLowerCase());
                        }
                    }
                }
                case PROPOSED, SUPERSEDED -> {
                    if (s != null && r.before() != null && r.after() != null) {
                        s.proposal = new Proposal(r.proposalId(), r.className(), r.context(), r.before(), r.after(),
                                s.proposal != null && s.proposal.id().equals(r.proposalId())
                                        ? s.proposal.createdAt() : r.at(),
                                r.at(), r.until(), r.detail() == null ? "" : r.detail(), List.of());
                        proposals = Math.max(proposals, counterOf(r.proposalId()));
                    }
                }
                case APPROVED, REJECTED, WITHDRAWN, EXPIRED -> {
                    if (s != null && s.proposal != null && s.proposal.id().equals(r.proposalId())) {
                        s.proposal = null;
                    }
                }
                case DRAIN_STARTED -> {
                    if (s != null && r.proposalId() != null) {
                        s.orphanDrains.put(r.proposalId(), new ArrayList<>(List.of(r)));
                        drains = Math.max(drains, drainNumber(r.proposalId()));
                    }
                }
                case DRAIN_ENDED -> {
                    if (s != null) {
                        s.orphanDrains.remove(r.proposalId());
                    }
                }
                case SCALING -> {
                    if (s != null) {
                        s.scaling = r;
                    }
                }
                case APPLIED, FAILED -> {
                    if (s != null) {
                        s.scaling = null;
                    }
                }
                case HANDING_BACK -> {
                    if (s != null && r.node() == null) {
                        s.handingBack = r;
                    }
                }
                case HANDED_BACK, HAND_BACK_REFUSED -> {
                    if (s != null) {
                        s.handingBack = null;
                    }
                }
                default -> {
                }
            }
        }
        Map<String, ClassState> out = new LinkedHashMap<>();
        for (Map.Entry<String, Building> e : b.entrySet()) {
            Building s = e.getValue();
            if (s.scaling != null) {
                JournalRecord r = s.scaling;
                warnings.add(e.getKey() + ": the console stopped while scaling " + r.before() + " → " + r.after()
                        + " (record " + r.seq() + "); whether the write happened was never journaled, the"
                        + " workload's replicas say");
            }
            if (s.handingBack != null) {
                warnings.add(e.getKey() + ": the console stopped while handing it back (record " + s.handingBack.seq()
                        + "); whether the cluster took it back was never journaled: its holds stay as journaled, and any"
                        + " pause left on the cluster is offered at start");
            }
            out.put(e.getKey(), new ClassState(s.mode, s.freeze == null || !s.freeze.activeAt(now) ? null : s.freeze,
                    s.override == null || !s.override.activeAt(now) ? null : s.override,
                    s.proposal == null || s.proposal.expiredAt(now) ? null : s.proposal,
                    s.orphanDrains.values().stream().map(l -> new Unfinished(l.get(0), l.subList(1, l.size()))).toList()));
        }
        return new Restored(freezeAll == null || !freezeAll.activeAt(now) ? null : freezeAll, out, proposals, drains,
                warnings);
    }

    /** A record of this console's clusters: its class's own context, or the session's. */
    private static boolean ours(JournalRecord r, Map<String, WorkloadClass> classes, String clusterContext) {
        if (r.context() == null || clusterContext.equals(r.context())) {
            return true;
        }
        WorkloadClass c = r.className() == null ? null : classes.get(r.className());
        return c != null && c.target().context().equals(r.context());
    }

    /** N of "class-drain-N-tag". */
    static long drainNumber(String id) {
        String[] parts = id.split("-");
        for (int i = parts.length - 1; i > 0; i--) {
            if (parts[i - 1].equals("drain")) {
                try {
                    return Long.parseLong(parts[i]);
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    /** N of "class-N". */
    static long counterOf(String id) {
        if (id == null) {
            return 0;
        }
        int dash = id.lastIndexOf('-');
        try {
            return Long.parseLong(id.substring(dash + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
