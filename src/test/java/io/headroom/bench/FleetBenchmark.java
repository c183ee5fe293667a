package io.headroom.bench;

import io.headroom.config.WorkloadsFile;
import io.headroom.history.ClassHistory;
import io.headroom.history.History;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.Contexts;
import io.headroom.kube.MockCluster;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.QueryOutcome;
import io.headroom.prometheus.it.Await;
import io.headroom.prometheus.it.TestExporter;
import io.headroom.prometheus.it.TestPrometheus;
import io.headroom.session.Session;
import io.headroom.testing.FleetFile;
import io.headroom.ui.HeadroomApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * Benchmark, not a test (issue 26): the whole console on a fleet's workloads file of 5,000 classes
 * ({@link FleetFile}), against a real Prometheus serving every class's series (scraped from a test
 * exporter) and fabric8's mock API server holding every class's Deployment in 5 contexts and 50
 * namespaces, with the real window (headless). It prints:
 * <ul>
 *   <li>the first frame: reading the file, opening the session (clients, informers), the window shown,
 *       the first tick decided, and that tick drawn on the FX thread;</li>
 *   <li>the tick: from the loop's start of a tick to the overview's rows prepared (every class read from
 *       the grouped answers, decided, supervised, recorded, prepared), over {@code --ticks=N} ticks;</li>
 *   <li>memory: the heap after GC before the console, with it running, and with every class's history
 *       filled to what the session's budget lets it hold (as after that long running, or a backfill).</li>
 * </ul>
 * {@code scripts/bench FleetBenchmark [--classes=5000] [--ticks=10]} (runs headless on Monocle; the JVM's
 * heap is {@code scripts/bench}'s 2 GB, so the history's budget is 512 MB).
 */
public final class FleetBenchmark {

    private FleetBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int classes = arg(args, "--classes=", 5_000);
        int ticks = arg(args, "--ticks=", 10);
        defaultProperty("glass.platform", "Monocle");
        defaultProperty("monocle.platform", "Headless");
        defaultProperty("prism.order", "sw");
        defaultProperty("headless.geometry", "1600x900");
        System.out.printf(Locale.ROOT, "fleet: %,d classes, %d cores, max heap %d MB, load average %.1f%n", classes,
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20, load());
        Path dir = Files.createTempDirectory("headroom-fleet");
        try (TestExporter exporter = new TestExporter(); MockCluster cluster = new MockCluster()) {
            for (int i = 0; i < classes; i++) {
                String c = "class=\"" + FleetFile.className(i) + "\"";
                exporter.gauge("hr_queue_length", c, 10 + i % 200);
                exporter.gauge("hr_oldest_age_seconds", c, 5 + i % 100);
                exporter.gauge("hr_queued_service_seconds", c, 40 + i % 300);
                exporter.gauge("hr_replicas", c, 2);
                exporter.counter("hr_jobs_total", c, 1000, 0.1 * (1 + i % 50));
                exporter.histogram("hr_service_seconds", c, 0.1 * (1 + i % 50), 0.2 * (1 + i % 50));
            }
            long t0 = System.nanoTime();
            cluster.answerAccessReviews(true, null);
            for (int i = 0; i < classes; i++) {
                cluster.deployment("team-" + i % 50, "worker-" + FleetFile.className(i), 2);
            }
            System.out.printf(Locale.ROOT, "mock API server: %,d Deployments created in %.1f s%n", classes,
                    (System.nanoTime() - t0) / 1e9);
            try (TestPrometheus prometheus = TestPrometheus.start(List.of(exporter.target()))) {
                try (PrometheusClient probe = PrometheusTickBenchmark.client(prometheus)) {
                    Await.until("every class's series scraped", Duration.ofSeconds(120),
                            () -> probe.query("count(hr_replicas)"),
                            o -> o instanceof QueryOutcome.Value v && v.value() == classes);
                }
                String[] contexts = new String[15];
                for (int i = 0; i < 5; i++) {
                    contexts[3 * i] = "prod-" + i;
                    contexts[3 * i + 1] = cluster.url();
                    contexts[3 * i + 2] = "default";
                }
                Path kubeconfig = MockCluster.kubeconfig(dir, "kubeconfig.yaml", "prod-0", "t0ken-for-the-bench", contexts);
                Path workloads = dir.resolve("fleet.yaml");
                Files.writeString(workloads, FleetFile.text(prometheus.url().toString(), classes)
                        .replace("maxReplicas: 40,", "maxReplicas: 40, pollIntervalSeconds: 5,"));
                System.out.printf(Locale.ROOT, "workloads file: %.1f MB; Prometheus: %,d series%n",
                        Files.size(workloads) / 1e6, exporter.snapshot().size());
                run(workloads, kubeconfig, classes, ticks);
            }
        }
        System.exit(0);
    }

    private static void run(Path workloads, Path kubeconfig, int classes, int ticks) throws Exception {
        double before = HistoryBenchmark.heapAfterGcMb();
        CompletableFuture<Void> fx = new CompletableFuture<>();
        Platform.setImplicitExit(false);
        Platform.startup(() -> fx.complete(null));
        fx.get(30, TimeUnit.SECONDS);

        long t0 = System.nanoTime();
        WorkloadsFile file = WorkloadsFile.read(workloads);
        long read = System.nanoTime();
        Session session = Session.connect(file, Contexts.load(List.of(kubeconfig)), new MemoryJournal());
        long connected = System.nanoTime();
        CompletableFuture<Long> shown = new CompletableFuture<>();
        Platform.runLater(() -> {
            Stage stage = new Stage();
            HeadroomApp.show(stage, session);
            shown.complete(System.nanoTime());
        });
        long windowAt = shown.get(60, TimeUnit.SECONDS);

        List<long[]> done = new CopyOnWriteArrayList<>(); // [tick started (ms, the loop's clock), prepared (ms)]
        CompletableFuture<Long> firstDrawn = new CompletableFuture<>();
        CompletableFuture<Void> enough = new CompletableFuture<>();
        session.subscribe(t -> {
            if (t.newTick() && t.result() != null) {
                done.add(new long[] {t.result().at().toEpochMilli(), System.currentTimeMillis(), System.nanoTime()});
                if (done.size() == 1) {
                    // The FX thread's next turn after the tick was handed over: its rows are applied then.
                    Platform.runLater(() -> Platform.runLater(() -> firstDrawn.complete(System.nanoTime())));
                }
                if (done.size() >= ticks + 1) {
                    enough.complete(null);
                }
            }
        });
        session.startAsync(Duration.ZERO);
        long drawn = firstDrawn.get(5, TimeUnit.MINUTES);
        long firstTick = done.get(0)[2];
        System.out.printf(Locale.ROOT, "%nfirst frame (ms from reading the file)%n");
        System.out.printf(Locale.ROOT, "  file read and checked          %8.0f%n", (read - t0) / 1e6);
        System.out.printf(Locale.ROOT, "  session open (clients, caches) %8.0f%n", (connected - t0) / 1e6);
        System.out.printf(Locale.ROOT, "  window shown                   %8.0f%n", (windowAt - t0) / 1e6);
        System.out.printf(Locale.ROOT, "  first tick decided, prepared   %8.0f%n", (firstTick - t0) / 1e6);
        System.out.printf(Locale.ROOT, "  first tick on screen           %8.0f%n", (drawn - t0) / 1e6);

        enough.get(10, TimeUnit.MINUTES);
        double[] ms = done.stream().skip(1).mapToDouble(d -> d[1] - d[0]).sorted().toArray();
        System.out.printf(Locale.ROOT, "%ntick, %d ticks after the first: read, decide, supervise, record, prepare rows%n",
                ms.length);
        System.out.printf(Locale.ROOT, "  median %.0f ms, p90 %.0f ms, max %.0f ms (poll every 5 s)%n", ms[ms.length / 2],
                ms[Math.min(ms.length - 1, (int) (ms.length * 0.9))], ms[ms.length - 1]);

        double running = HistoryBenchmark.heapAfterGcMb();
        History history = session.history();
        fill(history, file.classes().stream().map(c -> c.name()).toList());
        double full = HistoryBenchmark.heapAfterGcMb();
        System.out.printf(Locale.ROOT, "%nheap after GC (MB)%n");
        System.out.printf(Locale.ROOT, "  before the console               %8.1f%n", before);
        System.out.printf(Locale.ROOT, "  console running, %,d classes  %8.1f%n", classes, running);
        System.out.printf(Locale.ROOT, "  + every history full             %8.1f  (%,d points a class = %s, budget %d MB)%n",
                full, history.capacity(), history.span(), Runtime.getRuntime().maxMemory() / 4 >> 20);
        System.out.printf(Locale.ROOT, "  load average now %.1f%n", load());
        session.close();
        Platform.exit();
    }

    /** Every class's history filled to its capacity with points before the live ones (a backfill's shape). */
    private static void fill(History history, List<String> names) {
        double step = history.tick().toSeconds();
        for (String name : names) {
            ClassHistory h = history.of(name);
            int n = h.capacity();
            double first = Double.isNaN(h.firstTime()) ? System.currentTimeMillis() / 1000.0 : h.firstTime();
            double[] times = new double[n];
            Map<ClassHistory.Series, double[]> past = new EnumMap<>(ClassHistory.Series.class);
            for (ClassHistory.Series s : ClassHistory.Series.values()) {
                past.put(s, new double[n]);
            }
            for (int i = 0; i < n; i++) {
                times[i] = first - (n - i) * step;
                for (double[] v : past.values()) {
                    v[i] = i % 97;
                }
            }
            h.backfill(times, past);
        }
    }

    private static int arg(String[] args, String prefix, int otherwise) {
        return Arrays.stream(args).filter(a -> a.startsWith(prefix)).mapToInt(a -> Integer.parseInt(a.substring(
                prefix.length()))).findFirst().orElse(otherwise);
    }

    private static double load() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
