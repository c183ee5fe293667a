package io.headroom.kube;

/**
 * One kubeconfig context as the context switcher shows it. Holds names only: never a token,
 * password, key or certificate, so it is safe to print, log and bind.
 *
 * @param server    the API server URL
 * @param namespace the context's namespace, "default" when it names none
 * @param auth      how the user authenticates, described without the secret: {@code token},
 *                  {@code exec: aws}, {@code client certificate}, {@code auth-provider: oidc} …
 * @param file      the kubeconfig file that defines the context
 */
public record KubeContext(String name, String cluster, String server, String namespace, String user, String auth,
                          String file, boolean current) {
}
