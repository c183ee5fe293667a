package io.headroom.ui.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;

/**
 * The console's one registry of actions and the keys bound to them. The key dispatch, the {@code ?}
 * help overlay and the {@code Ctrl+K} palette all read it, so the help cannot list a key that does
 * nothing, and a key cannot work without being listed. An action runs the same flow whether it is
 * reached by its key, the palette or its button: the registry holds the flow, not a copy of it.
 */
public final class Commands {
    /** Where a command sits in the help overlay and the palette. */
    public enum Section {
        PROPOSAL("Proposal of the class in view"),
        CLASS("Class in view"),
        /** The palette's commands for a class other than the one in view, by its name. */
        OTHER_PROPOSAL("Proposal of another class"),
        OTHER_CLASS("Another class"),
        CONSOLE("Console"),
        GO_TO("Go to"),
        HELP("Keys and help");

        private final String title;

        Section(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    /**
     * A key: a combination pressed ({@code Ctrl+J}, {@code A}) or a character typed ({@code ?},
     * {@code /}, whatever the keyboard layout). {@code whileTyping}: it still works while a text
     * field has the focus (bare letters and undo never do; those are the field's).
     */
    public record Key(KeyCombination combination, String typed, boolean whileTyping) {
        /** A key that belongs to the text field while one has the focus (bare letters, undo). */
        public static Key pressed(KeyCombination c) {
            return new Key(c, null, false);
        }

        /** A key that works wherever the focus is (Ctrl+K, Ctrl+J, Ctrl+Shift+F). */
        public static Key global(KeyCombination c) {
            return new Key(c, null, true);
        }

        public static Key typed(String character) {
            return new Key(null, character, false);
        }

        /** As the help overlay shows it: "Ctrl+Shift+F", "A", "?". */
        public String display() {
            return combination != null ? combination.getDisplayText() : typed;
        }

        public boolean matches(KeyEvent e) {
            if (combination != null) {
                return e.getEventType() == KeyEvent.KEY_PRESSED && combination.match(e);
            }
            return e.getEventType() == KeyEvent.KEY_TYPED && typed.equals(e.getCharacter());
        }
    }

    /**
     * One action. {@code unavailable} says in words why it cannot run now (null: it can); the
     * palette shows it disabled with that reason. {@code key} may be null: palette only.
     */
    public record Command(String title, Section section, Key key, Supplier<String> unavailable, Runnable run,
                          String keywords) {
        public Command {
            unavailable = unavailable == null ? () -> null : unavailable;
            keywords = keywords == null ? "" : keywords;
        }

        /** A command found by its title's words only. */
        public Command(String title, Section section, Key key, Supplier<String> unavailable, Runnable run) {
            this(title, section, key, unavailable, run, "");
        }

        /**
         * The same command, also found by other words an operator may type for it ("pin" for Override):
         * they rank after the title's own words.
         */
        public Command alias(String words) {
            return new Command(title, section, key, unavailable, run, (keywords + " " + words).strip());
        }

        /** The same command showing {@code k} (a generated command for the class the key acts on). */
        public Command withKey(Key k) {
            return new Command(title, section, k, unavailable, run, keywords);
        }

        public String whyUnavailable() {
            return unavailable.get();
        }
    }

    private final List<Command> fixed = new ArrayList<>();
    private final List<Supplier<List<Command>>> generated = new ArrayList<>();

    /** Adds a command (with a key or without); the order is the help's and the palette's. */
    public Commands add(Command c) {
        fixed.add(c);
        return this;
    }

    /** Adds commands computed when asked: one per class, per context, per speed. */
    public Commands addGenerated(Supplier<List<Command>> commands) {
        generated.add(commands);
        return this;
    }

    /** Every command now: the fixed ones, then the generated ones. */
    public List<Command> all() {
        List<Command> all = new ArrayList<>(fixed);
        generated.forEach(g -> all.addAll(g.get()));
        return all;
    }

    /** The commands that have a key, in registry order: what the help overlay lists. */
    public List<Command> bound() {
        return fixed.stream().filter(c -> c.key() != null).toList();
    }

    /** The command this key event triggers, if any; while typing, only the keys that say so. */
    public Optional<Command> match(KeyEvent e, boolean typing) {
        return fixed.stream().filter(c -> c.key() != null && (!typing || c.key().whileTyping())
                && c.key().matches(e)).findFirst();
    }
}
