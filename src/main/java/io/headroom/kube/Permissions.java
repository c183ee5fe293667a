package io.headroom.kube;

import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Asks the API server up front what this user may do (SelfSubjectAccessReview), so the UI can
 * disable an action and say why instead of failing at the worst moment. Answers are cached for
 * {@code ttl} (RBAC rarely changes; a tick must not cost a request per class).
 */
public final class Permissions {
    private final KubernetesClient client;
    private final Clock clock;
    private final Duration ttl;
    private final Map<String, Permission> cache = new ConcurrentHashMap<>();

    public Permissions(KubernetesClient client, Clock clock, Duration ttl) {
        this.client = client;
        this.clock = clock;
        this.ttl = ttl;
    }

    /**
     * May the user {@code verb} the resource? {@code resource} is {@code plural[.group][/subresource]},
     * e.g. {@code deployments.apps/scale}, {@code scaledobjects.keda.sh}, {@code leases.coordination.k8s.io}, {@code pods}.
     */
    public Permission can(String verb, String resource, String namespace) {
        String key = verb + " " + resource + " " + namespace;
        Permission p = cache.get(key);
        if (p != null && clock.instant().isBefore(p.checkedAt().plus(ttl))) {
            return p;
        }
        p = ask(verb, resource, namespace);
        cache.put(key, p);
        return p;
    }

    /** Everything the console needs to actuate a workload in a namespace, in the order the UI lists them. */
    public List<Permission> forActuation(String namespace, boolean kedaManaged) {
        if (kedaManaged) {
            return List.of(can("get", "scaledobjects.keda.sh", namespace), can("patch", "scaledobjects.keda.sh", namespace),
                    can("update", "leases.coordination.k8s.io", namespace));
        }
        return List.of(can("get", "deployments.apps/scale", namespace), can("update", "deployments.apps/scale", namespace),
                can("update", "leases.coordination.k8s.io", namespace));
    }

    /** Forgets every cached answer (after a context's credentials change). */
    public void clear() {
        cache.clear();
    }

    private Permission ask(String verb, String resource, String namespace) {
        String sub = "";
        String res = resource;
        int slash = res.indexOf('/');
        if (slash >= 0) {
            sub = res.substring(slash + 1);
            res = res.substring(0, slash);
        }
        String group = "";
        int dot = res.indexOf('.');
        if (dot >= 0) {
            group = res.substring(dot + 1);
            res = res.substring(0, dot);
        }
        SelfSubjectAccessReview review = new SelfSubjectAccessReviewBuilder().withNewSpec().withNewResourceAttributes()
                .withVerb(verb).withGroup(group).withResource(res).withSubresource(sub.isEmpty() ? null : sub)
                .withNamespace(namespace).endResourceAttributes().endSpec().build();
        try {
            SelfSubjectAccessReview answer = client.authorization().v1().selfSubjectAccessReview().create(review);
            SubjectAccessReviewStatus st = answer == null ? null : answer.getStatus();
            if (st == null) {
                return new Permission(verb, resource, namespace, false, "the API server gave no answer", clock.instant());
            }
            boolean allowed = Boolean.TRUE.equals(st.getAllowed()) && !Boolean.TRUE.equals(st.getDenied());
            String why = st.getReason() != null && !st.getReason().isBlank() ? st.getReason()
                    : st.getEvaluationError() != null && !st.getEvaluationError().isBlank() ? st.getEvaluationError()
                    : allowed ? "allowed" : "RBAC does not allow " + verb + " " + resource + " in " + namespace;
            return new Permission(verb, resource, namespace, allowed, why, clock.instant());
        } catch (KubernetesClientException e) {
            return new Permission(verb, resource, namespace, false, "could not check: " + KubeErrors.describe(e),
                    clock.instant());
        }
    }
}
