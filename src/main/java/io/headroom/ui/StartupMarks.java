package io.headroom.ui;

import io.headroom.session.Session;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.scene.Scene;

/**
 * Start-up markers for {@code bench/StartupBenchmark}: with {@code -Dheadroom.startupMarks=true} the
 * console prints one line to standard output the first time each stage is reached —
 * {@code headroom-startup window} (the first pulse of any scene), {@code headroom-startup ui} (the
 * first pulse of the real console) and {@code headroom-startup tick} (the first live tick). The
 * benchmark, which started the process, times the lines as they arrive. Without the property nothing
 * is printed or registered.
 */
public final class StartupMarks {
    public static final String PROPERTY = "headroom.startupMarks";
    public static final String PREFIX = "headroom-startup ";
    public static final String WINDOW = "window";
    public static final String UI = "ui";
    public static final String TICK = "tick";
    /** With the marks on: quit once the real UI and the first tick were both reached (training and timing runs). */
    public static final String EXIT_PROPERTY = "headroom.exitAfterStartup";

    private static final boolean ON = Boolean.getBoolean(PROPERTY);
    private static final java.util.Set<String> SAID = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private StartupMarks() {
    }

    /** Says {@code mark} after the scene's next layout pulse (the frame that follows paints it); once per mark. */
    static void onFirstPulse(Scene scene, String mark) {
        if (!ON || scene == null || SAID.contains(mark)) {
            return;
        }
        Runnable[] listener = new Runnable[1];
        listener[0] = () -> {
            scene.removePostLayoutPulseListener(listener[0]); // the scene's list is copy-on-write
            say(mark);
        };
        scene.addPostLayoutPulseListener(listener[0]);
    }

    /** Says {@code tick} at the first tick after the session went live ({@code started} completes then). */
    static void onFirstLiveTick(Session session, CompletableFuture<Void> started) {
        if (!ON || SAID.contains(TICK)) {
            return;
        }
        AtomicBoolean live = new AtomicBoolean();
        Runnable[] unsubscribe = new Runnable[1];
        unsubscribe[0] = session.subscribe(t -> {
            if (live.get() && t.newTick() && t.result() != null) {
                say(TICK);
                if (unsubscribe[0] != null) {
                    unsubscribe[0].run();
                }
            }
        });
        started.thenRun(() -> live.set(true));
    }

    private static void say(String mark) {
        if (SAID.add(mark)) {
            if (UI.equals(mark)) {
                at(UI); // the FX thread's own CPU to its first real frame, beside the process's
            }
            System.out.println(PREFIX + mark);
            System.out.flush();
            if (Boolean.getBoolean(EXIT_PROPERTY) && SAID.contains(UI) && SAID.contains(TICK)) {
                io.headroom.ui.fx.FxExecutor.get().execute(javafx.application.Platform::exit);
            }
        }
    }

    /**
     * With the marks on, says {@code at:stage thread=MS} each time (not once): the steps between launch and the first
     * frame (launch, the toolkit's start, the session opened, the console's view built, the first real frame), for
     * profiling, with the CPU the thread that says it has used (on two cores the FX thread's waits for a core show
     * as wall time it did not run); -1 where Linux's {@code /proc/thread-self/schedstat} cannot be read.
     */
    static void at(String stage) {
        if (ON) {
            System.out.println(PREFIX + "at:" + stage + " thread=" + threadCpuMillis());
            System.out.flush();
        }
    }

    /** The calling thread's time on a CPU so far, in ms (the first field of its schedstat, in ns); -1 if unknown. */
    static long threadCpuMillis() {
        try {
            String s = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/schedstat"));
            return Long.parseLong(s.substring(0, s.indexOf(' ')).trim()) / 1_000_000;
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    /** After the console's window closed: a run asked to quit after start-up ends the JVM (the session's threads too). */
    static void exitIfAsked() {
        if (ON && Boolean.getBoolean(EXIT_PROPERTY)) {
            System.exit(0);
        }
    }
}
