package io.headroom.ui;

import java.util.List;
import javafx.scene.Node;
import javafx.scene.Scene;

/** Style-class names and stylesheets as constants, so Java and CSS cannot drift apart silently. */
public final class Styles {
    public static final String THEME_DARK = "theme-dark";
    public static final String THEME_LIGHT = "theme-light";

    public static final String MUTED = "muted";
    public static final String FAINT = "faint";
    public static final String NUMERIC = "numeric";
    /**
     * The key badges' font (app.css {@code .key-cap}): the UI's sans, where the letter O is round and wide and the
     * digit 0 narrow; in the numbers' monospace they look alike.
     */
    public static final String KEY_FONT = "DejaVu Sans";
    public static final String SECTION_TITLE = "section-title";
    public static final String CHIP = "chip";
    public static final String OK = "ok";
    public static final String WARN = "warn";
    public static final String DANGER = "danger";
    public static final String INFO = "info";

    public static final String TOP_BAR = "top-bar";
    public static final String TOP_BAR_GROUP = "top-bar-group";
    public static final String WORDMARK = "wordmark";
    public static final String FIELD_LABEL = "field-label";
    public static final String FIELD_VALUE = "field-value";
    public static final String HEALTH = "health";
    public static final String HEALTH_DOT = "health-dot";
    public static final String SEPARATOR_V = "separator-v";
    public static final String SPEED = "speed";

    public static final String OVERVIEW = "overview";
    public static final String NUM = "num";
    public static final String CLASS_NAME = "class-name";
    public static final String BREACH = "breach";
    public static final String UNKNOWN = "unknown";
    public static final String CHANGE_UP = "change-up";
    public static final String CHANGE_DOWN = "change-down";
    public static final String ALERTS = "alerts";

    public static final String DETAIL = "detail";
    public static final String DETAIL_HEADER = "detail-header";
    public static final String CLASS_TITLE = "class-title";
    public static final String CHARTS = "charts";
    public static final String CHART_PANEL = "chart-panel";
    public static final String DECISION_PANEL = "decision-panel";
    public static final String HEADLINE = "headline";
    public static final String EXPLANATION = "explanation";
    public static final String GRID = "grid";
    public static final String TERM_NAME = "term-name";
    public static final String TERM_VALUE = "term-value";
    public static final String TERM_FORMULA = "term-formula";
    public static final String BINDING = "binding";
    public static final String BAD = "bad";
    public static final String REASONS = "reasons";

    /** Stylesheets in cascade order: tokens first, then base, then one per component. */
    public static final List<String> SHEETS = List.of("tokens.css", "app.css", "topbar.css", "overview.css",
            "detail.css", "inbox.css", "incidents.css");

    private Styles() {
    }

    /** The dark theme's background ({@code -hr-bg} in tokens.css): the scene's fill, so no frame is ever white. */
    public static final javafx.scene.paint.Color DARK_BACKGROUND = javafx.scene.paint.Color.web("#15181c");

    /**
     * Makes a new scene paint dark from its first frame: the fill behind the root, and the dark theme
     * on a root that has no theme yet. Call before the stage shows the scene.
     */
    public static void paintDark(Scene scene) {
        scene.setFill(DARK_BACKGROUND);
        var classes = scene.getRoot().getStyleClass();
        if (!classes.contains(THEME_DARK) && !classes.contains(THEME_LIGHT)) {
            classes.add(THEME_DARK);
        }
    }

    public static void install(Scene scene) {
        for (String sheet : SHEETS) {
            var url = Styles.class.getResource("/styles/" + sheet);
            if (url == null) {
                throw new IllegalStateException("stylesheet missing from the classpath: styles/" + sheet);
            }
            scene.getStylesheets().add(url.toExternalForm());
        }
    }

    /** Replaces any of {@code exclusive} on the node with {@code chosen} (null for none). */
    public static void toggle(Node node, List<String> exclusive, String chosen) {
        node.getStyleClass().removeAll(exclusive);
        if (chosen != null) {
            node.getStyleClass().add(chosen);
        }
    }
}
