package io.headroom.ui.fx;

import java.util.function.Consumer;

import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.event.EventHandler;
import javafx.scene.Node;
import javafx.scene.control.Control;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseEvent;

/**
 * Fast start: a control's tooltip is made the first time it could show, not when the control is built.
 * Each {@link Tooltip} makes its popup control and popup scene at once (the first one also loads the
 * default style sheet), and the first frame has some eighty of them the operator has not pointed at yet.
 * Here the words are kept on the node, carried by its accessible help (what a screen reader reads, as a
 * control's tooltip would be), and the {@link Tooltip} is made and installed on the first pointer entry
 * or keyboard focus. Its behaviour from then on is JavaFX's own (it shows after the pointer rests).
 */
public final class Tips {
    /** Where a node keeps its words until (and after) its tooltip is made. */
    private static final String KEY = Tips.class.getName();

    private Tips() {
    }

    /** Gives {@code node} a tooltip of {@code text}, made when first needed. */
    public static void set(Node node, String text) {
        words(node, null).set(text);
    }

    /** As {@link #set(Node, String)}, the made tooltip then set up by {@code style} (wrap, width…). */
    public static void set(Node node, String text, Consumer<Tooltip> style) {
        words(node, style).set(text);
    }

    /** Gives {@code node} a tooltip that follows {@code text}, made when first needed. */
    public static void bind(Node node, ObservableValue<String> text) {
        words(node, null).bind(text);
    }

    /** As {@link #bind(Node, ObservableValue)}, the made tooltip then set up by {@code style}. */
    public static void bind(Node node, ObservableValue<String> text, Consumer<Tooltip> style) {
        words(node, style).bind(text);
    }

    /** The words of {@code node}'s tooltip, made or not yet ({@code null} when it has none). */
    public static String text(Node node) {
        if (node.getProperties().get(KEY) instanceof Holder h) {
            return h.words.get();
        }
        Tooltip made = node instanceof Control c ? c.getTooltip() : null;
        return made == null ? null : made.getText();
    }

    /** Whether {@code node}'s tooltip has been made (after a pointer entry or focus). */
    public static boolean made(Node node) {
        return node.getProperties().get(KEY) instanceof Holder h && h.tooltip != null;
    }

    private static StringProperty words(Node node, Consumer<Tooltip> style) {
        if (node.getProperties().get(KEY) instanceof Holder h) {
            h.words.unbind();
            if (style != null) {
                h.style = style;
            }
            return h.words;
        }
        Holder h = new Holder(node, style);
        node.getProperties().put(KEY, h);
        return h.words;
    }

    /** One node's words and, once made, its tooltip. */
    private static final class Holder {
        final StringProperty words = new SimpleStringProperty();
        final Node node;
        Consumer<Tooltip> style;
        Tooltip tooltip;
        private final EventHandler<MouseEvent> entered = e -> make();
        private final ChangeListener<Boolean> focused = (o, was, now) -> {
            if (now) {
                make();
            }
        };

        Holder(Node node, Consumer<Tooltip> style) {
            this.node = node;
            this.style = style;
            if (!node.accessibleHelpProperty().isBound() && node.getAccessibleHelp() == null) {
                node.accessibleHelpProperty().bind(words);
            }
            node.addEventFilter(MouseEvent.MOUSE_ENTERED, entered);
            node.focusedProperty().addListener(focused);
        }

        void make() {
            if (tooltip != null) {
                return;
            }
            node.removeEventFilter(MouseEvent.MOUSE_ENTERED, entered);
            node.focusedProperty().removeListener(focused);
            tooltip = new Tooltip();
            tooltip.textProperty().bind(words);
            if (style != null) {
                style.accept(tooltip);
            }
            if (node instanceof Control c) {
                c.setTooltip(tooltip);
            } else {
                Tooltip.install(node, tooltip);
            }
        }
    }
}
