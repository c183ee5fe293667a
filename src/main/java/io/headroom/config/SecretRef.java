package io.headroom.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Function;

/**
 * Where a secret (bearer token, password) lives: a file or an environment variable. The value is
 * read only when a connection is made ({@link #read}) and is never held by a config record, so no
 * {@code toString} or log line can show it.
 */
public record SecretRef(Kind kind, String location) {

    /** A file (read whole, trailing newline dropped) or an environment variable. */
    public enum Kind { FILE, ENV }

    public SecretRef {
        Objects.requireNonNull(kind, "kind");
        if (location == null || location.isBlank()) {
            throw new IllegalArgumentException("a secret needs a file or an environment variable name");
        }
    }

    public static SecretRef file(Path path) {
        return new SecretRef(Kind.FILE, path.toString());
    }

    public static SecretRef env(String name) {
        return new SecretRef(Kind.ENV, name);
    }

    /**
     * Reads the secret now.
     *
     * @param env the environment (System::getenv in production)
     * @throws IllegalStateException naming where the secret should be (never its content) when it
     *                               cannot be read or is empty
     */
    public String read(Function<String, String> env) {
        String value;
        if (kind == Kind.ENV) {
            value = env.apply(location);
            if (value == null) {
                throw new IllegalStateException("environment variable " + location + " is not set");
            }
        } else {
            try {
                value = Files.readString(Path.of(location), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read secret file " + location + ": "
                        + e.getClass().getSimpleName());
            }
        }
        value = value.strip();
        if (value.isEmpty()) {
            throw new IllegalStateException(describe() + " is empty");
        }
        return value;
    }

    /** "file /run/secrets/token" or "environment variable PROM_TOKEN": where, never what. */
    public String describe() {
        return kind == Kind.FILE ? "file " + location : "environment variable " + location;
    }

    @Override
    public String toString() {
        return describe();
    }
}
