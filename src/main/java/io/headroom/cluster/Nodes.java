package io.headroom.cluster;

import java.util.List;
import java.util.Optional;

/** Port: the nodes of a cluster, read, cordoned and drained through the Eviction API. */
public interface Nodes {

    /** The nodes of {@code context} with the pods bound to each; empty when this cluster has none to show. */
    List<NodeState> nodes(String context);

    /** One node as the API server has it now (a read, not a cache), or empty when there is no such node. */
    Optional<NodeState> node(NodeRef ref);

    /** Cordons ({@code unschedulable} true) or uncordons a node, as {@code kubectl cordon/uncordon} does. */
    NodeResult cordon(NodeRef ref, boolean unschedulable);

    /**
     * Cordons a node and records on it who did, when and why ({@link CordonMark}); uncordoning ({@code mark}
     * null, {@code unschedulable} false) removes the record too.
     */
    NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark);

    /**
     * Asks the Eviction API (policy/v1) to evict one pod: the pod terminates with its own grace period,
     * unless a PodDisruptionBudget refuses (HTTP 429, the budget named). Never a delete, never grace 0.
     */
    EvictionResult evict(String context, String namespace, String pod);

    /**
     * The PodDisruptionBudgets of {@code context} that cover any of {@code podKeys} ("ns/name"), each with what
     * it allows now; empty when this cluster has none (or cannot say): a drain's confirmation reads it.
     */
    List<DisruptionBudget> budgets(String context, java.util.Collection<String> podKeys);
}
