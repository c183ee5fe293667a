package io.headroom.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second process on the test classpath: a console that crashes, or holds a lock, for real. Started for
 * a short life: the client compiler only and the serial collector (a probe runs a second or two; C2 and
 * a parallel collector cost it more CPU than they save). It talks in lines: {@link #ask} writes one to
 * its standard input and reads its next line of output.
 */
public final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final BufferedReader out;
    private final Writer in;

    private ChildJvm(Process process) {
        this.process = process;
        this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    /** Runs {@code main} with {@code args} in a JVM of its own (its standard error is discarded). */
    public static ChildJvm start(Class<?> main, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start());
    }

    public Process process() {
        return process;
    }

    /** Its next line of output; null once it has ended. Blocks until it prints or ends. */
    public String readLine() throws IOException {
        return out.readLine();
    }

    /** Sends {@code line} and returns its answer (its next line; "(no answer)" when it ended instead). */
    public String ask(String line) throws IOException {
        in.write(line + "\n");
        in.flush();
        String answer = out.readLine();
        return answer == null ? "(no answer)" : answer;
    }

    /** Closes its standard input (a probe that reads commands ends) and waits for it to end. */
    public int finish(long seconds) throws IOException, InterruptedException {
        in.close();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the child JVM did not end within " + seconds + " s");
        }
        return process.exitValue();
    }

    /** Ends it however it is (forcibly). */
    @Override
    public void close() {
        process.destroyForcibly();
    }
}
