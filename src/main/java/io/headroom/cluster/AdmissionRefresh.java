package io.headroom.cluster;

import java.util.Objects;

/**
 * One class's entry in a tick's refresh ({@link Admissions#refresh}): the class's workload (whose lease fences
 * the write, and whose namespace holds the entry) and the entry, unchanged for producers but for its
 * {@code decidedAt} and {@code expiresAt}.
 */
public record AdmissionRefresh(WorkloadRef ref, AdmissionEntry entry) {
    public AdmissionRefresh {
        Objects.requireNonNull(ref, "ref");
        Objects.requireNonNull(entry, "entry");
    }
}
