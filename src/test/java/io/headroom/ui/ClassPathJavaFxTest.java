package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * JavaFX's warning that its classes came from the class path is dropped, and nothing else JavaFX logs: a
 * stylesheet's warning on the same logger, and any message on its children, still reach the log. (The whole
 * launcher, where the line was the only thing printed before "no screen", is {@code MissingDisplayTest}.)
 */
class ClassPathJavaFxTest {

    @Test
    void onlyTheClassPathWarningIsDropped() {
        Logger javafx = Logger.getLogger("javafx");
        Logger css = Logger.getLogger("javafx.css");
        List<String> seen = new ArrayList<>();
        Handler h = new Handler() {
            @Override
            public void publish(LogRecord r) {
                seen.add(r.getLoggerName() + ": " + r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        javafx.addHandler(h);
        try {
            ClassPathJavaFx.quiet();
            ClassPathJavaFx.quiet(); // twice: still one filter, the same behaviour
            // As JavaFX logs it: through the platform logger, System.Logger "javafx".
            System.getLogger("javafx").log(System.Logger.Level.WARNING,
                    "Unsupported JavaFX configuration: classes were loaded from 'unnamed module @2bb844b9'");
            System.getLogger("javafx").log(System.Logger.Level.WARNING,
                    "Unsupported JavaFX configuration: classes were loaded from 'module javafx.graphics'");
            css.warning("Could not resolve '-accent' while resolving lookups for '-fx-background-color'");
            javafx.warning("Loading FXML document with JavaFX API of version 22 by JavaFX runtime of version 21");
            assertEquals(List.of(
                    "javafx: Unsupported JavaFX configuration: classes were loaded from 'module javafx.graphics'",
                    "javafx.css: Could not resolve '-accent' while resolving lookups for '-fx-background-color'",
                    "javafx: Loading FXML document with JavaFX API of version 22 by JavaFX runtime of version 21"),
                    seen);
        } finally {
            javafx.removeHandler(h);
        }
    }
}
