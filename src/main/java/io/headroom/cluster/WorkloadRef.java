package io.headroom.cluster;

/** The scale target of a class: a Deployment or StatefulSet in a namespace of a context. */
public record WorkloadRef(String context, String namespace, String kind, String name) {
    public WorkloadRef {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a workload needs a name");
        }
        if (kind == null || kind.isBlank()) {
            kind = "Deployment";
        }
        if (namespace == null || namespace.isBlank()) {
            namespace = "default";
        }
    }

    @Override
    public String toString() {
        return context + "/" + namespace + "/" + kind.toLowerCase(java.util.Locale.ROOT) + "/" + name;
    }
}
