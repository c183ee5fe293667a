package io.headroom.ui.shell;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The command palette's state: the query, the commands that match it (best first, the ones that
 * cannot run now shown with why), the highlighted one. Running one closes the palette first, then
 * runs the command's own flow, so its dialogs and warnings are the button's. FX thread only.
 */
public final class PaletteViewModel {
    /** A command as listed: its title, key, and why it cannot run now (null: it can). */
    public record Item(Commands.Command command, String why) {
        public boolean enabled() {
            return why == null;
        }

        public String title() {
            return command.title();
        }

        public String key() {
            return command.key() == null ? "" : command.key().display();
        }
    }

    private final Supplier<List<Commands.Command>> commands;
    private final StringProperty query = new SimpleStringProperty("");
    private final ObservableList<Item> items = FXCollections.observableArrayList();
    private final IntegerProperty selected = new SimpleIntegerProperty(-1);
    private final BooleanProperty showing = new SimpleBooleanProperty();
    private final StringProperty message = new SimpleStringProperty("");
    private List<Item> snapshot = List.of();

    public PaletteViewModel(Supplier<List<Commands.Command>> commands) {
        this.commands = commands;
        query.addListener((o, a, q) -> filter());
    }

    public StringProperty queryProperty() { return query; }
    public ObservableList<Item> items() { return items; }
    public IntegerProperty selectedProperty() { return selected; }
    public BooleanProperty showingProperty() { return showing; }
    /** Why Enter did nothing (the highlighted command cannot run now), or empty. */
    public StringProperty messageProperty() { return message; }

    /** Opens with an empty query: every command, as they stand now. */
    public void open() {
        snapshot = commands.get().stream().map(c -> new Item(c, c.whyUnavailable())).toList();
        query.set("");
        filter();
        showing.set(true);
    }

    public void close() {
        showing.set(false);
        message.set("");
    }

    public void move(int delta) {
        if (items.isEmpty()) {
            return;
        }
        int next = Math.floorMod(Math.max(selected.get(), 0) + delta, items.size());
        selected.set(next);
        message.set("");
    }

    /** Enter: closes the palette and runs the highlighted command; a disabled one says why and stays. */
    public boolean runSelected() {
        int i = selected.get();
        if (i < 0 || i >= items.size()) {
            return false;
        }
        Item item = items.get(i);
        if (!item.enabled()) {
            message.set(item.title() + ": " + item.why());
            return false;
        }
        close();
        item.command().run().run();
        return true;
    }

    private void filter() {
        String q = query.get() == null ? "" : query.get().trim().toLowerCase(Locale.ROOT);
        List<Scored> scored = new ArrayList<>();
        for (int i = 0; i < snapshot.size(); i++) {
            Item item = snapshot.get(i);
            int s = score(q, item);
            if (s >= 0) {
                scored.add(new Scored(item, s, i));
            }
        }
        scored.sort(Comparator.comparingInt(Scored::score).thenComparingInt(Scored::order));
        items.setAll(scored.stream().map(Scored::item).toList());
        // The first command that can run: Enter right after typing does the likely thing.
        int first = 0;
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).enabled()) {
                first = i;
                break;
            }
        }
        selected.set(items.isEmpty() ? -1 : first);
        message.set("");
    }

    private record Scored(Item item, int score, int order) {
    }

    /**
     * Lower is better, -1 no match: a whole-word or substring match of the title beats one in its
     * section or key, which beats the query's letters in order (fuzzy: "frz pay" finds "Freeze payments").
     */
    static int score(String q, Item item) {
        if (q.isEmpty()) {
            return 0;
        }
        String title = item.title().toLowerCase(Locale.ROOT);
        String rest = (item.command().section().title() + " " + item.key()).toLowerCase(Locale.ROOT);
        int at = title.indexOf(q);
        if (at == 0 || at > 0 && !Character.isLetterOrDigit(title.charAt(at - 1))) {
            return 1;
        }
        if (at > 0) {
            return 2;
        }
        if (rest.contains(q)) {
            return 3;
        }
        String[] words = q.split("\\s+");
        boolean all = true;
        for (String w : words) {
            all &= title.contains(w) || rest.contains(w);
        }
        if (all) {
            return 4;
        }
        return inOrder(q.replace(" ", ""), title) ? 5 : -1;
    }

    private static boolean inOrder(String letters, String text) {
        int j = 0;
        for (int i = 0; i < text.length() && j < letters.length(); i++) {
            if (text.charAt(i) == letters.charAt(j)) {
                j++;
            }
        }
        return j == letters.length();
    }
}
