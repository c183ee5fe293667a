package io.headroom.sandbox;

import java.nio.charset.StandardCharsets;

/** The sandbox world's hashes: stable across JVMs, so a seed replays identically everywhere. */
final class WorldHash {
    private WorldHash() {
    }

    /** A 64-bit mix (SplitMix64's finaliser): spreads seeds so nearby seeds give unrelated streams. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** FNV-1a over UTF-8: a class name hash that is stable across JVMs (String.hashCode is too, but 32-bit). */
    static long nameHash(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
