package io.headroom.ui.shell;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The console's event list, in place of a status line: the last {@link #LIMIT} things that happened
 * (what an action did, a freeze or a pin starting, ending or running out), newest first, each with
 * its time. A message that describes a standing state is taken out when that state ends, so
 * nothing stale stays ("frozen until 13:49" after the freeze was lifted). FX thread only; no nodes.
 */
public final class EventListViewModel {
    /** How many events are kept. */
    public static final int LIMIT = 100;

    /** How an event reads: plain, good news, needs attention, went wrong. */
    public enum Level { INFO, OK, WARN, BAD }

    /**
     * One event.
     *
     * @param stateKey the {@link Incident#key()} of the standing state the text describes, or null
     */
    public record ConsoleEvent(Instant at, Level level, String text, String stateKey) {
    }

    // Properties
    private final ObservableList<ConsoleEvent> events = FXCollections.observableArrayList();
    private final ReadOnlyStringWrapper headline = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper saved = new ReadOnlyStringWrapper("");
    private Runnable revertSaved = () -> { };

    public EventListViewModel() {
        events.addListener((javafx.collections.ListChangeListener<ConsoleEvent>) c ->
                headline.set(events.isEmpty() ? "" : format(events.get(0))));
    }

    /** Newest first, at most {@link #LIMIT}. */
    public ObservableList<ConsoleEvent> events() { return events; }

    /** The newest event as one line with its time, or empty. */
    public ReadOnlyStringProperty headlineProperty() { return headline.getReadOnlyProperty(); }

    /** "Saved to workloads.yaml · Revert" while a save into the workloads file can be taken back, else empty. */
    public ReadOnlyStringProperty savedProperty() { return saved.getReadOnlyProperty(); }

    /** Offers the revert of a save into {@code fileName}; {@code revert} asks, then takes it back. */
    public void offerRevert(String fileName, Runnable revert) {
        revertSaved = revert;
        saved.set("Saved to " + fileName + " · Revert");
    }

    /** The save was taken back (or can no longer be): the chip goes. */
    public void savedReverted() {
        saved.set("");
        revertSaved = () -> { };
    }

    /** The chip's action. */
    public void revertSaved() {
        revertSaved.run();
    }

    /** "13:49:01  enrichment pinned to 10". */
    public static String format(ConsoleEvent e) {
        return IncidentBannerViewModel.HHMMSS.format(e.at()) + "  " + e.text();
    }

    // Commands

    /** Adds an event at the top; the oldest beyond the limit go. */
    public void add(Instant at, Level level, String text, String stateKey) {
        if (text == null || text.isBlank()) {
            return;
        }
        events.add(0, new ConsoleEvent(at, level, text, stateKey));
        if (events.size() > LIMIT) {
            events.remove(LIMIT, events.size());
        }
    }

    /** What an operator's command answered (the supervisor's outcome). */
    public void outcome(Instant at, boolean ok, String message) {
        add(at, ok ? Level.OK : Level.BAD, message, null);
    }

    /**
     * Records what started and ended. Ended states take their messages with them; what ran out by
     * itself is returned, for a notification.
     */
    public List<String> apply(IncidentBannerViewModel.Change change) {
        List<String> expired = new ArrayList<>();
        for (Incident i : change.ended()) {
            events.removeIf(e -> i.key().equals(e.stateKey()) || e.stateKey() == null && e.level() == Level.OK
                    && describes(i, e.text()));
            if (i.expiredAt(change.at())) {
                String text = expiry(i);
                add(change.at(), Level.WARN, text, null);
                expired.add(text);
            } else {
                add(change.at(), Level.INFO, ended(i), null);
            }
        }
        for (Incident i : change.started()) {
            add(change.at(), i.kind() == Incident.Kind.FREEZE_ALL || i.kind() == Incident.Kind.FREEZE ? Level.WARN
                    : Level.INFO, i.line(change.at(), IncidentBannerViewModel.HHMMSS::format), i.key());
        }
        return expired;
    }

    /** "The freeze of enrichment expired: it acts by its mode again". */
    static String expiry(Incident i) {
        return switch (i.kind()) {
            case FREEZE_ALL -> "The global freeze expired: every class acts by its mode again";
            case FREEZE -> "The freeze of " + i.className() + " expired: it acts by its mode again";
            case OVERRIDE -> "The override of " + i.className() + " (" + i.detail() + ") expired: its mode takes over";
            case FLOOR -> "The forecast floor of " + i.className() + " ended: the reactive decision alone rules again";
            default -> i.tag() + " " + i.subject() + " ended";
        };
    }

    static String ended(Incident i) {
        return switch (i.kind()) {
            case FREEZE_ALL -> "Global freeze lifted";
            case FREEZE -> i.className() + " unfrozen";
            case OVERRIDE -> i.className() + " override cleared";
            case DRAIN -> i.className() + " drain ended";
            case AUTO -> i.className() + " left auto mode";
            case FLOOR -> i.className() + " forecast floor cancelled";
        };
    }

    /** Whether an action's echo describes this state (the supervisor's words when it was set). */
    static boolean describes(Incident i, String text) {
        String who = i.className() == null ? "everything" : i.className();
        return switch (i.kind()) {
            case FREEZE_ALL, FREEZE -> text.startsWith(who + " frozen until");
            case OVERRIDE -> text.startsWith(who + " pinned to");
            case DRAIN -> text.startsWith(who + ": draining");
            case AUTO -> text.equals(who + " is now auto");
            case FLOOR -> text.startsWith("Approved the forecast floor of " + who);
        };
    }
}
