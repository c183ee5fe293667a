package io.headroom.kube;

import io.fabric8.kubernetes.client.Config;
import java.nio.file.Path;
import java.util.List;

/**
 * The kubeconfig files the console reads, named as they are set ({@code -Dkubeconfig}, {@code KUBECONFIG}
 * with several path-separated, else {@code ~/.kube/config}), whether they exist or not: what the console
 * names when the kubeconfig cannot be read.
 */
public final class KubeconfigFiles {
    private KubeconfigFiles() {
    }

    /** The files {@link Contexts#fromEnvironment} reads (it skips those that do not exist). */
    public static List<Path> named() {
        return Config.getKubeconfigFilenames().stream().map(Path::of).toList();
    }
}
