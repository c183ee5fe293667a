import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A producer's gate that honours Headroom's admission (ADR 0027; copy it into your producer). It watches the
 * {@code headroom-admission} ConfigMap of its namespace with fabric8 and, for one class, admits a submission
 * when the class's entry says OPEN, at most {@code rate} per second (a token bucket, burst of one second's
 * worth) when THROTTLE, and never when CLOSED (then {@link #degradeTo()} names the class to send it to
 * instead, if any). Once the entry's {@code expiresAt} has passed (the console stopped refreshing it), or
 * while there is no entry at all, it applies its own default: fail-open or fail-closed, as constructed.
 *
 * <pre>{@code
 * try (AdmissionGate gate = new AdmissionGate(client, "shop", "orders", true, Clock.systemUTC())) {
 *     gate.start();
 *     if (gate.tryAcquire()) submit(job); else rejectOrRetryLater(job);
 * }
 * }</pre>
 */
public final class AdmissionGate implements BooleanSupplier, AutoCloseable {
    public static final String CONFIG_MAP = "headroom-admission";

    private final KubernetesClient client;
    private final String namespace;
    private final String className;
    private final boolean failOpen;
    private final Clock clock;
    private SharedIndexInformer<ConfigMap> informer;

    /** The class's entry as last seen (null: none), and the token bucket; guarded by this. */
    private Entry entry;
    private double tokens;
    private Instant refilledAt;

    record Entry(String state, double rate, Instant expiresAt, String degradeTo, String reason) {
    }

    /**
     * @param failOpen what to do without a live entry: true admits everything (the queue protects itself by its
     *                 own limits), false admits nothing (the work is expensive enough to wait for a console)
     * @param clock    the time the expiry and the bucket are judged by
     */
    public AdmissionGate(KubernetesClient client, String namespace, String className, boolean failOpen, Clock clock) {
        this.client = client;
        this.namespace = namespace;
        this.className = className;
        this.failOpen = failOpen;
        this.clock = clock;
    }

    /** Starts watching the ConfigMap (returns at once; until the first event the gate has no entry). */
    public synchronized void start() {
        informer = client.configMaps().inNamespace(namespace).withName(CONFIG_MAP)
                .inform(new ResourceEventHandler<ConfigMap>() {
                    @Override
                    public void onAdd(ConfigMap cm) {
                        seen(cm);
                    }

                    @Override
                    public void onUpdate(ConfigMap before, ConfigMap cm) {
                        seen(cm);
                    }

                    @Override
                    public void onDelete(ConfigMap cm, boolean unknownFinalState) {
                        seen(null);
                    }
                });
    }

    private void seen(ConfigMap cm) {
        Map<String, String> data = cm == null ? null : cm.getData();
        String json = data == null ? null : data.get(className);
        Entry e = null;
        if (json != null) {
            try {
                Map<?, ?> v = client.getKubernetesSerialization().unmarshal(json, Map.class);
                Object rate = v.get("rate");
                e = new Entry(String.valueOf(v.get("state")), rate instanceof Number n ? n.doubleValue() : 0,
                        Instant.parse(String.valueOf(v.get("expiresAt"))),
                        v.get("degradeTo") == null ? null : String.valueOf(v.get("degradeTo")),
                        v.get("reason") == null ? "" : String.valueOf(v.get("reason")));
            } catch (RuntimeException bad) {
                e = null; // not the contract's JSON: as if there were no entry (the default applies)
            }
        }
        synchronized (this) {
            boolean newRate = e == null || entry == null || !e.state().equals(entry.state())
                    || e.rate() != entry.rate();
            entry = e;
            if (newRate) {
                tokens = e != null && "THROTTLE".equals(e.state()) ? Math.max(1, e.rate()) : 0;
                refilledAt = clock.instant();
            }
        }
    }

    /** True once the ConfigMap has been listed (or found absent). */
    public synchronized boolean synced() {
        return informer != null && informer.hasSynced();
    }

    /** Whether one submission may go now; takes a token when throttled. */
    public synchronized boolean tryAcquire() {
        Instant now = clock.instant();
        Entry e = live(now);
        if (e == null) {
            return failOpen;
        }
        switch (e.state()) {
            case "OPEN":
                return true;
            case "THROTTLE":
                double burst = Math.max(1, e.rate());
                double seconds = Math.max(0, (now.toEpochMilli() - refilledAt.toEpochMilli()) / 1000.0);
                tokens = Math.min(burst, tokens + e.rate() * seconds);
                refilledAt = now;
                if (tokens >= 1) {
                    tokens -= 1;
                    return true;
                }
                return false;
            default: // CLOSED, or a state this producer does not know: the safe side
                return false;
        }
    }

    @Override
    public boolean getAsBoolean() {
        return tryAcquire();
    }

    /** What the gate applies now: "OPEN", "THROTTLE 2.5/s", "CLOSED", or "EXPIRED: fail-open" / "…fail-closed". */
    public synchronized String state() {
        Entry e = live(clock.instant());
        if (e == null) {
            return (entry == null ? "NONE" : "EXPIRED") + ": " + (failOpen ? "fail-open" : "fail-closed");
        }
        return "THROTTLE".equals(e.state()) ? "THROTTLE " + e.rate() + "/s" : e.state();
    }

    /** The class to send new work to while CLOSED, or null. */
    public synchronized String degradeTo() {
        Entry e = live(clock.instant());
        return e == null ? null : e.degradeTo();
    }

    private Entry live(Instant now) {
        return entry == null || !now.isBefore(entry.expiresAt()) ? null : entry;
    }

    @Override
    public synchronized void close() {
        if (informer != null) {
            informer.close();
        }
    }
}
