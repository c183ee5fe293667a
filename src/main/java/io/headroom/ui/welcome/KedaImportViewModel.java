package io.headroom.ui.welcome;

import io.headroom.session.KedaImport;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The guided import from KEDA: pick a kubeconfig context (its namespace filled in), find the
 * namespace's ScaledObjects, see what each becomes, and save them as a new workloads file. The
 * kubeconfig, the cluster and the disk are reached on {@code background}; results come back on
 * {@code fx}. Saving is possible only once something was found and a Prometheus URL and a file are named.
 */
public final class KedaImportViewModel {
    private final KedaImport imports;
    private final Executor background;
    private final Executor fx;

    final ObservableList<KedaImport.Context> contexts = FXCollections.observableArrayList();
    final ObjectProperty<KedaImport.Context> context = new SimpleObjectProperty<>();
    final StringProperty namespace = new SimpleStringProperty("");
    final ObservableList<KedaImport.Found> found = FXCollections.observableArrayList();
    /** The ScaledObjects that could not become classes, each "namespace/name: why". */
    final ObservableList<String> skipped = FXCollections.observableArrayList();
    final StringProperty prometheusUrl = new SimpleStringProperty("http://prometheus.monitoring:9090");
    final StringProperty file = new SimpleStringProperty("");
    final StringProperty status = new SimpleStringProperty("Reading the kubeconfig …");
    final BooleanProperty busy = new SimpleBooleanProperty(true);
    /** What was found is for this context and namespace (a changed pick needs a new search). */
    private final StringProperty foundFor = new SimpleStringProperty("");
    private final BooleanBinding canFind;
    private final BooleanBinding canSave;

    public KedaImportViewModel(KedaImport imports, Path defaultDirectory, Executor background, Executor fx) {
        this.imports = imports;
        this.background = background;
        this.fx = fx;
        context.addListener((o, old, c) -> {
            if (c != null && c.namespace() != null && !c.namespace().isBlank()) {
                namespace.set(c.namespace());
            }
            if (c != null && !busy.get()) {
                status.set(c.usable() ? PICK : cannotOpen(c));
            }
        });
        javafx.beans.value.ChangeListener<Object> name = (o, a, b) -> {
            KedaImport.Context c = context.get();
            if (c != null && !namespace.get().isBlank()) {
                file.set(defaultDirectory.resolve("workloads-" + safe(c.name()) + "-" + safe(namespace.get().trim())
                        + ".yaml").toString());
            }
        };
        context.addListener(name);
        namespace.addListener(name);
        // A context with problems is shown with them and never offered to connect.
        canFind = Bindings.createBooleanBinding(() -> !busy.get() && context.get() != null && context.get().usable()
                && !namespace.get().isBlank(), busy, context, namespace);
        canSave = Bindings.createBooleanBinding(() -> !busy.get() && !found.isEmpty()
                && foundFor.get().equals(key()) && !prometheusUrl.get().isBlank() && !file.get().isBlank(),
                busy, found, foundFor, context, namespace, prometheusUrl, file);
    }

    private String key() {
        return context.get() == null ? "" : context.get().name() + "/" + namespace.get().trim();
    }

    /**
     * What a found ScaledObject becomes, as its row in the list says it: name → target (and KEDA's pause), the
     * class it becomes, the signals to fill in and how many notes there are beyond the first.
     */
    static String summary(KedaImport.Found f) {
        return f.name() + "  →  " + f.target()
                + (f.paused() == null ? "" : "   [" + f.paused().toUpperCase(java.util.Locale.ROOT) + "]")
                + "\n   " + f.becomes()
                + (f.toFill().isEmpty() ? "" : "\n   to fill in: " + String.join(", ", f.toFill()))
                + (f.notes().size() <= 1 ? "" : "\n   " + (f.notes().size() - 1) + " note(s) on what KEDA and"
                + " Headroom do differently (hover, or read them in the saved file)");
    }

    static final String PICK = "Pick the context and namespace whose ScaledObjects to import, then Find.";

    /** Why a context is not offered: each of its problems, with its file and line. */
    static String cannotOpen(KedaImport.Context c) {
        return "Context " + c.name() + " cannot be opened: " + String.join("; ", c.problems());
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** Reads the kubeconfig's contexts (the current one picked). */
    public void load() {
        busy.set(true);
        CompletableFuture.supplyAsync(imports::contexts, background).whenCompleteAsync((list, e) -> {
            busy.set(false);
            if (e != null) {
                status.set("Could not read the kubeconfig: " + cause(e));
                return;
            }
            contexts.setAll(list);
            if (list.isEmpty()) {
                status.set("No kubeconfig context found ($KUBECONFIG or ~/.kube/config).");
            } else {
                // The current context, unless it cannot be opened and another can.
                KedaImport.Context pick = list.stream().filter(KedaImport.Context::usable).findFirst().orElse(list.get(0));
                context.set(pick);
                status.set(pick.usable() ? PICK : cannotOpen(pick));
            }
        }, fx);
    }

    /** Lists the ScaledObjects of the chosen context and namespace. */
    public void find() {
        if (!canFind.get()) {
            return;
        }
        String ctx = context.get().name();
        String ns = namespace.get().trim();
        String key = key();
        busy.set(true);
        found.clear();
        skipped.clear();
        status.set("Looking for ScaledObjects in " + ctx + "/" + ns + " …");
        CompletableFuture.supplyAsync(() -> imports.find(ctx, ns), background).whenCompleteAsync((result, e) -> {
            busy.set(false);
            if (e != null) {
                status.set("Could not list ScaledObjects in " + ctx + "/" + ns + ": " + cause(e));
                return;
            }
            found.setAll(result.found());
            skipped.setAll(result.skipped());
            foundFor.set(key);
            long paused = result.found().stream().filter(f -> f.paused() != null).count();
            String skippedText = result.skipped().isEmpty() ? ""
                    : " Skipped " + result.skipped().size() + ": " + String.join("; ", result.skipped()) + ".";
            String pausedText = paused == 0 ? "" : " " + paused + " paused in KEDA: they stay paused, keep them in"
                    + " observe mode until the pause is lifted.";
            // What is unsafe about the context comes first, as the commands print it before anything else.
            String warningText = result.warnings().stream().map(w -> "Warning: " + w + ". ").reduce("", String::concat);
            status.set(warningText + (result.found().isEmpty()
                    ? (result.skipped().isEmpty() ? "No ScaledObject in " + ctx + "/" + ns + "."
                    : "No ScaledObject in " + ctx + "/" + ns + " could be imported." + skippedText)
                    : result.found().size() + " ScaledObject(s) found: each becomes a class. Save writes them to a new"
                    + " workloads file and opens it; signals KEDA does not know are left for you to fill in."
                    + pausedText + skippedText));
        }, fx);
    }

    /** Writes the new workloads file; {@code saved} hears its path (on the FX thread). */
    public void save(Consumer<Path> saved) {
        if (!canSave.get()) {
            return;
        }
        Path target = Path.of(file.get().trim());
        String text = KedaImport.workloadsFile(prometheusUrl.get().trim(), context.get().name(), namespace.get().trim(),
                List.copyOf(found), List.copyOf(skipped));
        busy.set(true);
        status.set("Saving " + target + " …");
        CompletableFuture.runAsync(() -> {
            try {
                KedaImport.save(target, text);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                throw new IllegalStateException(target + " exists already: choose another file");
            } catch (java.io.IOException e) {
                throw new IllegalStateException("could not write " + target + ": " + e.getMessage());
            }
        }, background).whenCompleteAsync((v, e) -> {
            busy.set(false);
            if (e != null) {
                status.set(cause(e));
                return;
            }
            status.set("Saved " + target + ".");
            saved.accept(target);
        }, fx);
    }

    private static String cause(Throwable e) {
        Throwable c = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
        return String.valueOf(c.getMessage());
    }

    public ObservableList<KedaImport.Found> found() {
        return found;
    }

    public ObservableList<String> skipped() {
        return skipped;
    }

    public StringProperty status() {
        return status;
    }

    public BooleanBinding canFind() {
        return canFind;
    }

    public BooleanBinding canSave() {
        return canSave;
    }
}
