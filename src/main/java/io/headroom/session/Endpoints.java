package io.headroom.session;

import io.headroom.kube.KubeClusterGateway;
import io.headroom.prometheus.NoDataReason;
import io.headroom.prometheus.PrometheusHealth;
import io.headroom.prometheus.PrometheusMetricsSource;
import java.util.ArrayList;
import java.util.List;

/**
 * What a console opened from a workloads file is connected to, endpoint by endpoint, in plain words:
 * the Prometheus URL and each kubeconfig context, each connecting, ok, failed (why) or timed out. For
 * the console's connection progress; the sandbox has none. Reading it is field reads only (no request
 * is made), so the FX thread may poll it.
 */
public final class Endpoints {
    private Endpoints() {
    }

    public enum State { CONNECTING, OK, FAILED, TIMED_OUT }

    /**
     * @param what    {@code Prometheus} or {@code context prod-eu-1}
     * @param address the URL or API server (never with credentials)
     * @param reason  why it failed, in words; null unless FAILED or TIMED_OUT
     */
    public record Endpoint(String what, String address, State state, String reason) {
        /** One line: {@code Prometheus http://… — failed: connection refused}. */
        public String line() {
            return what + " " + address + " — " + switch (state) {
                case CONNECTING -> "connecting…";
                case OK -> "ok";
                case FAILED -> "failed: " + reason;
                case TIMED_OUT -> "timed out: " + reason;
            };
        }

        public boolean decided() {
            return state != State.CONNECTING;
        }
    }

    /** The session's endpoints; empty for the sandbox. */
    public static List<Endpoint> of(Session session) {
        List<Endpoint> out = new ArrayList<>();
        if (session.isSandbox()) {
            return out;
        }
        if (session.loop().metrics() instanceof PrometheusMetricsSource p) {
            out.add(prometheus(p.details().connection()));
        }
        session.loop().cluster().byContext().forEach((context, ports) -> {
            PendingContext pending = ports.adapter(PendingContext.class).orElse(null);
            if (pending != null && !pending.built().isDone()) { // its client is still being built
                out.add(new Endpoint("context " + context, pending.server(), State.CONNECTING, null));
            } else if (pending != null && pending.failure() != null) {
                out.add(new Endpoint("context " + context, pending.server(), State.FAILED, plain(pending.failure())));
            } else {
                ports.adapter(KubeClusterGateway.class) // built: field reads from here on
                        .ifPresent(kube -> out.add(kube("context " + context, kube.firstContact())));
            }
        });
        return out;
    }

    static Endpoint prometheus(PrometheusHealth h) {
        return switch (h.state()) {
            case UNKNOWN -> new Endpoint("Prometheus", h.url(), State.CONNECTING, null);
            case OK -> new Endpoint("Prometheus", h.url(), State.OK, null);
            case FAILING -> h.lastFailureReason() == NoDataReason.TIMEOUT
                    ? new Endpoint("Prometheus", h.url(), State.TIMED_OUT, "no answer within the timeout")
                    : new Endpoint("Prometheus", h.url(), State.FAILED, plain(h.lastFailure()));
        };
    }

    static Endpoint kube(String what, KubeClusterGateway.FirstContact c) {
        if (c.connected()) {
            return new Endpoint(what, c.server(), State.OK, null);
        }
        if (c.timedOut()) {
            // A failure after the first contact timed out is most often the client giving up on the
            // request it sent into silence ("Socket closed"): still a timeout, with what came after.
            return new Endpoint(what, c.server(), State.TIMED_OUT, c.failure() == null
                    ? "no answer yet (still trying in the background)"
                    : "no answer within the timeout (then: " + plain(c.failure()) + ")");
        }
        if (c.failure() != null) {
            return new Endpoint(what, c.server(), State.FAILED, plain(c.failure()));
        }
        return new Endpoint(what, c.server(), State.CONNECTING, null);
    }

    /** A failure's text in words: class names go, a known kind is said ("connection refused (127.0.0.1:9)"). */
    static String plain(String message) {
        String m = io.headroom.ErrorWords.clean(message);
        return m.isEmpty() ? "no reason given" : m;
    }
}
