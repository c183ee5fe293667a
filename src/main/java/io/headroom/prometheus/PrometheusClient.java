package io.headroom.prometheus;

import io.headroom.config.PrometheusEndpoint;
import io.headroom.config.UntrustedText;
import io.headroom.decision.Annotations;
import io.headroom.prometheus.ResponseDecoder.Answer;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ProtocolException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.Call;
import okhttp3.Credentials;
import okhttp3.FormBody;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A small Prometheus HTTP API client: {@code /api/v1/query} and {@code /api/v1/query_range}, over
 * OkHttp, decoded with Jackson's streaming parser. Every call returns an outcome (a value or typed
 * no data) and never throws for anything the network or the server does. Thread-safe; calls block
 * the calling thread for at most the endpoint's timeout, so never call it on the FX thread.
 */
public final class PrometheusClient implements AutoCloseable {

    /** Queries longer than this go as a POST form, so proxies' URL limits do not bite. */
    public static final int POST_THRESHOLD = 1500;
    /** Prometheus refuses ranges with more points per series than this. */
    public static final int MAX_POINTS = 11_000;
    /**
     * How far ahead of this machine's clock a sample may be dated and still be believed. Two hosts that
     * keep time (NTP) differ by milliseconds, a VM just resumed by seconds: a minute is far beyond that,
     * and short next to what a wrong date would do, since a sample from the future reads as fresh for as
     * long as it is ahead (a year, in the case that was found). Beyond it the answer is bad data.
     */
    public static final Duration FUTURE_TOLERANCE = Duration.ofSeconds(60);

    private final PrometheusEndpoint endpoint;
    private final HttpUrl queryUrl;
    private final HttpUrl rangeUrl;
    private final OkHttpClient http;
    private final Clock clock;
    private final String display;
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicReference<Instant> lastSuccess = new AtomicReference<>();
    private final AtomicReference<Failure> lastFailure = new AtomicReference<>();
    private final AtomicLong partialAnswers = new AtomicLong();
    private final AtomicReference<String> lastWarning = new AtomicReference<>();

    private record Failure(Instant at, NoDataReason reason, String message) {
    }

    private PrometheusClient(PrometheusEndpoint endpoint, OkHttpClient http, Clock clock) {
        this.endpoint = endpoint;
        HttpUrl base = HttpUrl.get(endpoint.url().toString());
        this.queryUrl = base.newBuilder().addPathSegments("api/v1/query").build();
        this.rangeUrl = base.newBuilder().addPathSegments("api/v1/query_range").build();
        this.http = http;
        this.clock = clock;
        this.display = base.toString();
    }

    /**
     * Sets up a client: reads the bearer token or password now (from its file or environment
     * variable), builds the trust store from the CA file, or turns verification off when the
     * endpoint says so explicitly. Makes no request.
     *
     * @param env the environment, {@code System::getenv} in production
     */
    public static PrometheusClient connect(PrometheusEndpoint endpoint, Function<String, String> env, Clock clock)
            throws PrometheusSetupException {
        OkHttpClient.Builder b = new OkHttpClient.Builder()
                .callTimeout(endpoint.timeout())
                .connectTimeout(endpoint.timeout())
                .readTimeout(endpoint.timeout())
                .writeTimeout(endpoint.timeout())
                .followRedirects(false);
        String authorization = authorization(endpoint, env);
        b.addInterceptor(chain -> {
            Request.Builder r = chain.request().newBuilder().header("User-Agent", "headroom")
                    .header("Accept", "application/json");
            if (authorization != null) {
                r.header("Authorization", authorization);
            }
            return chain.proceed(r.build());
        });
        if ("http".equalsIgnoreCase(endpoint.url().getScheme())) {
            // Plain http, redirects not followed: no TLS to set up. OkHttp otherwise reads and parses the JDK's trust
            // store when the client is built (a fifth of the console's connect thread at start-up, issue 28).
            b.connectionSpecs(java.util.List.of(okhttp3.ConnectionSpec.CLEARTEXT));
        } else if (endpoint.insecureSkipVerify()) {
            X509TrustManager trustAll = new TrustAll();
            b.sslSocketFactory(sslContext(trustAll).getSocketFactory(), trustAll);
            b.hostnameVerifier((host, session) -> true);
        } else if (endpoint.caFile() != null) {
            X509TrustManager tm = trustManager(endpoint);
            b.sslSocketFactory(sslContext(tm).getSocketFactory(), tm);
        }
        return new PrometheusClient(endpoint, b.build(), clock);
    }

    public static PrometheusClient connect(PrometheusEndpoint endpoint) throws PrometheusSetupException {
        return connect(endpoint, System::getenv, Clock.systemUTC());
    }

    private static String authorization(PrometheusEndpoint e, Function<String, String> env)
            throws PrometheusSetupException {
        try {
            // Checked here, not in OkHttp: a bad header there is an exception inside a tick's query.
            if (e.bearerToken() != null) {
                return "Bearer " + e.bearerToken().readToken(env);
            }
            if (e.basicAuth() != null) {
                String password = e.basicAuth().password().readPassword(env);
                io.headroom.LoadedSecrets.addBasic(e.basicAuth().username(), password); // and the header's base64
                return Credentials.basic(e.basicAuth().username(), password, StandardCharsets.UTF_8);
            }
            return null;
        } catch (IllegalStateException ex) {
            throw new PrometheusSetupException("prometheus credentials: " + ex.getMessage());
        }
    }

    private static X509TrustManager trustManager(PrometheusEndpoint e) throws PrometheusSetupException {
        try (InputStream in = Files.newInputStream(e.caFile())) {
            Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certs.isEmpty()) {
                throw new PrometheusSetupException("caFile " + e.caFile() + ": no certificate in it");
            }
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : certs) {
                ks.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            for (TrustManager tm : tmf.getTrustManagers()) {
                if (tm instanceof X509TrustManager x) {
                    return x;
                }
            }
            throw new PrometheusSetupException("caFile " + e.caFile() + ": no X.509 trust manager");
        } catch (IOException | GeneralSecurityException ex) {
            throw new PrometheusSetupException("caFile " + e.caFile() + ": not a PEM certificate file ("
                    + PlainFailure.words(ex) + ")");
        }
    }

    private static SSLContext sslContext(X509TrustManager tm) throws PrometheusSetupException {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {tm}, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new PrometheusSetupException("TLS setup failed: " + PlainFailure.words(e));
        }
    }

    /** Accepts every certificate: only behind the explicit {@code insecureSkipVerify: true}. */
    private static final class TrustAll implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // trusts everything, by explicit configuration
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // trusts everything, by explicit configuration
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    // ------------------------------------------------------------ queries

    /** The base URL, for the top bar and messages. */
    public String url() {
        return display;
    }

    /** True when TLS verification is off (explicit {@code insecureSkipVerify}): the UI should warn. */
    public boolean insecure() {
        return endpoint.insecureSkipVerify();
    }

    public Duration timeout() {
        return endpoint.timeout();
    }

    /** True when a credential goes over plain http to another machine (allowed explicitly): the UI should warn. */
    public boolean credentialsInClearText() {
        return endpoint.credentialsInClearText();
    }

    /** An instant query at Prometheus's current time. */
    public QueryOutcome query(String promql) {
        return query(promql, null, false);
    }

    /**
     * An instant query.
     *
     * @param time  evaluation time, or null for Prometheus's now
     * @param stats ask Prometheus for its query statistics ({@code stats=all})
     */
    public QueryOutcome query(String promql, Instant time, boolean stats) {
        FormBody.Builder form = new FormBody.Builder().add("query", promql);
        if (time != null) {
            form.add("time", seconds(time));
        }
        if (stats) {
            form.add("stats", "all");
        }
        Call call = http.newCall(request(queryUrl, promql, form.build()));
        Object r = execute(call);
        if (r instanceof QueryOutcome.NoData n) {
            return n;
        }
        Answer a = (Answer) r;
        Annotations notes = a.annotations();
        if (a.bare) {
            if ("string".equals(a.resultType)) {
                return new QueryOutcome.NoData(NoDataReason.QUERY_ERROR, "the query's result is a string, not a number",
                        notes);
            }
            return value(a.values[0], a.times[0], a.stats, notes);
        }
        if ("matrix".equals(a.resultType)) {
            return new QueryOutcome.NoData(NoDataReason.QUERY_ERROR,
                    "the query returns a range vector; wrap it in a function such as rate() or last_over_time()", notes);
        }
        if (a.series == 0) {
            return new QueryOutcome.NoData(NoDataReason.EMPTY_RESULT, "the query matched no series"
                    + GroupedOutcome.partialNote(notes), notes);
        }
        if (a.series > 1) {
            return new QueryOutcome.NoData(NoDataReason.MULTIPLE_SERIES, "the query returned " + a.series
                    + " series; aggregate it to one (e.g. sum(…) or max(…))", notes);
        }
        if (a.firstIsHistogram()) {
            return nativeHistogram(notes);
        }
        return value(a.values[0], a.times[0], a.stats, notes);
    }

    private static QueryOutcome.NoData nativeHistogram(Annotations notes) {
        return new QueryOutcome.NoData(NoDataReason.NATIVE_HISTOGRAM, NATIVE_HISTOGRAM, notes);
    }

    /** What a native histogram where a number is needed is told. */
    static final String NATIVE_HISTOGRAM = "a native histogram where a number is needed: wrap it in histogram_count,"
            + " histogram_sum or histogram_quantile";

    private static QueryOutcome value(double v, double ts, QueryOutcome.QueryStats stats, Annotations notes) {
        if (!Double.isFinite(v)) {
            return new QueryOutcome.NoData(NoDataReason.NAN_OR_INF, "value is " + (Double.isNaN(v) ? "NaN"
                    : v > 0 ? "+Inf" : "-Inf"), notes);
        }
        return new QueryOutcome.Value(v, ResponseDecoder.instant(ts), stats, notes);
    }

    /** The longest label value kept as a key: a Kubernetes name has at most 253 characters. */
    static final int MAX_KEY_LENGTH = 253;

    /**
     * An instant query whose series are told apart by one label: each series' value by that label's
     * value (series without the label, or whose value is not plain text of at most {@value #MAX_KEY_LENGTH}
     * characters, are left out). No series is an empty map, not no data: the
     * caller knows what an absent key means. NaN/Inf values are kept; a native histogram is NaN (no number).
     * Two series with the same label value are {@code MULTIPLE_SERIES}, never one of them picked.
     */
    public VectorOutcome queryByLabel(String promql, String label) {
        return queryByLabel(promql, label, MAX_KEY_LENGTH);
    }

    /** {@link #queryByLabel(String, String)} keeping keys of up to {@code maxKeyLength} characters. */
    VectorOutcome queryByLabel(String promql, String label, int maxKeyLength) {
        Object r = instantByLabel(promql, label);
        if (r instanceof QueryOutcome.NoData n) {
            return n;
        }
        Answer a = (Answer) r;
        Annotations notes = a.annotations();
        if (a.bare || !"vector".equals(a.resultType)) {
            return new QueryOutcome.NoData(NoDataReason.MALFORMED, "expected an instant vector, got " + a.resultType,
                    notes);
        }
        java.util.Map<String, Double> byKey = new java.util.LinkedHashMap<>();
        for (int i = 0; i < a.keys.size(); i++) {
            String k = a.keys.get(i);
            if (k != null && (k.length() > maxKeyLength || UntrustedText.firstUnsafe(k) >= 0)) {
                continue; // no pod (nor anything else this is asked for) is named so: never a key, never in a message
            }
            if (k != null && byKey.put(k, a.values[i]) != null) {
                // Picking one would be a guess (a pod read as 0 on one series and 3 on another looks idle).
                return new QueryOutcome.NoData(NoDataReason.MULTIPLE_SERIES, "several series have " + label + "=\""
                        + ResponseDecoder.abbreviate(k, 80) + "\"; aggregate with sum by (" + label + ")", notes);
            }
        }
        return new VectorOutcome.Samples(byKey, notes);
    }

    /**
     * A grouped instant query: one series per value of {@code label}, split into one outcome per
     * value (a {@link QueryOutcome.Value}, or {@code NAN_OR_INF}, {@code NATIVE_HISTOGRAM}, or
     * {@code MULTIPLE_SERIES} when several series share the value), each with the answer's warnings and
     * infos. Series without the label, or whose value is not plain text of at most {@value #MAX_KEY_LENGTH}
     * characters, pick no class and are left out. A failed request is one {@link QueryOutcome.NoData}
     * for every class that shares the query.
     */
    public GroupedOutcome queryGrouped(String promql, String label) {
        Object r = instantByLabel(promql, label);
        if (r instanceof QueryOutcome.NoData n) {
            return n;
        }
        Answer a = (Answer) r;
        Annotations notes = a.annotations();
        if ("matrix".equals(a.resultType)) {
            return new QueryOutcome.NoData(NoDataReason.QUERY_ERROR,
                    "the query returns a range vector; wrap it in a function such as rate() or last_over_time()", notes);
        }
        if (a.bare || !"vector".equals(a.resultType)) {
            return new QueryOutcome.NoData(NoDataReason.QUERY_ERROR, "a grouped query must return an instant vector"
                    + " with a series per " + label + ", got a " + a.resultType, notes);
        }
        java.util.Map<String, QueryOutcome> byValue = new java.util.LinkedHashMap<>();
        java.util.Map<String, Integer> count = new java.util.HashMap<>();
        for (int i = 0; i < a.keys.size(); i++) {
            String k = a.keys.get(i);
            if (k == null || k.length() > MAX_KEY_LENGTH || UntrustedText.firstUnsafe(k) >= 0) {
                continue;
            }
            int n = count.merge(k, 1, Integer::sum);
            byValue.put(k, n > 1 ? GroupedOutcome.multiple(label, k, n)
                    : a.histogram.get(i) ? nativeHistogram(notes) : value(a.values[i], a.times[i], null, notes));
        }
        return new GroupedOutcome.Split(label, byValue, a.series, notes);
    }

    /**
     * A grouped range query: each value of {@code label} gets its series (NaN where Prometheus said
     * NaN or ±Inf), or {@code MULTIPLE_SERIES} when several share the value, or {@code NATIVE_HISTOGRAM}.
     * The step must keep the series within {@link #MAX_POINTS}.
     */
    public GroupedOutcome.Range queryRangeGrouped(String promql, String label, Instant start, Instant end,
                                                  Duration step) {
        FormBody form = rangeForm(promql, start, end, step);
        Object r = execute(http.newCall(request(rangeUrl, promql, form)), label);
        if (r instanceof QueryOutcome.NoData n) {
            return new GroupedOutcome.Range(label, null, n);
        }
        Answer a = (Answer) r;
        Annotations notes = a.annotations();
        if (a.bare || !"matrix".equals(a.resultType)) {
            return new GroupedOutcome.Range(label, null,
                    new QueryOutcome.NoData(NoDataReason.MALFORMED, "a range query returned " + a.resultType, notes));
        }
        java.util.Map<String, RangeOutcome> byValue = new java.util.LinkedHashMap<>();
        for (int i = 0; i < a.keys.size(); i++) {
            String k = a.keys.get(i);
            if (k == null || k.length() > MAX_KEY_LENGTH || UntrustedText.firstUnsafe(k) >= 0) {
                continue;
            }
            if (byValue.containsKey(k)) {
                QueryOutcome.NoData m = GroupedOutcome.multiple(label, k, 2);
                byValue.put(k, new RangeOutcome.NoData(m.reason(), m.message()));
                continue;
            }
            if (a.histogram.get(i)) {
                byValue.put(k, new RangeOutcome.NoData(NoDataReason.NATIVE_HISTOGRAM, NATIVE_HISTOGRAM));
                continue;
            }
            int from = a.starts.get(i);
            int to = i + 1 < a.starts.size() ? a.starts.get(i + 1) : a.size;
            byValue.put(k, series(a, from, to, notes));
        }
        return new GroupedOutcome.Range(label, byValue, null, notes);
    }

    /** One series' points, NaN for NaN and ±Inf. */
    private static RangeOutcome.Series series(Answer a, int from, int to, Annotations notes) {
        double[] times = java.util.Arrays.copyOfRange(a.times, from, to);
        double[] values = java.util.Arrays.copyOfRange(a.values, from, to);
        for (int j = 0; j < values.length; j++) {
            if (!Double.isFinite(values[j])) {
                values[j] = Double.NaN;
            }
        }
        return new RangeOutcome.Series(times, values, notes);
    }

    private static FormBody rangeForm(String promql, Instant start, Instant end, Duration step) {
        if (step.isZero() || step.isNegative() || end.isBefore(start)) {
            throw new IllegalArgumentException("a range needs start <= end and a positive step");
        }
        long points = Duration.between(start, end).toMillis() / Math.max(1, step.toMillis()) + 1;
        if (points > MAX_POINTS) {
            throw new IllegalArgumentException(points + " points per series is over Prometheus's " + MAX_POINTS);
        }
        return new FormBody.Builder().add("query", promql).add("start", seconds(start))
                .add("end", seconds(end)).add("step", seconds(step)).build();
    }

    /**
     * A range query. The step must keep the series within {@link #MAX_POINTS}; see {@link HistoryStep}.
     * Non-finite values come back as NaN (gaps).
     */
    public RangeOutcome queryRange(String promql, Instant start, Instant end, Duration step) {
        FormBody form = rangeForm(promql, start, end, step);
        Object r = execute(http.newCall(request(rangeUrl, promql, form)));
        if (r instanceof QueryOutcome.NoData n) {
            return new RangeOutcome.NoData(n.reason(), n.message());
        }
        Answer a = (Answer) r;
        Annotations notes = a.annotations();
        if (a.bare || !"matrix".equals(a.resultType)) {
            return new RangeOutcome.NoData(NoDataReason.MALFORMED, "a range query returned " + a.resultType);
        }
        if (a.series == 0) {
            return new RangeOutcome.NoData(NoDataReason.EMPTY_RESULT, "the query matched no series in the range"
                    + GroupedOutcome.partialNote(notes));
        }
        if (a.series > 1) {
            return new RangeOutcome.NoData(NoDataReason.MULTIPLE_SERIES, "the query returned " + a.series
                    + " series; aggregate it to one (e.g. sum(…) or max(…))");
        }
        if (a.firstIsHistogram()) {
            return new RangeOutcome.NoData(NoDataReason.NATIVE_HISTOGRAM, NATIVE_HISTOGRAM);
        }
        return series(a, 0, a.size, notes);
    }

    /** GET with the parameters in the URL, or a POST form when the query is long. */
    private static Request request(HttpUrl url, String promql, FormBody form) {
        if (promql.length() > POST_THRESHOLD) {
            return new Request.Builder().url(url).post(form).build();
        }
        HttpUrl.Builder u = url.newBuilder();
        for (int i = 0; i < form.size(); i++) {
            u.addQueryParameter(form.name(i), form.value(i));
        }
        return new Request.Builder().url(u.build()).get().build();
    }

    /** Runs a call: a decoded successful answer, or a NoData. Records health. */
    /** An instant query whose series are keyed by {@code label}: its {@link Answer}, or the NoData it failed with. */
    private Object instantByLabel(String promql, String label) {
        FormBody form = new FormBody.Builder().add("query", promql).build();
        return execute(http.newCall(request(queryUrl, promql, form)), label);
    }

    private Object execute(Call call) {
        return execute(call, null);
    }

    private Object execute(Call call, String keyLabel) {
        requests.incrementAndGet();
        try (Response response = call.execute()) {
            return answer(response, keyLabel);
        } catch (InterruptedIOException e) {
            return fail(NoDataReason.TIMEOUT, "no answer within " + seconds(endpoint.timeout()) + " s");
        } catch (SSLException e) {
            return fail(NoDataReason.TLS_FAILURE, "TLS: " + PlainFailure.words(e));
        } catch (ProtocolException e) {
            return fail(NoDataReason.MALFORMED, "not an HTTP answer Prometheus sends (" + PlainFailure.words(e) + ")");
        } catch (IOException e) {
            return fail(NoDataReason.UNREACHABLE, PlainFailure.words(e));
        }
    }

    /** The answer read to its end: decoded, or why not. */
    private Object answer(Response response, String keyLabel) throws IOException {
        int code = response.code();
        boolean ok = code >= 200 && code <= 299;
        Answer a;
        try {
            a = ResponseDecoder.decode(response.body().byteStream(), keyLabel, notAfter());
        } catch (ResponseDecoder.MalformedException e) {
            if (!ok) {
                return fail(NoDataReason.HTTP_ERROR, "HTTP " + code + statusText(response));
            }
            return fail(NoDataReason.MALFORMED, "the answer is not Prometheus's: " + e.getMessage());
        } catch (ProtocolException e) {
            // OkHttp checks the body against its Content-Length (or chunks) once the decoder reads to the end.
            return fail(NoDataReason.MALFORMED, "the answer is shorter than the length it announced, or broken off ("
                    + PlainFailure.words(e) + ")");
        }
        Annotations notes = a.annotations();
        if (!a.success()) {
            PrometheusError type = PrometheusError.of(a.errorType);
            String said = type == null ? (a.errorType == null ? "error" : "error \"" + ResponseDecoder.abbreviate(
                    a.errorType, 40) + "\"") : type.words();
            return fail(type == null ? NoDataReason.QUERY_ERROR : type.reason(), said + ": "
                    + ResponseDecoder.abbreviate(a.error == null ? "(no message)" : a.error, 300)
                    + (code == 200 ? "" : " (HTTP " + code + ")") + GroupedOutcome.partialNote(notes), notes);
        }
        if (!ok) {
            // client_golang's "inconsistent body for response code": a success on an error status is not believed.
            return fail(NoDataReason.MALFORMED, "HTTP " + code + statusText(response)
                    + " with a success body: the two disagree");
        }
        lastSuccess.set(clock.instant());
        if (notes.partial()) {
            partialAnswers.incrementAndGet();
            lastWarning.set(notes.warnings().get(0));
        }
        return a;
    }

    /** The latest sample time believed now: this machine's clock plus {@link #FUTURE_TOLERANCE}. */
    private double notAfter() {
        Instant now = clock.instant();
        return now.getEpochSecond() + now.getNano() / 1e9 + FUTURE_TOLERANCE.toMillis() / 1000.0;
    }

    private static String statusText(Response r) {
        return r.message().isEmpty() ? "" : " " + ResponseDecoder.abbreviate(r.message(), 80);
    }

    private QueryOutcome.NoData fail(NoDataReason reason, String message) {
        return fail(reason, message, Annotations.NONE);
    }

    private QueryOutcome.NoData fail(NoDataReason reason, String message, Annotations notes) {
        failures.incrementAndGet();
        lastFailure.set(new Failure(clock.instant(), reason, message));
        return new QueryOutcome.NoData(reason, message, notes);
    }

    /** A snapshot of the connection's health. */
    public PrometheusHealth health() {
        Failure f = lastFailure.get();
        return new PrometheusHealth(display, insecure(), requests.get(), failures.get(), lastSuccess.get(),
                f == null ? null : f.at(), f == null ? null : f.reason(), f == null ? null : f.message(),
                partialAnswers.get(), lastWarning.get());
    }

    /** Prometheus's time format: decimal epoch seconds. */
    static String seconds(Instant t) {
        return String.format(Locale.ROOT, "%d.%03d", t.getEpochSecond(), t.getNano() / 1_000_000);
    }

    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? Long.toString(ms / 1000) : String.format(Locale.ROOT, "%.3f", ms / 1000.0);
    }

    @Override
    public void close() {
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }

    @Override
    public String toString() {
        return "PrometheusClient[" + display + (insecure() ? ", insecure" : "") + "]";
    }
}
