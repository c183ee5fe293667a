package io.headroom.ui.supervise;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.decision.Figures;
import io.headroom.supervise.ClassAdmission;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.value.ObservableStringValue;

/**
 * The selected class's admission as producers read it (design.md §2b), for the class detail (no nodes): what is
 * published (state, rate, expiry), the capacity it waits for, why the decided verdict is not written when it is
 * not, and a tightening awaiting approval with its approve and reject. Refreshed on every supervision snapshot;
 * properties change on {@code fx}.
 */
public final class AdmissionViewModel {
    private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss");

    /** The texts for one class at one moment (a pure function of its admission, {@link #texts}). */
    public record Texts(String chip, String tone, String detail, String proposal) {
    }

    private final Supervisor supervisor;
    private final ObservableStringValue className;
    private final Clock clock;
    private final Executor fx;
    private final ZoneId zone;
    private final SimpleStringProperty chip = new SimpleStringProperty("");
    private final SimpleStringProperty tone = new SimpleStringProperty("");
    private final SimpleStringProperty detail = new SimpleStringProperty("");
    private final SimpleStringProperty proposal = new SimpleStringProperty("");
    private final SimpleStringProperty status = new SimpleStringProperty("");
    private final SimpleBooleanProperty pending = new SimpleBooleanProperty(false);
    private final SimpleBooleanProperty shown = new SimpleBooleanProperty(false);

    public AdmissionViewModel(Supervisor supervisor, ObservableStringValue className, Clock clock, Executor fx,
                              ZoneId zone) {
        this.supervisor = supervisor;
        this.className = className;
        this.clock = clock;
        this.fx = fx;
        this.zone = zone;
        supervisor.addListener(s -> fx.execute(this::refresh));
        className.addListener((o, a, b) -> {
            status.set("");
            refresh();
        });
    }

    /** Reads the class's admission again (FX thread). */
    public void refresh() {
        String name = className.get();
        ClassAdmission a = name == null ? null : supervisor.admission(name);
        Texts t = texts(a, clock.instant(), zone);
        shown.set(shown(a));
        chip.set(t.chip());
        tone.set(t.tone());
        detail.set(t.detail());
        proposal.set(t.proposal());
        pending.set(!t.proposal().isEmpty());
    }

    /** True for a class that publishes, or whose entry is still there: the others show the advice alone. */
    public static boolean shown(ClassAdmission a) {
        return a != null && (a.policy().publish() || a.published() != null);
    }

    /** What the detail says of {@code a} at {@code now}. */
    public static Texts texts(ClassAdmission a, Instant now, ZoneId zone) {
        if (a == null || a.decided() == null) {
            return new Texts("ADMISSION —", "", "no decision yet", "");
        }
        AdmissionVerdict v = a.decided();
        AdmissionEntry p = a.published();
        String chip;
        String tone;
        if (!a.policy().publish()) {
            chip = "ADMISSION " + v.label() + " · not published";
            tone = "";
        } else if (p == null) {
            chip = "ADMISSION " + v.label() + " · nothing published";
            tone = "";
        } else if (p.expired(now)) {
            chip = "PUBLISHED " + p.label() + " · EXPIRED";
            tone = "warn";
        } else {
            chip = "PUBLISHED " + p.label();
            tone = switch (p.state()) {
                case OPEN -> "ok";
                case THROTTLE -> "warn";
                case CLOSED -> "danger";
            };
        }
        List<String> lines = new ArrayList<>();
        lines.add(v.reason());
        if (v.waitsFor() > 0) {
            lines.add("waits for " + v.waitsFor() + " replicas, ready in ~" + Figures.fmt(v.readyInSeconds()) + " s");
        }
        if (p != null) {
            lines.add((p.expired(now) ? "expired at " : "expires at ") + HMS.format(p.expiresAt().atZone(zone))
                    + " unless refreshed (producers then apply their own default)");
        }
        if (!a.note().isEmpty()) {
            lines.add(a.note());
        }
        String proposal = a.pending() == null ? "" : "Proposed: " + a.pending().verdict().label() + " — "
                + a.pending().verdict().reason();
        return new Texts(chip, tone, String.join("\n", lines), proposal);
    }

    /** Publishes the pending tightening; the status says what happened. */
    public CompletableFuture<Outcome> approve() {
        return said(supervisor.approveAdmission(className.get()));
    }

    /** Rejects the pending tightening: what producers read stays. */
    public CompletableFuture<Outcome> reject(String reason) {
        return said(supervisor.rejectAdmission(className.get(), reason));
    }

    private CompletableFuture<Outcome> said(CompletableFuture<Outcome> f) {
        return f.thenApplyAsync(o -> {
            status.set(o.message());
            refresh();
            return o;
        }, fx);
    }

    public ReadOnlyStringProperty chipProperty() {
        return chip;
    }

    /** "ok", "warn", "danger" or "" (the chip's style). */
    public ReadOnlyStringProperty toneProperty() {
        return tone;
    }

    public ReadOnlyStringProperty detailProperty() {
        return detail;
    }

    public ReadOnlyStringProperty proposalProperty() {
        return proposal;
    }

    public ReadOnlyStringProperty statusProperty() {
        return status;
    }

    /** Whether the panel is shown (see {@link #shown(ClassAdmission)}). */
    public ReadOnlyBooleanProperty shownProperty() {
        return shown;
    }

    public ReadOnlyBooleanProperty pendingProperty() {
        return pending;
    }
}
