package io.headroom.cluster;

/** What an admission write did: APPLIED, REFUSED (nothing written, and why) or FAILED (tried, and it did not work). */
public record AdmissionWrite(Outcome outcome, String message) {
    public enum Outcome { APPLIED, REFUSED, FAILED }

    public static AdmissionWrite applied(String message) {
        return new AdmissionWrite(Outcome.APPLIED, message);
    }

    public static AdmissionWrite refused(String message) {
        return new AdmissionWrite(Outcome.REFUSED, message);
    }

    public static AdmissionWrite failed(String message) {
        return new AdmissionWrite(Outcome.FAILED, message);
    }

    public boolean ok() {
        return outcome == Outcome.APPLIED;
    }
}
