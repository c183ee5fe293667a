package io.headroom.ui.overview;

import io.headroom.ui.Styles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.InvalidationListener;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.css.PseudoClass;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.layout.Background;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.paint.Paint;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/**
 * The fonts and colours the overview's drawn rows use, read from the stylesheet: a hidden label
 * per kind of text (a number, a number over its objective, a chip…) is styled by the same CSS as
 * any node, in the current theme, and the rows draw with what it was given. So overview.css stays
 * the one place these are set, and a theme change redraws the rows ({@link #revisionProperty}).
 * Also measures text in those fonts. FX thread only.
 */
final class RowLook {

    /** A kind of text a row draws. */
    enum Kind {
        TEXT, NAME, NUM, NUM_BREACH, NUM_UNKNOWN, NUM_UP, NUM_DOWN, PEAK, PEAK_BREACH, PEAK_CLEARED,
        SPARK_LINE, SPARK_OVER, SPARK_GUIDE
    }

    /** A chip's colours: the tone classes of {@code .chip} in app.css, and the neutral "+N". */
    enum Tone { DANGER, WARN, INFO, MORE }

    /** The work bar's five parts: queued, starting, executing, waiting approval, held back. */
    static final List<String> BAR_PARTS = List.of("bar-queued", "bar-starting", "bar-executing", "bar-approval",
            "bar-held");

    /** What one kind of text is drawn with. */
    record Ink(Font font, Paint fill) {
    }

    /** A chip: its text and background, padding and corner radius. */
    record ChipInk(Font font, Paint fill, Paint background, Insets padding, double radius) {
    }

    private final Pane probes = new Pane();
    private final Map<Kind, Label> text = new java.util.EnumMap<>(Kind.class);
    private final Map<Tone, Label> chips = new java.util.EnumMap<>(Tone.class);
    private final javafx.scene.layout.HBox alerts = new javafx.scene.layout.HBox();
    private final Region track = new Region();
    private final List<Region> bar = new ArrayList<>();
    private final Label cell = new Label();
    private final ReadOnlyLongWrapper revision = new ReadOnlyLongWrapper();

    private Map<Kind, Ink> inks;
    private Map<Tone, ChipInk> chipInks;
    private Paint trackFill;
    private Paint[] barFills;
    private Insets cellPadding;
    private double chipGap;

    RowLook() {
        // Hidden and unmanaged: styled with the view (they are in its scene), drawn and laid out never.
        probes.setManaged(false);
        probes.setVisible(false);
        probes.getStyleClass().add("row-look");
        cell.getStyleClass().add("cell-text");
        probes.getChildren().add(cell);
        for (Kind k : Kind.values()) {
            Label l = new Label("0");
            switch (k) {
                case TEXT -> l.getStyleClass().add("cell-text");
                case NAME -> l.getStyleClass().addAll("cell-text", Styles.CLASS_NAME);
                case NUM -> l.getStyleClass().addAll("cell-text", Styles.NUM);
                case NUM_BREACH -> num(l, Styles.BREACH);
                case NUM_UNKNOWN -> num(l, Styles.UNKNOWN);
                case NUM_UP -> num(l, Styles.CHANGE_UP);
                case NUM_DOWN -> num(l, Styles.CHANGE_DOWN);
                case PEAK -> l.getStyleClass().addAll("peak", Styles.NUM);
                case PEAK_BREACH -> peak(l, Styles.BREACH);
                case PEAK_CLEARED -> peak(l, OverviewView.CLEARED);
                case SPARK_LINE -> l.getStyleClass().add("spark-line");
                case SPARK_OVER -> l.getStyleClass().add("spark-over");
                case SPARK_GUIDE -> l.getStyleClass().add("spark-guide");
                default -> throw new IllegalStateException(k.name());
            }
            text.put(k, l);
            probes.getChildren().add(l);
        }
        // chips in the table: `.alerts .chip`, spaced by `.alerts`
        alerts.getStyleClass().add(Styles.ALERTS);
        for (Tone t : Tone.values()) {
            Label l = new Label("X");
            l.getStyleClass().add(Styles.CHIP);
            switch (t) {
                case DANGER -> l.getStyleClass().add(Styles.DANGER);
                case WARN -> l.getStyleClass().add(Styles.WARN);
                case INFO -> l.getStyleClass().add(Styles.INFO);
                case MORE -> l.getStyleClass().add("more");
                default -> throw new IllegalStateException(t.name());
            }
            chips.put(t, l);
            alerts.getChildren().add(l);
        }
        probes.getChildren().add(alerts);
        track.getStyleClass().add(OverviewView.WORK_BAR);
        probes.getChildren().add(track);
        for (String part : BAR_PARTS) {
            Region r = new Region();
            r.getStyleClass().add(part);
            bar.add(r);
            probes.getChildren().add(r);
        }
        InvalidationListener restyled = o -> {
            inks = null;
            revision.set(revision.get() + 1);
        };
        for (Label l : text.values()) {
            l.fontProperty().addListener(restyled);
            l.textFillProperty().addListener(restyled);
        }
        for (Label l : chips.values()) {
            l.fontProperty().addListener(restyled);
            l.textFillProperty().addListener(restyled);
            l.backgroundProperty().addListener(restyled);
            l.paddingProperty().addListener(restyled);
        }
        track.backgroundProperty().addListener(restyled);
        bar.forEach(r -> r.backgroundProperty().addListener(restyled));
        cell.paddingProperty().addListener(restyled);
    }

    private static void num(Label l, String state) {
        l.getStyleClass().addAll("cell-text", Styles.NUM);
        l.pseudoClassStateChanged(PseudoClass.getPseudoClass(state), true);
    }

    private static void peak(Label l, String state) {
        l.getStyleClass().addAll("peak", Styles.NUM);
        l.pseudoClassStateChanged(PseudoClass.getPseudoClass(state), true);
    }

    /** The hidden labels: a child of the view, so the view's stylesheets and theme style them. */
    Pane probes() {
        return probes;
    }

    /** Counts changes of the look (a theme, a stylesheet): the rows draw again on each. */
    ReadOnlyLongProperty revisionProperty() {
        return revision.getReadOnlyProperty();
    }

    Ink ink(Kind k) {
        read();
        return inks.get(k);
    }

    ChipInk chip(Tone t) {
        read();
        return chipInks.get(t);
    }

    Paint track() {
        read();
        return trackFill;
    }

    Paint bar(int part) {
        read();
        return barFills[part];
    }

    /** A cell's padding ({@code .cell-text}: 8 px left and right). */
    Insets cellPadding() {
        read();
        return cellPadding;
    }

    /** Room between two chips. */
    double chipGap() {
        read();
        return chipGap;
    }

    private void read() {
        if (inks != null) {
            return;
        }
        if (probes.getScene() != null) {
            probes.applyCss(); // a new stylesheet or theme: styled now, not at the next pulse
        }
        Map<Kind, Ink> k = new java.util.EnumMap<>(Kind.class);
        text.forEach((kind, l) -> k.put(kind, new Ink(l.getFont(), l.getTextFill())));
        Map<Tone, ChipInk> c = new java.util.EnumMap<>(Tone.class);
        chips.forEach((tone, l) -> c.put(tone, new ChipInk(l.getFont(), l.getTextFill(), fill(l),
                l.getPadding(), radius(l))));
        trackFill = fill(track);
        barFills = bar.stream().map(RowLook::fill).toArray(Paint[]::new);
        cellPadding = cell.getPadding();
        chipGap = alerts.getSpacing();
        chipInks = c;
        inks = k;
    }

    private static Paint fill(Region r) {
        Background b = r.getBackground();
        return b == null || b.getFills().isEmpty() ? Color.TRANSPARENT : b.getFills().get(b.getFills().size() - 1).getFill();
    }

    private static double radius(Region r) {
        Background b = r.getBackground();
        return b == null || b.getFills().isEmpty() ? 0
                : b.getFills().get(b.getFills().size() - 1).getRadii().getTopLeftHorizontalRadius();
    }

    // Measuring

    /** Advances of single characters, per font: a text's width is the sum (no kerning in JavaFX's layout). */
    private final Map<Font, Map<Character, Double>> advances = new HashMap<>();
    private final Text measure = new Text();

    /** The width of {@code s} in {@code font}, as a label would lay it out (within a fraction of a pixel). */
    double width(String s, Font font) {
        Map<Character, Double> a = advances.computeIfAbsent(font, f -> new HashMap<>());
        double w = 0;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            Double d = a.get(ch);
            if (d == null) {
                measure.setFont(font);
                measure.setText(String.valueOf(ch));
                d = measure.getLayoutBounds().getWidth();
                a.put(ch, d);
            }
            w += d;
        }
        return w;
    }

    private final Map<Font, Double> lines = new HashMap<>();

    /** The height of a line of text in {@code font}. */
    double lineHeight(Font font) {
        return lines.computeIfAbsent(font, f -> {
            measure.setFont(f);
            measure.setText("Xg");
            return measure.getLayoutBounds().getHeight();
        });
    }

    /** The ellipsis a cut text ends with. */
    static final String ELLIPSIS = "…";

    /** {@code s} whole when it fits {@code room}, else as much of it as fits before "…". */
    String fit(String s, Font font, double room) {
        if (width(s, font) <= room + 0.5) {
            return s;
        }
        int lo = 0;
        int hi = s.length() - 1;
        while (lo < hi) { // the longest prefix that fits with the ellipsis
            int mid = (lo + hi + 1) / 2;
            if (width(s.substring(0, mid).stripTrailing() + ELLIPSIS, font) <= room + 0.5) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo == 0 ? ELLIPSIS : s.substring(0, lo).stripTrailing() + ELLIPSIS;
    }
}
