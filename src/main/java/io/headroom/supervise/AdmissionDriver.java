package io.headroom.supervise;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.AdmissionWrite;
import io.headroom.cluster.ClusterPorts;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.AdmissionRule;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.decision.Decision;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import io.headroom.cluster.AdmissionRefresh;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Admission, actuated (design.md §2b): per class per tick the pure {@link AdmissionRule} decides, and what it
 * decides is published for producers through the same path as a scale. Observe mode shows it only; in
 * supervised mode a tightening (OPEN → THROTTLE → CLOSED, or a lower rate) is a proposal the operator approves
 * or rejects while what is published stays (refreshed); a loosening applies, as does everything in auto mode.
 * A change is journaled before it is written ({@code ADMISSION_PUBLISHING}) and after
 * ({@code ADMISSION_PUBLISHED} or {@code ADMISSION_FAILED}, posted on the team timeline); the refresh of an
 * unchanged entry (its {@code expiresAt} moved on each tick) is not journaled, and is written at the tick's end,
 * one write per namespace carrying every refreshed class's key ({@link #flush}). A freeze stops every write
 * (checked here, and by the gate for a freeze set meanwhile): what was published then expires, and producers
 * apply their own default. State lives on the loop's thread; {@link #view} is read from any thread.
 */
final class AdmissionDriver {
    /** The shortest time an entry stays valid: a console that stops leaves admission to producers within it. */
    static final Duration MIN_TTL = Duration.ofSeconds(60);

    private final Ledger ledger;
    private final ClusterPorts writes;
    private final Modes modes;
    private final Pins pins;
    private volatile Map<String, AdmissionPolicy> policies = Map.of();
    private final Map<String, ClassAdmission> views = new ConcurrentHashMap<>();
    private final Map<String, AdmissionVerdict> rejected = new ConcurrentHashMap<>();
    /** Why a class's last refresh was not written (the lease lost, the API server refused), while it was not. */
    private final Map<String, String> refreshProblems = new ConcurrentHashMap<>();
    private int counter;
    /** Tightenings proposed before a restart and not answered, until their class's first tick ({@link #restore}). */
    private final Map<String, ClassAdmission.Pending> restored = new ConcurrentHashMap<>();
    /** This tick's refreshes, written together per namespace at its end ({@link #flush}); loop thread. */
    private final Map<String, Queued> queued = new LinkedHashMap<>();

    /** A class's refresh waiting for the tick's end: what producers read now, the same for another TTL, the note. */
    private record Queued(WorkloadClass cls, AdmissionEntry old, AdmissionEntry again, String note) {
    }

    AdmissionDriver(Ledger ledger, ClusterPorts writes, Modes modes, Pins pins) {
        this.ledger = ledger;
        this.writes = writes;
        this.modes = modes;
        this.pins = pins;
    }

    void setPolicies(Map<String, AdmissionPolicy> byClass) {
        policies = Map.copyOf(byClass);
    }

    AdmissionPolicy policy(String className) {
        return policies.getOrDefault(className, AdmissionPolicy.DEFAULT);
    }

    /** How long an entry written now stays valid: three polls, at least {@link #MIN_TTL}. */
    static Duration ttl(WorkloadClass cls) {
        Duration three = Duration.ofMillis(Math.round(cls.policy().pollIntervalSeconds() * 3000));
        return three.compareTo(MIN_TTL) < 0 ? MIN_TTL : three;
    }

    ClassAdmission view(String className) {
        return views.get(className);
    }

    Map<String, ClassAdmission> views() {
        return Map.copyOf(views);
    }

    /** One class's tick (loop thread): decide, then show, propose, refresh or publish by mode. */
    void tick(WorkloadClass cls, Decision d, Instant now) {
        String name = cls.name();
        AdmissionPolicy ap = policy(name);
        AdmissionVerdict v = AdmissionRule.decide(d, cls.policy(), ap);
        ClassAdmission before = views.get(name);
        AdmissionEntry published = before == null ? found(cls, ap, now) : before.published();
        ClassAdmission.Pending pending = before == null ? restored.remove(name) : before.pending();
        if (!ap.publish()) {
            views.put(name, new ClassAdmission(name, ap, v, null, null, "shown only: the class has no admission block"));
            return;
        }
        Mode mode = modes.of(name);
        if (mode == Mode.OBSERVE) {
            views.put(name, new ClassAdmission(name, ap, v, published, null, "observe mode: shown, not written"));
            return;
        }
        Freeze f = pins.covering(name);
        if (f != null) {
            views.put(name, new ClassAdmission(name, ap, v, published, pending, "frozen (" + f.reason()
                    + "): not written; producers apply their default once it expires"));
            return;
        }
        AdmissionVerdict shown = verdict(published);
        if (mode == Mode.SUPERVISED && v.tighterThan(shown)) {
            AdmissionVerdict no = rejected.get(name);
            if (no != null && no.sameAs(v)) {
                refresh(cls, ap, v, published, null, "the operator rejected this tightening", now);
                return;
            }
            if (pending == null || !pending.verdict().sameAs(v)) {
                String id = "a-" + (++counter);
                if (!ledger.tryAppend(ledger.record(now, Kind.ADMISSION_PROPOSED, name).reason(words(v))
                        .detail(AdmissionProposals.detail(v)).proposal(id))) {
                    views.put(name, new ClassAdmission(name, ap, v, published, null,
                            "not proposed: the journal cannot be written"));
                    return;
                }
                pending = new ClassAdmission.Pending(id, v, now);
            }
            refresh(cls, ap, v, published, pending, "a tightening awaits approval", now);
            return;
        }
        rejected.remove(name);
        if (shown != null && v.sameAs(shown)) {
            refresh(cls, ap, v, published, null, "", now);
            return;
        }
        publish(cls, v, now, null, mode == Mode.AUTO ? "auto" : "a loosening applies");
    }

    /**
     * On a class's first tick, what producers read already (a console before this one, or this one before a
     * restart), so that tightening and loosening are judged against it; none when expired or unreadable.
     */
    private AdmissionEntry found(WorkloadClass cls, AdmissionPolicy ap, Instant now) {
        if (!ap.publish()) {
            return null;
        }
        try {
            return writes.admissions().published(cls.target(), cls.name()).filter(e -> !e.expired(now)).orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Before the loop starts: the tightenings proposed before a restart that were neither approved, rejected nor
     * superseded awaiting the operator again under their ids, and the numbering of proposals going on after the
     * highest id journaled. Returns what the operator should know (one that cannot be read back is dropped, said).
     */
    List<String> restore(List<io.headroom.journal.JournalRecord> records) {
        AdmissionProposals.Restored r = AdmissionProposals.restore(records);
        counter = Math.max(counter, r.counter());
        r.pending().forEach((cls, p) -> {
            if (ledger.knows(cls)) {
                restored.put(cls, p);
            }
        });
        return r.warnings();
    }

    /** Approves a pending tightening: it is published now (loop thread). */
    Outcome approve(String className, Instant now) {
        ClassAdmission c = views.get(className);
        if (c == null || c.pending() == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "no admission change of " + className + " awaits approval");
        }
        Freeze f = pins.covering(className);
        if (f != null) {
            return Outcome.refused(Outcome.Why.HELD, className + " is frozen (" + f.reason() + "): admission not written");
        }
        WorkloadClass cls = ledger.cls(className);
        AdmissionWrite w = publish(cls, c.pending().verdict(), now, c.pending().id(), "approved by " + ledger.user);
        return w.ok() ? Outcome.ok(className + ": admission " + c.pending().verdict().label())
                : Outcome.failed(className + ": " + w.message());
    }

    /** Rejects a pending tightening: journaled, and the same verdict is not proposed again while it stands. */
    Outcome reject(String className, String reason, Instant now) {
        ClassAdmission c = views.get(className);
        if (c == null || c.pending() == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "no admission change of " + className + " awaits approval");
        }
        try {
            ledger.journal.append(ledger.record(now, Kind.ADMISSION_REJECTED, className)
                    .reason(reason == null || reason.isBlank() ? words(c.pending().verdict()) : reason)
                    .proposal(c.pending().id()));
        } catch (JournalException e) {
            return Ledger.unjournaled("not rejected: ", e);
        }
        rejected.put(className, c.pending().verdict());
        views.put(className, new ClassAdmission(className, c.policy(), c.decided(), c.published(), null,
                "the operator rejected this tightening"));
        return Outcome.ok(className + ": admission stays " + (c.published() == null ? "as producers default"
                : c.published().label()));
    }

    /** A change: journaled before and after, written through the gate. */
    private AdmissionWrite publish(WorkloadClass cls, AdmissionVerdict v, Instant now, String proposalId, String why) {
        String name = cls.name();
        AdmissionPolicy ap = policy(name);
        ClassAdmission before = views.get(name);
        AdmissionEntry old = before == null ? null : before.published();
        AdmissionEntry entry = AdmissionEntry.of(name, v, now, now.plus(ttl(cls)), ledger.user);
        try {
            ledger.journal.append(ledger.record(now, Kind.ADMISSION_PUBLISHING, name).reason(words(v))
                    .detail(why).proposal(proposalId).until(entry.expiresAt()));
        } catch (JournalException e) {
            views.put(name, new ClassAdmission(name, ap, v, old, null, "not written: " + Ledger.unjournaled(e)));
            return AdmissionWrite.refused(Ledger.unjournaled(e));
        }
        AdmissionWrite w;
        try {
            w = writes.admissions().publish(cls.target(), entry);
        } catch (RuntimeException e) {
            w = AdmissionWrite.failed(String.valueOf(e.getMessage()));
        }
        ledger.tryAppend(ledger.record(now, w.ok() ? Kind.ADMISSION_PUBLISHED : Kind.ADMISSION_FAILED, name)
                .reason(words(v)).detail(w.ok() ? why : w.message()).proposal(proposalId).until(entry.expiresAt()));
        views.put(name, new ClassAdmission(name, ap, v, w.ok() ? entry : old, null, w.ok() ? "" : w.message()));
        return w;
    }

    /**
     * Shows the class with what producers read now and queues its refresh: the unchanged entry, valid for another
     * TTL from now (not journaled: nothing changed for producers), written at the tick's end ({@link #flush}).
     */
    private void refresh(WorkloadClass cls, AdmissionPolicy ap, AdmissionVerdict v, AdmissionEntry published,
                         ClassAdmission.Pending pending, String note, Instant now) {
        String name = cls.name();
        if (published == null) {
            refreshProblems.remove(name);
            views.put(name, new ClassAdmission(name, ap, v, null, pending, note));
            return;
        }
        AdmissionEntry again = new AdmissionEntry(published.className(), published.state(), published.rate(),
                published.reason(), now, now.plus(ttl(cls)), published.owner(), published.degradeTo());
        views.put(name, new ClassAdmission(name, ap, v, published, pending, noted(name, note)));
        queued.put(name, new Queued(cls, published, again, note));
    }

    /**
     * Writes the tick's refreshes (loop thread, at the tick's end): one write per namespace carrying every
     * refreshed class's key, each workload's lease checked before it; each class then shows what producers read
     * (the old entry, and why, when its refresh was not written).
     */
    void flush() {
        if (queued.isEmpty()) {
            return;
        }
        Map<List<String>, List<Queued>> byNamespace = new LinkedHashMap<>();
        queued.values().forEach(q -> byNamespace.computeIfAbsent(List.of(q.cls().target().context(),
                q.cls().target().namespace()), k -> new ArrayList<>()).add(q));
        queued.clear();
        byNamespace.forEach((where, qs) -> {
            Map<String, AdmissionWrite> written;
            try {
                written = writes.admissions().refresh(where.get(0), where.get(1),
                        qs.stream().map(q -> new AdmissionRefresh(q.cls().target(), q.again())).toList());
            } catch (RuntimeException e) {
                written = Map.of();
                qs.forEach(q -> refreshProblems.put(q.cls().name(), "not refreshed: " + e.getMessage()));
            }
            for (Queued q : qs) {
                String name = q.cls().name();
                AdmissionWrite w = written.get(name);
                if (w != null && w.ok()) {
                    refreshProblems.remove(name);
                } else if (w != null) {
                    refreshProblems.put(name, "not refreshed: " + w.message());
                }
                ClassAdmission c = views.get(name);
                if (c != null && c.published() == q.old()) {
                    views.put(name, new ClassAdmission(name, c.policy(), c.decided(), w != null && w.ok() ? q.again()
                            : q.old(), c.pending(), noted(name, q.note())));
                }
            }
        });
    }

    /** {@code note}, with why the last refresh was not written when it was not. */
    private String noted(String className, String note) {
        String problem = refreshProblems.get(className);
        return problem == null ? note : note.isEmpty() ? problem : note + "; " + problem;
    }

    /** What a published entry says, as a verdict (null for none). */
    static AdmissionVerdict verdict(AdmissionEntry e) {
        if (e == null) {
            return null;
        }
        return new AdmissionVerdict(e.state(), e.rate() == null ? Double.NaN : e.rate(), e.reason(), e.degradeTo(),
                0, Double.NaN);
    }

    private static String words(AdmissionVerdict v) {
        return v.label() + ": " + v.reason();
    }
}
