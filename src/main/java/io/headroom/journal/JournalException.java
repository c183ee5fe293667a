package io.headroom.journal;

/** A record could not be written: nothing the record describes may be done. */
public final class JournalException extends RuntimeException {
    public JournalException(String message, Throwable cause) {
        super(message, cause);
    }

    public JournalException(String message) {
        super(message);
    }
}
