package io.headroom.prometheus;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * A failure the network or the JDK reported, in words an operator reads: what happened first
 * ("connection refused", "unknown host"), then the message without the Java class names the JDK
 * and TLS stack put in theirs (a "sun.security…Exception: " prefix says nothing to an operator).
 */
final class PlainFailure {

    /** A qualified or simple Java exception or error class name, with the ": " that follows it. */
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(?:[a-z][a-z0-9_]*\\.)*[A-Z][A-Za-z0-9_$]*(?:Exception|Error)\\b:?\\s*");

    private PlainFailure() {
    }

    static String words(Exception e) {
        String what = e instanceof ConnectException ? "connection refused"
                : e instanceof UnknownHostException ? "unknown host"
                : e instanceof NoRouteToHostException ? "no route to host"
                : e instanceof PortUnreachableException ? "port unreachable"
                : e instanceof SocketException ? "the connection broke"
                : null;
        String message = message(e);
        if (what == null) {
            return message.isEmpty() ? "no detail given" : message;
        }
        return message.isEmpty() || message.equalsIgnoreCase(what) ? what : what + " (" + message + ")";
    }

    /** The exception's message, one harmless line, without class names. */
    static String message(Throwable e) {
        String m = e.getMessage() == null ? "" : CLASS_NAME.matcher(e.getMessage()).replaceAll("").strip();
        return ResponseDecoder.abbreviate(m, 200);
    }
}
