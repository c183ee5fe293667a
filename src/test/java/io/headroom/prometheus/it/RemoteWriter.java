package io.headroom.prometheus.it;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a {@link TestExporter}'s series into a real Prometheus through its remote-write receiver
 * ({@code POST /api/v1/write}, protobuf {@code WriteRequest} in snappy's block format), on a fixed grid
 * of sample times, instead of waiting for Prometheus to scrape them.
 *
 * <p>Why: Prometheus sends its first scrape 5–10 s after it is ready (its discovery and scrape managers
 * each wait on a 5 s ticker), and a test that needs N seconds of samples (a rate window, a backfill's
 * newest steps) then waits N seconds more. Written samples are queryable at once, and a history of
 * {@link #HISTORY} before the first write is there from the start. Each sample is the series' value at
 * its own grid time (a counter's is exact for that instant), so a loaded machine that runs the writer
 * late makes no gap and no wrong rate; the writer stays {@link #LEAD} ahead of the wall clock for the
 * same reason (a query at "now" only sees samples at or before now). A series with its own sample time
 * ({@link TestExporter#gaugeAt}) is written once at that time and never again, like a sender that stopped.
 */
final class RemoteWriter {
    /** The grid: one sample per series every second, as a 1 s scrape interval gave (a 5 s rate window holds five). */
    static final long STEP_MS = 1000;
    /**
     * How far before the first write the series already have samples: more than the longest a test reads back
     * (the week's backfill reads a 5 s rate at a settled minute up to 120 s old, so 126 s), and far less than
     * the 15 minutes before which a test expects no data. 30 s made that test wait 96 s in a fresh test JVM.
     */
    static final Duration HISTORY = Duration.ofSeconds(150);
    /** How far ahead of the wall clock the grid is written. */
    static final Duration LEAD = Duration.ofSeconds(2);

    private static final Pattern LABEL = Pattern.compile("\\s*([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"\\s*,?");

    private final TestExporter exporter;
    private final URI write;
    /** Per series key: the newest grid time written (epoch ms), or its own sample time once written. */
    private final Map<String, Long> written = new HashMap<>();
    private boolean first = true;

    RemoteWriter(TestExporter exporter, URI prometheus) {
        this.exporter = exporter;
        this.write = prometheus.resolve("/api/v1/write");
    }

    /**
     * Writes every grid sample not yet written up to {@code nowMillis + LEAD}: the history for series
     * seen for the first time at the first call, from the current grid step for series added later.
     */
    synchronized void writeUpTo(long nowMillis) throws IOException {
        long upTo = floor(nowMillis + LEAD.toMillis());
        long newFrom = first ? floor(nowMillis - HISTORY.toMillis()) : floor(nowMillis);
        ByteArrayOutputStream body = new ByteArrayOutputStream(1 << 16);
        Map<String, Long> next = new HashMap<>();
        for (TestExporter.Series s : exporter.snapshot()) {
            Long done = written.get(s.key());
            ByteArrayOutputStream ts = new ByteArrayOutputStream(256);
            labels(ts, s);
            int samples = 0;
            if (s.ownTime() >= 0) {
                if (done == null || done != s.ownTime()) {
                    sample(ts, s.valueAt(s.ownTime()), s.ownTime());
                    samples++;
                    next.put(s.key(), s.ownTime());
                }
            } else {
                long from = done == null ? newFrom : done + STEP_MS;
                for (long t = from; t <= upTo; t += STEP_MS) {
                    sample(ts, s.valueAt(t), t);
                    samples++;
                }
                if (samples > 0) {
                    next.put(s.key(), upTo);
                }
            }
            if (samples > 0) {
                field(body, 1, ts.toByteArray());
            }
        }
        if (body.size() > 0) {
            post(body.toByteArray());
        }
        written.putAll(next); // only once Prometheus took them: a failed write is sent again
        first = false;
    }

    /** A plain HttpURLConnection: it costs a cold JVM far less than java.net.http's client to set up. */
    private void post(byte[] proto) throws IOException {
        byte[] body = snappy(proto);
        HttpURLConnection c = (HttpURLConnection) write.toURL().openConnection();
        try {
            c.setConnectTimeout(5000);
            c.setReadTimeout(20000);
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.setFixedLengthStreamingMode(body.length);
            c.setRequestProperty("Content-Type", "application/x-protobuf");
            c.setRequestProperty("Content-Encoding", "snappy");
            c.setRequestProperty("X-Prometheus-Remote-Write-Version", "0.1.0");
            try (OutputStream out = c.getOutputStream()) {
                out.write(body);
            }
            int code = c.getResponseCode();
            if (code / 100 != 2) {
                InputStream e = c.getErrorStream();
                String why = e == null ? "" : new String(e.readAllBytes(), StandardCharsets.UTF_8);
                throw new IOException("remote write answered " + code + ": " + why);
            }
        } finally {
            c.disconnect();
        }
    }

    private static long floor(long millis) {
        return Math.floorDiv(millis, STEP_MS) * STEP_MS;
    }

    /** The series' labels (sorted by name, as Prometheus requires), {@code __name__} and the job's. */
    private static void labels(ByteArrayOutputStream out, TestExporter.Series s) {
        Map<String, String> l = new TreeMap<>();
        Matcher m = LABEL.matcher(s.labels());
        int at = 0;
        while (at < s.labels().length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("labels not understood: " + s.labels());
            }
            l.put(m.group(1), m.group(2).replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\"));
            at = m.end();
        }
        l.put("__name__", s.name());
        l.put("job", "headroom-test");
        for (Map.Entry<String, String> e : l.entrySet()) {
            ByteArrayOutputStream label = new ByteArrayOutputStream();
            field(label, 1, e.getKey().getBytes(StandardCharsets.UTF_8));
            field(label, 2, e.getValue().getBytes(StandardCharsets.UTF_8));
            field(out, 1, label.toByteArray());
        }
    }

    /** TimeSeries.samples (2): Sample{value (1, double), timestamp (2, int64 ms)}. */
    private static void sample(ByteArrayOutputStream out, double value, long millis) {
        ByteArrayOutputStream s = new ByteArrayOutputStream(16);
        s.write(1 << 3 | 1);
        long bits = Double.doubleToLongBits(value); // a plain NaN, never Prometheus's stale marker
        for (int i = 0; i < 8; i++) {
            s.write((int) (bits >>> (8 * i)));
        }
        s.write(2 << 3);
        varint(s, millis);
        field(out, 2, s.toByteArray());
    }

    /** A length-delimited protobuf field. */
    private static void field(ByteArrayOutputStream out, int number, byte[] bytes) {
        out.write(number << 3 | 2);
        varint(out, bytes.length);
        out.writeBytes(bytes);
    }

    private static void varint(ByteArrayOutputStream out, long v) {
        while ((v & ~0x7FL) != 0) {
            out.write((int) (v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write((int) v);
    }

    /** Snappy's block format with no compression: the length, then the bytes as one literal. */
    static byte[] snappy(byte[] raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length + 10);
        varint(out, raw.length);
        if (raw.length > 0) {
            int n = raw.length - 1;
            out.write(63 << 2); // a literal whose length - 1 follows in four bytes
            for (int i = 0; i < 4; i++) {
                out.write(n >>> (8 * i));
            }
            out.writeBytes(raw);
        }
        return out.toByteArray();
    }
}
