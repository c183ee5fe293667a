package io.headroom.cluster;

/** A node of the cluster behind a kubeconfig context. */
public record NodeRef(String context, String name) {
    public NodeRef {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a node needs a name");
        }
    }

    @Override
    public String toString() {
        return context + "/node/" + name;
    }
}
