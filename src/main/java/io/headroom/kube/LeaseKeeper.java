package io.headroom.kube;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.RequestConfigBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One actuator per class: a {@code coordination.k8s.io/v1} Lease per scale target, named
 * {@code headroom-<kind>-<name>} in the target's namespace. The console that holds it may actuate;
 * the others see the holder and observe.
 *
 * <p>Time is only ever this console's own (client-go's leader-election rule): another console's lease
 * counts as expired once its {@code resourceVersion} has not changed for the lease's whole duration as
 * measured here since this console first saw that version, never by comparing the holder's
 * {@code renewTime} with the local clock, so a laptop whose clock is 40 s ahead cannot take a live lease.
 * The holder itself stops acting {@link #SAFETY_MARGIN_DIVISOR a third} of a duration before anyone
 * could take over: it may act until {@code (when it sent its last successful renewal) + duration × 2/3}.
 * Every world-changing write is fenced by {@link #fence}, a re-read of the Lease right before it.
 *
 * <p>Held leases are renewed every {@code duration / 3} on a thread of their own ({@link #start()}), so
 * a loop thread stuck in a slow write never lets a lease lapse; {@link #renewAll()} is the whole tick, so
 * tests call it with a manual clock. Every Lease request is sent once (no fabric8 retries) and every write
 * carries the resourceVersion it read, so two consoles racing for one lease cannot both win.
 */
public final class LeaseKeeper implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LeaseKeeper.class.getName());
    /** The holder's own deadline is {@code duration - duration / SAFETY_MARGIN_DIVISOR} after its renewal was sent. */
    static final int SAFETY_MARGIN_DIVISOR = 3;

    private final KubernetesClient client;
    private final String identity;
    private final Clock clock;
    private final Duration duration;
    private final Duration renewDeadline;
    private final Map<WorkloadRef, Held> wanted = new ConcurrentHashMap<>();
    private ScheduledFuture<?> task;
    private ScheduledExecutorService ownScheduler;

    /** What this console knows of one lease; fields guarded by {@code lock}, {@code state} published. */
    private static final class Held {
        final ReentrantLock lock = new ReentrantLock();
        volatile LeaseState state;
        /** The version last seen, and when (by this console's clock) it was first seen. */
        String observedVersion;
        Instant observedAt;
        /** The version this console's own last write produced. */
        String ownVersion;
    }

    /**
     * @param client   the context's client; Lease requests go through a copy of it that never retries
     * @param duration how long a lease lasts without renewal, at least 3 s
     */
    public LeaseKeeper(KubernetesClient client, String identity, Clock clock, Duration duration) {
        if (duration.toSeconds() < 3) {
            throw new IllegalArgumentException("lease duration must be at least 3 s, got " + duration);
        }
        this.client = client.newClient(new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
                .withRequestRetryBackoffLimit(0).build()).adapt(KubernetesClient.class);
        this.identity = identity;
        this.clock = clock;
        this.duration = duration;
        this.renewDeadline = duration.minus(duration.dividedBy(SAFETY_MARGIN_DIVISOR));
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

    /** Renews on a daemon thread of its own, every duration / 3, until {@link #close()}. */
    public synchronized void start() {
        if (ownScheduler == null) {
            ownScheduler = io.headroom.threads.NamedThreads.single("headroom-lease-renewal");
        }
        start(ownScheduler);
    }

    /** Renews {@link #renewAll()} every duration / 3 on {@code scheduler} (never the loop's) until {@link #close()}. */
    public synchronized void start(ScheduledExecutorService scheduler) {
        if (task != null) {
            task.cancel(false);
        }
        long period = Math.max(1000, duration.toMillis() / 3);
        task = scheduler.scheduleWithFixedDelay(this::safeRenewAll, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Wants the lease for {@code ref} and tries to take it now: creates it when absent, renews it
     * when ours, takes it over when it stood still for a full duration (or nobody holds it), and
     * otherwise records the holder.
     */
    public LeaseState acquire(WorkloadRef ref) {
        Held h = wanted.computeIfAbsent(ref, r -> new Held());
        h.lock.lock();
        try {
            return attempt(ref, h);
        } finally {
            h.lock.unlock();
        }
    }

    /** Renews every held lease and retries every wanted one (takeover after expiry). One scheduler tick. */
    public void renewAll() {
        for (Map.Entry<WorkloadRef, Held> e : List.copyOf(wanted.entrySet())) {
            Held h = e.getValue();
            h.lock.lock();
            try {
                if (wanted.get(e.getKey()) == h) {
                    attempt(e.getKey(), h);
                }
            } catch (RuntimeException ex) {
                LOG.log(Level.WARNING, "lease renewal failed for " + e.getKey(), ex);
            } finally {
                h.lock.unlock();
            }
        }
    }

    /** The last seen state of the lease for {@code ref}, if this console wants it. */
    public Optional<LeaseState> state(WorkloadRef ref) {
        Held h = wanted.get(ref);
        return Optional.ofNullable(h == null ? null : h.state);
    }

    /** Every lease this console wants, with its last seen state (for the top bar). */
    public Map<WorkloadRef, LeaseState> states() {
        Map<WorkloadRef, LeaseState> out = new LinkedHashMap<>();
        wanted.forEach((r, h) -> {
            if (h.state != null) {
                out.put(r, h.state);
            }
        });
        return Map.copyOf(out);
    }

    /**
     * Whether this console holds the lease now, by its own clock: until a third of a duration before
     * anyone else could take it after the last renewal this console sent.
     */
    public boolean holds(WorkloadRef ref) {
        Held h = wanted.get(ref);
        LeaseState s = h == null ? null : h.state;
        return s != null && s.mine() && s.expiresAt() != null && clock.instant().isBefore(s.expiresAt());
    }

    /**
     * The fence before a write that changes the world: re-reads the Lease and answers null only when it
     * is still this console's, unchanged since this console's own last write, and within its deadline;
     * otherwise why not (and the lease is then no longer counted as held). One GET, never retried.
     */
    public String fence(WorkloadRef ref) {
        Held h = wanted.get(ref);
        if (h == null || !holds(ref)) {
            return "this console does not hold the lease for " + ref;
        }
        h.lock.lock();
        try {
            LeaseState before = h.state;
            if (before == null || !before.mine() || !clock.instant().isBefore(before.expiresAt())) {
                return "this console's lease for " + ref + " ran out before the write";
            }
            Lease l;
            try {
                l = leases(ref).withName(before.leaseName()).get();
            } catch (KubernetesClientException e) {
                return "could not confirm the lease " + before.leaseName() + " right before the write: "
                        + KubeErrors.describe(e);
            }
            Instant now = clock.instant();
            if (l == null) {
                h.state = notMine(before, null, "lease " + before.leaseName() + " was deleted");
                return h.state.note();
            }
            String version = l.getMetadata().getResourceVersion();
            String holder = l.getSpec() == null ? null : l.getSpec().getHolderIdentity();
            observe(h, version, now);
            if (!identity.equals(holder)) {
                h.state = othersState(ref, l, h, holder == null || holder.isBlank()
                        ? "the lease was released by someone else" : "lost the lease to " + holder);
                return h.state.note();
            }
            if (h.ownVersion != null && !h.ownVersion.equals(version)) {
                h.state = notMine(before, identity, "lease " + before.leaseName() + " changed since this console"
                        + " last renewed it (resourceVersion " + h.ownVersion + " → " + version + ")");
                return h.state.note();
            }
            return null;
        } finally {
            h.lock.unlock();
        }
    }

    /** Gives the lease up (other consoles may take it at once) and stops wanting it. */
    public void release(WorkloadRef ref) {
        Held h = wanted.remove(ref);
        if (h == null) {
            return;
        }
        h.lock.lock();
        try {
            LeaseState s = h.state;
            if (s == null || !s.mine()) {
                return;
            }
            Lease l = leases(ref).withName(s.leaseName()).get();
            if (l != null && identity.equals(l.getSpec().getHolderIdentity())) {
                l.getSpec().setHolderIdentity(null);
                l.getSpec().setRenewTime(null);
                leases(ref).resource(l).update(); // with the version read: a lease taken meanwhile is left alone
            }
        } catch (KubernetesClientException e) {
            // Not fatal: the lease simply expires after its duration.
            LOG.log(Level.INFO, "could not release lease " + leaseName(ref) + ": " + e.getMessage());
        } finally {
            h.lock.unlock();
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (task != null) {
                task.cancel(false);
                task = null;
            }
            if (ownScheduler != null) {
                ownScheduler.shutdownNow();
                ownScheduler = null;
            }
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

    private io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<Lease, io.fabric8.kubernetes.api.model.coordination.v1.LeaseList, Resource<Lease>> leases(
            WorkloadRef ref) {
        return client.leases().inNamespace(ref.namespace());
    }

    /** Records the version seen at {@code now}; the clock of expiry restarts whenever it changes. */
    private static void observe(Held h, String version, Instant now) {
        if (version == null || !version.equals(h.observedVersion)) {
            h.observedVersion = version;
            h.observedAt = now;
        }
    }

    /** One look at the lease, under {@code h.lock}. */
    private LeaseState attempt(WorkloadRef ref, Held h) {
        String name = leaseName(ref);
        String ns = ref.namespace();
        // The deadline counts from before the request: the server may have stored it at any time after.
        Instant sent = clock.instant();
        try {
            Lease l = leases(ref).withName(name).get();
            if (l == null) {
                Lease fresh = new LeaseBuilder()
                        .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(ns)
                                .addToLabels("app.kubernetes.io/managed-by", "headroom").build())
                        .withNewSpec().withHolderIdentity(identity).withLeaseDurationSeconds((int) duration.toSeconds())
                        .withAcquireTime(micro(sent)).withRenewTime(micro(sent)).withLeaseTransitions(0).endSpec()
                        .build();
                Lease created = leases(ref).resource(fresh).create();
                return mine(h, ns, name, created, sent, "acquired");
            }
            observe(h, l.getMetadata().getResourceVersion(), sent);
            String holder = l.getSpec().getHolderIdentity();
            boolean nobody = holder == null || holder.isBlank();
            boolean ours = identity.equals(holder);
            if (ours || nobody || expired(l, h, sent)) {
                boolean takeover = !ours;
                l.getSpec().setHolderIdentity(identity);
                l.getSpec().setLeaseDurationSeconds((int) duration.toSeconds());
                l.getSpec().setRenewTime(micro(sent));
                if (takeover) {
                    l.getSpec().setAcquireTime(micro(sent));
                    int t = l.getSpec().getLeaseTransitions() == null ? 0 : l.getSpec().getLeaseTransitions();
                    l.getSpec().setLeaseTransitions(t + 1);
                }
                // update() sends the resourceVersion we read: a racing console gets 409, not a shared lease.
                Lease written = leases(ref).resource(l).update();
                String note = ours ? "renewed" : nobody ? "acquired"
                        : "took over from " + holder + " (its lease stood still for " + seconds(l) + " s)";
                return mine(h, ns, name, written, sent, note);
            }
            h.state = othersState(ref, l, h, null);
            return h.state;
        } catch (KubernetesClientException e) {
            LeaseState before = h.state;
            if (e.getCode() == 409) {
                h.state = new LeaseState(ns, name, null, false, null, null,
                        "another console won the race for " + name + "; will look again");
                return h.state;
            }
            // Keep what we knew (our own deadline still bounds how long we act) and say why renewal failed.
            h.state = new LeaseState(ns, name, before == null ? null : before.holder(), before != null && before.mine(),
                    before == null ? null : before.renewedAt(), before == null ? null : before.expiresAt(),
                    "lease " + name + " not reachable: " + KubeErrors.describe(e));
            return h.state;
        }
    }

    /** Another holder's lease is expired when its version stood still for its whole duration, by this console's clock. */
    private boolean expired(Lease l, Held h, Instant now) {
        return h.observedAt != null && !now.isBefore(h.observedAt.plusSeconds(seconds(l)));
    }

    private int seconds(Lease l) {
        Integer s = l.getSpec().getLeaseDurationSeconds();
        return s == null || s <= 0 ? (int) duration.toSeconds() : s;
    }

    private LeaseState othersState(WorkloadRef ref, Lease l, Held h, String why) {
        String holder = l.getSpec().getHolderIdentity();
        Instant free = h.observedAt == null ? null : h.observedAt.plusSeconds(seconds(l));
        String note = holder == null || holder.isBlank()
                ? (why == null ? "nobody holds " + leaseName(ref) : why + "; nobody holds " + leaseName(ref))
                : "held by " + holder + " until " + free + " at the earliest (unless renewed); this console observes only";
        return new LeaseState(ref.namespace(), leaseName(ref), holder, false, h.observedAt, free,
                why == null || holder == null || holder.isBlank() ? note : why + ": " + note);
    }

    private static LeaseState notMine(LeaseState before, String holder, String why) {
        return new LeaseState(before.namespace(), before.leaseName(), holder, false, before.renewedAt(), null,
                why + "; this console observes only until it holds the lease again");
    }

    private LeaseState mine(Held h, String ns, String name, Lease written, Instant sent, String note) {
        String version = written == null ? null : written.getMetadata().getResourceVersion();
        h.ownVersion = version;
        h.observedVersion = version;
        h.observedAt = sent;
        h.state = new LeaseState(ns, name, identity, true, sent, sent.plus(renewDeadline), note);
        return h.state;
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
