package io.headroom.sandbox;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.AdmissionWrite;
import io.headroom.cluster.Admissions;
import io.headroom.cluster.WorkloadRef;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Admission in the sandbox (and the fake of the tests): what a {@code headroom-admission} ConfigMap would hold,
 * per namespace and class, in this process. Nothing fences it: the sandbox has one console. Dies with the sandbox.
 * With a world, what is written reaches the class's producers ({@link ProducerGate}): those that obey read it
 * at once, as a watch would deliver it, and fail open after its {@code expiresAt}.
 */
public final class SandboxAdmissions implements Admissions {
    private final Map<String, AdmissionEntry> entries = new ConcurrentHashMap<>();
    private final SandboxWorld world;

    /** Entries no producer reads (the tests' fake). */
    public SandboxAdmissions() {
        this(null);
    }

    /** Entries the producers of {@code world}'s classes read. */
    public SandboxAdmissions(SandboxWorld world) {
        this.world = world;
    }

    private void deliver(WorkloadRef ref, AdmissionEntry e) {
        if (world == null || e == null) {
            return;
        }
        world.classOf(ref).filter(c -> c.equals(e.className())).flatMap(world::producers)
                .ifPresent(g -> g.admission(e.state(), e.rate() == null ? Double.NaN : e.rate(), e.expiresAt()));
    }

    private static String key(WorkloadRef ref, String className) {
        return ref.context() + "/" + ref.namespace() + "/" + className;
    }

    @Override
    public AdmissionWrite publish(WorkloadRef ref, AdmissionEntry entry) {
        if (!AdmissionEntry.validKey(entry.className())) {
            return AdmissionWrite.refused("class name '" + entry.className() + "' cannot be a ConfigMap key");
        }
        entries.put(key(ref, entry.className()), entry);
        deliver(ref, entry);
        return AdmissionWrite.applied("admission of " + entry.className() + " (" + entry.label() + ") written");
    }

    @Override
    public Map<String, AdmissionWrite> refresh(String context, String namespace,
                                               java.util.List<io.headroom.cluster.AdmissionRefresh> entries) {
        Map<String, AdmissionWrite> out = new java.util.LinkedHashMap<>();
        entries.forEach(e -> out.put(e.entry().className(), publish(e.ref(), e.entry())));
        return out;
    }

    @Override
    public AdmissionWrite expire(WorkloadRef ref, String className, Instant at, Instant decidedAt) {
        AdmissionEntry seen = entries.get(key(ref, className));
        if (decidedAt != null && seen != null && seen.expiresAt().isAfter(at) && !seen.decidedAt().equals(decidedAt)) {
            return AdmissionWrite.refused(seen.changedSince(decidedAt));
        }
        AdmissionEntry e = entries.computeIfPresent(key(ref, className),
                (k, v) -> v.expiresAt().isAfter(at) && (decidedAt == null || v.decidedAt().equals(decidedAt))
                        ? v.expiringAt(at) : v);
        deliver(ref, e);
        return AdmissionWrite.applied(e == null ? "no admission published for " + className
                : "admission of " + className + " expires at " + e.expiresAt());
    }

    @Override
    public Optional<AdmissionEntry> published(WorkloadRef ref, String className) {
        return Optional.ofNullable(entries.get(key(ref, className)));
    }
}
