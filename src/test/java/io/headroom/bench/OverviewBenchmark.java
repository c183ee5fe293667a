package io.headroom.bench;

import io.headroom.history.ClassHistory;
import io.headroom.history.History;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.ui.SandboxConsole;
import io.headroom.ui.Styles;
import io.headroom.ui.overview.OverviewView;
import io.headroom.ui.overview.OverviewViewModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;

/**
 * Benchmark, not a test: FX-thread time per tick of the overview with 1,000 classes (issue 13,
 * goal under 5 ms), headless, software pipeline.
 *
 * <p>Run from the project root: {@code scripts/bench OverviewBenchmark [--overlap] [--classes=N]}.
 *
 * <p>The sandbox's five classes are run for an hour; their ticks are dealt out to 1,000 classes
 * (each class a sandbox class at its own offset in that hour, so values, alerts and tiers differ
 * and change), each with a domain history holding its last quarter of an hour. Each frame
 * applies one tick (every class) to the view model, as the console's per-frame batch does; the
 * pulse then lays out and draws the table's visible rows (1600×900). "FX thread" is from the
 * start of the update to the end of that layout, in wall time and in the FX thread's own CPU time
 * (which a loaded machine inflates far less than wall time); "apply" is the view model's share alone (setting
 * the values that changed, the severity order, work bars). The loop's work (appending to the
 * history, and preparing the rows: their values and 15-minute trends read from the history,
 * {@link OverviewViewModel#prepareAhead}) runs on a thread of its own, as on the loop's thread in the
 * console, and is not counted; its time is printed apart: after each frame is laid out by default,
 * beside it with {@code --overlap} (see {@link #OVERLAP}). (Until 2026-12-02 it ran on the FX thread
 * between the update and the pulse, inside the measured window: the figures of that harness count it.)
 */
public final class OverviewBenchmark {

    /** Classes in the overview: {@code --classes=N}, 1,000 by default (issue 26's fleet: 5,000). */
    private static int CLASSES = 1_000;
    private static final int WARMUP = 60;
    private static final int FRAMES = 240;

    private OverviewBenchmark() {
    }

    /**
     * {@code --overlap}: the loop prepares the next tick while the FX thread applies and lays out this
     * one, a tick every frame (~150 ticks a second: the loop's thread never rests, and on two cores the
     * FX thread shares the other with the renderer). By default the next tick is prepared once this one
     * is laid out, as in the console, where ticks come at most a few times a second (a 5 s poll at 60×
     * is 12 a second) and the loop's thread is idle between them.
     */
    private static boolean OVERLAP;

    public static void main(String[] args) throws Exception {
        OVERLAP = java.util.Arrays.asList(args).contains("--overlap");
        for (String a : args) {
            if (a.startsWith("--classes=")) {
                CLASSES = Integer.parseInt(a.substring("--classes=".length()));
            }
        }
        defaultProperty("glass.platform", "Monocle");
        defaultProperty("monocle.platform", "Headless");
        defaultProperty("prism.order", "sw");
        defaultProperty("headless.geometry", "1600x900"); // the default screen (1280×800) is smaller than the stage
        defaultProperty("prism.text", "t2k");
        defaultProperty("javafx.animation.fullspeed", "true");

        List<TickResult> hour;
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.run(Duration.ofHours(1));
            hour = new ArrayList<>(c.ticks());
        }
        Feed feed = new Feed(hour);
        for (int k = 0; k < 60; k++) { // a quarter of an hour of history before the first frame
            feed.next();
        }

        CompletableFuture<Void> started = new CompletableFuture<>();
        Platform.setImplicitExit(false);
        Platform.startup(() -> started.complete(null));
        started.get(30, TimeUnit.SECONDS);

        CompletableFuture<long[][]> done = new CompletableFuture<>();
        Platform.runLater(() -> {
            OverviewViewModel vm = new OverviewViewModel();
            vm.setHistory(feed.history::find);
            OverviewView view = new OverviewView(vm);
            view.getStyleClass().add(Styles.THEME_DARK);
            Scene scene = new Scene(view, 1600, 900);
            Styles.install(scene);
            Stage stage = new Stage();
            stage.setScene(scene);
            stage.show();
            long[] fx = new long[FRAMES];
            long[] apply = new long[FRAMES];
            long[] prepare = new long[FRAMES];
            long[] start = {0};
            int[] count = {0};
            // The loop's share (the next tick, appended to the history, its rows prepared) runs on a
            // thread of its own, as in the console, while the FX thread applies and lays out this one;
            // a frame waits for it before its measured window starts.
            java.util.concurrent.ExecutorService loop = java.util.concurrent.Executors.newSingleThreadExecutor();
            java.util.function.Supplier<java.util.concurrent.Future<TickResult>> nextTick = () -> {
                int i = count[0] - WARMUP - 1; // the frame this runs beside
                return loop.submit(() -> {
                    long prepareStart = System.nanoTime();
                    TickResult t = feed.next();
                    prepareAhead(vm, t); // on the loop's thread in the console (MainView)
                    if (i >= 0 && i < FRAMES) {
                        prepare[i] = System.nanoTime() - prepareStart;
                    }
                    return t;
                });
            };
            @SuppressWarnings("unchecked")
            java.util.concurrent.Future<TickResult>[] pending = new java.util.concurrent.Future[] {nextTick.get()};
            long[] cpu = new long[FRAMES];
            long[] cpuStart = {0};
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            scene.addPostLayoutPulseListener(() -> {
                int i = count[0] - WARMUP - 1;
                if (i >= 0 && i < FRAMES && start[0] != 0) {
                    fx[i] = System.nanoTime() - start[0];
                    cpu[i] = threads.getCurrentThreadCpuTime() - cpuStart[0];
                }
                if (!OVERLAP && !loop.isShutdown()) {
                    pending[0] = nextTick.get(); // the next tick, prepared after this one is on screen
                }
            });
            new AnimationTimer() {
                @Override
                public void handle(long ignored) {
                    int i = count[0] - WARMUP;
                    if (i >= FRAMES) {
                        stop();
                        loop.shutdown();
                        stage.hide();
                        done.complete(new long[][] {fx, apply, prepare, cpu});
                        return;
                    }
                    TickResult tick;
                    try {
                        tick = pending[0].get(); // the loop's tick, prepared while the last frame was laid out
                    } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
                        throw new IllegalStateException(e);
                    }
                    count[0]++;
                    cpuStart[0] = threads.getCurrentThreadCpuTime();
                    start[0] = System.nanoTime();
                    vm.apply(tick);
                    if (i >= 0) {
                        apply[i] = System.nanoTime() - start[0];
                    }
                    if (OVERLAP) {
                        pending[0] = nextTick.get(); // the loop's share, beside the FX thread's layout of this tick
                    }
                }
            }.start();
        });
        long[][] r;
        try {
            r = done.get(5, TimeUnit.MINUTES);
        } catch (java.util.concurrent.TimeoutException e) {
            Platform.exit(); // the FX thread would keep the JVM alive after a failed run
            throw e;
        }
        System.out.printf(Locale.ROOT, "%d classes, %d frames (after %d), 1600x900 px, software pipeline, headless, %s%n",
                CLASSES, FRAMES, WARMUP, OVERLAP ? "next tick prepared beside each frame (--overlap)"
                        : "next tick prepared after each frame");
        System.out.printf(Locale.ROOT, "%-34s %8s %8s %8s%n", "", "median", "p95", "max");
        print("FX thread per tick (ms)", r[0]);
        print("  the FX thread's CPU time (ms)", r[3]);
        print("  of which view model apply (ms)", r[1]);
        if (PREPARE != null) {
            print("loop thread: rows prepared (ms)", r[2]);
        } else {
            System.out.println("(this build prepares nothing ahead: the view model does all on the FX thread)");
        }
        System.out.printf(Locale.ROOT, "load average %.1f%n",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        Platform.exit();
    }

    /**
     * {@link OverviewViewModel#prepareAhead}, looked up so this benchmark also runs against a build
     * from before it (the same harness before and after, side by side).
     */
    private static final java.lang.invoke.MethodHandle PREPARE = prepareHandle();

    private static java.lang.invoke.MethodHandle prepareHandle() {
        try {
            return java.lang.invoke.MethodHandles.publicLookup().findVirtual(OverviewViewModel.class, "prepareAhead",
                    java.lang.invoke.MethodType.methodType(void.class, TickResult.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static void prepareAhead(OverviewViewModel vm, TickResult tick) {
        if (PREPARE == null) {
            return;
        }
        try {
            PREPARE.invoke(vm, tick);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static void print(String what, long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        System.out.printf(Locale.ROOT, "%-34s %8.2f %8.2f %8.2f%n", what, s[s.length / 2] / 1e6,
                s[(int) Math.floor(s.length * 0.95)] / 1e6, s[s.length - 1] / 1e6);
    }

    /** Deals the sandbox hour out to {@link #CLASSES} classes and records each tick into their histories. */
    private static final class Feed {
        final List<TickResult> hour;
        final History history = History.forClasses(Duration.ofSeconds(15), CLASSES, Runtime.getRuntime().maxMemory() / 4);
        final WorkloadClass[] classes = new WorkloadClass[CLASSES];
        int k;

        Feed(List<TickResult> hour) {
            this.hour = hour;
            List<ClassSnapshot> first = hour.get(0).classes();
            for (int i = 0; i < CLASSES; i++) {
                WorkloadClass base = first.get(i % first.size()).cls();
                classes[i] = new WorkloadClass(String.format(Locale.ROOT, "%s-%04d", base.name(), i), base.target(),
                        base.policy(), base.drainOnScaleDown());
            }
        }

        TickResult next() {
            List<ClassSnapshot> out = new ArrayList<>(CLASSES);
            TickResult now = hour.get(k % hour.size());
            for (int i = 0; i < CLASSES; i++) {
                TickResult at = hour.get((k + i * 7) % hour.size());
                ClassSnapshot s = at.classes().get(i % at.classes().size());
                out.add(new ClassSnapshot(classes[i], now.at(), s.observation(), s.workload(), s.decision(),
                        s.actuation(), s.problem(), s.signals()));
                double[] row = new double[ClassHistory.SERIES];
                Arrays.fill(row, Double.NaN);
                io.headroom.decision.Signal age = s.signals().get(io.headroom.decision.Signals.OLDEST_AGE);
                row[ClassHistory.Series.OLDEST_AGE.ordinal()] = age != null && age.present() ? age.value() : Double.NaN;
                history.of(classes[i].name()).append(15.0 * k, row);
            }
            k++;
            return new TickResult(now.at(), out, now.context(), now.metricsSource());
        }
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
