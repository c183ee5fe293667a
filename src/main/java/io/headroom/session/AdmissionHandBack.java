package io.headroom.session;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.AdmissionWrite;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.ClassAdmission;
import io.headroom.supervise.Supervisor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Admission handed back when the console exits (design.md §2b, ADR 0027): every class whose admission this
 * console published and that has not yet expired is offered, and each is either expired now (producers apply
 * their own default at once) or set OPEN for {@link #OPEN_FOR} (for producers whose default is to fail closed).
 * Left alone, an entry expires by itself within its TTL. The intent is journaled ({@code HANDING_BACK}) before
 * the cluster is written, the outcome after ({@code HANDED_BACK} or {@code HAND_BACK_REFUSED}, both Events on
 * the team timeline); meanwhile the class's writes are held ({@link Supervisor#handingBack}) so no tick publishes
 * it again. Written through the session's own cluster, not the freeze gate: giving admission back is clean-up.
 */
public final class AdmissionHandBack {
    /** How long an admission set OPEN at exit stays valid. */
    public static final Duration OPEN_FOR = HandBack.AUTO_KEEP;

    /** What the operator chose for a class's admission. */
    public enum Choice { EXPIRE_NOW, SET_OPEN }

    /** One class to ask about: what producers read now. */
    public record Item(String className, WorkloadClass cls, AdmissionEntry published) {
    }

    /** How one class's admission hand-back ended. */
    public record Result(String className, Choice choice, boolean ok, String message) {
    }

    private final HandBackStep step;

    /** Through the same step as the classes' hand-back ({@code back}): its cluster, journal, clock and executor. */
    public AdmissionHandBack(HandBack back) {
        this.step = back.step;
    }

    /** The session's present. */
    public Instant now() {
        return step.clock.instant();
    }

    /** {@link #items()}, off the caller's thread. */
    public CompletableFuture<List<Item>> atExit() {
        return CompletableFuture.supplyAsync(this::items, step.io);
    }

    /** The classes whose published admission is still live, in the workloads file's order. */
    public List<Item> items() {
        Instant now = step.clock.instant();
        List<Item> out = new ArrayList<>();
        for (WorkloadClass c : step.classes.get()) {
            ClassAdmission a = step.supervisor.admission(c.name());
            if (a != null && a.published() != null && !a.published().expired(now)) {
                out.add(new Item(c.name(), c, a.published()));
            }
        }
        return out;
    }

    /** Each class as chosen (a class not in {@code choices} is expired now), off the caller's thread. */
    public CompletableFuture<List<Result>> finish(List<Item> items, Map<String, Choice> choices) {
        return CompletableFuture.supplyAsync(() -> {
            List<Result> out = new ArrayList<>();
            for (Item it : items) {
                out.add(handBack(it, choices.getOrDefault(it.className(), Choice.EXPIRE_NOW)));
            }
            return out;
        }, step.io);
    }

    Result handBack(Item it, Choice choice) {
        Supervisor supervisor = step.supervisor;
        Instant now = step.clock.instant();
        String name = it.className();
        String what = choice == Choice.EXPIRE_NOW ? "admission expired now (was " + it.published().label()
                + "): producers apply their own default" : "admission set OPEN until " + now.plus(OPEN_FOR)
                + " (was " + it.published().label() + ")";
        String context = it.cls().target().context();
        String unjournaled = step.intent(JournalRecord.of(now, Kind.HANDING_BACK, supervisor.user(), context, name)
                .reason("admission handed back at exit").detail(what));
        if (unjournaled != null) {
            return new Result(name, choice, false, "not handed back, not journaled: " + unjournaled);
        }
        supervisor.handingBack(name); // no tick publishes it again meanwhile; the console is leaving
        AdmissionWrite w;
        try {
            w = choice == Choice.EXPIRE_NOW ? step.cluster.admissions().expire(it.cls().target(), name, now, null)
                    : step.cluster.admissions().publish(it.cls().target(), AdmissionEntry.open(name,
                    "set OPEN by " + supervisor.user() + " at exit", now, now.plus(OPEN_FOR), supervisor.user()));
        } catch (RuntimeException e) {
            w = AdmissionWrite.failed(String.valueOf(e.getMessage()));
        }
        String said = w.ok() ? what : "admission not handed back: " + w.message()
                + "; it expires by itself at " + it.published().expiresAt();
        String lost = step.outcome(JournalRecord.of(step.clock.instant(), w.ok() ? Kind.HANDED_BACK
                : Kind.HAND_BACK_REFUSED, supervisor.user(), context, name).reason("admission handed back at exit")
                .detail(said));
        if (lost != null) {
            said += " (its outcome not journaled: " + lost + ")";
        }
        return new Result(name, choice, w.ok(), said);
    }
}
