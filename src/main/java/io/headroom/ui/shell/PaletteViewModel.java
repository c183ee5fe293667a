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

    /** Ranks: the title starts with the query; every word of it starts a word (fuzzily); its letters in order. */
    static final int PREFIX = 0;
    static final int WORD_INITIAL = 100;
    static final int SUBSEQUENCE = 200;

    /**
     * Lower is better, -1 no match. An exact prefix of the title beats a query whose every word starts a word of
     * the title with its other letters in order ("frz pay" finds "Freeze payments-steady…", "override led" finds
     * "Override ledger-replay…"), which beats the query's letters in order anywhere in the title. Within a rank a
     * word matched exactly beats one matched fuzzily, and the title's own words beat the command's other words
     * ("pin" finds "Override …" after any title with a word starting "pin").
     */
    static int score(String q, Item item) {
        if (q.isEmpty()) {
            return 0;
        }
        String title = item.title().toLowerCase(Locale.ROOT);
        List<String> queryWords = words(q);
        List<String> titleWords = words(title);
        // "what if" starts "What-if… for ledger-replay" too: punctuation aside.
        if (title.startsWith(q) || !queryWords.isEmpty()
                && String.join(" ", titleWords).startsWith(String.join(" ", queryWords))) {
            return PREFIX;
        }
        if (queryWords.isEmpty()) {
            return -1;
        }
        List<String> otherWords = words(item.command().keywords() + " " + item.command().section().title());
        int penalty = 0;
        boolean all = true;
        for (String w : queryWords) {
            int m = wordMatch(w, titleWords);
            if (m < 0) {
                m = wordMatch(w, otherWords);
                m = m < 0 ? -1 : m + 2;
            }
            if (m < 0) {
                all = false;
                break;
            }
            penalty += m;
        }
        if (all) {
            return WORD_INITIAL + penalty;
        }
        // Letters in order in the title only: across a command's other words they find nearly anything.
        return inOrder(String.join("", queryWords), title) ? SUBSEQUENCE : -1;
    }

    /** 0: {@code w} begins one of {@code words}; 1: it begins one with its other letters in order; -1: neither. */
    private static int wordMatch(String w, List<String> words) {
        int best = -1;
        for (String t : words) {
            if (t.startsWith(w)) {
                return 0;
            }
            if (t.charAt(0) == w.charAt(0) && inOrder(w.substring(1), t.substring(1))) {
                best = 1;
            }
        }
        return best;
    }

    /** Lower-case words: letters and digits, split at anything else ("payments-steady" is two). */
    static List<String> words(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
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
