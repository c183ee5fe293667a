package io.headroom.ui;

import java.util.logging.Filter;
import java.util.logging.Logger;

/**
 * The console runs JavaFX from the class path, as every test does, not from the module path: on Java 17 a
 * module option on the command line stops the JVM from mapping the module graph its archive holds, and
 * resolving it again cost 0.1 s of every start (docs/decisions/0031-javafx-on-the-class-path.md). JavaFX says so
 * at each start with a warning ("Unsupported JavaFX configuration: classes were loaded from 'unnamed
 * module …'"), which told an operator nothing they could act on. That one line is dropped; every other
 * JavaFX message (a stylesheet's, a pipeline's) is logged as before.
 */
final class ClassPathJavaFx {
    /** What JavaFX 21 says when its classes are in the unnamed module (PlatformImpl.startup). */
    static final String WARNING = "Unsupported JavaFX configuration: classes were loaded from 'unnamed module";

    /** JavaFX's own logger ("javafx"), held here: java.util.logging keeps only weak references to its loggers. */
    private static final Logger JAVAFX = Logger.getLogger("javafx");

    private ClassPathJavaFx() {
    }

    /** Drops the class-path warning from JavaFX's logger, keeping any filter it already has; once is enough. */
    static synchronized void quiet() {
        Filter before = JAVAFX.getFilter();
        if (before instanceof Quiet) {
            return;
        }
        JAVAFX.setFilter(new Quiet(before));
    }

    private record Quiet(Filter before) implements Filter {
        @Override
        public boolean isLoggable(java.util.logging.LogRecord r) {
            String m = r.getMessage();
            if (m != null && m.startsWith(WARNING)) {
                return false;
            }
            return before == null || before.isLoggable(r);
        }
    }
}
