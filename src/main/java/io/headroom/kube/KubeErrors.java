package io.headroom.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** Short, credentials-free descriptions of API failures for the UI and the log. */
final class KubeErrors {
    private KubeErrors() {
    }

    static String describe(Throwable t) {
        if (t instanceof KubernetesClientException k && k.getCode() <= 0 && k.getStatus() == null
                && k.getCause() != null) {
            // fabric8's own message is then generic ("An error has occurred."); the cause says what happened.
            Throwable root = k.getCause();
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            return root.getClass().getSimpleName() + ": " + firstLine(root.getMessage());
        }
        if (t instanceof KubernetesClientException k) {
            String reason = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage()
                    : firstLine(k.getMessage());
            return (k.getCode() > 0 ? "HTTP " + k.getCode() + ": " : "") + reason;
        }
        return t.getClass().getSimpleName() + ": " + firstLine(t.getMessage());
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
