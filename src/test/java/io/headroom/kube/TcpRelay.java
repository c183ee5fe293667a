package io.headroom.kube;

import io.headroom.threads.NamedThreads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;

/**
 * A loopback port that passes every connection on to another (the mock API server), until
 * {@link #close}: then every open connection is cut and the port is closed, so a console connected
 * through it finds its API server unreachable (connection refused) while the server itself, and what
 * it stores, stay as they were for the test to read and for the next console to connect to directly.
 */
public final class TcpRelay implements AutoCloseable {
    private final ServerSocket listening;
    private final int target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final ExecutorService pumps = NamedThreads.cached("test-relay");

    public TcpRelay(int targetPort) throws IOException {
        this.target = targetPort;
        this.listening = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        NamedThreads.start("test-relay-accept", this::accept);
    }

    /** The relay's address, for a kubeconfig. */
    public String url() {
        return "http://127.0.0.1:" + listening.getLocalPort();
    }

    private void accept() {
        while (!listening.isClosed()) {
            try {
                Socket in = listening.accept();
                Socket out = new Socket();
                out.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 5_000);
                open.add(in);
                open.add(out);
                pumps.execute(() -> pump(in, out));
                pumps.execute(() -> pump(out, in));
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private static void pump(Socket from, Socket to) {
        byte[] buf = new byte[16 * 1024];
        try (InputStream i = from.getInputStream(); OutputStream o = to.getOutputStream()) {
            for (int n; (n = i.read(buf)) >= 0; ) {
                o.write(buf, 0, n);
                o.flush();
            }
        } catch (IOException e) {
            // cut: the other direction ends too
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** Cuts every connection and closes the port: from now on nothing answers there. */
    @Override
    public void close() {
        try {
            listening.close();
        } catch (IOException e) {
            // already closed
        }
        open.forEach(TcpRelay::closeQuietly);
        pumps.shutdownNow();
    }
}
