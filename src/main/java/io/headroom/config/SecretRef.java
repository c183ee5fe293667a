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

    /** The largest secret file read: a token or a password, never a megabyte. */
    public static final int MAX_FILE_BYTES = 64 * 1024;

    /**
     * Reads the secret now, without the whitespace around it (a trailing newline, as kubectl and
     * Prometheus drop it).
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
            value = readFile(Path.of(location));
        }
        value = value.strip();
        if (value.isEmpty()) {
            throw new IllegalStateException(describe() + " is empty");
        }
        io.headroom.LoadedSecrets.add(value); // never repeated by what the console shows or keeps (issue 27)
        return value;
    }

    /**
     * Reads a bearer token: printable ASCII without spaces, as an HTTP header needs it. Anything else
     * (a second line, a non-ASCII or control character, a space) is refused, saying where and at which
     * character, never what.
     */
    public String readToken(Function<String, String> env) {
        String token = read(env);
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c > 0x20 && c < 0x7F) {
                continue;
            }
            String where = "the bearer token in " + describe();
            if (c == '\n' || c == '\r') {
                throw new IllegalStateException(where + " has a line break after character " + i + "; the "
                        + (kind == Kind.FILE ? "file must hold the token alone (one trailing newline is fine)"
                        : "variable must hold the token alone"));
            }
            String what = c == ' ' ? "a space" : c < 0x80 ? "a control character" : "a non-ASCII character";
            String hint = token.startsWith("Bearer ") ? " (write the token alone, without \"Bearer \")" : "";
            throw new IllegalStateException(where + " has " + what + " at character " + (i + 1)
                    + "; a bearer token is printable ASCII" + hint);
        }
        return token;
    }

    /** Reads a password: any text, but not a second line or a control character (a paste gone wrong). */
    public String readPassword(Function<String, String> env) {
        String password = read(env);
        for (int i = 0; i < password.length(); i++) {
            char c = password.charAt(i);
            if (c == '\n' || c == '\r') {
                throw new IllegalStateException("the password in " + describe() + " has a line break after character "
                        + i + "; it must hold the password alone");
            }
            if (Character.isISOControl(c)) {
                throw new IllegalStateException("the password in " + describe() + " has a control character at"
                        + " character " + (i + 1));
            }
        }
        return password;
    }

    /** A secret file: a regular file of at most {@link #MAX_FILE_BYTES}, UTF-8. */
    private static String readFile(Path path) {
        String name = "secret file " + UntrustedText.line(path.toString(), 300);
        try {
            java.nio.file.attribute.BasicFileAttributes a = Files.readAttributes(path,
                    java.nio.file.attribute.BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                throw new IllegalStateException(name + " is not a regular file");
            }
            if (a.size() > MAX_FILE_BYTES) {
                throw new IllegalStateException(name + " is " + a.size() + " bytes; a token or password file has at"
                        + " most " + MAX_FILE_BYTES);
            }
            byte[] bytes;
            try (java.io.InputStream in = Files.newInputStream(path)) {
                bytes = in.readNBytes(MAX_FILE_BYTES + 1);
            }
            if (bytes.length > MAX_FILE_BYTES) {
                throw new IllegalStateException(name + " has more than " + MAX_FILE_BYTES + " bytes");
            }
            return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalStateException(name + " is not UTF-8 text");
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalStateException(name + ": no such file");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + name + ": " + io.headroom.ErrorWords.of(e));
        }
    }

    /** "file /run/secrets/token" or "environment variable PROM_TOKEN": where, never what. */
    public String describe() {
        return kind == Kind.FILE ? "file " + UntrustedText.line(location, 300) : "environment variable " + location;
    }

    @Override
    public String toString() {
        return describe();
    }
}
