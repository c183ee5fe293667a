package io.headroom.ui;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.SimpleBooleanProperty;

/**
 * Whether the operator's attention is on a list now, whichever device it came from, so that its
 * entries do not move under the pointer or the keys (issue 28): the pointer is on it
 * ({@link #pointerProperty()}), or it was touched (a key pressed in it, the focus arriving, a click,
 * a selection) in the last {@link #QUIET}, timed on an injected wall clock. A list whose new order
 * must wait says so ({@link #waitingProperty()}); the order comes once nothing holds it, from
 * {@link #releaseIfQuiet()} (the view calls it while an order waits: a touch's hold ends with time,
 * not with an event) or from the pointer leaving. FX thread; holds no nodes.
 */
public final class AttentionHold {
    /**
     * How long a touch holds the order: the operator counting rows with Down, or reading a card
     * before clicking it, is not overtaken.
     */
    public static final Duration QUIET = Duration.ofSeconds(4);

    private final BooleanProperty pointer = new SimpleBooleanProperty();
    private final ReadOnlyBooleanWrapper waiting = new ReadOnlyBooleanWrapper();
    private final Runnable release;
    /** The wall clock touches are timed on (not the session's, which the sandbox speeds up). */
    private Clock clock;
    /** When the operator last touched the list; null: never. */
    private Instant touched;

    /**
     * @param clock   the wall clock a touch's hold is timed on
     * @param release applies the waiting order (and says nothing waits any more, {@link #setWaiting})
     */
    public AttentionHold(Clock clock, Runnable release) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.release = Objects.requireNonNull(release, "release");
        pointer.addListener((o, was, on) -> releaseIfQuiet());
    }

    /** True while the pointer is on the list (the view binds it to the list's hover). */
    public BooleanProperty pointerProperty() {
        return pointer;
    }

    /** Times touches on {@code clock} from now on (a test's manual clock). */
    public void setClock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The operator touched the list: its order holds for {@link #QUIET} from now. */
    public void touch() {
        touched = clock.instant();
    }

    /** Whether the order holds now: the pointer is on the list, or it was touched in the last {@link #QUIET}. */
    public boolean held() {
        return pointer.get() || touched != null && clock.instant().isBefore(touched.plus(QUIET));
    }

    /** A new order is waiting for the hold to end. */
    public ReadOnlyBooleanProperty waitingProperty() {
        return waiting.getReadOnlyProperty();
    }

    public void setWaiting(boolean waits) {
        waiting.set(waits);
    }

    /**
     * What a held list shows for its newest entries {@code next}: every entry shown stays where it is, taking its
     * newest figures from {@code next} (matched by {@code key}), or, once it is no longer there, as {@code gone}
     * makes it (greyed, saying what became of it); then the entries new in {@code next} below, in its order. The
     * same rule for every list the operator acts on, so none moves under the pointer or the keys.
     */
    public static <T, K> List<T> keptInPlace(List<T> shown, List<T> next, Function<T, K> key, UnaryOperator<T> gone) {
        Map<K, T> fresh = new LinkedHashMap<>();
        next.forEach(e -> fresh.put(key.apply(e), e));
        List<T> held = new ArrayList<>(shown.size() + fresh.size());
        for (T was : shown) {
            T now = fresh.remove(key.apply(was));
            held.add(now != null ? now : gone.apply(was));
        }
        held.addAll(fresh.values());
        return held;
    }

    /** Applies a waiting order once nothing holds it any more; does nothing while held or nothing waits. */
    public void releaseIfQuiet() {
        if (waiting.get() && !held()) {
            release.run();
        }
    }
}
