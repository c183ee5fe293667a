package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;

import io.headroom.ui.shell.EventListViewModel;
import io.headroom.ui.shell.MainView;
import io.headroom.ui.shell.MainViewModel;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the operator reads, gathered from a console and checked for Java's words (issue 26 item 5):
 * no exception class name ({@code ConnectException}) and no {@code java.} anywhere.
 */
public final class OperatorWords {
    /** An exception's class name, however it got there. */
    public static final Pattern CLASS_NAME = Pattern.compile("[A-Z][a-z]+Exception");
    /** A qualified Java name ({@code java.net.…}). */
    public static final Pattern JAVA = Pattern.compile("java\\.");

    private OperatorWords() {
    }

    /** Fails naming where the text was shown when it carries a class name or {@code java.}. */
    public static void assertPlain(String where, String text) {
        if (text == null) {
            return;
        }
        assertFalse(CLASS_NAME.matcher(text).find(), "a Java class name in " + where + ": " + text);
        assertFalse(JAVA.matcher(text).find(), "a Java name in " + where + ": " + text);
    }

    /** Every text the console's top bar, event strip, overview rows and class detail show now. FX thread. */
    public static List<String> shown(MainView view) {
        List<String> out = new ArrayList<>();
        MainViewModel m = view.viewModel();
        out.add("cluster: " + m.clusterDetailProperty().get());
        out.add("metrics: " + m.metricsDetailProperty().get());
        out.add("data: " + m.freshnessProperty().get() + " / " + m.freshnessDetailProperty().get());
        out.add("warning: " + m.warningProperty().get());
        out.add("blocked: " + m.blockedDetailProperty().get());
        for (EventListViewModel.ConsoleEvent e : view.eventsViewModel().events()) {
            out.add("event: " + e.text());
        }
        view.overviewViewModel().rows().forEach(r -> out.add("row " + r.name() + ": "
                + r.badgesProperty().get().fullText() + " / " + r.replicasNoteProperty().get()));
        view.detailViewModel().inputs().forEach(i -> out.add("input " + i.name() + ": " + i.status()));
        out.add("detail: " + view.detailViewModel().headlineProperty().get() + " / "
                + view.detailViewModel().explanationProperty().get() + " / "
                + view.detailViewModel().actuationProperty().get());
        return out;
    }

    /** {@link #assertPlain} on everything {@link #shown} lists. FX thread. */
    public static void assertAllPlain(MainView view) {
        for (String s : shown(view)) {
            assertPlain(s.substring(0, Math.max(0, s.indexOf(':'))), s);
        }
    }
}
