package io.headroom.kube;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.headroom.cluster.WorkloadRef;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One actuator per class: a {@code coordination.k8s.io/v1} Lease per scale target, named
 * {@code headroom-<kind>-<name>} in the target's namespace. The console that holds it may actuate;
 * the others see the holder and observe. Held leases are renewed every {@code duration / 3} on an
 * injected scheduler ({@link #renewAll()} is the whole tick, so tests call it with a manual clock),
 * released on {@link #close()}, and taken over only after the holder let it expire. Every write
 * carries the resourceVersion it read, so two consoles racing for one lease cannot both win.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LeaseKeeper.class.getName());

    private final KubernetesClient client;
    private final String identity;
    private final Clock clock;
    private final Duration duration;
    private final Map<WorkloadRef, LeaseState> wanted = new LinkedHashMap<>();
    private ScheduledFuture<?> task;

    public LeaseKeeper(KubernetesClient client, String identity, Clock clock, Duration duration) {
        if (duration.toSeconds() < 3) {
            throw new IllegalArgumentException("lease duration must be at least 3 s, got " + duration);
        }
        this.client = client;
        this.identity = identity;
        this.clock = clock;
        this.duration = duration;
    }

    public String identity() {
        return identity;
    }

    public Duration duration() {
        return duration;
    }

    /** Lease name for a scale target. */
    public static String leaseName(WorkloadRef ref) {
        String n = ("headroom-" + ref.kind() + "-" + ref.name()).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        return n.length() > 253 ? n.substring(0, 253) : n;
    }

    /** Renews {@link #renewAll()} every duration / 3 on {@code scheduler} until {@link #close()}. */
    public synchronized void start(ScheduledExecutorService scheduler) {
        if (task != null) {
            task.cancel(false);
        }
        long period = Math.max(1000, duration.toMillis() / 3);
        task = scheduler.scheduleWithFixedDelay(this::safeRenewAll, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Wants the lease for {@code ref} and tries to take it now: creates it when absent, renews it
     * when ours, takes it over when the holder let it expire, and otherwise records the holder.
     */
    public synchronized LeaseState acquire(WorkloadRef ref) {
        LeaseState s = attempt(ref);
        wanted.put(ref, s);
        return s;
    }

    /** Renews every held lease and retries every wanted one (takeover after expiry). One scheduler tick. */
    public synchronized void renewAll() {
        for (WorkloadRef ref : List.copyOf(wanted.keySet())) {
            wanted.put(ref, attempt(ref));
        }
    }

    /** The last seen state of the lease for {@code ref}, if this console wants it. */
    public synchronized Optional<LeaseState> state(WorkloadRef ref) {
        return Optional.ofNullable(wanted.get(ref));
    }

    /** Every lease this console wants, with its last seen state (for the top bar). */
    public synchronized Map<WorkloadRef, LeaseState> states() {
        return Map.copyOf(wanted);
    }

    /** Whether this console holds the lease now (by its own clock: a lease it failed to renew lapses). */
    public synchronized boolean holds(WorkloadRef ref) {
        LeaseState s = wanted.get(ref);
        return s != null && s.mine() && s.expiresAt() != null && clock.instant().isBefore(s.expiresAt());
    }

    /** Gives the lease up (other consoles may take it at once) and stops wanting it. */
    public synchronized void release(WorkloadRef ref) {
        LeaseState s = wanted.remove(ref);
        if (s == null || !s.mine()) {
            return;
        }
        try {
            Lease l = client.leases().inNamespace(ref.namespace()).withName(s.leaseName()).get();
            if (l != null && identity.equals(l.getSpec().getHolderIdentity())) {
                l.getSpec().setHolderIdentity(null);
                l.getSpec().setRenewTime(null);
                client.leases().inNamespace(ref.namespace()).resource(l).update();
            }
        } catch (KubernetesClientException e) {
            // Not fatal: the lease simply expires after its duration.
            LOG.log(Level.INFO, "could not release lease " + s.leaseName() + ": " + e.getMessage());
        }
    }

    @Override
    public synchronized void close() {
        if (task != null) {
            task.cancel(false);
            task = null;
        }
        for (WorkloadRef ref : List.copyOf(wanted.keySet())) {
            release(ref);
        }
    }

    private void safeRenewAll() {
        try {
            renewAll();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "lease renewal failed", e);
        }
    }

    private LeaseState attempt(WorkloadRef ref) {
        String name = leaseName(ref);
        String ns = ref.namespace();
        Instant now = clock.instant();
        try {
            Lease l = client.leases().inNamespace(ns).withName(name).get();
            if (l == null) {
                Lease fresh = new LeaseBuilder()
                        .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns)
                                .addToLabels("app.kubernetes.io/managed-by", "headroom").build())
                        .withNewSpec().withHolderIdentity(identity).withLeaseDurationSeconds((int) duration.toSeconds())
                        .withAcquireTime(micro(now)).withRenewTime(micro(now)).withLeaseTransitions(0).endSpec()
                        .build();
                client.leases().inNamespace(ns).resource(fresh).create();
                return mine(ns, name, now, "acquired");
            }
            String holder = l.getSpec().getHolderIdentity();
            Instant renewed = parse(l.getSpec().getRenewTime());
            int secs = l.getSpec().getLeaseDurationSeconds() == null ? (int) duration.toSeconds()
                    : l.getSpec().getLeaseDurationSeconds();
            Instant expires = renewed == null ? null : renewed.plusSeconds(secs);
            boolean free = holder == null || holder.isBlank() || expires == null || !now.isBefore(expires);
            if (identity.equals(holder) || free) {
                boolean takeover = !identity.equals(holder);
                l.getSpec().setHolderIdentity(identity);
                l.getSpec().setLeaseDurationSeconds((int) duration.toSeconds());
                l.getSpec().setRenewTime(micro(now));
                if (takeover) {
                    l.getSpec().setAcquireTime(micro(now));
                    int t = l.getSpec().getLeaseTransitions() == null ? 0 : l.getSpec().getLeaseTransitions();
                    l.getSpec().setLeaseTransitions(t + 1);
                }
                // update() sends the resourceVersion we read: a racing console gets 409, not a shared lease.
                client.leases().inNamespace(ns).resource(l).update();
                String note = !takeover ? "renewed"
                        : holder == null || holder.isBlank() ? "acquired" : "took over from " + holder + " (expired)";
                return mine(ns, name, now, note);
            }
            return new LeaseState(ns, name, holder, false, renewed, expires,
                    "held by " + holder + " until " + expires + "; this console observes only");
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return new LeaseState(ns, name, null, false, null, null,
                        "another console won the race for " + name + "; will look again");
            }
            LeaseState before = wanted.get(ref);
            // Keep what we knew (our own expiry still bounds how long we act) and say why renewal failed.
            return new LeaseState(ns, name, before == null ? null : before.holder(), before != null && before.mine(),
                    before == null ? null : before.renewedAt(), before == null ? null : before.expiresAt(),
                    "lease " + name + " not reachable: " + KubeErrors.describe(e));
        }
    }

    private LeaseState mine(String ns, String name, Instant now, String note) {
        return new LeaseState(ns, name, identity, true, now, now.plus(duration), note);
    }

    /** Lease times are MicroTime on the wire. */
    static ZonedDateTime micro(Instant t) {
        return ZonedDateTime.ofInstant(t.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    static Instant parse(ZonedDateTime t) {
        return t == null ? null : t.toInstant();
    }

    @Override
    public String toString() {
        return "LeaseKeeper[" + identity + ", " + wanted.size() + " leases]";
    }
}
