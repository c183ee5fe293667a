package io.headroom.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Port: admission published where producers read it (design.md §2b, ADR 0027): on Kubernetes one ConfigMap
 * per namespace ({@value AdmissionEntry#CONFIG_MAP}), one key per class. Each write is for a class's
 * workload: the workload's namespace holds the entry, and the workload's lease fences the write (only the
 * console that scales a class publishes its admission). Publishing changes what producers send: a freeze
 * stops it ({@code GatedCluster}); expiring an entry gives admission back to the producers' default and is
 * clean-up, which a freeze does not stop.
 */
public interface Admissions {

    /** Writes (creates or replaces) the class's entry in its workload's namespace. */
    AdmissionWrite publish(WorkloadRef ref, AdmissionEntry entry);

    /**
     * A tick's refresh of the entries of several classes whose workloads are in {@code namespace} of
     * {@code context}, in one write: each workload's lease is checked (once per workload) and the entries that
     * pass are written together; what each class's entry came to, by class name. Nothing is written when no
     * entry passes (an empty list writes nothing).
     */
    Map<String, AdmissionWrite> refresh(String context, String namespace, List<AdmissionRefresh> entries);

    /**
     * Makes the class's entry expire at {@code at} (producers apply their own default from then on). APPLIED
     * when there is no entry to expire. With {@code decidedAt}, only the entry decided then is expired: read
     * from the API server right before the write (never a cache), an entry written since (refreshed or changed,
     * by this console or another) is left as it is and the write REFUSED, saying what is there now.
     *
     * @param decidedAt the entry's {@code decidedAt} as it was read, or null for whichever entry is there
     */
    AdmissionWrite expire(WorkloadRef ref, String className, Instant at, Instant decidedAt);

    /** The class's entry as the API server has it now (not a cache); empty when none; throws, in words, on failure. */
    Optional<AdmissionEntry> published(WorkloadRef ref, String className);
}
