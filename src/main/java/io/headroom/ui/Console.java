package io.headroom.ui;

import javafx.application.Application;

/** The console's entry for the launcher ({@code io.headroom.Main}): opens the window and returns when it closes. */
public final class Console {
    private Console() {
    }

    /** @param options the console's options ({@code --speed=10 --config=F …}), already checked */
    public static void launch(String[] options) {
        StartupMarks.at("launch");
        ClassPathJavaFx.quiet(); // JavaFX from the class path, as tested: its warning about that says nothing to act on
        EarlyOpening.begin(options); // the session opens while the toolkit starts
        HeadroomApp.warmUpWhatIf = true; // the console warms the what-if once idle; tests' apps do not
        Application.launch(HeadroomApp.class, options);
        StartupMarks.exitIfAsked();
    }
}
