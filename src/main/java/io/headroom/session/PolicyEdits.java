package io.headroom.session;

import io.headroom.config.PolicyWriter;
import io.headroom.decision.Policy;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * A what-if edit committed to the running console (issue 14): the class's live policy changes from
 * the next tick, journaled first (who, why, every field that changed) and undoable; it lasts until
 * reverted or until the workloads file is read again (a new session starts from the file).
 */
public final class PolicyEdits {

    /** A class whose live policy is not the file's: what it was, what it is, who changed it and why. */
    public record Edit(String className, Policy original, Policy edited, List<String> changes, String by,
                       String reason, Instant at) {
        public Edit {
            changes = List.copyOf(changes);
        }

        /** {@code maxReplicas 20 → 8, targetUtilization 0.7 → 0.8}. */
        public String summary() {
            return String.join(", ", changes);
        }
    }

    private final ControlLoop loop;
    private final Supplier<Journal> journal;
    private final Clock clock;
    private final String user;
    private final Map<String, Edit> edits = new ConcurrentHashMap<>();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    /** The last save into the workloads file, until reverted. */
    private volatile SavedFile lastSave;

    /** @param journal the session's journal (a supplier: the session may wrap it in its team timeline) */
    /**
     * A policy as the {@code policy:} block of a class in a workloads file, for the what-if window's
     * copy (the UI writes no YAML itself: this is its port to the config writer).
     */
    public String yaml(Policy policy) {
        return PolicyWriter.toYaml(policy);
    }

    public PolicyEdits(ControlLoop loop, Supplier<Journal> journal, Clock clock, String user) {
        this.loop = loop;
        this.journal = journal;
        this.clock = clock;
        this.user = user;
    }

    /** Told (on the editing thread) after each edit or revert; returns what unsubscribes. */
    public Runnable addListener(Runnable l) {
        listeners.add(l);
        return () -> listeners.remove(l);
    }

    public Optional<Edit> of(String className) {
        return Optional.ofNullable(edits.get(className));
    }

    public Map<String, Edit> all() {
        return Map.copyOf(edits);
    }

    /**
     * Makes {@code edited} the class's live policy. Refused, with nothing changed, without a reason,
     * when nothing changes, or when the journal cannot record it. Blocks while a tick runs.
     */
    public synchronized Outcome apply(String className, Policy edited, String reason) {
        Objects.requireNonNull(edited, "edited");
        WorkloadClass cls = find(className);
        if (cls == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "no class named " + className);
        }
        if (reason == null || reason.isBlank()) {
            return Outcome.refused(Outcome.Why.INVALID, "say why the policy of " + className + " changes: the team sees it");
        }
        List<String> now = diff(cls.policy(), edited);
        if (now.isEmpty()) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "the edited policy of " + className + " is the live one: nothing to apply");
        }
        Policy original = of(className).map(Edit::original).orElse(cls.policy());
        List<String> fromFile = diff(original, edited);
        try {
            journal.get().append(JournalRecord.of(clock.instant(), JournalRecord.Kind.POLICY_EDITED, user,
                    loop.cluster().contextName(), className).reason(reason.strip()).detail(String.join(", ", now)));
        } catch (RuntimeException e) {
            return Outcome.refused(Outcome.Why.UNJOURNALED, "not applied: the journal could not record it (" + e.getMessage() + ")");
        }
        loop.setPolicy(className, edited);
        if (fromFile.isEmpty()) {
            edits.remove(className);
        } else {
            edits.put(className, new Edit(className, original, edited, fromFile, user, reason.strip(), clock.instant()));
        }
        listeners.forEach(Runnable::run);
        return Outcome.ok("Policy of " + className + " edited in this console: " + String.join(", ", now));
    }

    /** Puts the workloads file's policy back; refused when the class's policy is the file's. */
    public synchronized Outcome revert(String className, String reason) {
        Edit e = edits.get(className);
        if (e == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "the policy of " + className + " is the workloads file's: nothing to revert");
        }
        try {
            journal.get().append(JournalRecord.of(clock.instant(), JournalRecord.Kind.POLICY_REVERTED, user,
                    loop.cluster().contextName(), className)
                    .reason(reason == null || reason.isBlank() ? "reverted in the console" : reason.strip())
                    .detail(String.join(", ", diff(e.edited(), e.original()))));
        } catch (RuntimeException ex) {
            return Outcome.refused(Outcome.Why.UNJOURNALED, "not reverted: the journal could not record it (" + ex.getMessage() + ")");
        }
        loop.setPolicy(className, e.original());
        edits.remove(className);
        listeners.forEach(Runnable::run);
        return Outcome.ok("Policy of " + className + " is the workloads file's again");
    }

    /**
     * Writes {@code edited} into the workloads file for the class (only what changed from the file's
     * policy, in place, through its symbolic links; a {@code .bak} beside the real file), journals it, and
     * returns the outcome. The running
     * session is not changed: the caller reloads the file to run it.
     */
    public synchronized Outcome save(String className, Policy edited, String reason, java.nio.file.Path file) {
        WorkloadClass cls = find(className);
        if (cls == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "no class named " + className);
        }
        if (file == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "this console was not opened from a workloads file: nothing to save into");
        }
        if (reason == null || reason.isBlank()) {
            return Outcome.refused(Outcome.Why.INVALID, "say why the workloads file changes: the team sees it");
        }
        Policy original = of(className).map(Edit::original).orElse(cls.policy());
        List<String> changes = diff(original, edited);
        if (changes.isEmpty()) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "the edited policy of " + className + " is the file's: nothing to save");
        }
        String name = String.valueOf(file.getFileName());
        // The intent first, as for every action: a crash between the two leaves a record, not a silent edit.
        try {
            journal.get().append(JournalRecord.of(clock.instant(), JournalRecord.Kind.POLICY_SAVED, user,
                    loop.cluster().contextName(), className).reason(reason.strip())
                    .detail("saving into " + name + ": " + String.join(", ", changes)));
        } catch (RuntimeException e) {
            return Outcome.refused(Outcome.Why.UNJOURNALED, "not saved: the journal could not record it (" + e.getMessage() + ")");
        }
        io.headroom.config.WorkloadsFileEdit.Saved saved;
        try {
            saved = io.headroom.config.WorkloadsFileEdit.save(file, className, original, edited);
        } catch (io.headroom.config.ConfigException e) {
            try {
                journal.get().append(JournalRecord.of(clock.instant(), JournalRecord.Kind.POLICY_SAVED, user,
                        loop.cluster().contextName(), className).reason(reason.strip())
                        .detail("not saved into " + name + " (the file is as it was): " + e.getMessage()));
            } catch (RuntimeException ignored) {
                // the refusal below says it; the journal says why it is failing itself
            }
            return Outcome.failed("not saved: " + e.getMessage());
        }
        lastSave = new SavedFile(className, file, saved.file(), saved.before(), saved.text(), changes, user,
                clock.instant());
        listeners.forEach(Runnable::run);
        // Through a link, the file written is named: the operator may expect the link's own directory.
        String written = saved.file().equals(file.toAbsolutePath()) ? name : name + " (the link to " + saved.file() + ")";
        return Outcome.ok("Saved into " + written + ", " + saved.backup().getFileName() + " beside it: "
                + String.join(", ", changes));
    }

    /** The last save into the workloads file that can still be taken back (this session's, or carried over a reload). */
    public Optional<SavedFile> lastSave() {
        return Optional.ofNullable(lastSave);
    }

    /** Offers the revert of a save made before the file was read again (the session that saved it is closed). */
    public void carry(SavedFile saved) {
        lastSave = saved;
    }

    /**
     * Puts the workloads file back as it was before {@link #lastSave()}: journaled first as
     * {@link JournalRecord.Kind#POLICY_SAVE_REVERTED} (file, class, the changes taken back), written as
     * {@link io.headroom.config.FileSave} saves, only while the file still holds what the save wrote. The running
     * session is not changed: the caller reloads the file to run it. Refused when there is nothing to revert,
     * the journal cannot record it, or the file changed since.
     */
    public synchronized Outcome revertSave(String reason) {
        SavedFile s = lastSave;
        if (s == null) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "no save into the workloads file to revert");
        }
        String why = reason == null || reason.isBlank() ? "save reverted in the console" : reason.strip();
        List<String> back = s.changes().stream().map(PolicyEdits::reversed).toList();
        try {
            journal.get().append(JournalRecord.of(clock.instant(), JournalRecord.Kind.POLICY_SAVE_REVERTED, user,
                    loop.cluster().contextName(), s.className()).reason(why)
                    .detail("reverting " + s.fileName() + " to before the save of " + s.at() + ": "
                            + String.join(", ", back)));
        } catch (RuntimeException e) {
            return Outcome.refused(Outcome.Why.UNJOURNALED, "not reverted: the journal could not record it (" + e.getMessage() + ")");
        }
        boolean moved;
        try {
            moved = !io.headroom.config.WorkloadsFileEdit.unchangedSince(s.written(), s.after());
        } catch (io.headroom.config.ConfigException e) {
            moved = false;
        }
        try {
            io.headroom.config.WorkloadsFileEdit.revert(s.written(), s.after(), s.before());
        } catch (io.headroom.config.ConfigException e) {
            try {
                journal.get().append(JournalRecord.of(clock.instant(), JournalRecord.Kind.POLICY_SAVE_REVERTED, user,
                        loop.cluster().contextName(), s.className()).reason(why)
                        .detail("not reverted (" + s.fileName() + " is as it was): " + e.getMessage()));
            } catch (RuntimeException ignored) {
                // the refusal below says it; the journal says why it is failing itself
            }
            return moved ? Outcome.refused(Outcome.Why.MOVED, e.getMessage()) : Outcome.failed(e.getMessage());
        }
        lastSave = null;
        listeners.forEach(Runnable::run);
        return Outcome.ok("Reverted " + s.fileName() + " for " + s.className() + ": " + String.join(", ", back));
    }

    /** {@code maxReplicas 20 → 8} taken back: {@code maxReplicas 8 → 20}. */
    private static String reversed(String change) {
        int arrow = change.lastIndexOf(" → ");
        int space = change.indexOf(' ');
        if (arrow < 0 || space < 0 || space >= arrow) {
            return change;
        }
        return change.substring(0, space) + " " + change.substring(arrow + 3) + " → " + change.substring(space + 1, arrow);
    }

    private WorkloadClass find(String name) {
        for (WorkloadClass c : loop.classes()) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** Every field that differs, as {@code name before → after}, in the workloads file's names. */
    public static List<String> diff(Policy before, Policy after) {
        Map<String, String> a = flatten(PolicyWriter.toMap(before));
        Map<String, String> b = flatten(PolicyWriter.toMap(after));
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        List<String> out = new ArrayList<>();
        for (String k : orderOf(a, b, keys)) {
            String x = a.get(k);
            String y = b.get(k);
            if (!Objects.equals(x, y)) {
                out.add(k + " " + (x == null ? "none" : x) + " → " + (y == null ? "none" : y));
            }
        }
        return out;
    }

    /** The writer's order (the file's order), then any key only the edited policy has. */
    private static List<String> orderOf(Map<String, String> a, Map<String, String> b, TreeSet<String> keys) {
        List<String> order = new ArrayList<>(a.keySet());
        for (String k : b.keySet()) {
            if (!order.contains(k)) {
                order.add(k);
            }
        }
        order.retainAll(keys);
        return order;
    }

    private static Map<String, String> flatten(Map<String, Object> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> flatten(k, v, out));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String path, Object v, Map<String, String> out) {
        if (v instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).forEach((k, x) -> flatten(path + "." + k, x, out));
        } else if (v instanceof List<?> list && !list.isEmpty()
                && list.stream().allMatch(x -> x instanceof Map<?, ?> e && e.get("name") != null)) {
            for (Object x : list) { // ceilings: one entry per name, so a diff names the ceiling that changed
                Map<String, Object> e = new LinkedHashMap<>((Map<String, Object>) x);
                Object name = e.remove("name");
                flatten(path + "." + name, e, out);
            }
        } else if (v instanceof List<?> list) {
            out.put(path, list.toString());
        } else if (v instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
            out.put(path, Long.toString(d.longValue()));
        } else {
            out.put(path, String.valueOf(v));
        }
    }
}
