package io.headroom.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A workloads file for a fleet: {@code n} classes written as an operator with one broker per team
 * would write them, every signal a grouped query written once (a YAML anchor) and picked per class
 * by its {@code class} label, spread over 5 contexts and 50 namespaces, each class with an age
 * objective, a maximum and a static ceiling. The queries read the series {@code SharedPrometheus}'s
 * exporter serves ({@code hr_queue_length{class=…}} …), so the classes it knows get data and the
 * rest get none, said per class. Tests and benchmarks of the fleet size share it.
 */
public final class FleetFile {

    private FleetFile() {
    }

    /** The name of the {@code i}-th class: {@code fleet-00042}. */
    public static String className(int i) {
        return String.format(Locale.ROOT, "fleet-%05d", i);
    }

    /** The file's text: a {@code prometheus} section at {@code url} and {@code n} classes. */
    public static String text(String url, int n) {
        StringBuilder b = new StringBuilder(n * 520);
        b.append("prometheus:\n  url: ").append(url).append("\n  timeoutSeconds: 10\nclasses:\n");
        for (int i = 0; i < n; i++) {
            String name = className(i);
            b.append("  - name: ").append(name).append('\n')
                    .append("    context: prod-").append(i % 5).append('\n')
                    .append("    namespace: team-").append(i % 50).append('\n')
                    .append("    target: {kind: Deployment, name: worker-").append(name).append("}\n")
                    .append("    signals:\n");
            signal(b, "queueLength", "len", "sum by (class) (hr_queue_length)", name, i);
            signal(b, "oldestAge", "age", "max by (class) (hr_oldest_age_seconds)", name, i);
            signal(b, "arrivalRate", "arr", "sum by (class) (rate(hr_jobs_total[5s]))", name, i);
            signal(b, "meanService", "svc", "sum by (class) (rate(hr_service_seconds_sum[5s]))"
                    + " / sum by (class) (rate(hr_service_seconds_count[5s]))", name, i);
            signal(b, "queuedServiceSeconds", "qss", "sum by (class) (hr_queued_service_seconds)", name, i);
            signal(b, "replicas", "rep", "max by (class) (hr_replicas)", name, i);
            b.append("    policy: {slotsPerReplica: 4, maxAgeSeconds: 120, maxReplicas: 40,"
                    + " ceilings: [{name: tenant, replicas: 30}]}\n");
        }
        return b.toString();
    }

    /** Writes {@link #text} to {@code dir/fleet-N.yaml}. */
    public static Path write(Path dir, String url, int n) throws IOException {
        Path f = dir.resolve("fleet-" + n + ".yaml");
        Files.writeString(f, text(url, n));
        return f;
    }

    private static void signal(StringBuilder b, String signal, String anchor, String query, String name, int i) {
        b.append("      ").append(signal).append(": {grouped: ");
        if (i == 0) {
            b.append('&').append(anchor).append(" \"").append(query).append('"');
        } else {
            b.append('*').append(anchor);
        }
        b.append(", by: class, value: ").append(name).append("}\n");
    }
}
