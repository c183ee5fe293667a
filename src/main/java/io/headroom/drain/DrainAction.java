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

    /** Lower replicas to {@code replicas}, only if the workload is still at {@code resourceVersion}. */
    record Scale(int replicas, String resourceVersion) implements DrainAction {
    }
}
