package io.headroom.drain;

import java.util.List;

/** What a drain step asks the cluster to do: decisions as data, carried out by the supervisor. */
public sealed interface DrainAction {

    /** Set the drain marks on these pods. */
    record Mark(List<String> pods, String drainId) implements DrainAction {
        public Mark {
            pods = List.copyOf(pods);
        }
    }

    /** Remove drain {@code drainId}'s marks from these pods (another drain's are left alone). */
    record Unmark(List<String> pods, String drainId) implements DrainAction {
        public Unmark {
            pods = List.copyOf(pods);
        }
    }

    /**
     * Set replicas to {@code replicas}, only if the workload is still at {@code resourceVersion}; on a
     * conflict, only while it still runs {@code expect} replicas (-1: the drain's {@code from}).
     */
    record Scale(int replicas, String resourceVersion, int expect) implements DrainAction {
        public Scale(int replicas, String resourceVersion) {
            this(replicas, resourceVersion, -1);
        }
    }

    /** Evict this pod through the Eviction API (its own grace period; never a delete, never grace 0). */
    record Evict(String pod) implements DrainAction {
    }
}
