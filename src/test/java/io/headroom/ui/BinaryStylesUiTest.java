package io.headroom.ui;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javafx.css.CssMetaData;
import javafx.css.Styleable;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Control;
import javafx.scene.control.Label;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;

/**
 * The stylesheets' binary form (issue 28): the build compiles every {@code styles/*.css} to a {@code .bss} beside
 * it ({@link BinaryStyles}), JavaFX reads that instead of parsing the CSS, and the console looks the same. Two
 * scenes in one JVM style the same nodes: one from the class path's sheets (JavaFX takes their {@code .bss}), one
 * from copies of the CSS alone in a folder with no {@code .bss} (JavaFX parses them); every styleable property of
 * every node (colours looked up from the theme tokens, backgrounds, borders, fonts, padding) must be equal, in
 * both themes.
 */
class BinaryStylesUiTest {
    static final List<String> ALL_SHEETS = List.of("tokens.css", "app.css", "topbar.css", "overview.css",
            "detail.css", "inbox.css", "incidents.css", "journal.css", "whatif.css");
    static final Pattern CLASS = Pattern.compile("\\.([a-zA-Z][\\w-]*)");

    @Test
    void theBuildMadeABinaryOfEverySheet() throws IOException {
        assertTrue(ALL_SHEETS.containsAll(Styles.SHEETS), "the console's sheets are all listed here");
        for (String sheet : ALL_SHEETS) {
            URL css = Styles.class.getResource("/styles/" + sheet);
            URL bss = Styles.class.getResource("/styles/" + sheet.replace(".css", ".bss"));
            assertNotNull(css, sheet);
            assertNotNull(bss, "no binary of " + sheet + " beside it: mvn process-classes compiles them (BinaryStyles)");
            try (InputStream in = bss.openStream()) {
                assertTrue(in.readAllBytes().length > 0, sheet);
            }
        }
    }

    @Test
    void theBinarySheetsStyleEveryStyleClassAsTheCssDoes(@TempDir Path dir) throws Exception {
        FxToolkit.registerPrimaryStage();
        List<String> fromCss = new ArrayList<>();
        TreeSet<String> classes = new TreeSet<>();
        for (String sheet : ALL_SHEETS) {
            String text;
            try (InputStream in = Objects.requireNonNull(Styles.class.getResourceAsStream("/styles/" + sheet))) {
                text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Path copy = dir.resolve(sheet); // no .bss beside it: JavaFX parses this one
            Files.writeString(copy, text);
            fromCss.add(copy.toUri().toString());
            Matcher m = CLASS.matcher(text.replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("#[0-9a-fA-F]{3,8}", ""));
            while (m.find()) {
                classes.add(m.group(1));
            }
        }
        List<String> fromClassPath = ALL_SHEETS.stream()
                .map(s -> Objects.requireNonNull(Styles.class.getResource("/styles/" + s)).toExternalForm()).toList();
        for (String theme : List.of(Styles.THEME_DARK, Styles.THEME_LIGHT)) {
            List<String> differences = onFx(() -> {
                FlowPane binary = nodes(classes, theme, fromClassPath);
                FlowPane parsed = nodes(classes, theme, fromCss);
                List<String> out = new ArrayList<>();
                for (int i = 0; i < binary.getChildren().size(); i++) {
                    compare((Styleable) binary.getChildren().get(i), (Styleable) parsed.getChildren().get(i), out);
                }
                // The parsed side is styled at all: a themed text colour, not the default black.
                Label chip = (Label) parsed.getChildren().get(new ArrayList<>(classes).indexOf("muted") * 2);
                assertTrue(!Color.BLACK.equals(chip.getTextFill()), theme + ": the CSS was not applied");
                return out;
            });
            assertEquals(List.of(), differences.subList(0, Math.min(20, differences.size())), theme + ": the .bss styles differently from the .css");
        }
    }

    /** A label and a button per style class in the sheets, in a themed root of a scene with {@code sheets}. */
    private static FlowPane nodes(TreeSet<String> classes, String theme, List<String> sheets) {
        FlowPane root = new FlowPane();
        root.getStyleClass().add(theme);
        for (String c : classes) {
            Label l = new Label(c);
            l.getStyleClass().add(c);
            Button b = new Button(c);
            b.getStyleClass().add(c);
            root.getChildren().addAll(l, b);
        }
        Scene scene = new Scene(new VBox(root), 800, 600);
        scene.getStylesheets().setAll(sheets);
        root.applyCss();
        return root;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void compare(Styleable a, Styleable b, List<String> out) {
        List<CssMetaData<? extends Styleable, ?>> metas = a.getCssMetaData();
        for (CssMetaData meta : metas) {
            Object va = meta.getStyleableProperty(a) == null ? null : meta.getStyleableProperty(a).getValue();
            Object vb = meta.getStyleableProperty(b) == null ? null : meta.getStyleableProperty(b).getValue();
            if (!Objects.deepEquals(va, vb)) { // deep: a dash array is a Double[]
                out.add(a.getStyleClass() + " " + meta.getProperty() + ": bss " + java.util.Arrays.deepToString(
                        new Object[] {va}) + " vs css " + java.util.Arrays.deepToString(new Object[] {vb}));
            }
        }
        if (a instanceof Control ca && b instanceof Control cb && ca.getSkin() != null) {
            var ka = ca.getChildrenUnmodifiable();
            var kb = cb.getChildrenUnmodifiable();
            for (int i = 0; i < Math.min(ka.size(), kb.size()); i++) {
                compare(ka.get(i), kb.get(i), out);
            }
        }
    }
}
