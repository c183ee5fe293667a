package io.headroom.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.prometheus.it.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/worker/headroom_worker.py as a real Python process, its annotations file (the downward API's)
 * changed under it as the kubelet changes it: it stops taking jobs when marked, takes them again when the
 * mark goes, and on SIGTERM finishes what it has in flight within the grace period and exits.
 */
class DrainingWorkerTest {
    static final Path MODULE = Path.of("examples/worker/headroom_worker.py");
    static final Duration DEADLINE = Duration.ofSeconds(20);

    @TempDir
    Path dir;

    Path jobs;
    Path annotations;
    Path status;

    Process start(double graceSeconds) throws IOException {
        jobs = Files.createDirectories(dir.resolve("jobs"));
        annotations = dir.resolve("annotations");
        status = dir.resolve("status.prom");
        annotate(Map.of("app", "mail"));
        String python = System.getenv().getOrDefault("HEADROOM_PYTHON", "python3");
        return new ProcessBuilder(python, MODULE.toString(), jobs.toString(), annotations.toString(),
                status.toString(), Double.toString(graceSeconds)).redirectErrorStream(true)
                .redirectOutput(dir.resolve("worker.log").toFile()).start();
    }

    /** Rewrites the annotations file whole, by rename, as the kubelet swaps the downward API's files. */
    void annotate(Map<String, String> values) throws IOException {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, v) -> sb.append(k).append("=\"").append(v).append("\"\n"));
        Path tmp = dir.resolve("annotations.tmp");
        Files.writeString(tmp, sb.toString());
        Files.move(tmp, annotations, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** The worker's report: worker_jobs_in_flight, worker_draining, …, polls, stopping, stopped. */
    Map<String, Double> report() {
        Map<String, Double> out = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(status)) {
                String[] w = line.split(" ");
                if (line.startsWith("# polls")) {
                    for (int i = 1; i + 1 < w.length; i += 2) {
                        out.put(w[i], Double.parseDouble(w[i + 1]));
                    }
                } else if (!line.startsWith("#") && w.length == 2) {
                    out.put(w[0], Double.parseDouble(w[1]));
                }
            }
        } catch (IOException e) {
            // not written yet
        }
        return out;
    }

    Map<String, Double> awaitReport(String what, java.util.function.Predicate<Map<String, Double>> ok) {
        return Await.until(what, DEADLINE, this::report, ok);
    }

    static boolean is(Map<String, Double> r, String key, double v) {
        return r.containsKey(key) && r.get(key) == v;
    }

    void job(String name) throws IOException {
        Files.writeString(jobs.resolve(name + ".job"), name);
    }

    void release(String name) throws IOException {
        Files.writeString(jobs.resolve(name + ".job.release"), "");
    }

    @Test
    void markedItTakesNothingUnmarkedItTakesAgainAndOnSigtermItFinishesItsJobsThenExits() throws Exception {
        Process p = start(20);
        try {
            job("a");
            awaitReport("job a in flight", r -> is(r, "worker_jobs_in_flight", 1));
            assertTrue(Files.exists(jobs.resolve("a.job.taken")));

            annotate(Map.of("app", "mail", "headroom.io/drain", "drain-42"));
            double polls = awaitReport("the drain mark seen", r -> is(r, "worker_draining", 1)).get("polls");
            job("b");
            awaitReport("five polls while marked, b waiting", r -> r.get("polls") >= polls + 5);
            assertTrue(Files.exists(jobs.resolve("b.job")), "a marked worker takes no new job");
            assertEquals(1.0, report().get("worker_jobs_in_flight"));

            annotate(Map.of("app", "mail")); // the drain was cancelled: the mark goes
            awaitReport("b taken once unmarked", r -> is(r, "worker_jobs_in_flight", 2) && is(r, "worker_draining", 0));

            p.destroy(); // SIGTERM, as the kubelet sends it
            awaitReport("SIGTERM received", r -> is(r, "stopping", 1));
            job("c");
            release("a");
            awaitReport("a finished, b still in flight", r -> is(r, "worker_jobs_in_flight", 1)
                    && is(r, "worker_jobs_finished_total", 1));
            assertTrue(p.isAlive(), "it waits for b within the grace period");
            release("b");
            assertTrue(p.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS), "exits once its jobs are done");
            assertEquals(0, p.exitValue(), Files.readString(dir.resolve("worker.log")));
            Map<String, Double> last = report();
            assertEquals(0.0, last.get("worker_jobs_in_flight"));
            assertEquals(2.0, last.get("worker_jobs_finished_total"));
            assertEquals(1.0, last.get("stopped"));
            assertTrue(Files.exists(jobs.resolve("c.job")), "nothing taken after SIGTERM");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void whenTheGraceRunsOutItExitsOneWithTheJobStillInFlight() throws Exception {
        Process p = start(0.3);
        try {
            job("slow");
            awaitReport("the job in flight", r -> is(r, "worker_jobs_in_flight", 1));
            p.destroy();
            assertTrue(p.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the grace period bounds the wait");
            assertEquals(1, p.exitValue(), Files.readString(dir.resolve("worker.log")));
            assertEquals(List.of(1.0, 1.0), List.of(report().get("worker_jobs_in_flight"), report().get("stopped")));
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * The Java twin compiles and behaves the same: marked, it takes nothing; unmarked, it takes; stopped, it
     * finishes its job within the grace period.
     */
    @Test
    void theJavaWorkerCompilesAndHonoursTheMark() throws Exception {
        Path out = Files.createDirectories(dir.resolve("classes"));
        javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        int code = javac.run(null, errors, errors, "-d", out.toString(), "-Xlint:all", "-Werror",
                "examples/worker/DrainingWorker.java");
        assertEquals(0, code, errors.toString());
        annotations = dir.resolve("annotations");
        annotate(Map.of("headroom.io/drain", "d-1"));
        java.util.concurrent.LinkedBlockingQueue<String> queue = new java.util.concurrent.LinkedBlockingQueue<>(
                List.of("j1"));
        java.util.concurrent.CountDownLatch handled = new java.util.concurrent.CountDownLatch(1);
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {out.toUri().toURL()})) {
            Class<?> cls = loader.loadClass("DrainingWorker");
            Class<?> takeType = loader.loadClass("DrainingWorker$Take");
            Object take = java.lang.reflect.Proxy.newProxyInstance(loader, new Class<?>[] {takeType},
                    (proxy, m, args) -> m.getName().equals("take")
                            ? queue.poll(((Duration) args[0]).toMillis(), TimeUnit.MILLISECONDS) : null);
            java.util.function.Consumer<Object> handle = j -> handled.countDown();
            Object worker = cls.getConstructor(takeType, java.util.function.Consumer.class, Path.class, int.class,
                    Duration.class).newInstance(take, handle, annotations, 2, Duration.ofSeconds(5));
            assertEquals(java.util.Optional.of("d-1"), cls.getMethod("drainMark").invoke(worker));
            Thread runner = new Thread(() -> {
                try {
                    cls.getMethod("run").invoke(worker);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }, "java-worker");
            runner.start();
            Await.until("the worker polling while marked", DEADLINE, () -> runner.getState(),
                    s -> s == Thread.State.TIMED_WAITING);
            assertEquals(1, queue.size(), "marked: nothing taken");
            annotate(Map.of("app", "mail"));
            assertTrue(handled.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "unmarked: the job is taken");
            cls.getMethod("stop").invoke(worker);
            runner.join(DEADLINE.toMillis());
            assertEquals(false, runner.isAlive());
            assertEquals(true, cls.getMethod("finishedAll").invoke(worker));
            assertEquals(0, cls.getMethod("inFlight").invoke(worker));
        }
    }
}
