package io.headroom.ui.export;

import io.headroom.session.KedaApply;
import io.headroom.supervise.Outcome;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The "Export / apply as KEDA" dialog without nodes: the class's ScaledObject YAML (what KEDA cannot
 * express as comments), the server-side dry run's difference against the live object, and the apply,
 * which runs only after {@link #confirm} and is journaled and posted as events by the session. Every
 * cluster call runs in the session; answers arrive on {@code fx}.
 */
public final class ExportKedaViewModel {
    private final KedaApply keda;
    private final String className;
    private final Executor fx;
    private final StringProperty yaml = new SimpleStringProperty("");
    private final StringProperty diff = new SimpleStringProperty("");
    private final StringProperty status = new SimpleStringProperty("");
    private final BooleanProperty busy = new SimpleBooleanProperty();
    private final BooleanProperty applicable = new SimpleBooleanProperty();
    private final BooleanProperty confirming = new SimpleBooleanProperty();
    private KedaApply.Preview preview;

    public ExportKedaViewModel(KedaApply keda, String className, Executor fx) {
        this.keda = keda;
        this.className = className;
        this.fx = fx;
    }

    public String className() {
        return className;
    }

    /** Exports and dry-runs (again): the YAML, the difference and whether there is anything to apply. */
    public CompletableFuture<KedaApply.Preview> load() {
        busy.set(true);
        confirming.set(false);
        applicable.set(false);
        status.set("Exporting " + className + " and asking the API server for a dry run …");
        return keda.preview(className).handleAsync((p, e) -> {
            busy.set(false);
            if (e != null) {
                status.set("Could not export: " + io.headroom.ErrorWords.of(e));
                return null;
            }
            preview = p;
            yaml.set(p.yaml());
            diff.set(p.diff());
            applicable.set(p.applicable());
            if (p.problem() != null) {
                status.set((p.yaml().isEmpty() ? "" : "Copy the YAML; it cannot be applied from here: ") + p.problem());
            } else if (!p.applicable()) {
                status.set("The live ScaledObject " + p.object() + " already matches: nothing to apply.");
            } else {
                status.set("Dry run passed in " + p.context() + ". Review the difference, then Apply to cluster.");
            }
            return p;
        }, fx);
    }

    /** The first step of applying: says what will be written and waits for {@link #confirm}. */
    public void askToApply() {
        if (preview == null || !preview.applicable()) {
            return;
        }
        long n = preview.diff().lines().filter(l -> l.startsWith("  ")).count();
        confirming.set(true);
        status.set("Apply " + n + " change" + (n == 1 ? "" : "s") + " to ScaledObject " + preview.object() + " in "
                + preview.context() + "? Nothing is written if it changed since this difference was taken.");
    }

    /** Back from the question: nothing is written. */
    public void cancelApply() {
        confirming.set(false);
        status.set("Nothing applied.");
    }

    private java.util.function.Consumer<Outcome> onOutcome = o -> { };

    /** Told (FX thread) each apply's outcome: the console's event list records it. */
    public void setOnOutcome(java.util.function.Consumer<Outcome> c) {
        onOutcome = c;
    }

    /** Applies what was reviewed, with {@code reason} for the journal and the events. */
    public CompletableFuture<Outcome> confirm(String reason) {
        if (preview == null || !confirming.get()) {
            return CompletableFuture.completedFuture(Outcome.refused(Outcome.Why.INVALID, "review the difference first"));
        }
        busy.set(true);
        confirming.set(false);
        status.set("Applying …");
        return keda.apply(preview, reason).handleAsync((o, e) -> {
            busy.set(false);
            Outcome out = e != null ? Outcome.failed("failed: " + io.headroom.ErrorWords.of(e)) : o;
            status.set(out.message());
            if (out.ok()) {
                applicable.set(false); // applied: what was reviewed is live now
            }
            onOutcome.accept(out);
            return out;
        }, fx);
    }

    public ReadOnlyStringProperty yamlProperty() {
        return yaml;
    }

    public ReadOnlyStringProperty diffProperty() {
        return diff;
    }

    public ReadOnlyStringProperty statusProperty() {
        return status;
    }

    public ReadOnlyBooleanProperty busyProperty() {
        return busy;
    }

    public ReadOnlyBooleanProperty applicableProperty() {
        return applicable;
    }

    public ReadOnlyBooleanProperty confirmingProperty() {
        return confirming;
    }
}
