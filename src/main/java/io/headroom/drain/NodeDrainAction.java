package io.headroom.drain;

import java.time.Instant;
import java.util.List;

/** What a node drain step asks the cluster to do; carried out by the supervisor's node drain driver. */
public sealed interface NodeDrainAction {

    /** Cordon the drain's node. */
    record Cordon() implements NodeDrainAction {
    }

    /** Mark a Headroom class's pods (lowest deletion cost, the drain annotation) until {@code expiresAt}. */
    record Mark(String className, List<String> pods, String drainId, Instant expiresAt) implements NodeDrainAction {
        public Mark {
            pods = List.copyOf(pods);
        }
    }

    /** Remove this drain's marks from a class's pods. */
    record Unmark(String className, List<String> pods, String drainId) implements NodeDrainAction {
        public Unmark {
            pods = List.copyOf(pods);
        }
    }

    /** Ask the Eviction API to evict one pod (never a delete, never grace period 0). */
    record Evict(String namespace, String pod) implements NodeDrainAction {
    }
}
