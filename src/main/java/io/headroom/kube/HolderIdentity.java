package io.headroom.kube;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Who holds an actuation lease: OS user, host and a random id per console instance, e.g. {@code ana@desk-12/5f3a9c01}. */
public final class HolderIdentity {
    private HolderIdentity() {
    }

    /** The identity of this console process (a fresh random part each call: call it once per console). */
    public static String current() {
        byte[] id = new byte[4];
        new SecureRandom().nextBytes(id);
        return System.getProperty("user.name", "unknown") + "@" + hostName() + "/" + HexFormat.of().formatHex(id);
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            String env = System.getenv("HOSTNAME");
            return env == null || env.isBlank() ? "unknown-host" : env;
        }
    }
}
