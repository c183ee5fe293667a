package io.headroom.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.headroom.ErrorWords;

/** Short, credentials-free descriptions of API failures for the UI and the log, in words (no class names). */
final class KubeErrors {
    private KubeErrors() {
    }

    static String describe(Throwable t) {
        if (t instanceof KubernetesClientException k && k.getCode() <= 0 && k.getStatus() == null
                && k.getCause() != null) {
            // fabric8's own message is then generic ("An error has occurred."); the cause says what happened.
            return ErrorWords.of(k.getCause());
        }
        if (t instanceof KubernetesClientException k) {
            String reason = k.getStatus() != null && k.getStatus().getMessage() != null ? k.getStatus().getMessage()
                    : firstLine(k.getMessage());
            // An API server may quote the credential it was sent: the loaded secrets go where its words come in.
            return (k.getCode() > 0 ? "HTTP " + k.getCode() + ": " : "") + ErrorWords.clean(reason);
        }
        return ErrorWords.of(t);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
