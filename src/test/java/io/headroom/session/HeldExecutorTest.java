package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The console's hold on its client builds: nothing runs while held; on release, everything, in order, once. */
class HeldExecutorTest {
    @Test
    void whileHeldNothingRunsThenEverythingHeldRunsInOrderOnceAndWhatFollowsPassesStraightOn() {
        List<String> ran = new ArrayList<>();
        List<Runnable> delegate = new ArrayList<>();
        HeldExecutor held = new HeldExecutor(delegate::add, true);
        held.execute(() -> ran.add("first"));
        held.execute(() -> ran.add("second"));
        assertTrue(held.holding());
        assertTrue(delegate.isEmpty(), "nothing handed on while held");

        held.release();
        held.release(); // a second release hands on nothing again
        assertFalse(held.holding());
        delegate.forEach(Runnable::run);
        assertEquals(List.of("first", "second"), ran);

        held.execute(() -> ran.add("after"));
        assertEquals(3, delegate.size(), "after the release, straight on");
        delegate.get(2).run();
        assertEquals(List.of("first", "second", "after"), ran);
    }

    @Test
    void notHeldItPassesEverythingStraightOn() {
        List<Runnable> delegate = new ArrayList<>();
        HeldExecutor open = new HeldExecutor(delegate::add, false);
        assertFalse(open.holding());
        open.execute(() -> { });
        assertEquals(1, delegate.size());
    }
}
