package io.headroom.supervise;

import io.headroom.decision.ForecastFloor;
import io.headroom.decision.ForecastMode;
import io.headroom.decision.Observation;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Forecast floors (issue 29): capacity held ahead of a forecast rise, a concern beside {@link Pins} and
 * {@link Modes}. Per class and tick, before the class is decided, a class whose forecast mode is {@code propose}
 * gets a predictive proposal in the inbox when its {@link FloorPlanner} gives a floor above what runs that is not
 * already pending, held or rejected; in mode {@code auto} the floor is held at once; in {@code off} and
 * {@code forecast-only} nothing acts (a floor still held is cancelled). A held floor goes into the class's
 * observation ({@link Observation#withForecastFloor}) until it lapses. Every change is journaled first
 * ({@code FORECAST_FLOOR_*}); a freeze stops new floors and approvals as it stops every write.
 *
 * <p>Each class's state is an immutable {@link ClassFloor}, replaced whole; loop thread only.
 */
final class ForecastFloors {
    static final DateTimeFormatter HHMM = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());
    private static final String FROM = "from ";
    private static final String UNTIL = " until ";
    private static final String SEP = " · ";

    /**
     * A floor held for a class.
     *
     * @param proposalId the proposal it was approved from (auto floors have one of their own)
     * @param by         who holds it, in words ("approved by alice", "auto")
     */
    record Held(ForecastFloor floor, String proposalId, String by) {
    }

    /**
     * One class's forecast floors: the proposal awaiting the operator, the floor held, and the floor the operator
     * rejected (its rise is not proposed again). Each may be null.
     */
    record ClassFloor(Proposal pending, Held held, ForecastFloor rejected) {
        static final ClassFloor NONE = new ClassFloor(null, null, null);

        ClassFloor withPending(Proposal p) {
            return new ClassFloor(p, held, rejected);
        }

        ClassFloor withHeld(Held h) {
            return new ClassFloor(pending, h, rejected);
        }

        ClassFloor withRejected(ForecastFloor f) {
            return new ClassFloor(pending, held, f);
        }
    }

    private final Ledger ledger;
    private final Pins pins;
    private final Map<String, ClassFloor> floors = new HashMap<>();
    /** Set by the session (any thread), read on the loop's. */
    private volatile FloorPlanner planner = FloorPlanner.NONE;
    private long counter;

    ForecastFloors(Ledger ledger, Pins pins) {
        this.ledger = ledger;
        this.pins = pins;
    }

    void setPlanner(FloorPlanner p) {
        planner = p == null ? FloorPlanner.NONE : p;
    }

    ClassFloor of(String className) {
        return floors.getOrDefault(className, ClassFloor.NONE);
    }

    Proposal pending(String className) {
        return of(className).pending();
    }

    /** The floor held for the class, or null. */
    Held held(String className) {
        return of(className).held();
    }

    boolean owns(String proposalId) {
        return byId(proposalId) != null;
    }

    private Proposal byId(String id) {
        for (ClassFloor c : floors.values()) {
            if (c.pending() != null && c.pending().id().equals(id)) {
                return c.pending();
            }
        }
        return null;
    }

    /**
     * The class's step before it is decided: lapses and expiries, then the forecast's plan proposed or applied by
     * the class's forecast mode; answers the floor to put into its observation (null for none).
     */
    ForecastFloor beforeDecide(WorkloadClass cls, Observation obs, Instant now) {
        String name = cls.name();
        expire(name, now);
        ForecastMode mode = cls.policy().forecastMode();
        ClassFloor c = of(name);
        if (!mode.acts()) {
            if (c.pending() != null) {
                withdraw(name, now, "the class's forecast mode is now " + mode.word());
            }
            if (c.held() != null) {
                end(name, Kind.FORECAST_FLOOR_CANCELLED, now, "the class's forecast mode is now " + mode.word()
                        + ": a forecast no longer acts");
            }
            return null;
        }
        if (pins.covering(name) == null) {
            FloorPlanner.Planned plan;
            try {
                plan = planner.plan(cls, obs, now);
            } catch (RuntimeException e) {
                plan = null; // a forecast that cannot be planned proposes nothing; the reactive decision rules
            }
            consider(cls, mode, plan, obs.currentReplicas(), now);
        }
        Held h = held(name);
        return h == null ? null : h.floor();
    }

    private void consider(WorkloadClass cls, ForecastMode mode, FloorPlanner.Planned plan, int current, Instant now) {
        String name = cls.name();
        ClassFloor c = of(name);
        if (c.pending() != null && c.pending().floor().replicas() <= current) {
            withdraw(name, now, "it already runs " + current + " replicas, at least the floor of "
                    + c.pending().floor().replicas());
            c = of(name);
        }
        if (plan == null || !plan.riseAt().isAfter(now)) {
            return;
        }
        ForecastFloor f = plan.floor();
        if (f.replicas() <= current) {
            return; // never a floor at or below what runs: a forecast is no reason to scale in
        }
        if (c.held() != null && c.held().floor().overlaps(f) && c.held().floor().replicas() >= f.replicas()) {
            return;
        }
        if (c.rejected() != null && c.rejected().overlaps(f)) {
            return;
        }
        if (c.pending() != null && c.pending().floor().overlaps(f)) {
            Proposal p = c.pending();
            if (p.floor().replicas() == f.replicas() && p.from() == current) {
                return;
            }
            propose(cls, plan, current, p, now); // the forecast moved: the same proposal, revised
            return;
        }
        if (mode == ForecastMode.AUTO) {
            String id = name + "-floor-" + (++counter);
            hold(name, f, id, "auto", now);
        } else {
            propose(cls, plan, current, null, now);
        }
    }

    private void propose(WorkloadClass cls, FloorPlanner.Planned plan, int current, Proposal was, Instant now) {
        String name = cls.name();
        ForecastFloor f = plan.floor();
        String id = was != null ? was.id() : name + "-floor-" + (counter + 1);
        Proposal p = new Proposal(id, name, cls.target().context(), current, f.replicas(),
                was != null ? was.createdAt() : now, now, plan.riseAt(), plan.words(), List.of(), f);
        try {
            ledger.journal.append(ledger.record(now, Kind.FORECAST_FLOOR_PROPOSED, name).change(current, f.replicas())
                    .proposal(id).until(plan.riseAt()).reason(plan.words()).detail(detail(f, f.why())));
        } catch (JournalException e) {
            return; // not proposed: the journal's failure is in the state; the next tick tries again
        }
        if (was == null) {
            counter++;
        }
        floors.put(name, of(name).withPending(p));
        ledger.did(name, was != null ? LastAction.Kind.REVISED : LastAction.Kind.PROPOSED,
                (was != null ? "forecast floor revised: " : "forecast floor proposed: ") + words(f));
    }

    /** Holds {@code f} from now on, journaled first; false when it could not be journaled. */
    private boolean hold(String name, ForecastFloor f, String id, String by, Instant now) {
        try {
            ledger.journal.append(ledger.record(now, Kind.FORECAST_FLOOR_APPROVED, name).change(null, f.replicas())
                    .proposal(id).until(f.until()).reason(by + ": " + words(f)).detail(detail(f, f.why())));
        } catch (JournalException e) {
            return false;
        }
        floors.put(name, of(name).withHeld(new Held(f, id, by)));
        ledger.did(name, LastAction.Kind.FLOOR, "forecast floor " + (by.equals("auto") ? "applied (auto)"
                : by) + ": " + words(f));
        return true;
    }

    /** "hold 24 replicas from 08:52 until 09:15". */
    static String words(ForecastFloor f) {
        return "hold " + f.replicas() + " replicas from " + HHMM.format(f.from()) + " until " + HHMM.format(f.until());
    }

    /** The journal's detail: the floor's start and end, then the forecast in words (read back by {@link #restore}). */
    private static String detail(ForecastFloor f, String words) {
        return FROM + f.from() + UNTIL + f.until() + SEP + (words == null ? "" : words);
    }

    private void expire(String name, Instant now) {
        ClassFloor c = of(name);
        if (c.pending() != null && c.pending().expiredAt(now)) {
            withdraw(name, now, "the forecast rise at " + HHMM.format(c.pending().expiresAt())
                    + " is due and the floor was not approved");
        }
        if (c.held() != null && c.held().floor().lapsedAt(now)) {
            end(name, Kind.FORECAST_FLOOR_LAPSED, now, "the forecast floor ended at "
                    + HHMM.format(c.held().floor().until()) + ": the reactive decision alone rules again");
        }
        if (c.rejected() != null && c.rejected().lapsedAt(now)) {
            floors.put(name, of(name).withRejected(null));
        }
    }

    /** Lapses and expiries of every class (the tick's start, a command's). */
    void expire(Instant now) {
        for (String name : List.copyOf(floors.keySet())) {
            expire(name, now);
        }
    }

    /** Takes the class's predictive proposal out of the inbox, with why; withdrawn even when unjournaled. */
    void withdraw(String name, Instant now, String why) {
        Proposal p = pending(name);
        if (p == null) {
            return;
        }
        ledger.tryAppend(ledger.record(now, Kind.FORECAST_FLOOR_WITHDRAWN, name).change(p.from(), p.to())
                .proposal(p.id()).reason(why));
        ledger.did(name, LastAction.Kind.WITHDRAWN, "forecast floor " + p.to() + " withdrawn: " + why);
        floors.put(name, of(name).withPending(null));
    }

    /** A held floor ends (lapsed, cancelled); it follows from time or the operator, so it ends even unjournaled. */
    private void end(String name, Kind kind, Instant now, String why) {
        Held h = held(name);
        if (h == null) {
            return;
        }
        ledger.tryAppend(ledger.record(now, kind, name).change(h.floor().replicas(), null).proposal(h.proposalId())
                .until(h.floor().until()).reason(why));
        ledger.did(name, LastAction.Kind.FLOOR, "forecast floor " + h.floor().replicas() + " "
                + (kind == Kind.FORECAST_FLOOR_LAPSED ? "lapsed" : "cancelled") + ": " + why);
        floors.put(name, of(name).withHeld(null));
    }

    /** Approves a predictive proposal (with {@code replicas} instead of its floor when given): the floor is held. */
    Outcome approve(String proposalId, Integer replicas, String reason, Instant now) {
        Proposal p = byId(proposalId);
        if (p == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "proposal " + proposalId
                    + " is no longer pending (the rise passed, or it was withdrawn or decided)");
        }
        Freeze f = pins.covering(p.className());
        if (f != null) {
            return Outcome.refused(Outcome.Why.HELD, p.className() + " is frozen (" + f.reason() + "); unfreeze first");
        }
        ForecastFloor floor = p.floor();
        if (replicas != null) {
            if (replicas <= 0) {
                return Outcome.refused(Outcome.Why.INVALID, "a forecast floor holds at least one replica");
            }
            String why = floor.why() + (reason == null || reason.isBlank() ? "" : " (the operator chose " + replicas
                    + ": " + reason + ")");
            floor = new ForecastFloor(replicas, floor.from(), floor.until(), why);
        }
        if (!floor.until().isAfter(now)) {
            return Outcome.refused(Outcome.Why.MOVED, p.className() + ": the forecast floor's time has passed");
        }
        if (!hold(p.className(), floor, p.id(), "approved by " + ledger.user, now)) {
            return Outcome.refused(Outcome.Why.UNJOURNALED, p.className()
                    + ": forecast floor not approved: the journal cannot be written");
        }
        floors.put(p.className(), of(p.className()).withPending(null));
        return Outcome.ok(p.className() + ": forecast floor approved, " + words(floor));
    }

    /** Rejects a predictive proposal with the operator's reason; its rise is not proposed again. */
    Outcome reject(String proposalId, String reason, Instant now) {
        Proposal p = byId(proposalId);
        if (p == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "proposal " + proposalId + " is no longer pending");
        }
        try {
            ledger.journal.append(ledger.record(now, Kind.FORECAST_FLOOR_REJECTED, p.className())
                    .change(p.from(), p.to()).proposal(p.id()).until(p.floor().until()).reason(reason));
        } catch (JournalException e) {
            return Ledger.unjournaled(p.className() + ": forecast floor not rejected, ", e);
        }
        floors.put(p.className(), of(p.className()).withPending(null).withRejected(p.floor()));
        ledger.did(p.className(), LastAction.Kind.REJECTED, "rejected the forecast floor: " + words(p.floor()));
        return Outcome.ok(p.className() + ": rejected the forecast floor (" + words(p.floor()) + ")");
    }

    /** Takes a held floor away before its end (the operator's "cancel floor", an undo of its approval). */
    Outcome cancel(String className, String reason, Instant now) {
        Held h = held(className);
        if (h == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, className + " holds no forecast floor");
        }
        end(className, Kind.FORECAST_FLOOR_CANCELLED, now, "cancelled by " + ledger.user
                + (reason == null || reason.isBlank() ? "" : ": " + reason));
        // Cancelled by hand, the same rise is not proposed again.
        floors.put(className, of(className).withRejected(h.floor()));
        return Outcome.ok(className + ": forecast floor of " + h.floor().replicas() + " cancelled");
    }

    /**
     * Rebuilds pending and held floors from the journal (as pins are): what has lapsed or expired by {@code now}
     * is dropped, with a record saying so.
     */
    void restore(List<JournalRecord> records, Instant now) {
        for (JournalRecord r : records) {
            if (r.className() == null || !ledger.knows(r.className())) {
                continue;
            }
            String name = r.className();
            ClassFloor c = of(name);
            switch (r.kind()) {
                case FORECAST_FLOOR_PROPOSED -> {
                    ForecastFloor f = floor(r, r.after());
                    if (f != null && r.before() != null && r.until() != null) {
                        Proposal p = new Proposal(r.proposalId(), name, r.context(), r.before(), r.after(),
                                c.pending() != null && c.pending().id().equals(r.proposalId())
                                        ? c.pending().createdAt() : r.at(), r.at(), r.until(),
                                r.reason() == null ? words(f) : r.reason(), List.of(), f);
                        floors.put(name, c.withPending(p));
                    }
                    counter = Math.max(counter, SupervisionReplay.counterOf(r.proposalId()));
                }
                case FORECAST_FLOOR_APPROVED -> {
                    ForecastFloor f = floor(r, r.after());
                    ClassFloor next = c.pending() != null && c.pending().id().equals(r.proposalId())
                            ? c.withPending(null) : c;
                    floors.put(name, f == null ? next : next.withHeld(new Held(f, r.proposalId(), by(r.reason()))));
                    counter = Math.max(counter, SupervisionReplay.counterOf(r.proposalId()));
                }
                case FORECAST_FLOOR_REJECTED, FORECAST_FLOOR_WITHDRAWN -> {
                    if (c.pending() != null && c.pending().id().equals(r.proposalId())) {
                        floors.put(name, c.withPending(null));
                    }
                }
                case FORECAST_FLOOR_LAPSED, FORECAST_FLOOR_CANCELLED -> floors.put(name, c.withHeld(null));
                default -> {
                }
            }
        }
        for (String name : List.copyOf(floors.keySet())) {
            ClassFloor c = of(name);
            if (c.pending() != null && c.pending().expiredAt(now)) {
                withdraw(name, now, "the console was stopped until after the forecast rise at "
                        + HHMM.format(c.pending().expiresAt()));
            }
            if (c.held() != null && c.held().floor().lapsedAt(now)) {
                end(name, Kind.FORECAST_FLOOR_LAPSED, now, "the console was stopped until after the forecast floor's end at "
                        + HHMM.format(c.held().floor().until()));
            }
        }
    }

    /** The floor an approval's record holds (its start, end and the forecast's words), or null (for the timeline). */
    static ForecastFloor floorOf(JournalRecord r) {
        return floor(r, r.after());
    }

    /** The floor a record holds: its start, end and words from the detail ("from … until … · …"). */
    private static ForecastFloor floor(JournalRecord r, Integer replicas) {
        String d = r.detail();
        if (replicas == null || d == null || !d.startsWith(FROM)) {
            return null;
        }
        int u = d.indexOf(UNTIL);
        int sep = d.indexOf(SEP);
        if (u < 0 || sep < u) {
            return null;
        }
        try {
            Instant from = Instant.parse(d.substring(FROM.length(), u));
            Instant until = Instant.parse(d.substring(u + UNTIL.length(), sep));
            return until.isAfter(from) ? new ForecastFloor(replicas, from, until, d.substring(sep + SEP.length()))
                    : null;
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    private static String by(String reason) {
        if (reason == null) {
            return "approved";
        }
        int colon = reason.indexOf(": ");
        return colon < 0 ? reason : reason.substring(0, colon);
    }
}
