package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.Styles;
import io.headroom.ui.shell.Commands.Command;
import io.headroom.ui.shell.Commands.Key;
import io.headroom.ui.shell.Commands.Section;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.layout.VBox;
import javafx.scene.text.Font;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: the key badges of the help and the palette tell the letter O from the digit 0. They were in the
 * monospace font, where O and 0 are drawn alike, the same width; they are in the UI font (the window's own,
 * {@link Styles#KEY_FONT}), where O is round and wide and 0 narrow.
 */
class KeyBadgeFontUiTest {
    Stage own;

    @AfterEach
    void close() throws Exception {
        if (own != null) {
            FxToolkit.setupFixture(own::close);
        }
    }

    @Test
    void theHelpsAndThePalettesKeyBadgesAreInTheUiFontWhereOAndZeroDiffer() throws Exception {
        FxToolkit.registerPrimaryStage();
        own = ConsoleWindow.onFx(Stage::new);
        Commands commands = new Commands().add(new Command("Approve with another value…", Section.PROPOSAL,
                Key.pressed(new KeyCodeCombination(KeyCode.O)), null, () -> { }));
        PaletteViewModel palette = new PaletteViewModel(commands::all);
        HelpOverlay help = new HelpOverlay(commands);
        FxToolkit.setupFixture(() -> {
            help.refresh();
            VBox root = new VBox(help, new CommandPalette(palette));
            root.getStyleClass().add(Styles.THEME_DARK);
            Scene scene = new Scene(root, 900, 700);
            Styles.install(scene);
            own.setScene(scene);
            own.show();
            palette.open();
        });
        WaitForAsyncUtils.waitForFxEvents();
        List<Font> badges = ConsoleWindow.onFx(() -> {
            own.getScene().getRoot().applyCss();
            own.getScene().getRoot().layout();
            return own.getScene().getRoot().lookupAll("." + HelpOverlay.KEY).stream()
                    .filter(n -> n instanceof Label l && "O".equals(l.getText())).map(n -> ((Label) n).getFont()).toList();
        });
        assertEquals(2, badges.size(), "the help's O and the palette's: " + badges);
        for (Font f : badges) {
            assertEquals(Styles.KEY_FONT, f.getFamily(), "the badge is in the font chosen for keys: " + f);
            double o = ConsoleWindow.onFx(() -> width("O", f));
            double zero = ConsoleWindow.onFx(() -> width("0", f));
            assertTrue(o > zero * 1.1, "O (" + o + " px) is wider than 0 (" + zero + " px) in " + f);
            assertFalse(f.getFamily().contains("Mono"), f.toString());
        }
    }

    private static double width(String s, Font f) {
        Text t = new Text(s);
        t.setFont(f);
        return t.getLayoutBounds().getWidth();
    }
}
