package io.headroom.ui.chart;

import java.util.List;
import java.util.Objects;
import javafx.scene.paint.Color;

/**
 * The colours a {@link TimeChart} paints with; {@link #dark()} and {@link #light()} match the
 * app's two themes.
 *
 * <p>Both palettes keep the same hue order, so "series 2" is the same amber in either theme; the
 * dark palette is lighter and the light palette deeper, so lines keep their contrast against the
 * background.
 *
 * @param background plot and margin fill
 * @param grid grid lines and the hover box border
 * @param axisText tick labels, unit and legend text
 * @param titleText the chart title and hover box text
 * @param crosshair the hover line
 * @param palette series colours, used in order and repeated when there are more series
 */
public record ChartTheme(Color background, Color grid, Color axisText, Color titleText, Color crosshair,
        List<Color> palette) {

    public ChartTheme {
        Objects.requireNonNull(background, "background");
        Objects.requireNonNull(grid, "grid");
        Objects.requireNonNull(axisText, "axisText");
        Objects.requireNonNull(titleText, "titleText");
        Objects.requireNonNull(crosshair, "crosshair");
        palette = List.copyOf(palette);
        if (palette.isEmpty()) {
            throw new IllegalArgumentException("palette must not be empty");
        }
    }

    /** For the dark app theme. */
    public static ChartTheme dark() {
        return new ChartTheme(
                Color.web("#15181e"),
                Color.web("#272c35"),
                Color.web("#9aa3b1"),
                Color.web("#e4e7ec"),
                Color.web("#c5ccd6"),
                List.of(
                        Color.web("#5ea8ff"), // blue
                        Color.web("#f2b13c"), // amber
                        Color.web("#44c98b"), // green
                        Color.web("#f07068"), // red
                        Color.web("#b28cf5"), // violet
                        Color.web("#3cc3d0"), // cyan
                        Color.web("#e47db8"), // pink
                        Color.web("#b7c35a"))); // olive
    }

    /** For the light app theme. */
    public static ChartTheme light() {
        return new ChartTheme(
                Color.web("#ffffff"),
                Color.web("#e5e7eb"),
                Color.web("#5a6372"),
                Color.web("#1c222b"),
                Color.web("#4b5563"),
                List.of(
                        Color.web("#1f6ed4"),
                        Color.web("#b86a00"),
                        Color.web("#15874f"),
                        Color.web("#cf3a31"),
                        Color.web("#7446cc"),
                        Color.web("#0c8596"),
                        Color.web("#bf3d85"),
                        Color.web("#6b7a12")));
    }

    /** The palette colour for slot {@code i}, wrapping around. */
    public Color seriesColor(int i) {
        return palette.get(Math.floorMod(i, palette.size()));
    }
}
