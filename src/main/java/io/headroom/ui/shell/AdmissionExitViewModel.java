package io.headroom.ui.shell;

import io.headroom.decision.Figures;
import io.headroom.session.AdmissionHandBack;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * What the exit's admission question shows and does (no nodes; design.md §2b): one row per class whose
 * admission this console published and that is still live, each with a choice (expire it now, so producers
 * apply their own default, or set it OPEN for {@link AdmissionHandBack#OPEN_FOR}), carried out by the session.
 */
public final class AdmissionExitViewModel extends SettlingDialogModel<AdmissionExitViewModel.Row> {

    /** One class: what producers read now, and the operator's choice (expire now by default). */
    public static final class Row {
        private final AdmissionHandBack.Item item;
        private final String published;
        private final ObjectProperty<AdmissionHandBack.Choice> choice =
                new SimpleObjectProperty<>(AdmissionHandBack.Choice.EXPIRE_NOW);

        Row(AdmissionHandBack.Item item, String published) {
            this.item = item;
            this.published = published;
        }

        public String className() {
            return item.className();
        }

        /** "THROTTLE 2.5/s until 10:01 — throttled while 3 more replicas start". */
        public String published() {
            return published;
        }

        public ObjectProperty<AdmissionHandBack.Choice> choiceProperty() {
            return choice;
        }
    }

    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm:ss");
    private final AdmissionHandBack handBack;
    private List<AdmissionHandBack.Item> items = List.of();

    public AdmissionExitViewModel(AdmissionHandBack handBack, Executor fx, Duration deadline, ZoneId zone) {
        super(fx, deadline, zone);
        this.handBack = handBack;
    }

    /** Fills the rows (read off the FX thread); completes with their count. */
    public CompletableFuture<Integer> load() {
        return handBack.atExit().thenApplyAsync(list -> {
            items = List.copyOf(list);
            rows.setAll(list.stream().map(it -> new Row(it, it.published().label() + " until "
                    + HH_MM.format(it.published().expiresAt().atZone(zone)) + " — " + it.published().reason()))
                    .toList());
            return list.size();
        }, fx);
    }

    /** Every row to one choice. */
    public void chooseAll(AdmissionHandBack.Choice c) {
        rows.forEach(r -> r.choiceProperty().set(c));
    }

    /** What the open choice means, in words: "Set OPEN for 4 h". */
    public static String openText() {
        return "Set OPEN for " + Figures.fmt(AdmissionHandBack.OPEN_FOR.toMinutes() / 60.0) + " h";
    }

    /** Runs the choices; the status says what was done, or what was not. */
    public CompletableFuture<List<AdmissionHandBack.Result>> confirm() {
        Map<String, AdmissionHandBack.Choice> choices = new LinkedHashMap<>();
        rows.forEach(r -> choices.put(r.className(), r.choiceProperty().get()));
        return settling.run("Handing admission back … (at most " + deadline.toSeconds() + " s)",
                () -> handBack.finish(items, choices).orTimeout(deadline.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                        .exceptionally(e -> List.of(new AdmissionHandBack.Result("admission", null, false,
                                "not confirmed before the deadline; each entry expires by itself within its TTL"))),
                results -> results.stream().allMatch(AdmissionHandBack.Result::ok),
                AdmissionExitViewModel::summary);
    }

    static String summary(List<AdmissionHandBack.Result> results) {
        List<String> problems = results.stream().filter(r -> !r.ok()).map(r -> r.className() + ": " + r.message())
                .toList();
        if (!problems.isEmpty()) {
            return String.join("\n", problems);
        }
        long expired = results.stream().filter(r -> r.choice() == AdmissionHandBack.Choice.EXPIRE_NOW).count();
        return expired + " expired, " + (results.size() - expired) + " set OPEN";
    }
}
