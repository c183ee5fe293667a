package io.headroom.kube;

import java.time.Instant;

/**
 * One SelfSubjectAccessReview answer: may the current user {@code verb} {@code resource} in
 * {@code namespace}? {@code reason} says why (RBAC's own reason when it gives one).
 *
 * @param resource {@code deployments/scale}, {@code scaledobjects.keda.sh}, {@code leases.coordination.k8s.io} …
 */
public record Permission(String verb, String resource, String namespace, boolean allowed, String reason,
                         Instant checkedAt) {
}
