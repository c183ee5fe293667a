package io.headroom.session;

import io.headroom.cluster.Admissions;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.DrainMarks;
import io.headroom.cluster.Nodes;
import io.headroom.cluster.Pauses;
import io.headroom.cluster.Scaling;
import io.headroom.cluster.TeamEvents;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.Workloads;
import io.headroom.kube.Contexts;
import io.headroom.kube.HolderIdentity;
import io.headroom.kube.KubeClusterGateway;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.LeaseKeeper;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * One kubeconfig context of a session whose client is built on another thread: everything that can be checked
 * without a client was checked before ({@link Contexts#prepare}); building it (the HTTP client, its TLS context and
 * the JDK's trust store) and starting its lease keeper and gateway run here, so the console's first frame does not
 * wait for them. Its ports are the gateway's once built: a call made before waits for it (the loop's and the
 * console's background threads, never the FX thread); its health says "connecting…" meanwhile without waiting. A
 * client that cannot be built fails {@link #built()} with the {@link OpenFailure} {@link Session#connect} threw
 * before (the console then asks as it did), and every port call says why.
 */
final class PendingContext implements ClusterPorts.Deferred, AutoCloseable {
    /** What one context opened, closed in this order (as the session closed them before). */
    record Built(KubeConnection connection, LeaseKeeper leases, KubeClusterGateway gateway, ClusterPorts ports) {
    }

    private final String name;
    private final String server;
    private final List<String> warnings;
    private final Clock wall;
    private final Instant since;
    private final CompletableFuture<Built> built;
    /** Asks for the build now (a held build is released): whoever waits for the client first. */
    private final Runnable wanted;
    private volatile boolean closed;

    private PendingContext(String name, String server, List<String> warnings, Clock wall,
                           CompletableFuture<Built> built, Runnable wanted) {
        this.name = name;
        this.server = server;
        this.warnings = warnings;
        this.wanted = wanted;
        this.wall = wall;
        this.since = wall.instant();
        this.built = built;
    }

    /**
     * Starts building {@code prepared}'s client on {@code on}, then its lease keeper and gateway over
     * {@code targets}; a failure to build is {@link OpenFailure#context}, naming the file that defines it.
     * {@code on} may hold the build (the console's, until it goes live): {@code wanted} releases it, and runs
     * before anything here waits for the client.
     */
    static PendingContext start(Contexts.Prepared prepared, Contexts contexts, Collection<WorkloadRef> targets,
                                Clock wall, Duration leaseDuration, Executor on, Runnable wanted) {
        var ctx = prepared.context();
        CompletableFuture<Built> f = new CompletableFuture<>();
        PendingContext p = new PendingContext(ctx.name(), ctx.server(), prepared.warnings(), wall, f, wanted);
        on.execute(() -> {
            if (p.closed) { // closed while its build was held or queued: nothing is built for a closed session
                f.cancel(false);
                return;
            }
            try {
                f.complete(p.build(prepared, contexts, targets, leaseDuration));
            } catch (OpenFailure e) {
                f.completeExceptionally(e);
            } catch (RuntimeException | Error e) {
                f.completeExceptionally(OpenFailure.context(ctx.name(), ctx.server(), Path.of(ctx.file()),
                        contexts.files(), e instanceof RuntimeException r ? r : new IllegalStateException(e)));
            }
        });
        // Closed while building: what was built closes as soon as it is.
        f.thenAccept(b -> {
            if (p.closed) {
                close(b);
            }
        });
        return p;
    }

    private Built build(Contexts.Prepared prepared, Contexts contexts, Collection<WorkloadRef> targets,
                        Duration leaseDuration) throws OpenFailure {
        var ctx = prepared.context();
        KubeConnection conn;
        try {
            conn = prepared.build();
        } catch (RuntimeException ex) {
            throw OpenFailure.context(ctx.name(), ctx.server(), Path.of(ctx.file()), contexts.files(), ex);
        }
        LeaseKeeper leases = null;
        try {
            leases = new LeaseKeeper(conn.client(), HolderIdentity.current(), wall, leaseDuration);
            leases.start(); // its own thread: a loop thread stuck in a slow write never lets a lease lapse
            KubeClusterGateway g = KubeClusterGateway.open(conn, targets, wall, leases);
            return new Built(conn, leases, g, g.ports());
        } catch (RuntimeException e) {
            if (leases != null) {
                leases.close();
            }
            conn.close();
            throw e;
        }
    }

    String name() {
        return name;
    }

    String server() {
        return server;
    }

    /** Completes once the client, lease keeper and gateway are built; fails with the {@link OpenFailure}. */
    CompletableFuture<Built> built() {
        return built;
    }

    /** The gateway, waiting for it; null when the client could not be built. */
    @Override
    public Object await() {
        Built b = awaitBuilt(false);
        return b == null ? null : b.gateway();
    }

    /** The connection, waiting for it; null when the client could not be built (KEDA apply says "not open"). */
    KubeConnection connection() {
        Built b = awaitBuilt(false);
        return b == null ? null : b.connection();
    }

    /** Why the client could not be built, in words, or null (not failed, or not yet). */
    String failure() {
        if (!built.isCompletedExceptionally()) {
            return null;
        }
        Throwable t = built.handle((b, e) -> e).join();
        Throwable cause = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        return cause instanceof OpenFailure o ? o.getMessage() : io.headroom.ErrorWords.of(cause);
    }

    /** The built parts, waiting for them; null on failure, or an exception saying why when {@code orThrow}. */
    private Built awaitBuilt(boolean orThrow) {
        if (!built.isDone()) {
            wanted.run(); // a held build starts now: this caller needs it
        }
        try {
            return built.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("context '" + name + "': interrupted while its client was built", e);
        } catch (ExecutionException e) {
            if (orThrow) {
                throw new IllegalStateException(failure(), e.getCause());
            }
            return null;
        }
    }

    /**
     * The session's ports for this context: the gateway's once built. Health never waits: "connecting…" while
     * the client is built, "cannot be opened" when it could not be.
     */
    ClusterPorts ports() {
        return ClusterPorts.builder(name)
                .workloads(port(Workloads.class, ClusterPorts::workloads))
                .scaling(port(Scaling.class, ClusterPorts::scaling))
                .pauses(port(Pauses.class, ClusterPorts::pauses))
                .drainMarks(port(DrainMarks.class, ClusterPorts::drainMarks))
                .nodes(port(Nodes.class, ClusterPorts::nodes))
                .events(port(TeamEvents.class, ClusterPorts::events))
                .admissions(port(Admissions.class, ClusterPorts::admissions))
                .health(this::health)
                .adapter(this)
                .closer(this::closeGateway)
                .build();
    }

    private ClusterHealth health() {
        if (built.isDone() && !built.isCompletedExceptionally()) {
            return built.join().gateway().health();
        }
        String problem = built.isDone() ? failure()
                : "context '" + name + "': connecting… to " + server; // the gateway's own words while it connects
        return new ClusterHealth(false, false, since, null, problem, built.isDone() ? wall.instant() : null, 0,
                List.of(problem), warnings);
    }

    /** {@code type}'s port of the gateway, waited for at each call (a proxy: every method forwarded, none forgotten). */
    private <T> T port(Class<T> type, Function<ClusterPorts, T> which) {
        Object proxy = Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (self, method, args) -> {
            switch (method.getName()) {
                case "toString":
                    if (method.getParameterCount() == 0) {
                        return type.getSimpleName() + " of context " + name;
                    }
                    break;
                case "hashCode":
                    if (method.getParameterCount() == 0) {
                        return System.identityHashCode(self);
                    }
                    break;
                case "equals":
                    if (method.getParameterCount() == 1 && method.getParameterTypes()[0] == Object.class) {
                        return self == args[0];
                    }
                    break;
                default:
                    break;
            }
            T target = which.apply(awaitBuilt(true).ports());
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
        return type.cast(proxy);
    }

    /** Closing the ports closes the gateway (once built; at once if it is). */
    private void closeGateway() {
        closed = true;
        built.thenAccept(b -> b.gateway().close());
    }

    /** Closes the connection, the lease keeper and the gateway (once built: at once if they are). */
    @Override
    public void close() {
        closed = true;
        if (built.isDone() && !built.isCompletedExceptionally()) {
            close(built.join());
        }
    }

    private static void close(Built b) {
        for (AutoCloseable c : List.<AutoCloseable>of(b.connection(), b.leases(), b.gateway())) {
            try {
                c.close();
            } catch (Exception e) {
                java.util.logging.Logger.getLogger(Session.class.getName()).warning("close: " + e.getMessage());
            }
        }
    }
}
