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
 */
public final class SandboxAdmissions implements Admissions {
    private final Map<String, AdmissionEntry> entries = new ConcurrentHashMap<>();

    private static String key(WorkloadRef ref, String className) {
        return ref.context() + "/" + ref.namespace() + "/" + className;
    }

    @Override
    public AdmissionWrite publish(WorkloadRef ref, AdmissionEntry entry) {
        if (!AdmissionEntry.validKey(entry.className())) {
            return AdmissionWrite.refused("class name '" + entry.className() + "' cannot be a ConfigMap key");
        }
        entries.put(key(ref, entry.className()), entry);
        return AdmissionWrite.applied("admission of " + entry.className() + " (" + entry.label() + ") written");
    }

    @Override
    public AdmissionWrite expire(WorkloadRef ref, String className, Instant at) {
        AdmissionEntry e = entries.computeIfPresent(key(ref, className),
                (k, v) -> v.expiresAt().isAfter(at) ? v.expiringAt(at) : v);
        return AdmissionWrite.applied(e == null ? "no admission published for " + className
                : "admission of " + className + " expires at " + e.expiresAt());
    }

    @Override
    public Optional<AdmissionEntry> published(WorkloadRef ref, String className) {
        return Optional.ofNullable(entries.get(key(ref, className)));
    }
}
