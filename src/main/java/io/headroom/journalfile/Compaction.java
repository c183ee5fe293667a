package io.headroom.journalfile;

import io.headroom.journal.JournalRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which records still shape the console's state, so a snapshot can keep those and forget the
 * rest. Per cluster context and class (null: everything): the freeze not yet lifted or expired,
 * the override not yet cleared, the last mode change, the last proposal (as proposed, as last
 * revised, and how it was decided: the ids go on from it), every drain not yet ended with what it did since it
 * started ({@link JournalRecord.Kind#drainProgress}: how far a replacement got, for the next console to take it
 * up), the last drain that ended (drain ids go on from it), and a scale or a hand-back whose outcome was never
 * journaled. Replaying
 * these in order leaves the same state as replaying everything; the supervisor's tests check it.
 */
final class Compaction {
    private record Key(String context, String className) {
    }

    private static final class Kept {
        Line freeze;
        Line override;
        Line mode;
        String proposalId;
        Line proposed;
        Line revised;
        Line decided;
        /** Per drain not yet ended: its start and every record of it since. */
        final Map<String, List<Line>> openDrains = new LinkedHashMap<>();
        Line lastDrainStart;
        Line lastDrainEnd;
        Line scaling;
        Line handingBack;
        /** The forecast floor awaiting the operator, and the one held (issue 29): what a restart restores. */
        Line floorProposed;
        Line floorHeld;

        void addTo(List<Line> out) {
            for (Line l : new Line[] {freeze, override, mode, proposed, revised, decided, lastDrainStart, lastDrainEnd,
                    scaling, handingBack, floorProposed, floorHeld}) {
                if (l != null) {
                    out.add(l);
                }
            }
            openDrains.values().forEach(out::addAll);
        }
    }

    private final Map<Key, Kept> keys = new LinkedHashMap<>();

    void add(Line line) {
        JournalRecord r = line.record();
        Kept k = keys.computeIfAbsent(new Key(r.context(), r.className()), x -> new Kept());
        List<Line> open = r.proposalId() == null ? null : k.openDrains.get(r.proposalId());
        if (open != null && JournalRecord.Kind.drainProgress(r.kind())) {
            open.add(line);
        }
        switch (r.kind()) {
            case FROZEN -> k.freeze = line;
            case UNFROZEN, FREEZE_EXPIRED -> k.freeze = null;
            case OVERRIDE_SET -> k.override = line;
            case OVERRIDE_CLEARED, OVERRIDE_EXPIRED -> k.override = null;
            case MODE_CHANGED -> k.mode = line;
            case PROPOSED -> {
                k.proposalId = r.proposalId();
                k.proposed = line;
                k.revised = null;
                k.decided = null;
            }
            case SUPERSEDED -> {
                if (!Objects.equals(k.proposalId, r.proposalId())) {
                    k.proposalId = r.proposalId();
                    k.proposed = null;
                    k.decided = null;
                }
                k.revised = line;
            }
            case APPROVED, REJECTED, WITHDRAWN, EXPIRED -> {
                if (Objects.equals(k.proposalId, r.proposalId())) {
                    k.decided = line;
                }
            }
            case DRAIN_STARTED -> k.openDrains.put(String.valueOf(r.proposalId()), new ArrayList<>(List.of(line)));
            case DRAIN_ENDED -> {
                List<Line> ended = k.openDrains.remove(String.valueOf(r.proposalId()));
                if (ended != null) {
                    k.lastDrainStart = ended.get(0);
                    k.lastDrainEnd = line;
                }
            }
            case SCALING -> k.scaling = line;
            case APPLIED, FAILED -> k.scaling = null;
            case HANDING_BACK -> k.handingBack = r.node() == null ? line : k.handingBack;
            case HANDED_BACK, HAND_BACK_REFUSED -> k.handingBack = null;
            case FORECAST_FLOOR_PROPOSED -> k.floorProposed = line;
            case FORECAST_FLOOR_REJECTED, FORECAST_FLOOR_WITHDRAWN -> {
                if (k.floorProposed != null && Objects.equals(k.floorProposed.record().proposalId(), r.proposalId())) {
                    k.floorProposed = null;
                }
            }
            case FORECAST_FLOOR_APPROVED -> {
                k.floorHeld = line;
                if (k.floorProposed != null && Objects.equals(k.floorProposed.record().proposalId(), r.proposalId())) {
                    k.floorProposed = null;
                }
            }
            case FORECAST_FLOOR_LAPSED, FORECAST_FLOOR_CANCELLED -> k.floorHeld = null;
            default -> {
                // history only (DRAIN_UNMARKED): nothing to restore
            }
        }
    }

    /** The records to keep, in journal order. */
    List<Line> live() {
        List<Line> out = new ArrayList<>();
        for (Kept k : keys.values()) {
            k.addTo(out);
        }
        out.sort(Comparator.comparingLong(l -> l.record().seq()));
        return out;
    }
}
