import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A queue worker that honours Headroom's drains (the Java twin of headroom_worker.py; copy it into your
 * worker). It reads the pod's annotations from a downward-API volume ({@code metadata.annotations} mounted
 * as a file), takes no new job while {@code headroom.io/drain} is set, and on SIGTERM (wire
 * {@link #stop} to a shutdown hook) finishes the jobs in flight within the grace period.
 *
 * <pre>{@code
 * DrainingWorker<Job> w = new DrainingWorker<>(queue::poll, this::handle,
 *         Path.of("/etc/podinfo/annotations"), 4, Duration.ofSeconds(25));
 * Runtime.getRuntime().addShutdownHook(new Thread(w::stopAndWait));
 * w.run();
 * }</pre>
 */
public final class DrainingWorker<J> {
    public static final String DRAIN_ANNOTATION = "headroom.io/drain";

    /** Takes the next job, waiting at most {@code timeout}; null when there is none. */
    public interface Take<J> {
        J take(Duration timeout) throws Exception;
    }

    private final Take<J> take;
    private final Consumer<J> handle;
    private final Path annotations;
    private final int slots;
    private final Duration grace;
    private final Duration poll = Duration.ofMillis(200);
    private final ExecutorService pool;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean stopping;
    private volatile boolean done;

    public DrainingWorker(Take<J> take, Consumer<J> handle, Path annotations, int slots, Duration grace) {
        this.take = take;
        this.handle = handle;
        this.annotations = annotations;
        this.slots = slots;
        this.grace = grace;
        this.pool = Executors.newFixedThreadPool(slots);
    }

    /** Jobs taken and not finished: export it (e.g. as worker_jobs_in_flight) for Headroom's drains. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The drain that marked this pod, if any (read from the file each time: the kubelet rewrites it). */
    public Optional<String> drainMark() {
        return Optional.ofNullable(readAnnotations(annotations).get(DRAIN_ANNOTATION)).filter(s -> !s.isEmpty());
    }

    /** Takes and runs jobs until {@link #stop}: none while the pod is marked for a drain or all slots are busy. */
    public void run() throws Exception {
        while (!stopping) {
            if (drainMark().isPresent() || inFlight.get() >= slots) {
                Thread.sleep(poll.toMillis());
                continue;
            }
            J job = take.take(poll);
            if (job == null) {
                continue;
            }
            inFlight.incrementAndGet();
            pool.execute(() -> {
                try {
                    handle.accept(job);
                } finally {
                    inFlight.decrementAndGet();
                }
            });
        }
        pool.shutdown();
        done = pool.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** SIGTERM: take nothing more; {@link #run} returns once the jobs in flight finish or the grace runs out. */
    public void stop() {
        stopping = true;
    }

    /** For a shutdown hook: stops and waits (the JVM exits when the hook returns). True when every job finished. */
    public boolean stopAndWait() throws InterruptedException {
        stop();
        return pool.awaitTermination(grace.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Whether the last {@link #run} ended with every job finished. */
    public boolean finishedAll() {
        return done;
    }

    /** The downward API's annotations file: {@code key="value"} per line; empty when the file is absent. */
    static Map<String, String> readAnnotations(Path file) {
        Map<String, String> out = new HashMap<>();
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return out;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq < 0) {
                continue;
            }
            String v = line.substring(eq + 1).strip();
            if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                v = v.substring(1, v.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
            }
            out.put(line.substring(0, eq).strip(), v);
        }
        return out;
    }
}
