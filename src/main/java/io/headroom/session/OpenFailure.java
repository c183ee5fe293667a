package io.headroom.session;

import io.headroom.ErrorWords;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a workloads file names could not be opened, before anything was: which endpoint (the kubeconfig,
 * a context, Prometheus), where (the file and, where there is one, the line; or the address) and why,
 * in words. The console shows it in its connection dialog and opens nothing until the operator chooses.
 *
 * <p>It keeps no cause: a YAML parser's message quotes the line it stopped at, and a kubeconfig's line may
 * hold a token. Its message is the one line the dialog shows.
 */
public final class OpenFailure extends Exception {
    private final String what;
    private final String where;
    private final Path file;
    private final String cause;

    OpenFailure(String what, String where, Path file, String cause) {
        super(what + " " + where + " — failed: " + cause);
        this.what = what;
        this.where = where;
        this.file = file;
        this.cause = cause;
    }

    /**
     * The kubeconfig could not be read: {@code files} are those it was read from (several, as
     * {@code KUBECONFIG} lists them); with one, it is named with the line the parser stopped at.
     */
    static OpenFailure kubeconfig(List<Path> files, RuntimeException e) {
        Integer line = ErrorWords.line(e);
        Path only = files.size() == 1 ? files.get(0) : null;
        String where = files.isEmpty() ? "(none found: KUBECONFIG and ~/.kube/config name no file)"
                : only != null ? only + (line == null ? "" : ":" + line)
                : String.join(", ", files.stream().map(Path::toString).toList());
        return new OpenFailure("kubeconfig", where, only, ErrorWords.of(e));
    }

    /** A kubeconfig file of the list cannot be used (client-go then refuses every context): its file, line and why. */
    static OpenFailure kubeconfig(io.headroom.config.ConfigException.Problem p) {
        return new OpenFailure("kubeconfig", p.file() + (p.line() > 0 ? ":" + p.line() : ""), Path.of(p.file()),
                p.message());
    }

    /**
     * A context could not be opened (it is not in the kubeconfig, its credentials would go over plain
     * http, its client could not be built): {@code server} is its API server, null when it has none.
     */
    static OpenFailure context(String name, String server, Path definedIn, List<Path> files, RuntimeException e) {
        String where = server != null ? server : files.isEmpty() ? "(no kubeconfig file)"
                : "in " + String.join(", ", files.stream().map(Path::toString).toList());
        return new OpenFailure("context " + name, where, definedIn != null ? definedIn
                : files.size() == 1 ? files.get(0) : null, ErrorWords.of(e));
    }

    /** Prometheus could not be set up (a CA file, a secret, a URL the client refuses). */
    static OpenFailure prometheus(String url, Exception e) {
        return new OpenFailure("Prometheus", url, null, ErrorWords.of(e));
    }

    /** {@code kubeconfig}, {@code context prod}, {@code Prometheus}. */
    public String what() {
        return what;
    }

    /** The file (with {@code :LINE} where there is one) or the address. */
    public String where() {
        return where;
    }

    /** The file the operator would edit to put it right, when one is to blame. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** Why, in words. */
    public String why() {
        return cause;
    }

    /** What the connection dialog lists: the endpoint that failed, where, and why. */
    public Endpoints.Endpoint endpoint() {
        return new Endpoints.Endpoint(what, where, Endpoints.State.FAILED, cause);
    }
}
